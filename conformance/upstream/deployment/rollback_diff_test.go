package deployment_test

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"
	"time"
	_ "unsafe" // go:linkname to the deployment controller's unexported rules

	"github.com/go-logr/logr"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	extensions "k8s.io/api/extensions/v1beta1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	clientset "k8s.io/client-go/kubernetes"
	"k8s.io/client-go/kubernetes/fake"
	clienttesting "k8s.io/client-go/testing"
	"k8s.io/client-go/tools/record"
	"k8s.io/klog/v2"
	appsdefaults "k8s.io/kubernetes/pkg/apis/apps/v1"
	"k8s.io/kubernetes/pkg/controller/deployment"
	deploymentutil "k8s.io/kubernetes/pkg/controller/deployment/util"
	"pgregory.net/rapid"

	"github.com/kubesem/kubesem/conformance/upstream/internal/difftest"
	"github.com/kubesem/kubesem/k8s"
	"github.com/kubesem/kubesem/replicaset"
	"github.com/kubesem/kubesem/rollout"
)

// This file checks rollout.Rollback against v1.36.3's
// DeploymentController.rollback.
//
// rollback(d, rsList) first resolves the new and old ReplicaSets
// (getAllReplicaSetsAndSyncRevision: finds or creates the new one, syncs its
// revision and the Deployment's) and then acts on the request over
// append(oldRSs, newRS). kubesem's Rollback is that second part: it is
// given the Deployment and "all ReplicaSets including the new one" as the
// resolution leaves them (rollout.Step resolves first, as upstream). So
// rollbackUpstream resolves with upstream's own getAllReplicaSetsAndSyncRevision,
// gives kubesem the Deployment and the list it leaves, and compares
// kubesem's answer with what upstream's rollback does on the unresolved
// input: the event it emits (reason, message), the Deployment it writes
// (annotations, and the template when it rolls back), the ReplicaSet it
// picks (its V(4) log "Found replica set with desired revision") and the
// revision (getRollbackTo, or deploymentutil.LastRevision for 0).

//go:linkname upRollback k8s.io/kubernetes/pkg/controller/deployment.(*DeploymentController).rollback
func upRollback(dc *deployment.DeploymentController, ctx context.Context, d *appsv1.Deployment, rsList []*appsv1.ReplicaSet) error

//go:linkname upResolve k8s.io/kubernetes/pkg/controller/deployment.(*DeploymentController).getAllReplicaSetsAndSyncRevision
func upResolve(dc *deployment.DeploymentController, ctx context.Context, d *appsv1.Deployment, rsList []*appsv1.ReplicaSet, createIfNotExisted bool) (*appsv1.ReplicaSet, []*appsv1.ReplicaSet, error)

//go:linkname getRollbackTo k8s.io/kubernetes/pkg/controller/deployment.getRollbackTo
func getRollbackTo(d *appsv1.Deployment) *extensions.RollbackConfig

// rollbackController returns a bare deployment controller whose client echoes
// every write back, with a fake event recorder.
func rollbackController() (*deployment.DeploymentController, *fake.Clientset, *record.FakeRecorder) {
	c := &fake.Clientset{}
	c.AddReactor("*", "*", func(a clienttesting.Action) (bool, runtime.Object, error) {
		switch a := a.(type) {
		case clienttesting.UpdateAction:
			return true, a.GetObject(), nil
		case clienttesting.CreateAction:
			return true, a.GetObject(), nil
		}
		return true, nil, nil
	})
	rec := record.NewFakeRecorder(100)
	dc := &deployment.DeploymentController{}
	difftest.SetField(dc, "client", clientset.Interface(c))
	difftest.SetField(dc, "eventRecorder", record.EventRecorder(rec))
	return dc, c, rec
}

// rollbackSink records the ReplicaSets rollback logs it found for the revision.
type rollbackSink struct {
	mu    sync.Mutex
	found []string
}

func (s *rollbackSink) Init(logr.RuntimeInfo) {}

func (s *rollbackSink) Enabled(int) bool { return true }

func (s *rollbackSink) Error(error, string, ...any) {}

func (s *rollbackSink) WithValues(...any) logr.LogSink { return s }

func (s *rollbackSink) WithName(string) logr.LogSink { return s }

func (s *rollbackSink) Info(_ int, msg string, kv ...any) {
	if msg != "Found replica set with desired revision" {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for i := 0; i+1 < len(kv); i += 2 {
		if kv[i] == "replicaSet" {
			if ref, ok := kv[i+1].(klog.ObjectRef); ok {
				s.found = append(s.found, ref.Name)
			}
		}
	}
}

type rollbackIn struct {
	Deployment  rollout.Deployment       `json:"deployment"`
	ReplicaSets []*replicaset.ReplicaSet `json:"replicaSets"`
}

func rollbackCopies(rss []*appsv1.ReplicaSet) []*appsv1.ReplicaSet {
	out := make([]*appsv1.ReplicaSet, len(rss))
	for i, rs := range rss {
		out[i] = rs.DeepCopy()
	}
	return out
}

// rollbackUpstream runs upstream on a Deployment and its ReplicaSets: it returns
// kubesem's input (the Deployment and the list as upstream's resolution
// leaves them) and upstream's answer in the binding's output shape.
func rollbackUpstream(t difftest.TB, d *appsv1.Deployment, rss []*appsv1.ReplicaSet) (rollbackIn, json.RawMessage) {
	t.Helper()
	ctx := context.Background()
	// Resolution, on copies.
	dRes := d.DeepCopy()
	dc, _, _ := rollbackController()
	newRS, oldRSs, err := upResolve(dc, klog.NewContext(ctx, difftest.Log), dRes, rollbackCopies(rss), true)
	if err != nil {
		t.Fatalf("getAllReplicaSetsAndSyncRevision: %v", err)
	}
	all := append(oldRSs, newRS)
	in := rollbackIn{Deployment: *difftest.Must(k8s.FromDeployment(dRes)), ReplicaSets: difftest.MustList(k8s.FromReplicaSets(all))}

	req := getRollbackTo(d)
	if req == nil {
		return in, difftest.Encode(t, map[string]bool{"requested": false})
	}
	// The rollback, on fresh copies of the unresolved input.
	dc, client, rec := rollbackController()
	sink := &rollbackSink{}
	if err := upRollback(dc, klog.NewContext(ctx, logr.New(sink)), d.DeepCopy(), rollbackCopies(rss)); err != nil {
		t.Fatalf("rollback: %v", err)
	}
	out := map[string]any{"requested": true}
	rev := getRollbackTo(dRes).Revision
	if rev == 0 {
		rev = deploymentutil.LastRevision(difftest.Log, all)
	}
	out["revision"] = rev
	var events []string
	for len(rec.Events) > 0 {
		if e := <-rec.Events; strings.Contains(e, " DeploymentRollback") {
			events = append(events, e)
		}
	}
	if len(events) != 1 {
		t.Fatalf("rollback emitted %q; want one rollback event", events)
	}
	parts := strings.SplitN(events[0], " ", 3)
	reason := parts[1]
	out["reason"], out["message"] = reason, parts[2]
	if want := map[string]string{deploymentutil.RollbackDone: corev1.EventTypeNormal}[reason]; want != "" && parts[0] != want ||
		want == "" && parts[0] != corev1.EventTypeWarning {
		t.Fatalf("rollback event %q of the wrong type", events[0])
	}
	switch len(sink.found) {
	case 0:
	case 1:
		out["replicaSet"] = sink.found[0]
	default:
		t.Fatalf("rollback found %v", sink.found)
	}
	var written *appsv1.Deployment
	for _, a := range client.Actions() {
		if u, ok := a.(clienttesting.UpdateAction); ok && u.GetSubresource() == "" {
			if w, ok := u.GetObject().(*appsv1.Deployment); ok {
				written = w
			}
		}
	}
	if written == nil {
		t.Fatalf("rollback wrote no Deployment")
	}
	if len(written.Annotations) > 0 {
		out["annotations"] = written.Annotations
	}
	if reason == deploymentutil.RollbackDone {
		out["template"] = difftest.Must(k8s.FromDeployment(written)).Spec.Template
	}
	return in, difftest.Encode(t, out)
}

// drawRollback draws a Deployment (defaulted by SetDefaults_Deployment) and its
// ReplicaSets: templates from a few images, so that some equal the
// Deployment's; revisions at the int64 edges, unparsable or missing;
// rollback requests of every form; the annotations the rollback copies,
// keeps or skips.
func drawRollback(t *rapid.T) (*appsv1.Deployment, []*appsv1.ReplicaSet) {
	images := []string{"a", "b", "c"}
	template := func(label string) corev1.PodTemplateSpec {
		tp := corev1.PodTemplateSpec{ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{"app": "web"}},
			Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "c", Image: rapid.SampledFrom(images).Draw(t, label+"Image")}}}}
		if rapid.IntRange(0, 4).Draw(t, label+"Tier") == 0 {
			tp.Labels["tier"] = "x"
		}
		if rapid.IntRange(0, 4).Draw(t, label+"Ann") == 0 {
			tp.Annotations = map[string]string{"note": "n"}
		}
		return tp
	}
	annotations := func(label string) map[string]string {
		ann := map[string]string{}
		for _, k := range []string{"kubernetes.io/change-cause", deploymentutil.DesiredReplicasAnnotation, deploymentutil.MaxReplicasAnnotation,
			deploymentutil.RevisionHistoryAnnotation, corev1.LastAppliedConfigAnnotation, "custom", appsv1.DeprecatedRollbackTo} {
			if rapid.IntRange(0, 3).Draw(t, label+"Has"+k) == 0 {
				ann[k] = rapid.SampledFrom([]string{"x", "y", "1", "3"}).Draw(t, label+"Val"+k)
			}
		}
		return ann
	}
	revision := func(label string) string {
		return rapid.SampledFrom([]string{"", "1", "2", "3", "4", "5", "0", "-1", "x", "+2", "9223372036854775806", "9223372036854775807",
			"9223372036854775808"}).Draw(t, label)
	}
	replicas := int32(3)
	d := &appsv1.Deployment{ObjectMeta: metav1.ObjectMeta{Name: "d", Namespace: "ns", UID: "duid", Annotations: annotations("d")},
		Spec: appsv1.DeploymentSpec{Replicas: &replicas, Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": "web"}}, Template: template("d")}}
	if r := revision("dRevision"); r != "" {
		d.Annotations[deploymentutil.RevisionAnnotation] = r
	}
	delete(d.Annotations, appsv1.DeprecatedRollbackTo)
	if rapid.IntRange(0, 7).Draw(t, "noRequest") > 0 {
		d.Annotations[appsv1.DeprecatedRollbackTo] = rapid.SampledFrom([]string{"", "0", "0", "1", "2", "3", "4", "5", "-1", "x", "+1", " 1", "01",
			"9223372036854775807", "9223372036854775808", "-9223372036854775808"}).Draw(t, "rollbackTo")
	}
	appsdefaults.SetDefaults_Deployment(d)
	var rss []*appsv1.ReplicaSet
	for i := range rapid.IntRange(0, 4).Draw(t, "replicaSets") {
		name := "d-" + string(rune('a'+i))
		tp := template(name)
		if rapid.IntRange(0, 3).Draw(t, name+"Hash") > 0 {
			tp.Labels["pod-template-hash"] = name
		}
		zero := int32(rapid.IntRange(0, 2).Draw(t, name+"Replicas"))
		rs := &appsv1.ReplicaSet{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "ns", UID: types.UID("uid-" + name), Annotations: annotations(name), Labels: tp.Labels,
			CreationTimestamp: metav1.NewTime(difftest.JobT0.Add(time.Duration(rapid.IntRange(0, 2).Draw(t, name+"Created")) * time.Second)),
			OwnerReferences:   []metav1.OwnerReference{*metav1.NewControllerRef(d, appsv1.SchemeGroupVersion.WithKind("Deployment"))}},
			Spec: appsv1.ReplicaSetSpec{Replicas: &zero, Selector: &metav1.LabelSelector{MatchLabels: tp.Labels}, Template: tp}}
		if r := revision(name + "Revision"); r != "" {
			rs.Annotations[deploymentutil.RevisionAnnotation] = r
		}
		if len(rs.Annotations) == 0 {
			rs.Annotations = nil
		}
		rss = append(rss, rs)
	}
	return d, rss
}

// TestRolloutRollbackDifferential compares Rollback with upstream's
// rollback (rollbackUpstream) on random Deployments and ReplicaSets.
func TestRolloutRollbackDifferential(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		d, rss := drawRollback(t)
		in, want := rollbackUpstream(t, d, rss)
		got := rollbackCanon(t, difftest.DecideJSON(t, "rollout.Rollback", nil, in))
		if want = rollbackCanon(t, want); !difftest.SameValue(want, got) {
			t.Fatalf("rollout.Rollback differs from v1.36.3\ninput:    %s\nkubesem:  %s\nupstream: %s", difftest.Marshal(t, in), got, want)
		}
	})
}

// TestRolloutRollbackVectorsUpstream replays the rollout.Rollback vectors
// through upstream: a vector's input must be a resolved one (upstream's
// getAllReplicaSetsAndSyncRevision leaves it as it is, but for the
// Progressing condition it records in memory), its want must be what
// upstream's rollback does (rollbackUpstream), and kubesem's whole answer must be
// upstream's.
func TestRolloutRollbackVectorsUpstream(t *testing.T) {
	oracle := func(t difftest.TB, decision string, _, input json.RawMessage) json.RawMessage {
		t.Helper()
		var in rollbackIn
		difftest.Decode(t, input, &in)
		d := difftest.Must(k8s.ToDeployment(&in.Deployment))
		rss := make([]*appsv1.ReplicaSet, len(in.ReplicaSets))
		for i, rs := range in.ReplicaSets {
			rss[i] = difftest.Must(k8s.ToReplicaSet(rs))
			if rss[i].UID == "" {
				// The API server gives every object a UID; upstream tells
				// the new ReplicaSet from the old ones by it.
				rss[i].UID = types.UID("uid-" + rss[i].Name)
			}
		}
		resolved, want := rollbackUpstream(t, d, rss)
		if g, w := rollbackNames(resolved.ReplicaSets), rollbackNames(in.ReplicaSets); g != w {
			t.Fatalf("the vector's ReplicaSets are not resolved: upstream resolves them to %s", g)
		}
		if !difftest.SameValue(difftest.Marshal(t, resolved.Deployment.Annotations), difftest.Marshal(t, in.Deployment.Annotations)) {
			t.Fatalf("the vector's Deployment is not resolved: upstream's annotations are %v", resolved.Deployment.Annotations)
		}
		return want
	}
	difftest.ReplayCanon(t, "rollout", map[string]int{"rollout.Rollback": 7}, oracle, rollbackCanon)
}

// rollbackCanon writes a rollback answer's template as the k8s adapter writes a
// Deployment's template back from upstream's (ToDeployment then
// FromDeployment), so that the API fields kubesem carries without
// modelling (a container's "resources": {}) are written alike on both
// sides.
func rollbackCanon(t difftest.TB, raw json.RawMessage) json.RawMessage {
	t.Helper()
	var m map[string]json.RawMessage
	difftest.Decode(t, raw, &m)
	tp, ok := m["template"]
	if !ok {
		return raw
	}
	var d rollout.Deployment
	difftest.Decode(t, tp, &d.Spec.Template)
	m["template"] = difftest.Encode(t, difftest.Must(k8s.FromDeployment(difftest.Must(k8s.ToDeployment(&d)))).Spec.Template)
	return difftest.Marshal(t, m)
}

// rollbackNames lists the ReplicaSets by name and revision annotation, in order.
func rollbackNames(rss []*replicaset.ReplicaSet) string {
	var b strings.Builder
	for _, rs := range rss {
		b.WriteString(rs.Name + "@" + rs.Annotations[deploymentutil.RevisionAnnotation] + " ")
	}
	return b.String()
}
