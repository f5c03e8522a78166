package deployment_test

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"
	_ "unsafe" // go:linkname to the deployment controller's unexported rules

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	apiequality "k8s.io/apimachinery/pkg/api/equality"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	apimeta "k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/informers"
	clienttesting "k8s.io/client-go/testing"
	"k8s.io/client-go/tools/record"
	"k8s.io/client-go/util/workqueue"
	appsdefaults "k8s.io/kubernetes/pkg/apis/apps/v1"
	"k8s.io/kubernetes/pkg/controller"
	"k8s.io/kubernetes/pkg/controller/deployment"
	deploymentutil "k8s.io/kubernetes/pkg/controller/deployment/util"

	"github.com/kubesem/kubesem"
	"github.com/kubesem/kubesem/conformance"
	"github.com/kubesem/kubesem/conformance/upstream/internal/difftest"
	"github.com/kubesem/kubesem/plan"
	"github.com/kubesem/kubesem/podstatus"
	"github.com/kubesem/kubesem/replicaset"
	"github.com/kubesem/kubesem/rollout"
)

//go:linkname getPodMap k8s.io/kubernetes/pkg/controller/deployment.(*DeploymentController).getPodMapForDeployment
func getPodMap(dc *deployment.DeploymentController, d *appsv1.Deployment, rsList []*appsv1.ReplicaSet) (map[types.UID][]*corev1.Pod, error)

// vectorInput is a rollout.Step vector's input in upstream types; the
// Deployment's templateHash is kubesem's name for its template.
type vectorInput struct {
	Deployment struct {
		appsv1.Deployment
		TemplateHash string `json:"templateHash"`
	} `json:"deployment"`
	ReplicaSets []*appsv1.ReplicaSet `json:"replicaSets"`
	Pods        []*corev1.Pod        `json:"pods"`
	Now         time.Time            `json:"now"`
}

// TestRolloutStepVectorsUpstream replays every rollout.Step vector with a
// want through one syncDeployment of the v1.36.3 Deployment controller on
// informer caches and a fake API holding the same Deployment (apps/v1
// defaults, its template as given), ReplicaSets (as given: those without
// a controller are orphans the Deployment may adopt) and pods, its clocks
// set to the vector's now, and matches every key of the want upstream can
// report:
//
//   - adopt and release: the ReplicaSets the claim patches (an orphan
//     adopted, one the Deployment controls released), by name; an update
//     of a patched ReplicaSet is refused (Conflict, as the API server
//     answers a write from the stale cached copy): a stale scale;
//   - create: the ReplicaSet created (count, and the object: name, labels,
//     annotations, owner, spec; its creationTimestamp is now, its status
//     empty; blockOwnerDeletion, which kubesem does not model, left out);
//   - update and scale: the ReplicaSet updates, in order — an update that
//     changes neither spec.replicas nor the desired- and max-replicas
//     annotations is an update (the new ReplicaSet's revision sync), any
//     other a scale (from: the size before it); scale reasons name kubesem's
//     rules and are not compared;
//   - delete: the ReplicaSets deleted, in order (history cleanup: reason
//     HistoryLimit);
//   - status, updateStatus: the last UpdateStatus call, or the input status;
//     condition times upstream stamps with the wall clock during the sync
//     are the vector's now;
//   - annotations, template: the Deployment's after its writes (the
//     template when a rollback changes it);
//   - events: every event recorded, in order, with its type, reason and
//     message;
//   - requeue: the queue's AddAfter (ProgressDeadline), AddRateLimited
//     (ProgressDeadline, rate-limited) and, when the sync returns an error,
//     the rate-limited retry (HashCollision when the status written raised
//     collisionCount, SyncFailed otherwise);
//   - sizes: every ReplicaSet's spec.replicas after the writes;
//   - outcome: syncDeployment's dispatch on the same objects — Deleting
//     (deletionTimestamp), the error's class (above), Paused, Rollback
//     (getRollbackTo), ScalingEvent (isScalingEvent), Recreate or, when no
//     old ReplicaSet is scaled down and oldPodsRunning holds,
//     OldPodsRunning, else RollingUpdate.
//
// kubesem names the new ReplicaSet by the vector's templateHash where
// upstream computes ComputeHash: the ReplicaSet holding kubesem's name is
// renamed to upstream's before the sync, and upstream's hash is replaced by
// the vector's in everything it answers.
//
// With KUBESEM_WRITE_VECTORS=1 it writes the Plan keys a want leaves out
// (and the status fields it leaves out) from upstream's answer into the
// vector files; a scale of an old ReplicaSet in a rolling update is not
// filled (its reason, CleanupUnhealthy or ScaleDownOld, is kubesem's).
func TestRolloutStepVectorsUpstream(t *testing.T) {
	vs, err := conformance.Load(kubesem.Vectors())
	if err != nil {
		t.Fatal(err)
	}
	defer func() { difftest.DeploymentNowFn, difftest.DeploymentUtilNowFn = time.Now, time.Now }()
	order := difftest.PlanKeysOf(reflect.TypeFor[rollout.Plan]())
	order = append(order, "sizes")
	fills := map[string]map[string]map[string]any{} // file → vector → key → value
	n := 0
	for _, v := range vs {
		if v.Decision != "rollout.Step" || v.Want == nil {
			continue
		}
		if len(v.Options) > 0 {
			t.Errorf("%s: options are not replayed", v.Name)
			continue
		}
		var in vectorInput
		if err := json.Unmarshal(v.Input, &in); err != nil {
			t.Errorf("%s: input: %v", v.Name, err)
			continue
		}
		got, rolling := replay(t, &in, v.Input)
		var want map[string]any
		if err := json.Unmarshal(v.Want, &want); err != nil {
			t.Fatal(err)
		}
		compared := maps.Clone(want)
		if sc, ok := compared["scale"].([]any); ok {
			var pruned []any
			for _, x := range sc {
				m := maps.Clone(x.(map[string]any))
				delete(m, "reason")
				pruned = append(pruned, m)
			}
			compared["scale"] = orEmptyAny(pruned)
		}
		wb, _ := json.Marshal(compared)
		gb, _ := json.Marshal(got)
		if ok, why := conformance.Match(wb, gb); !ok {
			t.Errorf("%s (%s): upstream differs: %s\nupstream: %s", v.Name, v.Source, why, gb)
			continue
		}
		fill := map[string]any{}
		if merged, ok := difftest.CompleteObject(want["status"], got["status"]); ok {
			fill["status"] = merged
		}
		for _, k := range difftest.OptionalKeys(order) {
			if _, ok := want[k]; !ok && got[k] != nil {
				fill[k] = got[k]
			}
		}
		for _, k := range difftest.RequiredKeys(order) {
			if _, ok := want[k]; ok {
				continue
			}
			if k == "scale" && rolling {
				t.Errorf("%s: want leaves out scale and upstream scales an old ReplicaSet in a rolling update: its reason is not upstream's to give", v.Name)
				continue
			}
			fill[k] = got[k]
		}
		if len(fill) > 0 {
			if fills[v.File] == nil {
				fills[v.File] = map[string]map[string]any{}
			}
			fills[v.File][v.Name] = fill
		}
		n++
	}
	if n < 21 {
		t.Fatalf("replayed %d rollout.Step vectors; want every one with a want (>= 21)", n)
	}
	t.Logf("%d rollout.Step vectors replayed against upstream; %d files have vectors that leave out Plan keys", n, len(fills))
	if os.Getenv(difftest.WriteVectorsEnv) == "1" && !t.Failed() {
		for file, f := range fills {
			difftest.WriteFills(t, difftest.Repo("testdata", file), "rollout.Step", f, order,
				map[string][]string{"status": difftest.PlanKeysOf(reflect.TypeFor[rollout.Status]())}, "TestRolloutStepVectorsUpstream")
		}
	}
}

func orEmptyAny(l []any) []any {
	if l == nil {
		return []any{}
	}
	return l
}

// replay runs one upstream syncDeployment on the vector's state and
// renders what it did in the shape of the rollout.Step decision. rolling
// reports a scale of an old ReplicaSet in a rolling update.
func replay(t *testing.T, in *vectorInput, raw json.RawMessage) (out map[string]any, rolling bool) {
	ctx := context.Background()
	now := in.Now
	d := in.Deployment.Deployment.DeepCopy()
	namespace := d.Namespace
	tmpl := d.Spec.Template.DeepCopy()
	appsdefaults.SetObjectDefaults_Deployment(d)
	d.Spec.Template = *tmpl
	if d.Namespace == "" {
		d.Namespace = "default"
	}
	// kubesem's name for the new ReplicaSet, and upstream's.
	vecHash, realHash := in.Deployment.TemplateHash, controller.ComputeHash(&d.Spec.Template, d.Status.CollisionCount)
	rename := vecHash != "" && vecHash != realHash
	upName := func(name string) string {
		if rename && name == d.Name+"-"+vecHash {
			return d.Name + "-" + realHash
		}
		return name
	}
	var rss []*appsv1.ReplicaSet
	before := map[string]*appsv1.ReplicaSet{}
	for _, rs := range in.ReplicaSets {
		rs = rs.DeepCopy()
		rtmpl := rs.Spec.Template.DeepCopy()
		appsdefaults.SetObjectDefaults_ReplicaSet(rs)
		rs.Spec.Template = *rtmpl
		if rs.Namespace == "" {
			rs.Namespace = d.Namespace
		}
		rs.Name = upName(rs.Name)
		rss = append(rss, rs)
		before[rs.Name] = rs
	}

	_, c := newController()
	inf := informers.NewSharedInformerFactory(c, 0)
	dc, err := deployment.NewDeploymentController(ctx, inf.Apps().V1().Deployments(), inf.Apps().V1().ReplicaSets(), inf.Core().V1().Pods(), c)
	if err != nil {
		t.Fatal(err)
	}
	difftest.Stop(dc) // its queue and recorder are replaced below; the sync uses neither original
	rec := record.NewFakeRecorder(100)
	setField(dc, "eventRecorder", record.EventRecorder(rec))
	q := &difftest.QueueRecorder{}
	setField(dc, "queue", workqueue.TypedRateLimitingInterface[string](q))
	rsIndexer := inf.Apps().V1().ReplicaSets().Informer().GetIndexer()
	failed := map[string]int{}
	c.PrependReactor("create", "replicasets", func(a clienttesting.Action) (bool, runtime.Object, error) {
		rs := a.(clienttesting.CreateAction).GetObject().(*appsv1.ReplicaSet)
		if _, exists, _ := rsIndexer.GetByKey(rs.Namespace + "/" + rs.Name); exists {
			failed[rs.Name]++
			return true, nil, apierrors.NewAlreadyExists(appsv1.Resource("replicasets"), rs.Name)
		}
		return true, rs, nil
	})
	patched := claimReactors(c, d)
	if err := inf.Apps().V1().Deployments().Informer().GetIndexer().Add(d); err != nil {
		t.Fatal(err)
	}
	for _, rs := range rss {
		if err := rsIndexer.Add(rs); err != nil {
			t.Fatal(err)
		}
	}
	for _, p := range in.Pods {
		p = p.DeepCopy()
		if p.Namespace == "" {
			p.Namespace = d.Namespace
		}
		for i := range p.OwnerReferences {
			p.OwnerReferences[i].Name = upName(p.OwnerReferences[i].Name)
		}
		if err := inf.Core().V1().Pods().Informer().GetIndexer().Add(p); err != nil {
			t.Fatal(err)
		}
	}

	// The dispatch's facts, on the objects the sync starts from: the
	// ReplicaSets upstream's claim keeps (its own ClaimReplicaSets, with
	// patches that change nothing).
	sel, err := metav1.LabelSelectorAsSelector(d.Spec.Selector)
	if err != nil {
		t.Fatal(err)
	}
	rss, err = controller.NewReplicaSetControllerRefManager(noPatches{}, d, sel, appsv1.SchemeGroupVersion.WithKind("Deployment"),
		func(context.Context) error { return nil }).ClaimReplicaSets(ctx, rss)
	if err != nil {
		t.Fatal(err)
	}
	podMap, err := getPodMap(dc, d, rss)
	if err != nil {
		t.Fatal(err)
	}
	scalingDC, _ := newController()
	scaling, _ := isScalingEvent(scalingDC, ctx, d.DeepCopy(), rss)
	newRS := deploymentutil.FindNewReplicaSet(d, rss)
	_, oldRSs := deploymentutil.FindOldReplicaSets(d, rss)
	oldRunning := oldPodsRunning(newRS, oldRSs, podMap)

	difftest.DeploymentNowFn = func() time.Time { return now }
	difftest.DeploymentUtilNowFn = difftest.DeploymentNowFn
	c.ClearActions()
	wall0 := time.Now().Truncate(time.Second)
	syncErr := syncDeployment(dc, ctx, d.Namespace+"/"+d.Name)
	wall1 := time.Now()
	difftest.DeploymentNowFn, difftest.DeploymentUtilNowFn = time.Now, time.Now
	lines := drain(rec)
	if why := checkWrites(raw, c.Actions(), lines, func(n string) bool { _, ok := before[n]; return ok }, func(s string) string {
		if rename {
			return strings.ReplaceAll(s, realHash, vecHash)
		}
		return s
	}); why != "" {
		t.Errorf("%s", why)
	}
	stamp := func(tm metav1.Time) *metav1.Time {
		if !tm.Before(&metav1.Time{Time: wall0}) && !tm.After(wall1) {
			return &metav1.Time{Time: now}
		}
		return &tm
	}

	out = map[string]any{}
	sizes := map[string]int32{}
	for name, rs := range before {
		sizes[name] = *rs.Spec.Replicas
	}
	current := maps.Clone(before)
	created := []any{}
	updates, scales, deletes := []any{}, []any{}, []any{}
	var adopts, releases []any
	status, statusWritten := d.Status, false
	ann := d.Annotations
	var template *corev1.PodTemplateSpec
	for _, a := range c.Actions() {
		switch a.GetVerb() {
		case "create":
			rs, ok := a.(clienttesting.CreateAction).GetObject().(*appsv1.ReplicaSet)
			if !ok {
				continue
			}
			if failed[rs.Name] > 0 {
				failed[rs.Name]--
				continue
			}
			created = append(created, createdJSON(rs, now, namespace))
			current[rs.Name], sizes[rs.Name] = rs, *rs.Spec.Replicas
		case "update":
			switch o := a.(clienttesting.UpdateAction).GetObject().(type) {
			case *appsv1.ReplicaSet:
				prev := current[o.Name]
				if patched[o.Name] {
					// refused (Conflict): a stale resize
					scales = append(scales, map[string]any{"name": o.Name, "from": *prev.Spec.Replicas, "replicas": *o.Spec.Replicas, "annotations": o.Annotations, "stale": true})
					continue
				}
				from := *prev.Spec.Replicas
				annKeys := []string{deploymentutil.DesiredReplicasAnnotation, deploymentutil.MaxReplicasAnnotation}
				scaled := from != *o.Spec.Replicas || slices.ContainsFunc(annKeys, func(k string) bool { return prev.Annotations[k] != o.Annotations[k] })
				if scaled {
					scales = append(scales, map[string]any{"name": o.Name, "from": from, "replicas": *o.Spec.Replicas, "annotations": o.Annotations})
					if newRS == nil || o.Name != newRS.Name {
						rolling = rolling || d.Spec.Strategy.Type == appsv1.RollingUpdateDeploymentStrategyType
					}
				} else {
					updates = append(updates, map[string]any{"name": o.Name, "reason": string(rollout.ReasonSyncRevision), "replicas": *o.Spec.Replicas,
						"annotations": o.Annotations, "minReadySeconds": o.Spec.MinReadySeconds})
				}
				current[o.Name], sizes[o.Name] = o, *o.Spec.Replicas
			case *appsv1.Deployment:
				ann = o.Annotations
				if a.GetSubresource() == "status" {
					status, statusWritten = o.Status, true
				} else {
					tp := o.Spec.Template
					template = &tp
				}
			}
		case "patch":
			// the claim's: an adoption of an orphan, a release of a
			// ReplicaSet the Deployment controls
			name := a.(clienttesting.PatchAction).GetName()
			rs := current[name]
			if rs == nil {
				t.Errorf("upstream patched %s, which is not in the input", name)
				continue
			}
			m := map[string]any{"name": name, "uid": string(rs.UID)}
			if metav1.GetControllerOf(rs) == nil {
				m["reason"] = string(rollout.ReasonOrphanSelected)
				adopts = append(adopts, m)
			} else {
				m["reason"] = string(rollout.ReasonSelectorMismatch)
				releases = append(releases, m)
			}
		case "delete":
			name := a.(clienttesting.DeleteAction).GetName()
			m := map[string]any{"name": name, "reason": string(rollout.ReasonHistoryLimit)}
			if rs := current[name]; rs != nil && rs.UID != "" {
				m["uid"] = string(rs.UID)
			}
			deletes = append(deletes, m)
			delete(sizes, name)
		}
	}

	// Outcome and requeue.
	collision := status.CollisionCount != nil && (d.Status.CollisionCount == nil || *status.CollisionCount > *d.Status.CollisionCount)
	var outcome rollout.Reason
	switch {
	case d.DeletionTimestamp != nil:
		outcome = rollout.ReasonDeleting
	case syncErr != nil && collision:
		outcome = rollout.ReasonHashCollision
	case syncErr != nil:
		outcome = rollout.ReasonSyncFailed
	case d.Spec.Paused:
		outcome = rollout.ReasonPaused
	case getRollbackTo(d) != nil:
		outcome = rollout.ReasonRollback
	case scaling:
		outcome = rollout.ReasonScalingEvent
	case d.Spec.Strategy.Type == appsv1.RecreateDeploymentStrategyType:
		outcome = rollout.ReasonRecreate
		scaledOld := slices.ContainsFunc(scales, func(x any) bool { return newRS == nil || x.(map[string]any)["name"] != newRS.Name })
		if !scaledOld && oldRunning {
			outcome = rollout.ReasonOldPodsRunning
		}
	default:
		outcome = rollout.ReasonRollingUpdate
	}
	requeue := []any{}
	for _, after := range q.After {
		requeue = append(requeue, map[string]any{"after": after.String(), "reason": string(rollout.ReasonProgressDeadline)})
	}
	for range q.RateLimited {
		requeue = append(requeue, map[string]any{"after": "0s", "reason": string(rollout.ReasonProgressDeadline), "rateLimited": true})
	}
	if syncErr != nil {
		requeue = append(requeue, map[string]any{"after": "0s", "reason": string(outcome), "rateLimited": true})
	}
	if q.Added > 0 {
		t.Errorf("upstream enqueued %d times without delay: not in the Plan's vocabulary", q.Added)
	}

	events := []any{}
	for _, e := range lines {
		typ, rest, _ := strings.Cut(e, " ")
		reason, msg, _ := strings.Cut(rest, " ")
		ev := map[string]any{"type": typ, "reason": reason}
		if msg != "" {
			ev["message"] = msg
		}
		events = append(events, ev)
	}

	create := map[string]any{"count": len(created)}
	if len(created) > 0 {
		create["reason"], create["objects"] = string(rollout.ReasonCreateNew), created
	}
	out["outcome"] = string(outcome)
	out["create"] = create
	out["update"], out["scale"], out["delete"] = updates, scales, deletes
	// upstream claims in its informer's order; the Plan lists by name
	byName := func(a, b any) int {
		return strings.Compare(a.(map[string]any)["name"].(string), b.(map[string]any)["name"].(string))
	}
	if len(adopts) > 0 {
		slices.SortFunc(adopts, byName)
		out["adopt"] = adopts
	}
	if len(releases) > 0 {
		slices.SortFunc(releases, byName)
		out["release"] = releases
	}
	out["status"] = statusJSON(status, stamp)
	out["updateStatus"] = statusWritten
	if !maps.Equal(ann, d.Annotations) {
		out["annotations"] = ann
	}
	if template != nil && !apiequality.Semantic.DeepEqual(*template, d.Spec.Template) {
		var m map[string]any
		b, _ := json.Marshal(template)
		json.Unmarshal(b, &m)
		out["template"] = dropUnset(m)
	}
	out["events"] = events
	out["requeue"] = requeue
	out["sizes"] = sizes
	if !rename {
		return out, rolling
	}
	// Upstream's hash is the vector's templateHash.
	b, err := json.Marshal(out)
	if err != nil {
		t.Fatal(err)
	}
	back := map[string]any{}
	if err := json.Unmarshal([]byte(strings.ReplaceAll(string(b), realHash, vecHash)), &back); err != nil {
		t.Fatal(err)
	}
	return back, rolling
}

// createdJSON renders a created ReplicaSet as the decision writes it: the
// API server stamps it with now; it has no status yet; the namespace is
// the vector's; unset fields are left out; owner references without
// blockOwnerDeletion, which the
// decision's model does not have (upstream sets it to true).
func createdJSON(rs *appsv1.ReplicaSet, now time.Time, namespace string) map[string]any {
	c := rs.DeepCopy()
	c.Namespace = namespace
	c.CreationTimestamp = metav1.Time{Time: now}
	var m map[string]any
	b, _ := json.Marshal(c)
	json.Unmarshal(b, &m)
	m = dropUnset(m).(map[string]any)
	m["status"] = difftest.ReplicaSetStatus(appsv1.ReplicaSetStatus{})
	// kubesem's owner references do not model blockOwnerDeletion, which
	// upstream's controller reference sets.
	meta := m["metadata"].(map[string]any)
	refs, _ := meta["ownerReferences"].([]any)
	for _, r := range refs {
		delete(r.(map[string]any), "blockOwnerDeletion")
	}
	return m
}

// dropUnset removes the empty objects and nulls the API's JSON writes for
// unset fields ("resources": {}, "creationTimestamp": null).
func dropUnset(v any) any {
	switch x := v.(type) {
	case map[string]any:
		out := map[string]any{}
		for k, e := range x {
			e = dropUnset(e)
			if m, ok := e.(map[string]any); (ok && len(m) == 0) || e == nil {
				continue
			}
			out[k] = e
		}
		return out
	case []any:
		for i := range x {
			x[i] = dropUnset(x[i])
		}
	}
	return v
}

// statusJSON renders a Deployment status as the rollout.Step decision
// writes it; stamp maps a condition time.
func statusJSON(s appsv1.DeploymentStatus, stamp func(metav1.Time) *metav1.Time) map[string]any {
	out := map[string]any{"replicas": s.Replicas, "updatedReplicas": s.UpdatedReplicas, "readyReplicas": s.ReadyReplicas,
		"availableReplicas": s.AvailableReplicas, "unavailableReplicas": s.UnavailableReplicas}
	if s.ObservedGeneration != 0 {
		out["observedGeneration"] = s.ObservedGeneration
	}
	if s.TerminatingReplicas != nil {
		out["terminatingReplicas"] = *s.TerminatingReplicas
	}
	if s.CollisionCount != nil {
		out["collisionCount"] = *s.CollisionCount
	}
	if len(s.Conditions) > 0 {
		var conds []map[string]any
		for _, c := range s.Conditions {
			conds = append(conds, difftest.VectorCondition(string(c.Type), string(c.Status), nil, stamp(c.LastUpdateTime), stamp(c.LastTransitionTime), c.Reason, c.Message))
		}
		out["conditions"] = conds
	}
	return out
}

// checkWrites runs rollout.Step on a vector's input (raw) and compares
// its Plan's Writes and Events with upstream's requests and event lines.
func checkWrites(raw json.RawMessage, actions []clienttesting.Action, lines []string, rejected func(string) bool, name func(string) string) string {
	var in struct {
		Deployment  *rollout.Deployment      `json:"deployment"`
		ReplicaSets []*replicaset.ReplicaSet `json:"replicaSets"`
		Pods        []*podstatus.Pod         `json:"pods"`
		Now         time.Time                `json:"now"`
	}
	if err := json.Unmarshal(raw, &in); err != nil {
		return err.Error()
	}
	p, err := rollout.Step(in.Deployment, in.ReplicaSets, in.Pods, in.Now, rollout.Options{})
	if err != nil {
		return "Step: " + err.Error()
	}
	ws, err := p.Writes(in.Deployment, in.ReplicaSets, in.Pods, in.Now)
	if err != nil {
		return "Writes: " + err.Error()
	}
	if why := compareWrites(ws, actions, rejected, name); why != "" {
		return "Plan.Writes differs from upstream's requests: " + why
	}
	if why := compareEvents(p.Events, lines, name); why != "" {
		return "Plan.Events differ from upstream's: " + why
	}
	return ""
}

// compareWrites compares rollout.Plan.Writes ws with the requests
// upstream sent (actions; get, list and watch ignored, the claim's leading
// patches put in name order, and a create of a
// ReplicaSet whose name rejected reports true left out, as the fake API
// rejected it): the same verb, resource, subresource and name in the same
// order (upstream names through name, which maps its hash to the
// vector's), and for each ReplicaSet write the same spec.replicas,
// minReadySeconds and annotations. "" when they agree.
func compareWrites(ws []plan.Write, actions []clienttesting.Action, rejected func(string) bool, name func(string) string) string {
	type req struct {
		key string
		rs  *appsv1.ReplicaSet
	}
	var up []req
	for _, a := range actions {
		var n string
		var rs *appsv1.ReplicaSet
		switch a.GetVerb() {
		case "create", "update":
			o := a.(clienttesting.CreateAction).GetObject()
			m, _ := apimeta.Accessor(o)
			n = m.GetName()
			rs, _ = o.(*appsv1.ReplicaSet)
			if a.GetVerb() == "create" && rejected(n) {
				continue
			}
		case "delete":
			n = a.(clienttesting.DeleteAction).GetName()
		case "patch":
			n = a.(clienttesting.PatchAction).GetName()
		default:
			continue
		}
		up = append(up, req{a.GetVerb() + " " + a.GetResource().Resource + "/" + a.GetSubresource() + " " + name(n), rs})
	}
	// The claim patches in the informer's order, which is arbitrary; the
	// Plan by name.
	claims := 0
	for claims < len(up) && strings.HasPrefix(up[claims].key, "patch replicasets/ ") {
		claims++
	}
	slices.SortStableFunc(up[:claims], func(a, b req) int { return strings.Compare(a.key, b.key) })
	var got, want []string
	for _, w := range ws {
		got = append(got, string(w.Verb)+" "+w.Resource+"/"+w.Subresource+" "+w.Name)
	}
	for _, u := range up {
		want = append(want, u.key)
	}
	if !slices.Equal(got, want) {
		return fmt.Sprintf("requests\n  %s\nupstream\n  %s", strings.Join(got, "\n  "), strings.Join(want, "\n  "))
	}
	for i, w := range ws {
		g, ok := w.Object.(*replicaset.ReplicaSet)
		if !ok || up[i].rs == nil {
			continue
		}
		u := up[i].rs
		ann := map[string]string{}
		for k, v := range u.Annotations {
			ann[k] = name(v)
		}
		if g.Replicas() != *u.Spec.Replicas || g.Spec.MinReadySeconds != u.Spec.MinReadySeconds || !maps.Equal(g.Annotations, ann) {
			return fmt.Sprintf("request %d (%s): replicas %d, minReadySeconds %d, annotations %v; upstream %d, %d, %v",
				i, got[i], g.Replicas(), g.Spec.MinReadySeconds, g.Annotations, *u.Spec.Replicas, u.Spec.MinReadySeconds, ann)
		}
	}
	return ""
}

// drain returns the lines rec received.
func drain(rec *record.FakeRecorder) []string {
	var out []string
	for len(rec.Events) > 0 {
		out = append(out, <-rec.Events)
	}
	return out
}

// compareEvents compares Plan.Events with the lines a FakeRecorder
// received (upstream's hash mapped through name).
func compareEvents(events []plan.Event, lines []string, name func(string) string) string {
	var got, want []string
	for _, e := range events {
		got = append(got, strings.TrimSpace(string(e.Type)+" "+string(e.Reason)+" "+e.Message))
	}
	for _, l := range lines {
		want = append(want, name(l))
	}
	if !slices.Equal(got, want) {
		return fmt.Sprintf("events\n  %s\nupstream\n  %s", strings.Join(got, "\n  "), strings.Join(want, "\n  "))
	}
	return ""
}

// noPatches is an RSControlInterface whose patches do nothing (upstream's
// claim run for its answer alone).
type noPatches struct{}

func (noPatches) PatchReplicaSet(context.Context, string, string, []byte) error { return nil }
