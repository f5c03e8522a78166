package node

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/kubesem/kubesem/field"
	"github.com/kubesem/kubesem/podstatus"
)

func TestNoScheduleStep(t *testing.T) {
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

func TestEvictionStepDuplicateNames(t *testing.T) {
	n := &Node{}
	n.Name = "n1"
	n.Spec.Taints = []Taint{{Key: TaintNotReady, Effect: NoExecute}}
	a := &podstatus.Pod{}
	a.Name, a.Namespace, a.Spec.NodeName = "web", "a", "n1"
	b := &podstatus.Pod{}
	b.Name, b.Namespace, b.Spec.NodeName = "web", "b", "n1"
	_, err := EvictionStep(n, []*podstatus.Pod{a, b}, nil, time.Date(2024, 3, 1, 0, 0, 0, 0, time.UTC), Options{})
	if !errors.Is(err, field.ErrDuplicate) || !strings.Contains(err.Error(), "pods[1].metadata.name") {
		t.Fatalf("err = %v", err)
	}
}
