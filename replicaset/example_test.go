package replicaset_test

import (
	"fmt"
	"time"

	"github.com/kubesem/kubesem/podstatus"
	"github.com/kubesem/kubesem/replicaset"
)

// Bare pods created after the ReplicaSet are adopted, then deleted as excess
// (seed 000 ReplicaSet, acquisition of non-template pods).
func ExampleStep() {
	rs := frontend(3)
	pods := []*podstatus.Pod{
		owned(pod("frontend-b2zdv", "n1", podstatus.Running, ago(10*time.Minute), ago(10*time.Minute)), rs),
		owned(pod("frontend-vcmts", "n1", podstatus.Running, ago(10*time.Minute), ago(10*time.Minute)), rs),
		owned(pod("frontend-wtsmm", "n1", podstatus.Running, ago(10*time.Minute), ago(10*time.Minute)), rs),
		pod("pod1", "n2", podstatus.Pending, time.Time{}, ago(time.Second)),
		pod("pod2", "n2", podstatus.Pending, time.Time{}, ago(time.Second)),
	}
	plan, _ := replicaset.Step(rs, pods, nil, now, replicaset.Options{})
	for _, p := range plan.Adopt {
		fmt.Println("adopt", p.Name)
	}
	for _, p := range plan.Delete {
		fmt.Println("delete", p.Name)
	}
	// Output:
	// adopt pod1
	// adopt pod2
	// delete pod1
	// delete pod2
}

// Pods created before the ReplicaSet are adopted and only the missing pod
// is created.
func ExampleStep_podsFirst() {
	rs := frontend(3)
	pods := []*podstatus.Pod{
		pod("pod1", "n1", podstatus.Running, ago(30*time.Second), ago(36*time.Second)),
		pod("pod2", "n1", podstatus.Running, ago(30*time.Second), ago(36*time.Second)),
	}
	plan, _ := replicaset.Step(rs, pods, nil, now, replicaset.Options{})
	fmt.Println(len(plan.Adopt), "adopted,", plan.Create.Count, "created in batches", plan.Batches)
	// Output: 2 adopted, 1 created in batches [1]
}

func ExampleSlowStart() {
	sizes, ok := replicaset.SlowStart(10, 5)
	fmt.Println(sizes, ok)
	// Output: [1 2 4] 5
}

// Which pods a scale-down removes first: a pending pod before running ones,
// then pods on crowded nodes (NodeRanks), newer before older.
func ExampleRankForDeletion() {
	pods := []*podstatus.Pod{
		pod("web-a", "n1", podstatus.Running, ago(time.Hour), ago(time.Hour)),
		pod("web-b", "n1", podstatus.Running, ago(2*time.Minute), ago(3*time.Minute)),
		pod("web-c", "n2", podstatus.Pending, time.Time{}, ago(time.Minute)),
	}
	r := replicaset.RankForDeletion(pods, replicaset.NodeRanks(pods, pods), now, replicaset.Options{})
	for _, i := range r.Order {
		fmt.Println(pods[i].Name)
	}
	// Output:
	// web-c
	// web-b
	// web-a
}
