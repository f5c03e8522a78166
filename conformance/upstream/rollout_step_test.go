package upstream_test

import (
	"context"
	"fmt"
	"maps"
	"testing"
	"time"
	_ "unsafe" // go:linkname to syncDeployment

	"pgregory.net/rapid"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/informers"
	clienttesting "k8s.io/client-go/testing"
	"k8s.io/client-go/tools/record"
	"k8s.io/kubernetes/pkg/controller"
	"k8s.io/kubernetes/pkg/controller/deployment"

	"github.com/kubesem/kubesem/intstr"
	"github.com/kubesem/kubesem/meta"
	"github.com/kubesem/kubesem/podstatus"
	"github.com/kubesem/kubesem/replicaset"
	"github.com/kubesem/kubesem/rollout"
)

//go:linkname dsSyncDeployment k8s.io/kubernetes/pkg/controller/deployment.(*DeploymentController).syncDeployment
func dsSyncDeployment(dc *deployment.DeploymentController, ctx context.Context, key string) error

var dsImages = []string{"app:v1", "app:v2", "app:v3", "app:v4"}

func dsTemplate(image string) podstatus.Template {
	var t podstatus.Template
	t.Labels = map[string]string{"app": "foo"}
	t.Spec.Containers = []podstatus.Container{{Name: "app", Image: image}}
	return t
}

func dsV1Template(t podstatus.Template) corev1.PodTemplateSpec {
	var u corev1.PodTemplateSpec
	u.Labels = maps.Clone(t.Labels)
	for _, c := range t.Spec.Containers {
		u.Spec.Containers = append(u.Spec.Containers, corev1.Container{Name: c.Name, Image: c.Image})
	}
	return u
}

// dsStepWorld draws a Deployment with its ReplicaSets and pods, the
// ReplicaSets labelled with their real pod-template-hash so that kubesem's
// hash identity and upstream's template equality agree.
func dsStepWorld(t *rapid.T, now time.Time) (*rollout.Deployment, []*replicaset.ReplicaSet, []*podstatus.Pod) {
	d := dsDeployment(t)
	d.Name, d.Namespace, d.UID, d.Generation = "foo", "default", "d-uid", rapid.Int64Range(1, 3).Draw(t, "generation")
	d.Status.ObservedGeneration = rapid.Int64Range(0, d.Generation).Draw(t, "observedGeneration")
	if d.Spec.Strategy.RollingUpdate != nil {
		s, u := d.Spec.Strategy.RollingUpdate.MaxSurge, d.Spec.Strategy.RollingUpdate.MaxUnavailable
		if _, _, err := rollout.Fenceposts(*s, *u, d.Replicas()); err != nil || d.Replicas() > 10000 {
			n := int32(5)
			d.Spec.Replicas = &n
			v := dsBoundValue("25%")
			d.Spec.Strategy.RollingUpdate = &rollout.RollingUpdate{MaxSurge: &v, MaxUnavailable: &v}
		}
	} else if d.Replicas() > 10000 {
		n := int32(3)
		d.Spec.Replicas = &n
	}
	d.Spec.Template = dsTemplate(rapid.SampledFrom(dsImages).Draw(t, "image"))
	d.Spec.MinReadySeconds = rapid.SampledFrom([]int32{0, 5}).Draw(t, "minReady")
	d.Spec.Paused = rapid.IntRange(0, 5).Draw(t, "paused") == 0
	if rapid.Bool().Draw(t, "hasLimit") {
		d.Spec.RevisionHistoryLimit = ptrTo(rapid.Int32Range(0, 2).Draw(t, "limit"))
	}
	if rapid.IntRange(0, 4).Draw(t, "noDeadline") == 0 {
		d.Spec.ProgressDeadlineSeconds = ptrTo(int32(2147483647))
	}
	d.Annotations = map[string]string{}
	if v := rapid.SampledFrom([]string{"", "1", "2", "7"}).Draw(t, "dRevision"); v != "" {
		d.Annotations[rollout.RevisionAnnotation] = v
	}
	if rapid.Bool().Draw(t, "note") {
		d.Annotations["note"] = "x"
	}
	if rapid.IntRange(0, 9).Draw(t, "rollback") == 0 {
		d.Annotations[rollout.RollbackToAnnotation] = rapid.SampledFrom([]string{"0", "1", "2", "9", "x"}).Draw(t, "rollbackTo")
	}
	if rapid.IntRange(0, 14).Draw(t, "deleting") == 0 {
		ts := now.Add(-time.Minute)
		d.DeletionTimestamp = &ts
	}
	if rapid.IntRange(0, 19).Draw(t, "selectAll") == 0 {
		d.Spec.Selector = &meta.LabelSelector{}
	}
	reasons := []string{"", rollout.ReasonNewReplicaSetAvailable, rollout.ReasonReplicaSetUpdated, rollout.ReasonDeploymentPaused, rollout.ReasonProgressDeadlineExceeded, rollout.ReasonNewReplicaSetCreated}
	if r := rapid.SampledFrom(reasons).Draw(t, "progressReason"); r != "" {
		at := now.Add(-time.Duration(rapid.SampledFrom([]int{10, 700}).Draw(t, "progressAge")) * time.Second)
		d.Status.Conditions = []rollout.Condition{{Type: rollout.Progressing, Status: meta.ConditionTrue, Reason: r, LastUpdateTime: at, LastTransitionTime: at}}
	}
	d.Status.UpdatedReplicas = rapid.Int32Range(0, 5).Draw(t, "dUpdated")
	d.Status.AvailableReplicas = rapid.Int32Range(0, 5).Draw(t, "dAvailable")
	d.TemplateHash = controller.ComputeHash(ptrTo(dsV1Template(d.Spec.Template)), nil)

	var rss []*replicaset.ReplicaSet
	yes := true
	for i := range rapid.IntRange(0, 4).Draw(t, "rsCount") {
		rs := dsReplicaSet(t, i)
		rs.Name = fmt.Sprintf("foo-%d", i)
		if rapid.IntRange(0, 9).Draw(t, fmt.Sprintf("squat%d", i)) == 0 {
			// Holds the name the new ReplicaSet would get (a hash collision
			// unless its template is the Deployment's).
			rs.Name = rollout.ReplicaSetName("foo", d.TemplateHash)
		}
		rs.UID = "uid-" + rs.Name
		rs.Namespace = "default"
		if n := rs.Replicas(); n > 50 {
			m := n % 7
			rs.Spec.Replicas = &m
			rs.Status.Replicas = min(rs.Status.Replicas, m+1)
			rs.Status.AvailableReplicas = min(rs.Status.AvailableReplicas, m+1)
		}
		tmpl := dsTemplate(rapid.SampledFrom(dsImages).Draw(t, fmt.Sprintf("rsImage%d", i)))
		hash := controller.ComputeHash(ptrTo(dsV1Template(tmpl)), nil)
		tmpl.Labels["pod-template-hash"] = hash
		rs.Spec.Template = tmpl
		rs.Labels = maps.Clone(tmpl.Labels)
		rs.Spec.MinReadySeconds = rapid.SampledFrom([]int32{0, 5}).Draw(t, fmt.Sprintf("rsMinReady%d", i))
		rs.OwnerReferences = []meta.OwnerReference{{APIVersion: "apps/v1", Kind: "Deployment", Name: "foo", UID: "d-uid", Controller: &yes}}
		if v := rapid.SampledFrom([]string{"", "1", "2", "3", "5", "x"}).Draw(t, fmt.Sprintf("rsRevision%d", i)); v != "" {
			rs.Annotations[rollout.RevisionAnnotation] = v
		}
		rs.Generation = rapid.Int64Range(1, 2).Draw(t, fmt.Sprintf("rsGen%d", i))
		rs.Status.ObservedGeneration = rapid.Int64Range(0, 2).Draw(t, fmt.Sprintf("rsObs%d", i))
		rss = append(rss, rs)
	}
	var pods []*podstatus.Pod
	phases := []podstatus.Phase{podstatus.Pending, podstatus.Running, podstatus.Succeeded, podstatus.Failed, podstatus.Unknown}
	for i := range rapid.IntRange(0, 3).Draw(t, "podCount") {
		if len(rss) == 0 {
			break
		}
		owner := rss[rapid.IntRange(0, len(rss)-1).Draw(t, fmt.Sprintf("podOwner%d", i))]
		p := &podstatus.Pod{}
		p.Name, p.Namespace = fmt.Sprintf("pod-%d", i), "default"
		p.Labels = maps.Clone(owner.Labels)
		p.OwnerReferences = []meta.OwnerReference{{APIVersion: "apps/v1", Kind: "ReplicaSet", Name: owner.Name, UID: owner.UID, Controller: &yes}}
		p.Status.Phase = rapid.SampledFrom(phases).Draw(t, fmt.Sprintf("podPhase%d", i))
		pods = append(pods, p)
	}
	return d, rss, pods
}

func dsBoundValue(s string) intstr.Value { return intstr.String(s) }

func ptrTo[T any](v T) *T { return &v }

func dsV1Deployment(d *rollout.Deployment) *appsv1.Deployment {
	u := dsToDeployment(d)
	u.Annotations = maps.Clone(d.Annotations)
	if d.DeletionTimestamp != nil {
		ts := metav1.NewTime(*d.DeletionTimestamp)
		u.DeletionTimestamp = &ts
	}
	if d.Spec.Selector != nil && len(d.Spec.Selector.MatchLabels) == 0 {
		u.Spec.Selector = &metav1.LabelSelector{}
	}
	u.Spec.Template = dsV1Template(d.Spec.Template)
	u.Spec.MinReadySeconds = d.Spec.MinReadySeconds
	u.Spec.Paused = d.Spec.Paused
	u.Spec.RevisionHistoryLimit = d.Spec.RevisionHistoryLimit
	if u.Spec.RevisionHistoryLimit == nil {
		u.Spec.RevisionHistoryLimit = ptrTo(int32(10))
	}
	u.Spec.ProgressDeadlineSeconds = d.Spec.ProgressDeadlineSeconds
	if u.Spec.ProgressDeadlineSeconds == nil {
		u.Spec.ProgressDeadlineSeconds = ptrTo(int32(600))
	}
	u.Status = appsv1.DeploymentStatus{
		ObservedGeneration: d.Status.ObservedGeneration, Replicas: d.Status.Replicas, UpdatedReplicas: d.Status.UpdatedReplicas,
		ReadyReplicas: d.Status.ReadyReplicas, AvailableReplicas: d.Status.AvailableReplicas, UnavailableReplicas: d.Status.UnavailableReplicas,
		CollisionCount: d.Status.CollisionCount,
	}
	for _, c := range d.Status.Conditions {
		u.Status.Conditions = append(u.Status.Conditions, appsv1.DeploymentCondition{
			Type: appsv1.DeploymentConditionType(c.Type), Status: corev1.ConditionStatus(c.Status), Reason: c.Reason, Message: c.Message,
			LastUpdateTime: metav1.NewTime(c.LastUpdateTime), LastTransitionTime: metav1.NewTime(c.LastTransitionTime),
		})
	}
	return u
}

func dsV1ReplicaSetFull(rs *replicaset.ReplicaSet) *appsv1.ReplicaSet {
	u := dsToReplicaSet(rs)
	u.Labels = maps.Clone(rs.Labels)
	u.Generation = rs.Generation
	u.Status.ObservedGeneration = rs.Status.ObservedGeneration
	u.Spec.MinReadySeconds = rs.Spec.MinReadySeconds
	u.Spec.Template = dsV1Template(rs.Spec.Template)
	u.Spec.Selector = &metav1.LabelSelector{MatchLabels: maps.Clone(rs.Labels)}
	for _, r := range rs.OwnerReferences {
		u.OwnerReferences = append(u.OwnerReferences, metav1.OwnerReference{APIVersion: r.APIVersion, Kind: r.Kind, Name: r.Name, UID: types.UID(r.UID), Controller: r.Controller})
	}
	return u
}

// dsRSState is what the comparison looks at in a ReplicaSet after a sync.
type dsRSState struct {
	Replicas        int32
	MinReadySeconds int32
	Annotations     map[string]string
}

func dsSame(a, b map[string]dsRSState) bool {
	if len(a) != len(b) {
		return false
	}
	for k, x := range a {
		y, ok := b[k]
		if !ok || x.Replicas != y.Replicas || x.MinReadySeconds != y.MinReadySeconds || !maps.Equal(x.Annotations, y.Annotations) {
			return false
		}
	}
	return true
}

type dsCond struct{ Type, Status, Reason string }

func dsCheckStep(t *rapid.T) {
	now := time.Now()
	d, rss, pods := dsStepWorld(t, now)
	if err := rollout.Validate(d, rss, pods); err != nil {
		t.Skip("invalid input: ", err)
	}
	plan, err := rollout.Step(d, rss, pods, now, rollout.Options{})
	if err != nil {
		t.Fatalf("Step: %v", err)
	}

	// Upstream: a controller over informer caches holding the same objects.
	_, c := dsController()
	inf := informers.NewSharedInformerFactory(c, 0)
	dc, err := deployment.NewDeploymentController(context.Background(), inf.Apps().V1().Deployments(), inf.Apps().V1().ReplicaSets(), inf.Core().V1().Pods(), c)
	if err != nil {
		t.Fatal(err)
	}
	dsSet(dc, "eventRecorder", record.EventRecorder(&record.FakeRecorder{}))
	// Creating a ReplicaSet whose name is taken fails as the API server would.
	rsIndexer := inf.Apps().V1().ReplicaSets().Informer().GetIndexer()
	failed := map[string]int{} // names of failed creates
	c.PrependReactor("create", "replicasets", func(a clienttesting.Action) (bool, runtime.Object, error) {
		rs := a.(clienttesting.CreateAction).GetObject().(*appsv1.ReplicaSet)
		if _, exists, _ := rsIndexer.GetByKey("default/" + rs.Name); exists {
			failed[rs.Name]++
			return true, nil, apierrors.NewAlreadyExists(appsv1.Resource("replicasets"), rs.Name)
		}
		return true, rs, nil
	})
	ud := dsV1Deployment(d)
	inf.Apps().V1().Deployments().Informer().GetIndexer().Add(ud)
	before := map[string]dsRSState{}
	for _, rs := range rss {
		inf.Apps().V1().ReplicaSets().Informer().GetIndexer().Add(dsV1ReplicaSetFull(rs))
		before[rs.Name] = dsRSState{rs.Replicas(), rs.Spec.MinReadySeconds, maps.Clone(rs.Annotations)}
	}
	for _, p := range pods {
		yes := true
		inf.Core().V1().Pods().Informer().GetIndexer().Add(&corev1.Pod{
			ObjectMeta: metav1.ObjectMeta{Name: p.Name, Namespace: "default", Labels: p.Labels,
				OwnerReferences: []metav1.OwnerReference{{APIVersion: "apps/v1", Kind: "ReplicaSet", Name: p.OwnerReferences[0].Name, UID: types.UID(p.OwnerReferences[0].UID), Controller: &yes}}},
			Status: corev1.PodStatus{Phase: corev1.PodPhase(p.Status.Phase)},
		})
	}
	c.ClearActions()
	uerr := dsSyncDeployment(dc, context.Background(), "default/foo")

	want := maps.Clone(before)
	finalStatus := ud.Status
	finalAnn := ud.Annotations
	var finalTemplate *corev1.PodTemplateSpec
	for _, a := range c.Actions() {
		if ca, ok := a.(clienttesting.CreateAction); ok && a.GetVerb() == "create" {
			if rs, ok := ca.GetObject().(*appsv1.ReplicaSet); ok && failed[rs.Name] > 0 {
				failed[rs.Name]--
				continue
			}
		}
		switch a.GetVerb() {
		case "create", "update":
			switch o := a.(clienttesting.CreateAction).GetObject().(type) {
			case *appsv1.ReplicaSet:
				want[o.Name] = dsRSState{*o.Spec.Replicas, o.Spec.MinReadySeconds, o.Annotations}
			case *appsv1.Deployment:
				finalAnn = o.Annotations
				if a.GetSubresource() == "status" {
					finalStatus = o.Status
				} else {
					tmpl := o.Spec.Template
					finalTemplate = &tmpl
				}
			}
		case "delete":
			delete(want, a.(clienttesting.DeleteAction).GetName())
		}
	}
	if uerr != nil && plan.Path != rollout.PathHashCollision {
		t.Fatalf("upstream sync failed (%v) where kubesem took path %s", uerr, plan.Path)
	}

	got := map[string]dsRSState{}
	for _, rs := range plan.Apply(rss, now) {
		got[rs.Name] = dsRSState{rs.Replicas(), rs.Spec.MinReadySeconds, rs.Annotations}
	}
	if !dsSame(got, want) {
		t.Fatalf("path %s: ReplicaSets after the sync:\nkubesem  %v\nupstream %v\nactions %+v", plan.Path, got, want, plan.Actions)
	}
	gs := plan.Status
	if gs.ObservedGeneration != finalStatus.ObservedGeneration || gs.Replicas != finalStatus.Replicas || gs.UpdatedReplicas != finalStatus.UpdatedReplicas ||
		gs.ReadyReplicas != finalStatus.ReadyReplicas || gs.AvailableReplicas != finalStatus.AvailableReplicas || gs.UnavailableReplicas != finalStatus.UnavailableReplicas ||
		(gs.CollisionCount == nil) != (finalStatus.CollisionCount == nil) || (gs.CollisionCount != nil && *gs.CollisionCount != *finalStatus.CollisionCount) {
		t.Fatalf("path %s: status\nkubesem  %+v\nupstream %+v", plan.Path, gs, finalStatus)
	}
	var gc, wc []dsCond
	for _, x := range gs.Conditions {
		gc = append(gc, dsCond{string(x.Type), string(x.Status), x.Reason})
	}
	for _, x := range finalStatus.Conditions {
		wc = append(wc, dsCond{string(x.Type), string(x.Status), x.Reason})
	}
	if fmt.Sprint(gc) != fmt.Sprint(wc) {
		t.Fatalf("path %s: conditions\nkubesem  %v\nupstream %v", plan.Path, gc, wc)
	}
	gotAnn := d.Annotations
	if plan.Annotations != nil {
		gotAnn = plan.Annotations
	}
	if gotAnn[rollout.RevisionAnnotation] != finalAnn[rollout.RevisionAnnotation] || gotAnn[rollout.RollbackToAnnotation] != finalAnn[rollout.RollbackToAnnotation] {
		t.Fatalf("path %s: deployment annotations\nkubesem  %v\nupstream %v", plan.Path, gotAnn, finalAnn)
	}
	gotImage, wantImage := d.Spec.Template.Spec.Containers[0].Image, d.Spec.Template.Spec.Containers[0].Image
	if plan.Template != nil {
		gotImage = plan.Template.Spec.Containers[0].Image
	}
	if finalTemplate != nil {
		wantImage = finalTemplate.Spec.Containers[0].Image
	}
	if gotImage != wantImage {
		t.Fatalf("path %s: template after rollback kubesem %s; upstream %s", plan.Path, gotImage, wantImage)
	}
}

// TestRolloutStepDifferential compares Step (applied with Plan.Apply) with
// one syncDeployment of the controller over informer caches holding the
// same Deployment, ReplicaSets and pods: the ReplicaSets after the sync
// (size, minReadySeconds, annotations), the status counts and condition
// (type, status, reason) sequence, the revision annotation and a rollback's
// template. Condition times are not compared: upstream stamps the wall clock.
func TestRolloutStepDifferential(t *testing.T) { rapid.Check(t, dsCheckStep) }
