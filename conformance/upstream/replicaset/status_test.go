package replicaset_test

import (
	"errors"
	"sync/atomic"
	"testing"
	"time"
	_ "unsafe" // go:linkname to the ReplicaSet controller's unexported rules

	apps "k8s.io/api/apps/v1"
	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	upstreamrs "k8s.io/kubernetes/pkg/controller/replicaset"
	"pgregory.net/rapid"

	"github.com/kubesem/kubesem/meta"
	"github.com/kubesem/kubesem/podstatus"
	"github.com/kubesem/kubesem/replicaset"
)

//go:linkname calculateStatus k8s.io/kubernetes/pkg/controller/replicaset.calculateStatus
func calculateStatus(rs *apps.ReplicaSet, activePods, terminatingPods []*v1.Pod, manageReplicasErr error, features upstreamrs.ReplicaSetControllerFeatures, now time.Time) apps.ReplicaSetStatus

//go:linkname slowStartBatch k8s.io/kubernetes/pkg/controller/replicaset.slowStartBatch
func slowStartBatch(count, initialBatchSize int, fn func() error) (int, error)

// checkStatus compares ComputeStatus with upstream calculateStatus
// (and the observedGeneration updateReplicaSetStatus writes).
func checkStatus(t *rapid.T) {
	now := base
	labels := []map[string]string{nil, {"app": "x"}, {"app": "x", "tier": "web"}, {"tier": "web"}}
	rs := &replicaset.ReplicaSet{}
	rs.Name, rs.Namespace, rs.UID = "rs", "default", "rs-uid"
	rs.Generation = rapid.Int64Range(0, 5).Draw(t, "generation")
	replicas := int32(rapid.IntRange(0, 12).Draw(t, "replicas"))
	rs.Spec.Replicas = &replicas
	rs.Spec.MinReadySeconds = int32(rapid.SampledFrom([]int{0, 1, 10, 300, 3600}).Draw(t, "minReady"))
	rs.Spec.Template.Labels = rapid.SampledFrom(labels).Draw(t, "templateLabels")
	rs.Kind = rapid.SampledFrom([]string{"", replicaset.KindReplicationController}).Draw(t, "kind")
	if rapid.Bool().Draw(t, "hasFailure") {
		rs.Status.Conditions = []replicaset.Condition{{Type: replicaset.ReplicaFailure, Status: meta.ConditionTrue, Reason: "FailedCreate"}}
	}
	if rapid.Bool().Draw(t, "hasOther") {
		rs.Status.Conditions = append(rs.Status.Conditions, replicaset.Condition{Type: "Other", Status: meta.ConditionFalse})
	}
	n := rapid.IntRange(0, 10).Draw(t, "active")
	active := make([]*podstatus.Pod, n)
	for i := range active {
		active[i] = drawPod(t, "a", "a", now)
		active[i].Labels = rapid.SampledFrom(labels).Draw(t, "podLabels")
	}
	terminating := make([]*podstatus.Pod, rapid.IntRange(0, 3).Draw(t, "terminating"))
	for i := range terminating {
		terminating[i] = drawPod(t, "t", "t", now)
	}
	var manageErr error
	if rapid.Bool().Draw(t, "manageErr") {
		manageErr = errors.New("boom")
	}
	got := replicaset.ComputeStatus(rs, active, terminating, manageErr, now, replicaset.Options{})

	urs := &apps.ReplicaSet{ObjectMeta: metav1.ObjectMeta{Name: "rs", Namespace: "default", Generation: rs.Generation}}
	urs.Spec.Replicas = &replicas
	urs.Spec.MinReadySeconds = rs.Spec.MinReadySeconds
	urs.Spec.Template.Labels = rs.Spec.Template.Labels
	for _, c := range rs.Status.Conditions {
		urs.Status.Conditions = append(urs.Status.Conditions, apps.ReplicaSetCondition{Type: apps.ReplicaSetConditionType(c.Type), Status: v1.ConditionStatus(c.Status), Reason: c.Reason})
	}
	want := calculateStatus(urs, v1Pods(active), v1Pods(terminating), manageErr,
		upstreamrs.ReplicaSetControllerFeatures{EnableStatusTerminatingReplicas: !rs.IsReplicationController()}, now)
	want.ObservedGeneration = rs.Generation

	if got.Replicas != want.Replicas || got.FullyLabeledReplicas != want.FullyLabeledReplicas ||
		got.ReadyReplicas != want.ReadyReplicas || got.AvailableReplicas != want.AvailableReplicas ||
		got.ObservedGeneration != want.ObservedGeneration {
		t.Fatalf("ComputeStatus counts = %+v; upstream %+v", got, want)
	}
	if (got.TerminatingReplicas == nil) != (want.TerminatingReplicas == nil) ||
		(got.TerminatingReplicas != nil && *got.TerminatingReplicas != *want.TerminatingReplicas) {
		t.Fatalf("terminatingReplicas = %v; upstream %v", got.TerminatingReplicas, want.TerminatingReplicas)
	}
	if len(got.Conditions) != len(want.Conditions) {
		t.Fatalf("conditions = %+v; upstream %+v", got.Conditions, want.Conditions)
	}
	for i, c := range want.Conditions {
		g := got.Conditions[i]
		if string(g.Type) != string(c.Type) || string(g.Status) != string(c.Status) || g.Reason != c.Reason || g.Message != c.Message {
			t.Fatalf("condition %d = %+v; upstream %+v", i, g, c)
		}
	}
}

func TestReplicaSetStatusDifferential(t *testing.T) {
	rapid.Check(t, checkStatus)
}

// checkSlowStart compares SlowStart with upstream slowStartBatch
// calling a function whose first succeed calls succeed.
func checkSlowStart(t *rapid.T) {
	count := rapid.IntRange(-2, 600).Draw(t, "count")
	succeed := rapid.IntRange(0, 700).Draw(t, "succeed")
	var calls atomic.Int64
	okUp, _ := slowStartBatch(count, 1, func() error {
		if calls.Add(1) > int64(succeed) {
			return errors.New("fail")
		}
		return nil
	})
	sizes, ok := replicaset.SlowStart(count, succeed)
	attempted := 0
	for _, s := range sizes {
		attempted += s
	}
	if ok != okUp || int64(attempted) != calls.Load() {
		t.Fatalf("SlowStart(%d, %d) = %v, %d successes; upstream %d calls, %d successes", count, succeed, sizes, ok, calls.Load(), okUp)
	}
}

func TestReplicaSetSlowStartDifferential(t *testing.T) {
	rapid.Check(t, checkSlowStart)
}
