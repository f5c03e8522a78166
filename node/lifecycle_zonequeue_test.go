package node

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// The tainting queue is a unique queue: a node is added once, ordered by
// process time then name, and a finished node stays in the set (Done)
// until it is removed.
func TestZoneQueue(t *testing.T) {
	t.Parallel()
	var z ZoneMemory
	z.add("b", t0)
	z.add("a", t0)
	z.add("c", t0.Add(-time.Second))
	z.add("a", t0.Add(time.Hour))
	require.Equal(t, []Queued{
		{Node: "c", AddedAt: t0.Add(-time.Second), ProcessAt: t0.Add(-time.Second)},
		{Node: "a", AddedAt: t0, ProcessAt: t0},
		{Node: "b", AddedAt: t0, ProcessAt: t0},
	}, z.Queue)

	z.finish("a")
	require.Equal(t, []string{"a"}, z.Done)
	require.True(t, z.has("a"), "finished nodes stay in the set")
	z.add("a", t0.Add(time.Minute))
	require.Len(t, z.Queue, 2, "a finished node is not queued again")

	z.remove("a")
	z.remove("c")
	require.Empty(t, z.Done)
	require.Equal(t, []Queued{{Node: "b", AddedAt: t0, ProcessAt: t0}}, z.Queue)
	require.False(t, z.has("a"))
}
