package daemonset

import (
	"testing"
	"time"

	"github.com/kubesem/kubesem/node"
	"github.com/kubesem/kubesem/podstatus"
)

func TestStatusOf(t *testing.T) {
	t.Parallel()
	ds := testDS()
	ds.Spec.MinReadySeconds = 30
	nodes := []*node.Node{
		testNode("a"), testNode("b"), testNode("c"), testNode("d"), testNode("e"),
		testNode("tainted", node.Taint{Key: "x", Effect: node.NoSchedule}),
		testNode("empty-tainted", node.Taint{Key: "x", Effect: node.NoSchedule}),
	}
	pods := []*podstatus.Pod{
		testPod("pa", "a", "new", tHour, tHour),                          // ready, available, updated
		testPod("pb", "b", "old", tHour, tNow.Add(-10*time.Second)),      // ready, not yet available
		testPod("pc-young", "c", "new", tNow, tNow),                      // the younger pod on c
		testPod("pc-old", "c", "old", tHour, never),                      // the oldest decides: not ready, not updated
		withPhase(testPod("pd", "d", "new", tHour, never), "Pending"),    // scheduled, not ready
		testPod("pt", "tainted", "new", tHour, tHour),                    // misscheduled
		testPod("ghost", "not-listed", "new", tHour, tHour),              // not counted
		testPod("pe-edge", "e", "new", tHour, tNow.Add(-30*time.Second)), // available exactly at minReadySeconds
	}
	states, _ := groupNodes(ds, nodes, pods, Options{})
	got := statusOf(ds, states, "new", 0, false, tNow)
	want := Status{DesiredNumberScheduled: 5, CurrentNumberScheduled: 5, NumberMisscheduled: 1, NumberReady: 3,
		NumberAvailable: 2, UpdatedNumberScheduled: 3, NumberUnavailable: 3}
	if got != want {
		t.Errorf("statusOf =\n%+v; want\n%+v", got, want)
	}
}

// A node whose only pods are terminal and deleting counts as unscheduled:
// such pods are not in upstream's nodeToDaemonPods.
func TestStatusOfIgnoresTerminalDeletingPods(t *testing.T) {
	t.Parallel()
	ds := testDS()
	p := deleting(withPhase(testPod("p", "a", "new", tHour, never), podstatus.Failed), tHour)
	states, _ := groupNodes(ds, []*node.Node{testNode("a")}, []*podstatus.Pod{p}, Options{})
	if got := statusOf(ds, states, "new", 0, false, tNow); got.CurrentNumberScheduled != 0 || got.DesiredNumberScheduled != 1 {
		t.Errorf("statusOf = %+v", got)
	}
}

func TestWriteStatus(t *testing.T) {
	t.Parallel()
	counts := Status{DesiredNumberScheduled: 2, CurrentNumberScheduled: 2, NumberReady: 1, NumberAvailable: 1, UpdatedNumberScheduled: 2, NumberUnavailable: 1}
	cc := int32(3)
	for _, c := range []struct {
		name     string
		have     Status
		gen      int64
		write    bool
		observed int64
	}{
		{"same counts, generation observed: no write", withObserved(counts, 2), 2, false, 2},
		{"same counts, observed ahead: no write", withObserved(counts, 3), 2, false, 3},
		{"same counts, generation newer: write", withObserved(counts, 1), 2, true, 2},
		{"a count differs: write", withObserved(Status{DesiredNumberScheduled: 2}, 2), 2, true, 2},
	} {
		ds := testDS()
		ds.Generation = c.gen
		ds.Status = c.have
		ds.Status.CollisionCount = &cc
		got, write := writeStatus(ds, counts)
		if write != c.write || got.ObservedGeneration != c.observed {
			t.Errorf("%s: write %v, observed %d", c.name, write, got.ObservedGeneration)
		}
		if write && (got.NumberReady != 1 || got.NumberUnavailable != 1) {
			t.Errorf("%s: wrote %+v", c.name, got)
		}
		if got.CollisionCount == nil || *got.CollisionCount != 3 || got.CollisionCount == ds.Status.CollisionCount {
			t.Errorf("%s: collisionCount %v not kept as a copy", c.name, got.CollisionCount)
		}
	}
}

func withObserved(s Status, g int64) Status {
	s.ObservedGeneration = g
	return s
}
