package node

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// swap stamps added taints with now, replaces a taint of the same key and
// effect in place, skips removing what is not there, records one write,
// and leaves the input node as it was.
func TestLifecycleSwap(t *testing.T) {
	t.Parallel()
	old := t0.Add(-time.Hour)
	in := &Node{}
	in.Name = "a"
	in.Spec.Taints = []Taint{{Key: "x", Effect: NoSchedule}, {Key: TaintNotReady, Effect: NoExecute, TimeAdded: &old}, {Key: "y", Effect: NoSchedule}}
	s := newLifecycle([]*Node{in}, nil, inOrder{}, Memory{}, t0, Options{}, Plan{})

	s.swap(0, nil, []Taint{unreachableTaint}, ReasonNodeReady)
	require.Empty(t, s.p.Taints, "nothing to remove, nothing to add: no write")

	s.swap(0, []Taint{notReadyTaint}, []Taint{unreachableTaint}, ReasonTaintNode)
	now := t0
	require.Equal(t, []TaintWrite{{Node: "a", Add: []Taint{{Key: TaintNotReady, Effect: NoExecute, TimeAdded: &now}}, Reason: ReasonTaintNode}}, s.p.Taints)
	require.Equal(t, []Taint{{Key: "x", Effect: NoSchedule}, {Key: TaintNotReady, Effect: NoExecute, TimeAdded: &now}, {Key: "y", Effect: NoSchedule}},
		s.nodes[0].Spec.Taints, "replaced in place")
	require.Equal(t, &old, in.Spec.Taints[1].TimeAdded, "input not modified")
	require.NotSame(t, in, s.nodes[0])
}
