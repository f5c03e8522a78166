package rollout_test

import (
	"fmt"
	"time"

	"github.com/kubesem/kubesem/intstr"
	"github.com/kubesem/kubesem/meta"
	"github.com/kubesem/kubesem/podstatus"
	"github.com/kubesem/kubesem/replicaset"
	"github.com/kubesem/kubesem/rollout"
)

// A rolling update of 3 replicas at the default 25%/25% runs between 3 and
// 4 pods; of 4 replicas, between 3 and 5 (seed 000:L1983-1995).
func ExampleFenceposts() {
	for _, n := range []int32{3, 4} {
		surge, unavailable, _ := rollout.Fenceposts(intstr.Percent(25), intstr.Percent(25), n)
		fmt.Printf("%d replicas: %d to %d pods\n", n, n-unavailable, n+surge)
	}
	// Output:
	// 3 replicas: 3 to 4 pods
	// 4 replicas: 3 to 5 pods
}

// A stuck rollout of 10 replicas (maxSurge 3, maxUnavailable 2) with
// ReplicaSets of 8 (old) and 5 (new) is scaled to 15: the 5 extra pods are
// shared 3 to the old and 2 to the new ReplicaSet (seed 000:L1585).
func ExampleProportional() {
	surge, unavailable := intstr.Int(3), intstr.Int(2)
	d := &rollout.Deployment{}
	d.Spec.Replicas = ptr(int32(15))
	d.Spec.Strategy.RollingUpdate = &rollout.RollingUpdate{MaxSurge: &surge, MaxUnavailable: &unavailable}
	annotations := map[string]string{rollout.DesiredReplicasAnnotation: "10", rollout.MaxReplicasAnnotation: "13"}
	old := &replicaset.ReplicaSet{}
	old.Name, old.Annotations, old.Spec.Replicas = "nginx-deployment-618515232", annotations, ptr(int32(8))
	newRS := &replicaset.ReplicaSet{}
	newRS.Name, newRS.Annotations, newRS.Spec.Replicas = "nginx-deployment-1989198191", annotations, ptr(int32(5))
	newRS.CreationTimestamp = time.Date(2024, 1, 1, 0, 7, 0, 0, time.UTC)
	for _, s := range rollout.Proportional(d, newRS, []*replicaset.ReplicaSet{old}) {
		fmt.Printf("%s: %d -> %d\n", s.ReplicaSet.Name, s.ReplicaSet.Replicas(), s.Replicas)
	}
	// Output:
	// nginx-deployment-618515232: 8 -> 11
	// nginx-deployment-1989198191: 5 -> 7
}

// A Deployment of 5 replicas is updated to nginx:1.16.1 while only 3 pods of
// nginx:1.14.2 exist: the controller creates the new ReplicaSet and scales
// the old one down at once, without waiting for its 5 pods (seed
// 000:L1328, rollover).
func ExampleStep() {
	now := time.Date(2024, 6, 1, 12, 0, 0, 0, time.UTC)
	labels := map[string]string{"app": "nginx"}
	d := &rollout.Deployment{TemplateHash: "5d59d67564"}
	d.Name, d.UID = "nginx-deployment", "d-uid"
	d.Spec.Replicas = ptr(int32(5))
	d.Spec.Selector = meta.SelectorFromSet(labels)
	d.Spec.Template.Labels = labels
	d.Spec.Template.Spec.Containers = []podstatus.Container{{Name: "nginx", Image: "nginx:1.16.1"}}

	v1 := &replicaset.ReplicaSet{}
	v1.Name = "nginx-deployment-66b6c48dd5"
	v1.Labels = map[string]string{"app": "nginx", rollout.HashLabel: "66b6c48dd5"}
	v1.OwnerReferences = []meta.OwnerReference{meta.NewControllerRef("apps/v1", "Deployment", d.Name, d.UID)}
	v1.Spec.Replicas = ptr(int32(5))
	v1.Spec.Template.Labels = map[string]string{"app": "nginx", rollout.HashLabel: "66b6c48dd5"}
	v1.Spec.Template.Spec.Containers = []podstatus.Container{{Name: "nginx", Image: "nginx:1.14.2"}}
	v1.Annotations = map[string]string{rollout.RevisionAnnotation: "1", rollout.DesiredReplicasAnnotation: "5", rollout.MaxReplicasAnnotation: "7"}
	v1.Status.Replicas, v1.Status.AvailableReplicas = 3, 3

	plan, err := rollout.Step(d, []*replicaset.ReplicaSet{v1}, nil, now, rollout.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(plan.Outcome)
	for _, rs := range plan.Create.Objects {
		fmt.Printf("Create %s %s: %d\n", plan.Create.Reason, rs.Name, rs.Replicas())
	}
	for _, r := range plan.Scale {
		fmt.Printf("Scale %s %s: %d -> %d\n", r.Reason, r.Name, r.From, r.Replicas)
	}
	for _, rs := range plan.Apply([]*replicaset.ReplicaSet{v1}, now) {
		fmt.Printf("%s has %d replicas\n", rs.Name, rs.Replicas())
	}
	// Output:
	// RollingUpdate
	// Create CreateNew nginx-deployment-5d59d67564: 2
	// Scale CleanupUnhealthy nginx-deployment-66b6c48dd5: 5 -> 4
	// nginx-deployment-66b6c48dd5 has 4 replicas
	// nginx-deployment-5d59d67564 has 2 replicas
}

func ptr[T any](v T) *T { return &v }
