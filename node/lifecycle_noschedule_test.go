package node

import (
	"maps"
	"testing"
	"time"
)

func TestNoScheduleStep(t *testing.T) {
	t.Parallel()
	now := time.Date(2024, 3, 1, 0, 1, 0, 0, time.UTC)
	notReady := &Node{}
	notReady.Name = "a"
	notReady.Status.Conditions = []Condition{{Type: Ready, Status: ConditionFalse}}
	ready := &Node{}
	ready.Name = "b"
	ready.Status.Conditions = []Condition{{Type: Ready, Status: ConditionTrue}}
	ready.Spec.Taints = []Taint{{Key: TaintNotReady, Effect: NoSchedule}}
	p, err := NoScheduleStep([]*Node{ready, notReady}, now)
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Taints) != 2 || p.Taints[0].Node != "a" || len(p.Taints[0].Add) != 1 || p.Taints[0].Add[0].Key != TaintNotReady ||
		p.Taints[1].Node != "b" || len(p.Taints[1].Remove) != 1 {
		t.Fatalf("taints: %+v", p.Taints)
	}
	if len(p.Conditions) != 0 || len(p.Memory.Nodes) != 0 || p.Outcome != ReasonNodeUpdated {
		t.Fatalf("plan: %+v", p)
	}
	if len(ready.Spec.Taints) != 1 {
		t.Fatal("input modified")
	}
	if _, err := NoScheduleStep([]*Node{ready, ready}, now); err == nil {
		t.Fatal("duplicate node accepted")
	}
}

// The node worker sets the beta OS and architecture labels from the stable
// ones: added when missing, overwritten when different, nothing without a
// stable label; the patch follows the node's NoSchedule taint write.
func TestReconcileLabels(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name   string
		labels map[string]string
		want   map[string]string
	}{
		{"no labels", nil, nil},
		{"stable only", map[string]string{LabelOS: "linux", LabelArch: "amd64"}, map[string]string{LabelOSBeta: "linux", LabelArchBeta: "amd64"}},
		{"beta differs", map[string]string{LabelOS: "linux", LabelOSBeta: "windows"}, map[string]string{LabelOSBeta: "linux"}},
		{"in agreement", map[string]string{LabelOS: "linux", LabelOSBeta: "linux"}, nil},
		{"beta only", map[string]string{LabelArchBeta: "arm64"}, nil},
	} {
		n := &Node{}
		n.Name, n.Labels = "n", c.labels
		if got := ReconcileLabels(n); !maps.Equal(got, c.want) || (got == nil) != (c.want == nil) {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
	}
	n := &Node{}
	n.Name, n.Labels = "n", map[string]string{LabelOS: "linux"}
	n.Spec.Unschedulable = true
	p, err := NoScheduleStep([]*Node{n}, time.Unix(0, 0))
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Labels) != 1 || p.Labels[0].Node != "n" || p.Labels[0].Labels[LabelOSBeta] != "linux" {
		t.Fatalf("labels %+v", p.Labels)
	}
	ws, err := p.Writes([]*Node{n}, nil, time.Unix(0, 0))
	if err != nil {
		t.Fatal(err)
	}
	if len(ws) != 2 || ws[0].Reason != ReasonConditionTaints || ws[1].Reason != ReasonNodeLabel ||
		ws[1].Object.(*Node).Labels[LabelOSBeta] != "linux" || n.Labels[LabelOSBeta] != "" {
		t.Fatalf("writes %+v", ws)
	}
}
