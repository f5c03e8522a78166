package node

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// noExecuteWrites returns the NoExecute part of the Plan's taint writes,
// as "reason node +added -removed" keys.
func noExecuteWrites(p Plan) []string {
	var out []string
	for _, w := range p.Taints {
		s := string(w.Reason) + " " + w.Node
		for _, t := range w.Add {
			if t.Effect == NoExecute {
				s += " +" + t.Key
			}
		}
		for _, t := range w.Remove {
			if t.Effect == NoExecute {
				s += " -" + t.Key
			}
		}
		if s != string(w.Reason)+" "+w.Node {
			out = append(out, s)
		}
	}
	return out
}

// A registered node whose Ready condition turns False: with the
// unreachable taint listed it is swapped at once; without, it waits in its
// zone's queue, and the Normal zone's bucket (one token at 0.1/s) lets one node
// through per pass. Ready again, both taints go.
func TestNoExecuteTainting(t *testing.T) {
	t.Parallel()
	nodes := []*Node{readyNode("a", "z", t0), readyNode("b", "z", t0), readyNode("c", "z", t0),
		readyNode("d", "z", t0), readyNode("e", "z", t0), readyNode("f", "z", t0)}
	p, err := Step(nodes, nil, nil, Memory{}, t0, Options{})
	require.NoError(t, err)
	require.Empty(t, noExecuteWrites(p))

	now := t0.Add(time.Second)
	for i, n := range nodes {
		n.Status.Conditions[0].LastHeartbeatTime = now
		if i < 3 { // three of six: the zone stays Normal
			n.Status.Conditions[0].Status = ConditionFalse
		}
	}
	nodes[2].Spec.Taints = []Taint{{Key: TaintUnreachable, Effect: NoExecute}}
	p, err = Step(nodes, nil, nil, p.Memory, now, Options{})
	require.NoError(t, err)
	require.Equal(t, []string{
		"SwapTaint c +" + TaintNotReady + " -" + TaintUnreachable,
		"TaintNode a +" + TaintNotReady,
	}, noExecuteWrites(p))
	z := p.Memory.Zones[Zone(nodes[0])]
	require.Equal(t, []string{"b"}, []string{z.Queue[0].Node}, "b waits for a token")
	require.Equal(t, []string{"a"}, z.Done)

	now = now.Add(10 * time.Second)
	for _, n := range nodes[:3] {
		n.Status.Conditions[0].Status = ConditionTrue
		n.Status.Conditions[0].LastHeartbeatTime = now
		n.Spec.Taints = []Taint{{Key: TaintNotReady, Effect: NoExecute}, {Key: TaintUnreachable, Effect: NoExecute}}
	}
	p, err = Step(nodes, nil, nil, p.Memory, now, Options{})
	require.NoError(t, err)
	require.Equal(t, []string{
		"NodeReady a -" + TaintUnreachable + " -" + TaintNotReady,
		"NodeReady b -" + TaintUnreachable + " -" + TaintNotReady,
		"NodeReady c -" + TaintUnreachable + " -" + TaintNotReady,
	}, noExecuteWrites(p))
	require.Empty(t, p.Memory.Zones[Zone(nodes[0])].Queue)
	require.Empty(t, p.Memory.Zones[Zone(nodes[0])].Done)
}
