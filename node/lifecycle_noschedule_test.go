package node

import (
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
