package node

import (
	"encoding/json"
	"errors"
	"testing"
	"time"

	"github.com/kubesem/kubesem/field"
)

func TestNodeConditions(t *testing.T) {
	t.Parallel()
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
	t.Parallel()
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
	t.Parallel()
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

// A Lease as the API server returns it gives its name and renew time; the
// former flat form is not read.
func TestLeaseJSON(t *testing.T) {
	t.Parallel()
	var l Lease
	api := `{"apiVersion":"coordination.k8s.io/v1","kind":"Lease","metadata":{"name":"node-1","namespace":"kube-node-lease"},
	  "spec":{"holderIdentity":"node-1","leaseDurationSeconds":40,"renewTime":"2026-11-23T11:59:50.123456Z"}}`
	if err := json.Unmarshal([]byte(api), &l); err != nil {
		t.Fatal(err)
	}
	if l.Name != "node-1" || l.Spec.RenewTime == nil || l.Spec.RenewTime.Nanosecond() != 123456000 {
		t.Errorf("API lease: %+v", l)
	}
	var f Lease
	if err := json.Unmarshal([]byte(`{"name":"node-2","renewTime":"2026-11-23T12:00:00Z"}`), &f); err != nil || f.Name != "" || f.Spec.RenewTime != nil {
		t.Errorf("flat lease read: %+v, %v", f, err)
	}
}

func TestZone(t *testing.T) {
	t.Parallel()
	n := &Node{}
	if Zone(n) != "" {
		t.Fatal("no labels")
	}
	n.Labels = map[string]string{LabelTopologyZone: "a", LabelFailureZone: "b", LabelTopologyRegion: "r"}
	if Zone(n) != "r:\x00:b" {
		t.Fatalf("%q", Zone(n))
	}
	n.Labels = map[string]string{LabelTopologyZone: "a", LabelFailureZone: ""}
	if Zone(n) != "" {
		t.Fatalf("empty beta label wins: %q", Zone(n))
	}
}
