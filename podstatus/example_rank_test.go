package podstatus_test

import (
	"fmt"
	"strings"
	"time"

	"github.com/kubesem/kubesem/meta"
	"github.com/kubesem/kubesem/podstatus"
)

// Upstream's ActivePods order, which the ReplicaSet and Job controllers
// share: unscheduled before scheduled, pending before running, not ready
// before ready, then the more recently ready first. Two pods the order
// cannot tell apart form a tie, pinned by name.
func ExampleRankActive() {
	readyAt := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	pod := func(name, node string, phase podstatus.Phase, ready time.Time) *podstatus.Pod {
		p := &podstatus.Pod{ObjectMeta: meta.ObjectMeta{Name: name, UID: "uid-" + name}}
		p.Spec.NodeName = node
		p.Status.Phase = phase
		if !ready.IsZero() {
			p.Status.Conditions = []podstatus.Condition{{Type: podstatus.Ready, Status: meta.ConditionTrue, LastTransitionTime: ready}}
		}
		return p
	}
	pods := []*podstatus.Pod{
		pod("old", "n1", podstatus.Running, readyAt),
		pod("new", "n1", podstatus.Running, readyAt.Add(time.Hour)),
		pod("starting", "n1", podstatus.Running, time.Time{}),
		pod("pending", "n2", podstatus.Pending, time.Time{}),
		pod("unscheduled-b", "", podstatus.Pending, time.Time{}),
		pod("unscheduled-a", "", podstatus.Pending, time.Time{}),
	}
	r := podstatus.RankActive(pods)
	var names []string
	for _, i := range r.Order {
		names = append(names, pods[i].Name)
	}
	fmt.Println(strings.Join(names, " "))
	for _, tie := range r.Ties() {
		fmt.Println("tie:", pods[tie[0]].Name, pods[tie[1]].Name)
	}
	// Output:
	// unscheduled-a unscheduled-b pending starting new old
	// tie: unscheduled-a unscheduled-b
}

// A controller that ranks pods again and again keeps one Ranker: each
// ranking reuses the memory of the one before, and holds until the next.
func ExampleRanker() {
	now := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	pod := func(name string, readyFor time.Duration) *podstatus.Pod {
		p := &podstatus.Pod{ObjectMeta: meta.ObjectMeta{Name: name, UID: "uid-" + name}}
		p.Spec.NodeName = "n1"
		p.Status.Phase = podstatus.Running
		p.Status.Conditions = []podstatus.Condition{{Type: podstatus.Ready, Status: meta.ConditionTrue, LastTransitionTime: now.Add(-readyFor)}}
		return p
	}
	var rk podstatus.Ranker
	for _, pods := range [][]*podstatus.Pod{
		{pod("a", time.Hour), pod("b", time.Minute), pod("c", 24*time.Hour)},
		{pod("d", time.Second), pod("e", time.Hour)},
	} {
		v := rk.RankForDeletion(pods, nil, now, podstatus.WithCost).Victims(1)
		fmt.Println("delete", pods[v.Pods[0]].Name) // read before rk's next call
	}
	// Output:
	// delete b
	// delete d
}
