package cluster_test

import (
	"fmt"
	"time"

	"github.com/kubesem/kubesem/cluster"
)

// A Deployment of 6 on three nodes gets a new image at 1m; at 1m05s
// node-c stops heartbeating. The world runs until it settles.
func Example() {
	w, err := cluster.New(rollingScenario(), cluster.Options{})
	if err != nil {
		panic(err)
	}
	settled, ok := w.RunUntilSettled(time.Hour)
	fmt.Println("settled:", ok, "after", settled.Sub(t0))
	for _, d := range w.State.Deployments() {
		fmt.Printf("%s: %d updated, %d available\n", d.Name, d.Status.UpdatedReplicas, d.Status.AvailableReplicas)
	}
	for _, n := range w.State.Nodes() {
		pods, deleting := w.State.PodsOnNode(n.Name), 0
		for _, p := range pods {
			if p.IsDeleting() {
				deleting++
			}
		}
		fmt.Printf("%s: %d taints, %d pods (%d terminating)\n", n.Name, len(n.Spec.Taints), len(pods), deleting)
	}
	// The pods evicted from node-c stay Terminating: its kubelet is gone.

	// Output:
	// settled: true after 7m35s
	// web: 6 updated, 6 available
	// node-a: 0 taints, 3 pods (0 terminating)
	// node-b: 0 taints, 3 pods (0 terminating)
	// node-c: 2 taints, 4 pods (4 terminating)
}
