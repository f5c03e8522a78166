package node

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"
)

func TestConditionTaints(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name  string
		conds []Condition
		unsch bool
		want  []Taint
	}{
		{"ready", []Condition{{Type: Ready, Status: ConditionTrue}}, false, nil},
		{"not ready", []Condition{{Type: Ready, Status: ConditionFalse}}, false, []Taint{{Key: TaintNotReady, Effect: NoSchedule}}},
		{"unknown", []Condition{{Type: Ready, Status: ConditionUnknown}}, false, []Taint{{Key: TaintUnreachable, Effect: NoSchedule}}},
		{"pressure false", []Condition{{Type: MemoryPressure, Status: ConditionFalse}, {Type: DiskPressure, Status: ConditionUnknown}}, false, nil},
		{"condition order, then unschedulable", []Condition{
			{Type: PIDPressure, Status: ConditionTrue}, {Type: Ready, Status: ConditionFalse},
			{Type: NetworkUnavailable, Status: ConditionTrue}, {Type: MemoryPressure, Status: ConditionTrue}, {Type: DiskPressure, Status: ConditionTrue},
		}, true, []Taint{
			{Key: TaintPIDPressure, Effect: NoSchedule}, {Key: TaintNotReady, Effect: NoSchedule},
			{Key: TaintNetworkUnavailable, Effect: NoSchedule}, {Key: TaintMemoryPressure, Effect: NoSchedule},
			{Key: TaintDiskPressure, Effect: NoSchedule}, {Key: TaintUnschedulable, Effect: NoSchedule},
		}},
	} {
		n := &Node{Spec: Spec{Unschedulable: c.unsch}, Status: Status{Conditions: c.conds}}
		if d := cmp.Diff(c.want, ConditionTaints(n)); d != "" {
			t.Errorf("%s: ConditionTaints (-want +got):\n%s", c.name, d)
		}
	}
}

// Only NoSchedule taints with a condition key (or the unschedulable key)
// take part: a NoExecute not-ready taint and someone else's NoSchedule
// taint are neither added nor removed.
func TestConditionTaintDiff(t *testing.T) {
	t.Parallel()
	n := &Node{
		Spec: Spec{Taints: []Taint{
			{Key: TaintDiskPressure, Effect: NoSchedule},
			{Key: TaintNotReady, Effect: NoExecute},
			{Key: "example.com/mine", Effect: NoSchedule},
			{Key: TaintMemoryPressure, Value: "x", Effect: NoSchedule},
		}},
		Status: Status{Conditions: []Condition{{Type: Ready, Status: ConditionFalse}, {Type: MemoryPressure, Status: ConditionTrue}}},
	}
	add, remove := ConditionTaintDiff(n)
	require.Equal(t, []Taint{{Key: TaintNotReady, Effect: NoSchedule}}, add)
	require.Equal(t, []Taint{{Key: TaintDiskPressure, Effect: NoSchedule}}, remove, "a value does not matter: memory-pressure stays")

	n.Spec.Taints = []Taint{{Key: TaintNotReady, Effect: NoSchedule}, {Key: TaintMemoryPressure, Effect: NoSchedule}}
	add, remove = ConditionTaintDiff(n)
	require.Empty(t, add)
	require.Empty(t, remove)
}
