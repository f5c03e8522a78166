package deployment_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	k8sintstr "k8s.io/apimachinery/pkg/util/intstr"
	deploymentutil "k8s.io/kubernetes/pkg/controller/deployment/util"

	"github.com/kubesem/kubesem/intstr"
	"github.com/kubesem/kubesem/meta"
	"github.com/kubesem/kubesem/replicaset"
	"github.com/kubesem/kubesem/rollout"
)

// benchState is a Deployment scaled from 10*n to 15*n replicas in the
// middle of a rollout over n active ReplicaSets.
func benchState(n int) (*rollout.Deployment, *replicaset.ReplicaSet, []*replicaset.ReplicaSet) {
	replicas := int32(15 * n)
	surge, unavailable := intstr.Int(3), intstr.Int(2)
	d := &rollout.Deployment{}
	d.Name = "foo"
	d.Spec.Replicas = &replicas
	d.Spec.Selector = meta.SelectorFromSet(map[string]string{"app": "foo"})
	d.Spec.Strategy = rollout.Strategy{Type: rollout.RollingUpdateStrategy, RollingUpdate: &rollout.RollingUpdate{MaxSurge: &surge, MaxUnavailable: &unavailable}}
	d.Status.Replicas = int32(10 * n)
	mk := func(name string, size int32, age int) *replicaset.ReplicaSet {
		rs := &replicaset.ReplicaSet{}
		rs.Name, rs.UID = name, "uid-"+name
		rs.CreationTimestamp = base.Add(time.Duration(age) * time.Minute)
		rs.Spec.Replicas = &size
		rs.Annotations = map[string]string{rollout.DesiredReplicasAnnotation: fmt.Sprint(10 * n), rollout.MaxReplicasAnnotation: fmt.Sprint(10*n + 3)}
		return rs
	}
	var old []*replicaset.ReplicaSet
	for i := 0; i < n-1; i++ {
		old = append(old, mk(fmt.Sprint("rs", i), int32(5+i%10), i))
	}
	return d, mk("new", 5, n), old
}

func BenchmarkRolloutFenceposts(b *testing.B) {
	s, u := intstr.Percent(25), intstr.Percent(25)
	us, uu := k8sintstr.FromString("25%"), k8sintstr.FromString("25%")
	b.Run("kubesem", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			rollout.Fenceposts(s, u, 1000)
		}
	})
	b.Run("upstream", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			deploymentutil.ResolveFenceposts(&us, &uu, 1000)
		}
	})
}

func BenchmarkRolloutMaxUnavailable(b *testing.B) {
	d, _, _ := benchState(2)
	ud := toDeployment(d)
	b.Run("kubesem", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			d.MaxUnavailable()
		}
	})
	b.Run("upstream", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			deploymentutil.MaxUnavailable(*ud)
		}
	})
}

func BenchmarkRolloutNewReplicaSetReplicas(b *testing.B) {
	d, newRS, old := benchState(10)
	all := append(old, newRS)
	ud, uall, unew := toDeployment(d), toReplicaSets(all), toReplicaSet(newRS)
	b.Run("kubesem", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			rollout.NewReplicaSetReplicas(d, all, newRS)
		}
	})
	b.Run("upstream", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			deploymentutil.NewRSNewReplicas(ud, uall, unew)
		}
	})
}

// BenchmarkRolloutProportional compares Proportional over 100 ReplicaSets
// with the controller's scale, whose writes go to a fake client that only
// echoes them.
func BenchmarkRolloutProportional(b *testing.B) {
	d, newRS, old := benchState(100)
	ud, unew, uold := toDeployment(d), toReplicaSet(newRS), toReplicaSets(old)
	b.Run("kubesem", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			rollout.Proportional(d, newRS, old)
		}
	})
	b.Run("upstream", func(b *testing.B) {
		dc, c := newController()
		ctx := context.Background()
		olds := make([]*appsv1.ReplicaSet, len(uold))
		b.ReportAllocs()
		for b.Loop() {
			copy(olds, uold)
			if err := upScale(dc, ctx, ud, unew, olds); err != nil {
				b.Fatal(err)
			}
			c.ClearActions()
		}
	})
}

// BenchmarkRolloutReconcileOld compares ReconcileOldReplicaSets with the
// controller's reconcileOldReplicaSets over 10 ReplicaSets.
func BenchmarkRolloutReconcileOld(b *testing.B) {
	d, newRS, old := benchState(10)
	n := int32(50)
	d.Spec.Replicas = &n
	all := append(old, newRS)
	ud, uall, uold, unew := toDeployment(d), toReplicaSets(all), toReplicaSets(old), toReplicaSet(newRS)
	b.Run("kubesem", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			rollout.ReconcileOldReplicaSets(d, all, old, newRS)
		}
	})
	b.Run("upstream", func(b *testing.B) {
		dc, c := newController()
		ctx := context.Background()
		olds := make([]*appsv1.ReplicaSet, len(uold))
		b.ReportAllocs()
		for b.Loop() {
			copy(olds, uold)
			reconcileOld(dc, ctx, uall, olds, unew, ud)
			c.ClearActions()
		}
	})
}
