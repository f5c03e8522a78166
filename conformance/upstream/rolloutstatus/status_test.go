package rolloutstatus_test

import (
	"context"
	"math"
	"testing"
	"time"
	_ "unsafe" // go:linkname to the deployment controller's unexported rules

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	appsv1 "k8s.io/api/apps/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	k8sintstr "k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes/fake"
	clienttesting "k8s.io/client-go/testing"
	"k8s.io/kubectl/pkg/polymorphichelpers"
	appsdefaults "k8s.io/kubernetes/pkg/apis/apps/v1"
	"k8s.io/kubernetes/pkg/controller/deployment"
	"pgregory.net/rapid"

	"github.com/kubesem/kubesem/conformance/upstream/internal/difftest"
	"github.com/kubesem/kubesem/daemonset"
	"github.com/kubesem/kubesem/intstr"
	"github.com/kubesem/kubesem/meta"
	"github.com/kubesem/kubesem/replicaset"
	"github.com/kubesem/kubesem/rollout"
	"github.com/kubesem/kubesem/rolloutstatus"
	"github.com/kubesem/kubesem/statefulset"
)

//go:linkname syncRolloutStatus k8s.io/kubernetes/pkg/controller/deployment.(*DeploymentController).syncRolloutStatus
func syncRolloutStatus(dc *deployment.DeploymentController, ctx context.Context, allRSs []*appsv1.ReplicaSet, newRS *appsv1.ReplicaSet, d *appsv1.Deployment) error

//go:linkname requeueStuck k8s.io/kubernetes/pkg/controller/deployment.(*DeploymentController).requeueStuckDeployment
func requeueStuck(dc *deployment.DeploymentController, ctx context.Context, d *appsv1.Deployment, newStatus appsv1.DeploymentStatus) time.Duration

//go:linkname cleanup k8s.io/kubernetes/pkg/controller/deployment.(*DeploymentController).cleanupDeployment
func cleanup(dc *deployment.DeploymentController, ctx context.Context, oldRSs []*appsv1.ReplicaSet, d *appsv1.Deployment) error

// base is the time around which generated conditions are stamped; the
// upstream condition constructors stamp the wall clock instead of now, so a
// time after wall in upstream's answer stands for now.
var (
	base = time.Date(2017, 2, 15, 18, 49, 0, 0, time.UTC)
	wall = time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
)

// newController returns a deployment controller on a fake client.
func newController(t testing.TB) (*deployment.DeploymentController, *fake.Clientset) {
	client := &fake.Clientset{}
	inf := informers.NewSharedInformerFactory(client, 0)
	dc, err := deployment.NewDeploymentController(context.Background(), inf.Apps().V1().Deployments(), inf.Apps().V1().ReplicaSets(), inf.Core().V1().Pods(), client)
	if err != nil {
		t.Fatal(err)
	}
	difftest.StopOn(t, dc)
	return dc, client
}

func timeGen() *rapid.Generator[time.Time] {
	return rapid.Custom(func(t *rapid.T) time.Time {
		return base.Add(time.Duration(rapid.IntRange(-5, 200).Draw(t, "sec")) * time.Second).
			Add(time.Duration(rapid.SampledFrom([]int{0, 0, 1, -1}).Draw(t, "ns")))
	})
}

func condGen(types []rollout.ConditionType, reasons []string) *rapid.Generator[rollout.Condition] {
	return rapid.Custom(func(t *rapid.T) rollout.Condition {
		return rollout.Condition{
			Type:               rapid.SampledFrom(types).Draw(t, "type"),
			Status:             rapid.SampledFrom([]meta.ConditionStatus{meta.ConditionTrue, meta.ConditionFalse, meta.ConditionUnknown}).Draw(t, "status"),
			LastUpdateTime:     timeGen().Draw(t, "lut"),
			LastTransitionTime: timeGen().Draw(t, "ltt"),
			Reason:             rapid.SampledFrom(reasons).Draw(t, "reason"),
			Message:            rapid.SampledFrom([]string{"", "m"}).Draw(t, "message"),
		}
	})
}

var reasons = []string{"", rollout.ReasonNewReplicaSetAvailable, rollout.ReasonProgressDeadlineExceeded, rollout.ReasonReplicaSetUpdated,
	rollout.ReasonDeploymentPaused, rollout.ReasonDeploymentResumed, rollout.ReasonMinimumReplicasAvailable, "FailedCreate"}

func int32Ptr(t *rapid.T, label string, vals ...int32) *int32 {
	if rapid.Bool().Draw(t, label+"Nil") {
		return nil
	}
	v := rapid.SampledFrom(vals).Draw(t, label)
	return &v
}

func intOrPercent(t *rapid.T, label string) *intstr.Value {
	switch rapid.IntRange(0, 2).Draw(t, label+"Kind") {
	case 0:
		return nil
	case 1:
		v := intstr.Int(int32(rapid.IntRange(0, 4).Draw(t, label)))
		return &v
	}
	v := intstr.Percent(int32(rapid.SampledFrom([]int{0, 1, 25, 30, 50, 99, 100}).Draw(t, label)))
	return &v
}

func deploymentGen(t *rapid.T) *rollout.Deployment {
	d := &rollout.Deployment{}
	d.Name = "d"
	d.Namespace = "ns"
	d.Generation = int64(rapid.IntRange(0, 3).Draw(t, "generation"))
	d.Spec.Replicas = int32Ptr(t, "replicas", 0, 1, 2, 3, 4, 5, 10)
	d.Spec.ProgressDeadlineSeconds = int32Ptr(t, "pds", 1, 10, 30, 60, 600, math.MaxInt32)
	d.Spec.RevisionHistoryLimit = int32Ptr(t, "rhl", 0, 1, 2, 3, 10, math.MaxInt32)
	d.Spec.Paused = rapid.Bool().Draw(t, "paused")
	if rapid.Bool().Draw(t, "recreate") {
		d.Spec.Strategy.Type = rollout.RecreateStrategy
	} else if rapid.Bool().Draw(t, "hasRolling") {
		d.Spec.Strategy.RollingUpdate = &rollout.RollingUpdate{
			MaxSurge:       intOrPercent(t, "maxSurge"),
			MaxUnavailable: intOrPercent(t, "maxUnavailable"),
		}
	}
	s := &d.Status
	s.ObservedGeneration = int64(rapid.IntRange(0, 3).Draw(t, "observedGeneration"))
	s.Replicas = int32(rapid.IntRange(0, 6).Draw(t, "statusReplicas"))
	s.UpdatedReplicas = int32(rapid.IntRange(0, 6).Draw(t, "statusUpdated"))
	s.ReadyReplicas = int32(rapid.IntRange(0, 6).Draw(t, "statusReady"))
	s.AvailableReplicas = int32(rapid.IntRange(0, 6).Draw(t, "statusAvailable"))
	s.CollisionCount = int32Ptr(t, "collisionCount", 0, 1)
	s.Conditions = rapid.SliceOfN(condGen([]rollout.ConditionType{rollout.Progressing, rollout.Available, rollout.ReplicaFailure}, reasons), 0, 3).Draw(t, "conditions")
	return d
}

func replicaSetGen(i int) *rapid.Generator[*replicaset.ReplicaSet] {
	return rapid.Custom(func(t *rapid.T) *replicaset.ReplicaSet {
		rs := &replicaset.ReplicaSet{}
		rs.Name = "rs-" + string(rune('a'+i))
		rs.Namespace = "ns"
		rs.CreationTimestamp = base.Add(time.Duration(rapid.IntRange(0, 3).Draw(t, "age")) * time.Minute)
		rs.Generation = int64(rapid.IntRange(0, 2).Draw(t, "generation"))
		if rapid.Bool().Draw(t, "hasRevision") {
			rs.Annotations = map[string]string{rollout.RevisionAnnotation: rapid.SampledFrom([]string{"1", "2", "3", "4", "10", "x"}).Draw(t, "revision")}
		}
		if rapid.IntRange(0, 5).Draw(t, "deleting") == 0 {
			ts := base
			rs.DeletionTimestamp = &ts
		}
		rs.Spec.Replicas = int32Ptr(t, "replicas", 0, 0, 1, 2, 3, 5)
		rs.Status.Replicas = int32(rapid.IntRange(0, 5).Draw(t, "statusReplicas"))
		rs.Status.ReadyReplicas = int32(rapid.IntRange(0, 5).Draw(t, "ready"))
		rs.Status.AvailableReplicas = int32(rapid.IntRange(0, 5).Draw(t, "available"))
		rs.Status.ObservedGeneration = int64(rapid.IntRange(0, 2).Draw(t, "observedGeneration"))
		rs.Status.TerminatingReplicas = int32Ptr(t, "terminating", 0, 1, 2)
		if rapid.IntRange(0, 3).Draw(t, "failure") == 0 {
			rs.Status.Conditions = []replicaset.Condition{{
				Type:               replicaset.ReplicaFailure,
				Status:             rapid.SampledFrom([]meta.ConditionStatus{meta.ConditionTrue, meta.ConditionFalse}).Draw(t, "failureStatus"),
				LastTransitionTime: timeGen().Draw(t, "failureTime"),
				Reason:             rapid.SampledFrom([]string{"FailedCreate", "FailedDelete"}).Draw(t, "failureReason"),
			}}
		}
		return rs
	})
}

func replicaSetsGen(t *rapid.T) []*replicaset.ReplicaSet {
	n := rapid.IntRange(0, 4).Draw(t, "replicaSets")
	out := make([]*replicaset.ReplicaSet, n)
	for i := range out {
		out[i] = replicaSetGen(i).Draw(t, "rs")
	}
	return out
}

func upIntOrString(v *intstr.Value, def string) *k8sintstr.IntOrString {
	if v == nil {
		x := k8sintstr.FromString(def)
		return &x
	}
	if v.IsString() {
		x := k8sintstr.FromString(v.String())
		return &x
	}
	x := k8sintstr.FromInt32(v.IntValue())
	return &x
}

func int32Or(p *int32, def int32) *int32 {
	if p == nil {
		return &def
	}
	v := *p
	return &v
}

// fromUpstreamStatus converts back, mapping wall-clock stamps to now.
func fromUpstreamStatus(u appsv1.DeploymentStatus, now time.Time) rollout.Status {
	s := rollout.Status{
		ObservedGeneration: u.ObservedGeneration, Replicas: u.Replicas, UpdatedReplicas: u.UpdatedReplicas,
		ReadyReplicas: u.ReadyReplicas, AvailableReplicas: u.AvailableReplicas, UnavailableReplicas: u.UnavailableReplicas,
		TerminatingReplicas: u.TerminatingReplicas, CollisionCount: u.CollisionCount,
	}
	stamp := func(t metav1.Time) time.Time {
		if t.After(wall) {
			return now
		}
		return t.Time
	}
	for _, c := range u.Conditions {
		s.Conditions = append(s.Conditions, rollout.Condition{
			Type: rollout.ConditionType(c.Type), Status: meta.ConditionStatus(c.Status),
			LastUpdateTime: stamp(c.LastUpdateTime), LastTransitionTime: stamp(c.LastTransitionTime),
			Reason: c.Reason, Message: c.Message,
		})
	}
	return s
}

var cmpOpts = cmp.Options{cmpopts.EquateEmpty(), cmp.Comparer(func(a, b time.Time) bool { return a.Equal(b) })}

// TestRolloutStatusDifferential compares ComputeStatus + SyncProgress with
// upstream calculateStatus + syncRolloutStatus, and RequeueStuck with
// requeueStuckDeployment, on the same random states.
func TestRolloutStatusDifferential(t *testing.T) {
	dc, client := newController(t)
	ctx := context.Background()
	defer func() { difftest.DeploymentNowFn, difftest.DeploymentUtilNowFn = time.Now, time.Now }()
	rapid.Check(t, func(t *rapid.T) {
		d := deploymentGen(t)
		rss := replicaSetsGen(t)
		var newRS *replicaset.ReplicaSet
		if len(rss) > 0 && rapid.Bool().Draw(t, "hasNew") {
			newRS = rss[rapid.IntRange(0, len(rss)-1).Draw(t, "new")]
		}
		now := timeGen().Draw(t, "now")
		difftest.DeploymentNowFn = func() time.Time { return now }
		difftest.DeploymentUtilNowFn = difftest.DeploymentNowFn

		ud := difftest.UpDeployment(d)
		var uall []*appsv1.ReplicaSet
		var unew *appsv1.ReplicaSet
		for _, rs := range rss {
			u := difftest.UpReplicaSet(rs)
			if rs == newRS {
				unew = u
			}
			uall = append(uall, u)
		}

		// calculateStatus alone.
		wantCalc := fromUpstreamStatus(difftest.DeploymentCalculateStatus(uall, unew, ud), now)
		gotCalc := rollout.ComputeStatus(d, newRS, rss, now)
		if diff := cmp.Diff(wantCalc, gotCalc, cmpOpts); diff != "" {
			t.Fatalf("ComputeStatus differs (-upstream +kubesem):\n%s", diff)
		}

		// syncRolloutStatus (mutates ud.Status), then requeue on the
		// original status.
		before := ud.DeepCopy()
		_ = syncRolloutStatus(dc, ctx, uall, unew, ud)
		client.ClearActions()
		want := fromUpstreamStatus(ud.Status, now)
		got := rollout.SyncProgress(d, gotCalc, newRS, rss, now)
		if diff := cmp.Diff(want, got, cmpOpts); diff != "" {
			t.Fatalf("SyncProgress differs (-upstream +kubesem):\n%s", diff)
		}
		wantAfter := requeueStuck(dc, ctx, before, difftest.UpDeployment(&rollout.Deployment{Status: got}).Status)
		after, ok := rollout.RequeueStuck(d, got, now)
		switch {
		case wantAfter < 0 && ok, wantAfter >= 0 && !ok:
			t.Fatalf("RequeueStuck requeue = %v; upstream %v", ok, wantAfter)
		case wantAfter == 0 && after != 0, wantAfter > 0 && after != wantAfter+time.Second:
			t.Fatalf("RequeueStuck = %v; upstream returns %v (enqueued after +1s)", after, wantAfter)
		}
	})
}

// TestRolloutHistoryDifferential compares HistoryToDelete with the deletions
// upstream cleanupDeployment issues.
func TestRolloutHistoryDifferential(t *testing.T) {
	dc, client := newController(t)
	ctx := context.Background()
	rapid.Check(t, func(t *rapid.T) {
		d := deploymentGen(t)
		rss := replicaSetsGen(t)
		for i, n := 0, rapid.IntRange(0, 8).Draw(t, "more"); i < n; i++ {
			rss = append(rss, replicaSetGen(len(rss)).Draw(t, "rs"))
		}
		var uold []*appsv1.ReplicaSet
		for _, rs := range rss {
			uold = append(uold, difftest.UpReplicaSet(rs))
		}
		client.ClearActions()
		if err := cleanup(dc, ctx, uold, difftest.UpDeployment(d)); err != nil {
			t.Fatal(err)
		}
		var want []string
		for _, a := range client.Actions() {
			if del, ok := a.(clienttesting.DeleteActionImpl); ok {
				want = append(want, del.GetName())
			}
		}
		var got []string
		for _, rs := range rollout.HistoryToDelete(d, rss) {
			got = append(got, rs.Name)
		}
		if diff := cmp.Diff(want, got, cmpopts.EquateEmpty()); diff != "" {
			t.Fatalf("HistoryToDelete differs (-upstream +kubesem):\n%s", diff)
		}
	})
}

func toUnstructured(t *rapid.T, obj any) *unstructured.Unstructured {
	m, err := runtime.DefaultUnstructuredConverter.ToUnstructured(obj)
	if err != nil {
		t.Fatal(err)
	}
	return &unstructured.Unstructured{Object: m}
}

func viewerCompare(t *rapid.T, what string, msg string, done bool, err error, got rolloutstatus.Status) {
	wantErr := ""
	if err != nil {
		wantErr = err.Error()
	}
	if msg != got.Message || done != got.Done || wantErr != got.Err {
		t.Fatalf("%s = %q, %v, %q; upstream %q, %v, %q", what, got.Message, got.Done, got.Err, msg, done, wantErr)
	}
}

// TestRolloutViewerDifferential compares the three rollout status viewers
// with kubectl's.
func TestRolloutViewerDifferential(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		small := rapid.Int32Range(-1, 4)
		switch rapid.IntRange(0, 2).Draw(t, "kind") {
		case 0:
			d := deploymentGen(t)
			if rapid.Bool().Draw(t, "hasRevision") {
				d.Annotations = map[string]string{rollout.RevisionAnnotation: rapid.SampledFrom([]string{"1", "2", "x"}).Draw(t, "rev")}
			}
			revision := int64(rapid.IntRange(0, 2).Draw(t, "pin"))
			u := difftest.UpDeployment(d) // as the API server stores it (replicas defaulted)
			msg, done, err := (&polymorphichelpers.DeploymentStatusViewer{}).Status(toUnstructured(t, u), revision)
			viewerCompare(t, "DeploymentRolloutStatus", msg, done, err, rolloutstatus.Deployment(d, revision))
		case 1:
			var v daemonset.DaemonSet
			v.Name, v.Generation = "ds", int64(rapid.IntRange(0, 2).Draw(t, "generation"))
			v.Spec.UpdateStrategy.Type = daemonset.StrategyType(rapid.SampledFrom([]string{"RollingUpdate", "RollingUpdate", "OnDelete", ""}).Draw(t, "type"))
			v.Status.ObservedGeneration = int64(rapid.IntRange(0, 2).Draw(t, "observed"))
			v.Status.DesiredNumberScheduled = small.Draw(t, "desired")
			v.Status.UpdatedNumberScheduled = small.Draw(t, "updated")
			v.Status.NumberAvailable = small.Draw(t, "available")
			u := &appsv1.DaemonSet{}
			u.Name, u.Generation = v.Name, v.Generation
			u.Spec.UpdateStrategy.Type = appsv1.DaemonSetUpdateStrategyType(v.Spec.UpdateStrategy.Type)
			u.Status = appsv1.DaemonSetStatus{ObservedGeneration: v.Status.ObservedGeneration, DesiredNumberScheduled: v.Status.DesiredNumberScheduled,
				UpdatedNumberScheduled: v.Status.UpdatedNumberScheduled, NumberAvailable: v.Status.NumberAvailable}
			appsdefaults.SetObjectDefaults_DaemonSet(u) // kubectl reads the object as the API server stores it
			msg, done, err := (&polymorphichelpers.DaemonSetStatusViewer{}).Status(toUnstructured(t, u), 0)
			viewerCompare(t, "DaemonSetRolloutStatus", msg, done, err, rolloutstatus.DaemonSet(&v))
		default:
			var v statefulset.StatefulSet
			v.Name, v.Generation = "web", int64(rapid.IntRange(0, 2).Draw(t, "generation"))
			if rapid.Bool().Draw(t, "hasReplicas") {
				n := small.Draw(t, "replicas")
				v.Spec.Replicas = &n
			}
			v.Spec.UpdateStrategy.Type = statefulset.UpdateStrategyType(rapid.SampledFrom([]string{"RollingUpdate", "RollingUpdate", "OnDelete", ""}).Draw(t, "type"))
			if rapid.Bool().Draw(t, "hasRolling") {
				v.Spec.UpdateStrategy.RollingUpdate = &statefulset.RollingUpdateStrategy{}
				if rapid.Bool().Draw(t, "hasPartition") {
					p := small.Draw(t, "partition")
					v.Spec.UpdateStrategy.RollingUpdate.Partition = &p
				}
			}
			v.Status.ObservedGeneration = int64(rapid.IntRange(0, 2).Draw(t, "observed"))
			v.Status.ReadyReplicas = small.Draw(t, "ready")
			v.Status.CurrentReplicas = small.Draw(t, "current")
			v.Status.UpdatedReplicas = small.Draw(t, "updated")
			v.Status.CurrentRevision = rapid.SampledFrom([]string{"", "a", "b"}).Draw(t, "currentRevision")
			v.Status.UpdateRevision = rapid.SampledFrom([]string{"", "a", "b"}).Draw(t, "updateRevision")
			u := &appsv1.StatefulSet{}
			u.Name, u.Generation = v.Name, v.Generation
			u.Spec.Replicas = v.Spec.Replicas
			u.Spec.UpdateStrategy.Type = appsv1.StatefulSetUpdateStrategyType(v.Spec.UpdateStrategy.Type)
			if ru := v.Spec.UpdateStrategy.RollingUpdate; ru != nil {
				u.Spec.UpdateStrategy.RollingUpdate = &appsv1.RollingUpdateStatefulSetStrategy{Partition: ru.Partition}
			}
			u.Status = appsv1.StatefulSetStatus{ObservedGeneration: v.Status.ObservedGeneration, ReadyReplicas: v.Status.ReadyReplicas,
				CurrentReplicas: v.Status.CurrentReplicas, UpdatedReplicas: v.Status.UpdatedReplicas,
				CurrentRevision: v.Status.CurrentRevision, UpdateRevision: v.Status.UpdateRevision}
			appsdefaults.SetObjectDefaults_StatefulSet(u) // kubectl reads the object as the API server stores it
			msg, done, err := (&polymorphichelpers.StatefulSetStatusViewer{}).Status(toUnstructured(t, u), 0)
			viewerCompare(t, "StatefulSetRolloutStatus", msg, done, err, rolloutstatus.StatefulSet(&v))
		}
	})
}
