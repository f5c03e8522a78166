package podstatus_test

import (
	"testing"
	"time"

	"github.com/kubesem/kubesem/meta"
	"github.com/kubesem/kubesem/podstatus"
)

var rankNow = time.Date(2024, 6, 1, 12, 0, 0, 0, time.UTC)

func rankAgo(d time.Duration) time.Time { return rankNow.Add(-d) }

// rankPod is a pod on node, ready since readySince (not ready when zero).
func rankPod(name, node string, phase podstatus.Phase, readySince, created time.Time) *podstatus.Pod {
	p := &podstatus.Pod{}
	p.Name, p.UID, p.Namespace = name, "uid-"+name, "default"
	p.Spec.NodeName = node
	p.Status.Phase = phase
	p.CreationTimestamp = created
	if !readySince.IsZero() {
		p.Status.Conditions = []podstatus.Condition{{Type: podstatus.Ready, Status: meta.ConditionTrue, LastTransitionTime: readySince}}
	}
	return p
}

func TestDeletesBefore(t *testing.T) {
	t.Parallel()
	a := rankPod("a", "n1", podstatus.Running, rankAgo(150*time.Second), rankAgo(time.Hour))
	b := rankPod("b", "n1", podstatus.Running, rankAgo(250*time.Second), rankAgo(time.Hour))
	a.UID, b.UID = "x", "x"
	// Equal UIDs in one bucket: upstream stops at rule 6 with neither first.
	if podstatus.DeletesBefore(a, b, 0, 0, rankNow, podstatus.WithCost) || podstatus.DeletesBefore(b, a, 0, 0, rankNow, podstatus.WithCost) {
		t.Errorf("DeletesBefore(equal UIDs, same bucket) = true; want false both ways")
	}
	if !podstatus.DeletesBefore(a, b, 2, 1, rankNow, podstatus.WithCost) {
		t.Errorf("DeletesBefore(rank 2, rank 1) = false; want true")
	}
	if !podstatus.DeletesBefore(nil, a, 0, 0, rankNow, podstatus.WithCost) {
		t.Errorf("DeletesBefore(nil, ready) = false; want true")
	}
}
