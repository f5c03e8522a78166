package node

import (
	"errors"
	"testing"
	"time"

	"github.com/kubesem/kubesem/field"
)

func TestNodeConditions(t *testing.T) {
	var nilNode *Node
	if nilNode.IsReady() {
		t.Error("nil node ready")
	}
	if _, ok := nilNode.Condition(Ready); ok {
		t.Error("nil node has a condition")
	}
	n := &Node{}
	n.Status.Conditions = []Condition{{Type: MemoryPressure, Status: ConditionTrue}, {Type: Ready, Status: ConditionTrue}, {Type: Ready, Status: ConditionFalse}}
	if !n.IsReady() {
		t.Error("the first Ready condition decides")
	}
	c, ok := n.Condition(Ready)
	if !ok || c.Status != ConditionTrue {
		t.Errorf("Condition: %+v %v", c, ok)
	}
	c.Status = ConditionUnknown
	if !n.IsReady() {
		t.Error("Condition returned a reference, not a copy")
	}
	n.Status.Conditions = []Condition{{Type: Ready, Status: ConditionUnknown}}
	if n.IsReady() {
		t.Error("Unknown is ready")
	}
	if _, ok := n.Condition(DiskPressure); ok {
		t.Error("missing condition found")
	}
}

func TestMatchTaint(t *testing.T) {
	now := time.Now()
	a := Taint{Key: "k", Value: "v", Effect: NoExecute, TimeAdded: &now}
	if !a.MatchTaint(Taint{Key: "k", Value: "w", Effect: NoExecute}) {
		t.Error("value or time counted")
	}
	if a.MatchTaint(Taint{Key: "k", Effect: NoSchedule}) || a.MatchTaint(Taint{Key: "j", Effect: NoExecute}) {
		t.Error("key or effect ignored")
	}
}

func TestExcludedFromDisruption(t *testing.T) {
	if ExcludedFromDisruption(nil) {
		t.Error("nil excluded")
	}
	n := &Node{}
	n.Labels = map[string]string{LabelExcludeDisruption: ""}
	if !ExcludedFromDisruption(n) {
		t.Error("empty value not excluded")
	}
	n.Labels = map[string]string{"other": "x"}
	if ExcludedFromDisruption(n) {
		t.Error("other label excluded")
	}
}

func TestAllocatablePods(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		alloc map[string]string
		pods  int64
		ok    bool
		err   bool
	}{
		{nil, 0, false, false},
		{map[string]string{"cpu": "4"}, 0, false, false},
		{map[string]string{"pods": "110"}, 110, true, false},
		{map[string]string{"pods": "0"}, 0, true, false},
		{map[string]string{"pods": "-1"}, 0, false, true},
		{map[string]string{"pods": "1k"}, 0, false, true},
	} {
		n := &Node{Status: Status{Allocatable: c.alloc}}
		pods, ok, err := n.AllocatablePods()
		if pods != c.pods || ok != c.ok || (err != nil) != c.err {
			t.Errorf("%v: %d, %v, %v", c.alloc, pods, ok, err)
		}
		var fe *field.Error
		if c.err && (!errors.As(err, &fe) || fe.Path != "status.allocatable.pods") {
			t.Errorf("%v: error %v not at status.allocatable.pods", c.alloc, err)
		}
	}
}
