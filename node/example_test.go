package node_test

import (
	"fmt"
	"time"

	"github.com/kubesem/kubesem/node"
)

// A pod with the default tolerations on a node that became unreachable is
// evicted 300 s after the taint; a pod without tolerations at once.
func ExampleEvictionFor() {
	seen := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	taints := []node.Taint{{Key: node.TaintUnreachable, Effect: node.NoExecute}}
	withDefaults := node.DefaultTolerations(nil, -1)
	fmt.Println(node.EvictionFor(withDefaults, taints, seen, node.Options{}).At.Format(time.TimeOnly))
	fmt.Println(node.EvictionFor(nil, taints, seen, node.Options{}).Kind)
	// Output:
	// 00:05:00
	// EvictNow
}

// The seed's 30 s / 10 s shutdown configuration: 20 s for regular pods,
// then 10 s for critical ones.
func ExampleMigrateShutdownConfig() {
	for _, p := range node.MigrateShutdownConfig(30*time.Second, 10*time.Second) {
		fmt.Println(p.Priority, p.Seconds)
	}
	// Output:
	// 0 20
	// 2000000000 10
}

func ExampleFindUntoleratedTaint() {
	taints := []node.Taint{{Key: "dedicated", Value: "gpu", Effect: node.NoSchedule}}
	t, ok := node.FindUntoleratedTaint(taints, nil, node.NoScheduleOrNoExecute, node.Options{})
	fmt.Println(ok, t.Key)
	// Output: true dedicated
}

// A kubelet configured only with nodeStatusUpdateFrequency 4s also reports
// its status every 4 s; unconfigured, every 5 minutes unless it changes.
func ExampleStatusReportFrequency() {
	fmt.Println(node.StatusReportFrequency(4*time.Second, 0))
	freq := node.StatusReportFrequency(0, 0)
	last := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	fmt.Println(freq, node.StatusUpdate(node.StatusUnchanged, last, 0, freq, last.Add(4*time.Minute)).Patch)
	// Output:
	// 4s
	// 5m0s false
}
