package replicaset_test

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
	"unsafe"

	apps "k8s.io/api/apps/v1"
	v1 "k8s.io/api/core/v1"
	apiequality "k8s.io/apimachinery/pkg/api/equality"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/strategicpatch"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes/fake"
	clienttesting "k8s.io/client-go/testing"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/tools/record"
	"k8s.io/client-go/util/workqueue"
	appsdefaults "k8s.io/kubernetes/pkg/apis/apps/v1"
	coredefaults "k8s.io/kubernetes/pkg/apis/core/v1"
	"k8s.io/kubernetes/pkg/controller"
	upstreamrs "k8s.io/kubernetes/pkg/controller/replicaset"
	"k8s.io/kubernetes/pkg/controller/replication"
	clocktesting "k8s.io/utils/clock/testing"

	"github.com/kubesem/kubesem"
	"github.com/kubesem/kubesem/conformance"
	"github.com/kubesem/kubesem/conformance/upstream/internal/difftest"
	"github.com/kubesem/kubesem/k8s"
	"github.com/kubesem/kubesem/plan"
	"github.com/kubesem/kubesem/podstatus"
	"github.com/kubesem/kubesem/replicaset"
)

// vectorInput is a replicaset.Step vector's input in upstream types.
type vectorInput struct {
	ReplicaSet  apps.ReplicaSet `json:"replicaSet"`
	Pods        []*v1.Pod       `json:"pods"`
	RelatedPods []*v1.Pod       `json:"relatedPods"`
	Now         time.Time       `json:"now"`
	// burst, when not 0, is the controller's burstReplicas (default
	// upstreamrs.BurstReplicas).
	burst int
}

// TestReplicaSetStepVectorsUpstream replays every replicaset.Step vector
// with a want through one syncReplicaSet of the v1.36.3 ReplicaSet
// controller (the ReplicationManager for kind ReplicationController) on
// fakes, and matches every key of the want upstream can report:
//
//   - create: the pods handed to the pod control (count);
//   - delete: the pods deleted — v1.36.3 deletes concurrently and ranks
//     with an unstable sort, so the want's first deleteSure pods must be
//     deleted and the others must be among deleteTied (or be exactly the
//     want's when it names none);
//   - adopt, release: the controller-reference patches (by pod UID);
//   - status, updateStatus: the UpdateStatus call, or the input status;
//   - requeue: the queue's AddAfter calls;
//   - outcome: BeingDeleted when the ReplicaSet has a deletion timestamp
//     (syncReplicaSet then skips manageReplicas), Synced otherwise.
//
// Reasons follow from the write: TooFewReplicas for creations,
// TooManyReplicas for deletions, OrphanSelected for adoptions,
// SelectorMismatch for releases; a requeue is AvailabilityCheck when
// upstream's FindMinNextPodAvailabilityCheck finds a pod's next check,
// MinReadySeconds otherwise. batches (the slow-start split) is not
// observable through a pod control whose creations all succeed; it is
// checked by TestReplicaSetSlowStartDifferential.
//
// With KUBESEM_WRITE_VECTORS=1 it writes the keys of the whole Plan a want
// leaves out (and the status fields it leaves out) from upstream's answer
// into the vector's file (step.json, and the check-*.json files of
// kubesem check --vectors), except a non-empty delete, whose order
// upstream does not fix.
func TestReplicaSetStepVectorsUpstream(t *testing.T) {
	vs, err := conformance.Load(kubesem.Vectors())
	if err != nil {
		t.Fatal(err)
	}
	fills := map[string]map[string]map[string]any{} // file → vector → key → value
	n := 0
	for _, v := range vs {
		if v.Decision != "replicaset.Step" || v.Want == nil {
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
		got, deleted, up := replayFull(t, &in)
		var want map[string]any
		if err := json.Unmarshal(v.Want, &want); err != nil {
			t.Fatal(err)
		}
		why := checkDeletes(want, deleted, in.Pods)
		if why != "" {
			t.Errorf("%s: %s", v.Name, why)
		}
		// The events: upstream deletes concurrently, so its SuccessfulDelete
		// events come in no set order; they name the pods it deleted, and
		// are given in the order of the want's delete when that agrees.
		order := deleted
		if wd, ok := want["delete"].([]any); ok && why == "" {
			order = nil
			for _, w := range wd {
				order = append(order, w.(map[string]any)["name"].(string))
			}
		}
		events, problem := events(up.events, deleted, order)
		if problem != "" {
			t.Errorf("%s: upstream events: %s", v.Name, problem)
		}
		got["events"] = events
		if problem := checkWrites(v.Input, up); problem != "" {
			t.Errorf("%s (%s): Plan.Writes differs from upstream's requests: %s", v.Name, v.Source, problem)
		}
		compared := maps.Clone(want)
		for _, k := range []string{"batches", "delete", "deleteSure", "deleteTied"} {
			delete(compared, k)
		}
		wb, _ := json.Marshal(compared)
		gb, _ := json.Marshal(got)
		if ok, why := conformance.Match(wb, gb); !ok {
			t.Errorf("%s (%s): upstream differs: %s\nupstream: %s", v.Name, v.Source, why, gb)
		}
		fill := map[string]any{}
		if merged, ok := difftest.CompleteObject(want["status"], got["status"]); ok {
			fill["status"] = merged
		}
		for _, k := range difftest.OptionalKeys(difftest.PlanKeysOf(reflect.TypeFor[replicaset.Plan]())) {
			if l, ok := got[k].([]map[string]any); ok && len(l) > 0 && want[k] == nil {
				fill[k] = l
			}
		}
		for _, k := range difftest.RequiredKeys(difftest.PlanKeysOf(reflect.TypeFor[replicaset.Plan]())) {
			if _, ok := want[k]; ok {
				continue
			}
			switch {
			case (k == "delete" || k == "deleteSure") && len(deleted) > 0:
				t.Errorf("%s: want leaves out %s and upstream deletes %v: the order is not upstream's to give", v.Name, k, deleted)
			case k == "delete":
				fill[k] = []any{}
			case k == "deleteSure":
				fill[k] = 0
			default:
				fill[k] = got[k]
			}
		}
		if len(fill) > 0 {
			if fills[v.File] == nil {
				fills[v.File] = map[string]map[string]any{}
			}
			fills[v.File][v.Name] = fill
		}
		n++
	}
	if n < 15 {
		t.Fatalf("replayed %d replicaset.Step vectors; want every one with a want (>= 15)", n)
	}
	t.Logf("%d replicaset.Step vectors replayed against upstream; %d files have vectors that leave out Plan keys", n, len(fills))
	if os.Getenv(difftest.WriteVectorsEnv) == "1" && !t.Failed() {
		for file, f := range fills {
			difftest.WriteFills(t, difftest.Repo("testdata", file), "replicaset.Step", f,
				difftest.PlanKeysOf(reflect.TypeFor[replicaset.Plan]()), map[string][]string{"status": difftest.PlanKeysOf(reflect.TypeFor[replicaset.Status]())},
				"TestReplicaSetStepVectorsUpstream")
		}
	}
}

// syncReplicaSet is the controller's sync, called on rsc itself: the
// ReplicationManager holds a copy of the controller its constructor built,
// whose syncHandler is bound to the original.
//
//go:linkname syncReplicaSet k8s.io/kubernetes/pkg/controller/replicaset.(*ReplicaSetController).syncReplicaSet
func syncReplicaSet(rsc *upstreamrs.ReplicaSetController, ctx context.Context, key string) error

// setField sets the unexported field name of the struct obj points to.
func setField(obj any, name string, v any) {
	f := reflect.ValueOf(obj).Elem().FieldByName(name)
	reflect.NewAt(f.Type(), unsafe.Pointer(f.UnsafeAddr())).Elem().Set(reflect.ValueOf(v))
}

const relatedLabel = "kubesem.test/related"

// runUpstream is what one upstream sync did beyond the decision's shape:
// the writes it sent to the fake API (get, list and watch left out), the
// pods it created (named as the fake API server named them), each patched
// pod as its strategic merge patch leaves it, and the events the pod
// control recorded.
type runUpstream struct {
	writes  []clienttesting.Action
	created []*v1.Pod
	after   map[string]*v1.Pod // pod name → pod after upstream's patch
	events  []string           // "type reason message", in order
}

// replay runs one upstream sync on the vector's state and renders what
// it did in the shape of the replicaset.Step decision, with the names of
// the pods it deleted.
func replay(t *testing.T, in *vectorInput) (map[string]any, []string) {
	out, deleted, _ := replayFull(t, in)
	return out, deleted
}

// replayFull is replay with the writes and events of the sync. The
// pod control is v1.36.3's RealPodControl on the fake clientset, with a
// fake event recorder; the fake API server names created pods from their
// generateName. The ReplicaSet (or ReplicationController, API
// defaults applied) is in the informer cache and the fake API; the pods
// in the pod cache; relatedPods, when the ReplicaSet has a controller,
// under a sibling ReplicaSet of that controller (which is how upstream
// finds them).
func replayFull(t *testing.T, in *vectorInput) (map[string]any, []string, runUpstream) {
	ctx := context.Background()
	rs := in.ReplicaSet.DeepCopy()
	rc := rs.Kind == replicaset.KindReplicationController
	rs.Kind = ""
	var client *fake.Clientset
	var inf informers.SharedInformerFactory
	var rsc *upstreamrs.ReplicaSetController
	var statusOf func(clienttesting.Action) (map[string]any, bool)
	if rc {
		urc := &v1.ReplicationController{ObjectMeta: rs.ObjectMeta, Spec: v1.ReplicationControllerSpec{
			Replicas: rs.Spec.Replicas, MinReadySeconds: rs.Spec.MinReadySeconds, Template: rs.Spec.Template.DeepCopy()}}
		if rs.Spec.Selector != nil {
			urc.Spec.Selector = rs.Spec.Selector.MatchLabels
		}
		urc.Status = v1.ReplicationControllerStatus{Replicas: rs.Status.Replicas, FullyLabeledReplicas: rs.Status.FullyLabeledReplicas,
			ReadyReplicas: rs.Status.ReadyReplicas, AvailableReplicas: rs.Status.AvailableReplicas, ObservedGeneration: rs.Status.ObservedGeneration}
		coredefaults.SetObjectDefaults_ReplicationController(urc)
		client = fake.NewSimpleClientset(urc)
		inf = informers.NewSharedInformerFactory(client, 0)
		rm := replication.NewReplicationManager(ctx, inf.Core().V1().Pods(), inf.Core().V1().ReplicationControllers(), client, upstreamrs.BurstReplicas)
		rsc = &rm.ReplicaSetController
		if err := inf.Core().V1().ReplicationControllers().Informer().GetIndexer().Add(urc); err != nil {
			t.Fatal(err)
		}
		statusOf = func(a clienttesting.Action) (map[string]any, bool) {
			o, ok := a.(clienttesting.UpdateAction).GetObject().(*v1.ReplicationController)
			if !ok {
				return nil, false
			}
			s := o.Status
			return difftest.ReplicaSetStatus(apps.ReplicaSetStatus{Replicas: s.Replicas, FullyLabeledReplicas: s.FullyLabeledReplicas, ReadyReplicas: s.ReadyReplicas,
				AvailableReplicas: s.AvailableReplicas, ObservedGeneration: s.ObservedGeneration, Conditions: rcConditions(s.Conditions)}), true
		}
	} else {
		appsdefaults.SetObjectDefaults_ReplicaSet(rs)
		client = fake.NewSimpleClientset(rs)
		inf = informers.NewSharedInformerFactory(client, 0)
		rsc = upstreamrs.NewReplicaSetController(ctx, inf.Apps().V1().ReplicaSets(), inf.Core().V1().Pods(), client, upstreamrs.BurstReplicas)
		if err := inf.Apps().V1().ReplicaSets().Informer().GetIndexer().Add(rs); err != nil {
			t.Fatal(err)
		}
		if ref := metav1.GetControllerOf(rs); ref != nil && len(in.RelatedPods) > 0 {
			sib := &apps.ReplicaSet{ObjectMeta: metav1.ObjectMeta{Name: rs.Name + "-sibling", Namespace: rs.Namespace, UID: types.UID(string(rs.UID) + "-sibling"),
				OwnerReferences: []metav1.OwnerReference{*ref}},
				Spec: apps.ReplicaSetSpec{Selector: &metav1.LabelSelector{MatchLabels: map[string]string{relatedLabel: "true"}}}}
			if err := inf.Apps().V1().ReplicaSets().Informer().GetIndexer().Add(sib); err != nil {
				t.Fatal(err)
			}
			own := map[types.UID]bool{}
			for _, p := range in.Pods {
				own[p.UID] = true
			}
			yes := true
			for _, p := range in.RelatedPods {
				if own[p.UID] {
					continue
				}
				p = p.DeepCopy()
				p.Labels = maps.Clone(p.Labels)
				if p.Labels == nil {
					p.Labels = map[string]string{}
				}
				p.Labels[relatedLabel] = "true"
				p.OwnerReferences = []metav1.OwnerReference{{APIVersion: "apps/v1", Kind: "ReplicaSet", Name: sib.Name, UID: sib.UID, Controller: &yes}}
				if err := inf.Core().V1().Pods().Informer().GetIndexer().Add(p); err != nil {
					t.Fatal(err)
				}
			}
		}
		statusOf = func(a clienttesting.Action) (map[string]any, bool) {
			o, ok := a.(clienttesting.UpdateAction).GetObject().(*apps.ReplicaSet)
			if !ok {
				return nil, false
			}
			return difftest.ReplicaSetStatus(o.Status), true
		}
	}
	if in.burst > 0 {
		setField(rsc, "burstReplicas", in.burst)
	}
	rec := record.NewFakeRecorder(1 << 14)
	pc := controller.RealPodControl{KubeClient: client, Recorder: rec}
	var mu sync.Mutex
	generated := 0
	var created []*v1.Pod
	client.PrependReactor("create", "pods", func(a clienttesting.Action) (bool, runtime.Object, error) {
		pod := a.(clienttesting.CreateAction).GetObject().(*v1.Pod).DeepCopy()
		mu.Lock()
		defer mu.Unlock()
		if pod.Name == "" {
			generated++
			pod.Name = fmt.Sprintf("%sgen%d", pod.GenerateName, generated)
		}
		created = append(created, pod)
		return true, pod, nil
	})
	q := &difftest.QueueRecorder{}
	difftest.Stop(rsc) // its queue is replaced below and its broadcaster unused (the pod control records)
	setField(rsc, "podControl", controller.PodControlInterface(pc))
	setField(rsc, "queue", workqueue.TypedRateLimitingInterface[string](q))
	clk := clocktesting.NewFakeClock(in.Now)
	setField(rsc, "clock", clk)
	always := cache.InformerSynced(func() bool { return true })
	setField(rsc, "podListerSynced", always)
	setField(rsc, "rsListerSynced", always)
	byUID := map[string]*v1.Pod{}
	for _, p := range in.Pods {
		byUID[string(p.UID)] = p
		if err := inf.Core().V1().Pods().Informer().GetIndexer().Add(p.DeepCopy()); err != nil {
			t.Fatal(err)
		}
		if err := client.Tracker().Add(p.DeepCopy()); err != nil {
			t.Fatalf("fake API: pod %s: %v", p.Name, err)
		}
	}
	client.ClearActions()
	key := rs.Namespace + "/" + rs.Name
	if err := syncReplicaSet(rsc, ctx, key); err != nil {
		t.Errorf("upstream syncReplicaSet: %v", err)
	}

	out := map[string]any{"outcome": string(replicaset.ReasonSynced)}
	if rs.DeletionTimestamp != nil {
		out["outcome"] = string(replicaset.ReasonBeingDeleted)
	}
	up := runUpstream{after: map[string]*v1.Pod{}}
	var patches [][]byte
	var deletedNames []string
	for _, a := range client.Actions() {
		switch a.GetVerb() {
		case "create", "update", "patch", "delete":
			up.writes = append(up.writes, a)
		default:
			continue
		}
		if a.GetResource().Resource != "pods" {
			continue
		}
		switch a.GetVerb() {
		case "patch":
			pa := a.(clienttesting.PatchAction)
			patches = append(patches, pa.GetPatch())
			for _, p := range in.Pods {
				if p.Name != pa.GetName() || p.Namespace != pa.GetNamespace() {
					continue
				}
				orig, _ := json.Marshal(p)
				b, err := strategicpatch.StrategicMergePatch(orig, pa.GetPatch(), v1.Pod{})
				if err != nil {
					t.Fatalf("patch of %s: %v", p.Name, err)
				}
				after := &v1.Pod{}
				if err := json.Unmarshal(b, after); err != nil {
					t.Fatal(err)
				}
				up.after[p.Name] = after
			}
		case "delete":
			deletedNames = append(deletedNames, a.(clienttesting.DeleteAction).GetName())
		}
	}
	up.created = created
	for len(rec.Events) > 0 {
		up.events = append(up.events, <-rec.Events)
	}
	create := map[string]any{"count": len(created)}
	if len(created) > 0 {
		create["reason"] = string(replicaset.ReasonTooFewReplicas)
	}
	out["create"] = create
	// Adoptions and releases, by the pod UID each patch names.
	var adopt, release []map[string]any
	claimed := map[string]bool{}
	for _, p := range in.Pods {
		if ref := metav1.GetControllerOf(p); ref != nil && ref.UID == rs.UID {
			claimed[string(p.UID)] = true
		}
	}
	for _, patch := range patches {
		var m struct {
			Metadata struct {
				UID             string `json:"uid"`
				OwnerReferences []struct {
					Patch string `json:"$patch"`
				} `json:"ownerReferences"`
			} `json:"metadata"`
		}
		if err := json.Unmarshal(patch, &m); err != nil {
			t.Fatalf("patch %s: %v", patch, err)
		}
		p := byUID[m.Metadata.UID]
		if p == nil {
			t.Fatalf("patch of unknown pod %s", patch)
		}
		ref := map[string]any{"name": p.Name, "uid": string(p.UID)}
		if len(m.Metadata.OwnerReferences) == 1 && m.Metadata.OwnerReferences[0].Patch == "delete" {
			ref["reason"] = string(replicaset.ReasonSelectorMismatch)
			release = append(release, ref)
			delete(claimed, string(p.UID))
		} else {
			ref["reason"] = string(replicaset.ReasonOrphanSelected)
			adopt = append(adopt, ref)
			claimed[string(p.UID)] = true
		}
	}
	byName := func(a, b map[string]any) int { return strings.Compare(a["name"].(string), b["name"].(string)) }
	slices.SortFunc(adopt, byName)
	slices.SortFunc(release, byName)
	out["adopt"], out["release"] = orEmptyList(adopt), orEmptyList(release)
	deleted := slices.Clone(deletedNames)
	slices.Sort(deleted)

	out["status"], out["updateStatus"] = difftest.ReplicaSetStatus(rs.Status), false
	if rc {
		out["status"].(map[string]any)["terminatingReplicas"] = nil
	}
	for _, a := range client.Actions() {
		if a.GetVerb() == "update" && a.GetSubresource() == "status" {
			if s, ok := statusOf(a); ok {
				out["status"], out["updateStatus"] = s, true
			}
		}
	}
	// The requeue: AddAfter; its reason by whether a pod's availability
	// check is known.
	requeue := []map[string]any{}
	var active []*v1.Pod
	for _, p := range in.Pods {
		if claimed[string(p.UID)] && controller.IsPodActive(p) {
			active = append(active, p)
		}
	}
	for _, d := range q.After {
		reason := replicaset.ReasonMinReadySeconds
		if controller.FindMinNextPodAvailabilityCheck(active, rs.Spec.MinReadySeconds, in.Now, clk) != nil {
			reason = replicaset.ReasonAvailabilityCheck
		}
		requeue = append(requeue, map[string]any{"after": d.String(), "reason": string(reason)})
	}
	if q.RateLimited > 0 || q.Added > 0 {
		t.Errorf("upstream requeued at once (%d rate-limited, %d plain): not in the Plan's vocabulary", q.RateLimited, q.Added)
	}
	out["requeue"] = requeue
	return out, deleted, up
}

// events renders the events a sync recorded (FakeRecorder lines) as
// Plan.Events: SuccessfulCreate without its message (the name is the API
// server's), SuccessfulDelete with the deleted pod as object and message,
// in order (a permutation of deleted, the pods upstream deleted); any
// other event as it is. problem is set when the delete events do not name
// exactly the deleted pods or a create event's message is not upstream's.
func events(lines, deleted, order []string) (events []map[string]any, problem string) {
	var named []string
	var deletes int
	events = []map[string]any{}
	for _, l := range lines {
		typ, rest, _ := strings.Cut(l, " ")
		reason, msg, _ := strings.Cut(rest, " ")
		switch reason {
		case string(replicaset.ReasonSuccessfulCreate):
			if !strings.HasPrefix(msg, "Created pod: ") {
				problem = fmt.Sprintf("create event %q", l)
			}
			events = append(events, map[string]any{"type": typ, "reason": reason})
		case string(replicaset.ReasonSuccessfulDelete):
			named = append(named, strings.TrimPrefix(msg, "Deleted pod: "))
			deletes++
		default:
			events = append(events, map[string]any{"type": typ, "reason": reason, "message": msg})
		}
	}
	slices.Sort(named)
	if !slices.Equal(named, deleted) {
		problem = fmt.Sprintf("delete events name %v; deleted %v", named, deleted)
	}
	for _, n := range order {
		events = append(events, map[string]any{"type": "Normal", "reason": string(replicaset.ReasonSuccessfulDelete), "object": n, "message": "Deleted pod: " + n})
	}
	return events, problem
}

// checkWrites compares replicaset.Plan.Writes of kubesem's Step on the
// vector's input with the requests upstream sent: the same verbs,
// resources and subresources in the same order; the same pod names in each
// run of patches and of deletions (upstream sends them in no set order;
// deletions among tied pods may differ, as the Plan's deleteTied says);
// created pods equal to upstream's but for the name the API server gives;
// patched pods with upstream's owner references after the patch; the
// status written equal to upstream's.
func checkWrites(input json.RawMessage, up runUpstream) string {
	var in struct {
		ReplicaSet *replicaset.ReplicaSet `json:"replicaSet"`
		Pods       []*podstatus.Pod       `json:"pods"`
		Related    []*podstatus.Pod       `json:"relatedPods"`
		Now        time.Time              `json:"now"`
	}
	if err := json.Unmarshal(input, &in); err != nil {
		return err.Error()
	}
	p, err := replicaset.Step(in.ReplicaSet, in.Pods, in.Related, in.Now, replicaset.Options{})
	if err != nil {
		return "Step: " + err.Error()
	}
	ws, err := p.Writes(in.ReplicaSet, in.Pods)
	if err != nil {
		return "Writes: " + err.Error()
	}
	key := func(verb, resource, sub string) string { return verb + " " + resource + "/" + sub }
	var gotKeys, wantKeys []string
	for _, w := range ws {
		gotKeys = append(gotKeys, key(string(w.Verb), w.Resource, w.Subresource))
	}
	for _, a := range up.writes {
		wantKeys = append(wantKeys, key(a.GetVerb(), a.GetResource().Resource, a.GetSubresource()))
	}
	if !slices.Equal(gotKeys, wantKeys) {
		return fmt.Sprintf("requests %v; upstream %v", gotKeys, wantKeys)
	}
	tied := map[string]bool{}
	for _, d := range slices.Concat(p.Delete, p.DeleteTied) {
		tied[d.Name] = len(p.DeleteTied) > 0
	}
	created := 0
	for i := 0; i < len(ws); {
		j := i
		for j < len(ws) && gotKeys[j] == gotKeys[i] {
			j++
		}
		var gn, un []string
		for k := i; k < j; k++ {
			gn = append(gn, ws[k].Name)
			switch a := up.writes[k]; a.GetVerb() {
			case "delete":
				un = append(un, a.(clienttesting.DeleteAction).GetName())
			case "patch":
				un = append(un, a.(clienttesting.PatchAction).GetName())
			case "create":
				un = append(un, "")
			case "update":
				o, _ := meta.Accessor(a.(clienttesting.UpdateAction).GetObject())
				un = append(un, o.GetName())
			}
		}
		slices.Sort(gn)
		slices.Sort(un)
		if !slices.Equal(gn, un) {
			mayDiffer := ws[i].Verb == plan.VerbDelete && slices.IndexFunc(un, func(n string) bool { return !tied[n] }) < 0
			if !mayDiffer {
				return fmt.Sprintf("%s names %v; upstream %v", gotKeys[i], gn, un)
			}
		}
		for k := i; k < j; k++ {
			w := ws[k]
			switch w.Verb {
			case plan.VerbCreate:
				if created >= len(up.created) {
					return "more creations than upstream's"
				}
				// The fake API server takes the namespace from the request;
				// upstream's template carries the API defaults, which the
				// vector's need not: both are compared defaulted.
				u := up.created[created].DeepCopy()
				created++
				u.Name, u.Namespace = "", w.Namespace
				kp, err := k8s.ToPod(w.Object.(*podstatus.Pod))
				if err != nil {
					return err.Error()
				}
				kp.TypeMeta = metav1.TypeMeta{}
				coredefaults.SetObjectDefaults_Pod(kp)
				coredefaults.SetObjectDefaults_Pod(u)
				if !apiequality.Semantic.DeepEqual(kp, u) {
					gb, _ := json.Marshal(kp)
					ub, _ := json.Marshal(u)
					return fmt.Sprintf("created pod\n%s\nupstream\n%s", gb, ub)
				}
			case plan.VerbPatch:
				u := up.after[w.Name]
				gp := w.Object.(*podstatus.Pod)
				kp, err := k8s.ToPod(gp)
				if err != nil {
					return err.Error()
				}
				if u == nil || !apiequality.Semantic.DeepEqual(kp.OwnerReferences, u.OwnerReferences) {
					gb, _ := json.Marshal(kp.OwnerReferences)
					ub := []byte("none")
					if u != nil {
						ub, _ = json.Marshal(u.OwnerReferences)
					}
					return fmt.Sprintf("pod %s patched to owners %s; upstream %s", w.Name, gb, ub)
				}
			case plan.VerbUpdate:
				gb, _ := plan.Encode(w.Object.(*replicaset.ReplicaSet).Status)
				if ok, why := conformance.Match(gb, statusJSON(up.writes[k])); !ok {
					return fmt.Sprintf("status written: %s", why)
				}
			}
		}
		i = j
	}
	return ""
}

// statusJSON encodes the status of a ReplicaSet (or
// ReplicationController) status update as the decision writes it.
func statusJSON(a clienttesting.Action) []byte {
	var m map[string]any
	switch o := a.(clienttesting.UpdateAction).GetObject().(type) {
	case *apps.ReplicaSet:
		m = difftest.ReplicaSetStatus(o.Status)
	case *v1.ReplicationController:
		s := o.Status
		m = difftest.ReplicaSetStatus(apps.ReplicaSetStatus{Replicas: s.Replicas, FullyLabeledReplicas: s.FullyLabeledReplicas, ReadyReplicas: s.ReadyReplicas,
			AvailableReplicas: s.AvailableReplicas, ObservedGeneration: s.ObservedGeneration, Conditions: rcConditions(s.Conditions)})
		m["terminatingReplicas"] = nil
	}
	b, _ := json.Marshal(m)
	return b
}

func orEmptyList(l []map[string]any) []map[string]any {
	if l == nil {
		return []map[string]any{}
	}
	return l
}

func rcConditions(cs []v1.ReplicationControllerCondition) []apps.ReplicaSetCondition {
	var out []apps.ReplicaSetCondition
	for _, c := range cs {
		out = append(out, apps.ReplicaSetCondition{Type: apps.ReplicaSetConditionType(c.Type), Status: c.Status,
			LastTransitionTime: c.LastTransitionTime, Reason: c.Reason, Message: c.Message})
	}
	return out
}

// checkDeletes checks upstream's deletions against the want's delete,
// deleteSure and deleteTied (when the want names delete).
func checkDeletes(want map[string]any, deleted []string, pods []*v1.Pod) string {
	wd, ok := want["delete"].([]any)
	if !ok {
		return ""
	}
	uid := map[string]string{}
	for _, p := range pods {
		uid[p.Name] = string(p.UID)
	}
	var names []string
	for _, w := range wd {
		m, _ := w.(map[string]any)
		name, _ := m["name"].(string)
		names = append(names, name)
		if u, ok := m["uid"]; ok && u != uid[name] {
			return fmt.Sprintf("delete %s: uid %v; the pod's is %s", name, u, uid[name])
		}
		if r, ok := m["reason"]; ok && r != string(replicaset.ReasonTooManyReplicas) {
			return fmt.Sprintf("delete %s: reason %v", name, r)
		}
	}
	if len(names) != len(deleted) {
		return fmt.Sprintf("want deletes %v; upstream deletes %v", names, deleted)
	}
	sure := len(names)
	if s, ok := want["deleteSure"].(float64); ok {
		sure = int(s)
	}
	allowed := map[string]bool{}
	for _, n := range names[:min(sure, len(names))] {
		if !slices.Contains(deleted, n) {
			return fmt.Sprintf("want deletes %s for sure (deleteSure %d); upstream deletes %v", n, sure, deleted)
		}
		allowed[n] = true
	}
	tied, hasTied := want["deleteTied"].([]any)
	if !hasTied {
		for _, n := range names {
			allowed[n] = true
		}
	}
	for _, x := range tied {
		m, _ := x.(map[string]any)
		n, _ := m["name"].(string)
		allowed[n] = true
	}
	for _, d := range deleted {
		if !allowed[d] {
			return fmt.Sprintf("upstream deletes %s, which is neither sure nor tied in the want (delete %v, deleteTied %v)", d, names, tied)
		}
	}
	return ""
}

// TestReplicaSetClaimVectorsUpstream replays every replicaset.ClaimPod
// vector as one syncReplicaSet of the ReplicaSet with the vector's pod in
// the pod cache: the pod is Adopt when upstream patches a controller
// reference onto it, Release when it patches it off, Owned when upstream
// counts it in status.replicas without a patch, Ignore otherwise (a pod in
// another namespace is not listed; a deleting or finished one is not
// active).
func TestReplicaSetClaimVectorsUpstream(t *testing.T) {
	vs, err := conformance.Load(kubesem.Vectors())
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, v := range vs {
		if v.Decision != "replicaset.ClaimPod" || v.Want == nil {
			continue
		}
		var in struct {
			ReplicaSet apps.ReplicaSet `json:"replicaSet"`
			Pod        *v1.Pod         `json:"pod"`
		}
		if err := json.Unmarshal(v.Input, &in); err != nil {
			t.Errorf("%s: input: %v", v.Name, err)
			continue
		}
		got, _ := replay(t, &vectorInput{ReplicaSet: in.ReplicaSet, Pods: []*v1.Pod{in.Pod}, Now: base})
		ownership := replicaset.Ignore
		switch {
		case len(got["adopt"].([]map[string]any)) > 0:
			ownership = replicaset.Adopt
		case len(got["release"].([]map[string]any)) > 0:
			ownership = replicaset.Release
		case got["status"].(map[string]any)["replicas"] == int32(1):
			ownership = replicaset.Owned
		}
		gb, _ := json.Marshal(map[string]any{"ownership": ownership})
		if ok, why := conformance.Match(v.Want, gb); !ok {
			t.Errorf("%s (%s): upstream differs: %s\nupstream: %s", v.Name, v.Source, why, gb)
		}
		n++
	}
	if n < 10 {
		t.Fatalf("replayed %d replicaset.ClaimPod vectors; want every one with a want (>= 10)", n)
	}
	t.Logf("%d replicaset.ClaimPod vectors replayed against upstream", n)
}

// TestReplicaSetDiffVectorsUpstream replays every replicaset.Diff vector as
// one syncReplicaSet of a ReplicaSet of the vector's replicas with the
// vector's number of running pods it controls (and its burstReplicas
// option as the controller's): the diff is the number of pods upstream
// deletes, or minus the number it creates.
func TestReplicaSetDiffVectorsUpstream(t *testing.T) {
	vs, err := conformance.Load(kubesem.Vectors())
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, v := range vs {
		if v.Decision != "replicaset.Diff" || v.Want == nil {
			continue
		}
		var in struct {
			Active   int   `json:"active"`
			Replicas int32 `json:"replicas"`
		}
		var opts struct {
			BurstReplicas int `json:"burstReplicas"`
		}
		if err := json.Unmarshal(v.Input, &in); err != nil {
			t.Fatalf("%s: input: %v", v.Name, err)
		}
		if len(v.Options) > 0 {
			if err := json.Unmarshal(v.Options, &opts); err != nil {
				t.Fatalf("%s: options: %v", v.Name, err)
			}
		}
		yes := true
		rs := apps.ReplicaSet{ObjectMeta: metav1.ObjectMeta{Name: "rs", Namespace: "default", UID: "rs-uid"},
			Spec: apps.ReplicaSetSpec{Replicas: &in.Replicas, Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": "x"}},
				Template: v1.PodTemplateSpec{ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{"app": "x"}}}}}
		var pods []*v1.Pod
		for i := range in.Active {
			name := fmt.Sprintf("p%d", i)
			pods = append(pods, &v1.Pod{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "default", UID: types.UID(name), Labels: map[string]string{"app": "x"},
				OwnerReferences: []metav1.OwnerReference{{APIVersion: "apps/v1", Kind: "ReplicaSet", Name: "rs", UID: "rs-uid", Controller: &yes}}},
				Status: v1.PodStatus{Phase: v1.PodRunning}})
		}
		got, deleted := replay(t, &vectorInput{ReplicaSet: rs, Pods: pods, Now: base, burst: opts.BurstReplicas})
		diff := len(deleted) - got["create"].(map[string]any)["count"].(int)
		gb, _ := json.Marshal(map[string]any{"diff": diff})
		if ok, why := conformance.Match(v.Want, gb); !ok {
			t.Errorf("%s (%s): upstream differs: %s\nupstream: %s", v.Name, v.Source, why, gb)
		}
		n++
	}
	if n < 7 {
		t.Fatalf("replayed %d replicaset.Diff vectors; want every one with a want (>= 7)", n)
	}
	t.Logf("%d replicaset.Diff vectors replayed against upstream", n)
}
