package podstatus_test

import (
	"fmt"
	"time"

	"github.com/kubesem/kubesem/meta"
	"github.com/kubesem/kubesem/podstatus"
)

// A StatefulSet pod with minReadySeconds: 10 (seed 000:L2402) became Ready
// at 12:00:00. Nine seconds later it is not yet available and the
// controller looks again in one second; at ten seconds it is available,
// the boundary being inclusive in v1.36.3.
func ExampleIsAvailable() {
	readyAt := time.Date(2025, 1, 1, 12, 0, 0, 0, time.UTC)
	pod := &podstatus.Pod{Status: podstatus.Status{
		Phase: podstatus.Running,
		Conditions: []podstatus.Condition{
			{Type: podstatus.Ready, Status: meta.ConditionTrue, LastTransitionTime: readyAt},
		},
	}}
	const minReadySeconds = 10
	for _, after := range []time.Duration{9 * time.Second, 10 * time.Second} {
		now := readyAt.Add(after)
		next, wait := podstatus.NextAvailabilityCheck([]*podstatus.Pod{pod}, minReadySeconds, now)
		fmt.Printf("after %v: ready %v, available %v, check again %v %v\n",
			after, podstatus.IsReady(pod), podstatus.IsAvailable(pod, minReadySeconds, now), wait, next)
	}
	// Output:
	// after 9s: ready true, available false, check again true 1s
	// after 10s: ready true, available true, check again false 0s
}

// A pod's deletion cost comes from its annotation; "+10" and "008" are not
// valid and count as 0.
func ExampleDeletionCost() {
	for _, v := range []string{"-007", "+10", "008", "2147483647"} {
		pod := &podstatus.Pod{}
		pod.Annotations = map[string]string{podstatus.DeletionCostAnnotation: v}
		cost, valid := podstatus.DeletionCost(pod)
		fmt.Printf("%q: %d %v\n", v, cost, valid)
	}
	// Output:
	// "-007": -7 true
	// "+10": 0 false
	// "008": 0 false
	// "2147483647": 2147483647 true
}
