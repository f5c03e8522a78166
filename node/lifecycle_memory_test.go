package node

import (
	"testing"
	"time"
	"unsafe"

	"github.com/stretchr/testify/require"
)

// The memory after a pass keeps the health records of nodes no longer
// listed, lists the nodes listed as registered, and shares no time or
// lease with the memory it was given.
func TestLifecycleMemory(t *testing.T) {
	t.Parallel()
	hb := t0.Add(-time.Minute)
	renew := t0.Add(-time.Second)
	mem := Memory{
		Nodes: map[string]Health{
			"gone": {ProbeTime: hb, ReadyHeartbeat: &hb, Known: true},
			"a":    {ProbeTime: hb, ReadyHeartbeat: &hb, Lease: &SavedLease{Name: "a", RenewTime: renew, HasRenewTime: true}, Known: true},
		},
		Known: []string{"a", "gone"},
	}
	p, err := Step([]*Node{readyNode("a", "z", t0)}, nil, nil, mem, t0, Options{})
	require.NoError(t, err)

	require.Equal(t, []string{"a"}, p.Memory.Known)
	require.Contains(t, p.Memory.Nodes, "gone", "a deleted node's record is kept")
	require.Equal(t, hb, *p.Memory.Nodes["gone"].ReadyHeartbeat)
	require.NotSame(t, &hb, p.Memory.Nodes["gone"].ReadyHeartbeat)
	require.NotSame(t, mem.Nodes["a"].Lease, p.Memory.Nodes["a"].Lease)
	require.Equal(t, t0, *p.Memory.Nodes["a"].ReadyHeartbeat, "the heartbeat of the node as listed")
	require.Equal(t, hb, *mem.Nodes["a"].ReadyHeartbeat, "input memory not modified")

	var removing []string
	for _, e := range p.Events {
		if e.Reason == ReasonEventRemovingNode {
			removing = append(removing, e.Object)
		}
	}
	require.Equal(t, []string{"gone"}, removing)
}

// ZoneMemory is larger than the 128 bytes a Go map stores inline (see its
// padding field).
func TestZoneMemorySize(t *testing.T) {
	t.Parallel()
	require.Greater(t, unsafe.Sizeof(ZoneMemory{}), uintptr(128))
}
