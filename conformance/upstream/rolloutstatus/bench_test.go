package rolloutstatus_test

import (
	"context"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/kubectl/pkg/polymorphichelpers"

	"github.com/kubesem/kubesem/conformance/upstream/internal/difftest"
	"github.com/kubesem/kubesem/meta"
	"github.com/kubesem/kubesem/replicaset"
	"github.com/kubesem/kubesem/rollout"
	"github.com/kubesem/kubesem/rolloutstatus"
)

// benchState is a rollout in progress: 10 replicas, an old ReplicaSet
// with 7 pods and a new one with 5, Progressing and Available set.
func benchState() (*rollout.Deployment, *replicaset.ReplicaSet, []*replicaset.ReplicaSet, time.Time) {
	n10, n7, n5 := int32(10), int32(7), int32(5)
	pds := int32(600)
	d := &rollout.Deployment{}
	d.Name, d.Namespace, d.Generation = "web", "ns", 3
	d.Spec.Replicas, d.Spec.ProgressDeadlineSeconds = &n10, &pds
	d.Status = rollout.Status{ObservedGeneration: 3, Replicas: 12, UpdatedReplicas: 4, ReadyReplicas: 10, AvailableReplicas: 10,
		Conditions: []rollout.Condition{
			{Type: rollout.Available, Status: meta.ConditionTrue, Reason: rollout.ReasonMinimumReplicasAvailable, LastUpdateTime: base, LastTransitionTime: base},
			{Type: rollout.Progressing, Status: meta.ConditionTrue, Reason: rollout.ReasonReplicaSetUpdated, LastUpdateTime: base, LastTransitionTime: base},
		}}
	old := &replicaset.ReplicaSet{}
	old.Name, old.Namespace = "web-old", "ns"
	old.Spec.Replicas = &n7
	old.Status = replicaset.Status{Replicas: 7, ReadyReplicas: 7, AvailableReplicas: 7, ObservedGeneration: 1, TerminatingReplicas: new(int32)}
	nrs := &replicaset.ReplicaSet{}
	nrs.Name, nrs.Namespace = "web-new", "ns"
	nrs.Spec.Replicas = &n5
	nrs.Status = replicaset.Status{Replicas: 5, ReadyReplicas: 4, AvailableReplicas: 4, ObservedGeneration: 1, TerminatingReplicas: new(int32)}
	return d, nrs, []*replicaset.ReplicaSet{old, nrs}, base.Add(time.Minute)
}

func BenchmarkComputeStatus(b *testing.B) {
	d, nrs, all, now := benchState()
	b.Run("kubesem", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			s := rollout.ComputeStatus(d, nrs, all, now)
			_ = rollout.SyncProgress(d, s, nrs, all, now)
		}
	})
	b.Run("upstream", func(b *testing.B) {
		dc, client := newController(b)
		ctx := context.Background()
		ud := difftest.UpDeployment(d)
		var uall []*appsv1.ReplicaSet
		for _, rs := range all {
			uall = append(uall, difftest.UpReplicaSet(rs))
		}
		unew := uall[1]
		difftest.DeploymentNowFn = func() time.Time { return now }
		difftest.DeploymentUtilNowFn = difftest.DeploymentNowFn
		defer func() { difftest.DeploymentNowFn, difftest.DeploymentUtilNowFn = time.Now, time.Now }()
		b.ReportAllocs()
		for b.Loop() {
			c := *ud
			// syncRolloutStatus computes calculateStatus itself and writes
			// through the (fake) client when the status changes.
			_ = syncRolloutStatus(dc, ctx, uall, unew, &c)
			client.ClearActions()
		}
	})
}

func BenchmarkCalculateStatusOnly(b *testing.B) {
	d, nrs, all, now := benchState()
	b.Run("kubesem", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			_ = rollout.ComputeStatus(d, nrs, all, now)
		}
	})
	b.Run("upstream", func(b *testing.B) {
		ud := difftest.UpDeployment(d)
		var uall []*appsv1.ReplicaSet
		for _, rs := range all {
			uall = append(uall, difftest.UpReplicaSet(rs))
		}
		b.ReportAllocs()
		for b.Loop() {
			_ = difftest.DeploymentCalculateStatus(uall, uall[1], ud)
		}
	})
}

func BenchmarkDeploymentRolloutStatus(b *testing.B) {
	d, _, _, _ := benchState()
	b.Run("kubesem", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			_ = rolloutstatus.Deployment(d, 0)
		}
	})
	b.Run("upstream", func(b *testing.B) {
		m, err := runtime.DefaultUnstructuredConverter.ToUnstructured(difftest.UpDeployment(d))
		if err != nil {
			b.Fatal(err)
		}
		u := &unstructured.Unstructured{Object: m}
		v := &polymorphichelpers.DeploymentStatusViewer{}
		b.ReportAllocs()
		for b.Loop() {
			_, _, _ = v.Status(u, 0)
		}
	})
}
