package rollout_test

import (
	"fmt"
	"slices"
	"testing"

	"github.com/kubesem/kubesem/intstr"
	"github.com/kubesem/kubesem/meta"
	"github.com/kubesem/kubesem/podstatus"
	"github.com/kubesem/kubesem/replicaset"
	"github.com/kubesem/kubesem/rollout"
)

// benchReplicaSets returns n active ReplicaSets of a Deployment being scaled
// from 10*n to 15*n replicas, the last one new.
func benchReplicaSets(n int) (*rollout.Deployment, *replicaset.ReplicaSet, []*replicaset.ReplicaSet) {
	d := deploy(int32(15*n), "3", "2")
	d.Spec.Template.Labels = map[string]string{"app": "foo"}
	d.Spec.Template.Spec.Containers = []podstatus.Container{{Name: "app", Image: fmt.Sprint("app:", n)}}
	d.Status.Replicas = int32(10 * n)
	var old []*replicaset.ReplicaSet
	for i := 0; i < n-1; i++ {
		r := annotated(rs(fmt.Sprint("rs", i), int32(5+i%10), int32(i%7), i), fmt.Sprint(10*n), fmt.Sprint(10*n+3))
		r.Spec.Template.Labels = map[string]string{"app": "foo", rollout.HashLabel: fmt.Sprint(i)}
		r.Spec.Template.Spec.Containers = []podstatus.Container{{Name: "app", Image: fmt.Sprint("app:", i)}}
		old = append(old, r)
	}
	newRS := annotated(rs("new", 5, 0, n), fmt.Sprint(10*n), fmt.Sprint(10*n+3))
	newRS.Spec.Template = d.Spec.Template
	newRS.Spec.Template.Labels = map[string]string{"app": "foo", rollout.HashLabel: "new"}
	// all d's (Step claims them)
	for _, r := range append(slices.Clip(old), newRS) {
		r.Labels = r.Spec.Template.Labels
		r.OwnerReferences = []meta.OwnerReference{meta.NewControllerRef("apps/v1", "Deployment", d.Name, d.UID)}
	}
	return d, newRS, old
}

func BenchmarkFenceposts(b *testing.B) {
	s, u := intstr.Percent(25), intstr.Percent(25)
	b.ReportAllocs()
	for b.Loop() {
		rollout.Fenceposts(s, u, 1000)
	}
}

func BenchmarkMaxUnavailable(b *testing.B) {
	d := deploy(1000, "25%", "25%")
	b.ReportAllocs()
	for b.Loop() {
		d.MaxUnavailable()
	}
}

func BenchmarkMinAvailable(b *testing.B) {
	d := deploy(1000, "25%", "25%")
	b.ReportAllocs()
	for b.Loop() {
		d.MinAvailable()
	}
}

func BenchmarkMaxSurge(b *testing.B) {
	d := deploy(1000, "25%", "25%")
	b.ReportAllocs()
	for b.Loop() {
		d.MaxSurge()
	}
}

func BenchmarkBounds(b *testing.B) {
	d := deploy(1000, "25%", "25%")
	b.ReportAllocs()
	for b.Loop() {
		d.Bounds()
	}
}

func BenchmarkNewReplicaSetReplicas(b *testing.B) {
	d, newRS, old := benchReplicaSets(10)
	all := append(old, newRS)
	b.ReportAllocs()
	for b.Loop() {
		rollout.NewReplicaSetReplicas(d, all, newRS)
	}
}

func BenchmarkProportion(b *testing.B) {
	d, newRS, _ := benchReplicaSets(2)
	b.ReportAllocs()
	for b.Loop() {
		rollout.Proportion(d, newRS, 10, 3)
	}
}

func BenchmarkProportional(b *testing.B) {
	for _, n := range []int{2, 100} {
		d, newRS, old := benchReplicaSets(n)
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				rollout.Proportional(d, newRS, old)
			}
		})
	}
}

func BenchmarkIsScalingEvent(b *testing.B) {
	d, newRS, old := benchReplicaSets(100)
	d.Spec.Replicas = i32(1000)
	all := append(old, newRS)
	b.ReportAllocs()
	for b.Loop() {
		d.IsScalingEvent(all)
	}
}

func BenchmarkIsSaturated(b *testing.B) {
	d, newRS, _ := benchReplicaSets(2)
	b.ReportAllocs()
	for b.Loop() {
		d.IsSaturated(newRS)
	}
}

func BenchmarkReconcileNewReplicaSet(b *testing.B) {
	d, newRS, old := benchReplicaSets(10)
	all := append(old, newRS)
	b.ReportAllocs()
	for b.Loop() {
		rollout.ReconcileNewReplicaSet(d, all, newRS)
	}
}

func BenchmarkReconcileOldReplicaSets(b *testing.B) {
	d, newRS, old := benchReplicaSets(10)
	d.Spec.Replicas = i32(50)
	all := append(old, newRS)
	b.ReportAllocs()
	for b.Loop() {
		rollout.ReconcileOldReplicaSets(d, all, old, newRS)
	}
}

func BenchmarkCleanupUnhealthy(b *testing.B) {
	_, _, old := benchReplicaSets(10)
	b.ReportAllocs()
	for b.Loop() {
		rollout.CleanupUnhealthy(old, 20)
	}
}

func BenchmarkScaleDownOld(b *testing.B) {
	d, newRS, old := benchReplicaSets(10)
	d.Spec.Replicas = i32(20)
	all := append(old, newRS)
	b.ReportAllocs()
	for b.Loop() {
		rollout.ScaleDownOld(d, all, old)
	}
}

func BenchmarkOldPodsRunning(b *testing.B) {
	d, newRS, old := benchReplicaSets(10)
	for _, r := range old {
		r.Status.Replicas = 0
	}
	var pods []*podstatus.Pod
	for i := 0; i < 50; i++ {
		pods = append(pods, ownedPod(old[i%len(old)], podstatus.Succeeded))
	}
	b.ReportAllocs()
	for b.Loop() {
		rollout.OldPodsRunning(d, newRS, old, pods)
	}
}

func BenchmarkFindNewReplicaSet(b *testing.B) {
	d, newRS, old := benchReplicaSets(10)
	all := append(old, newRS)
	b.Run("template", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			rollout.FindNewReplicaSet(d, all)
		}
	})
	dh := *d
	dh.TemplateHash = "new"
	b.Run("hash", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			rollout.FindNewReplicaSet(&dh, all)
		}
	})
}

func BenchmarkFindOldReplicaSets(b *testing.B) {
	d, newRS, old := benchReplicaSets(10)
	d.TemplateHash = "new"
	all := append(old, newRS)
	b.ReportAllocs()
	for b.Loop() {
		rollout.FindOldReplicaSets(d, all)
	}
}

func BenchmarkReplicaSetName(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		rollout.ReplicaSetName("nginx-deployment", "66b6c48dd5")
	}
}

func BenchmarkValidate(b *testing.B) {
	d, newRS, old := benchReplicaSets(10)
	all := append(old, newRS)
	b.ReportAllocs()
	for b.Loop() {
		rollout.Validate(d, all, nil)
	}
}

func BenchmarkStep(b *testing.B) {
	d, newRS, old := benchReplicaSets(10)
	d.TemplateHash = "new"
	all := append(old, newRS)
	now := t0.Add(3600e9)
	b.Run("scaling", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			rollout.Step(d, all, nil, now, rollout.Options{})
		}
	})
	w := rolloutWorld(10, "3", "2")
	w.d.TemplateHash = "v2"
	b.Run("rollover", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			rollout.Step(w.d, w.rss, nil, w.now, rollout.Options{})
		}
	})
}

func BenchmarkPlanApply(b *testing.B) {
	d, newRS, old := benchReplicaSets(10)
	d.TemplateHash = "new"
	all := append(old, newRS)
	p, err := rollout.Step(d, all, nil, t0, rollout.Options{})
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		p.Apply(all, t0)
	}
}

func BenchmarkClaimReplicaSet(b *testing.B) {
	d, newRS, _ := benchReplicaSets(2)
	b.ReportAllocs()
	for b.Loop() {
		rollout.ClaimReplicaSet(d, newRS)
	}
}
