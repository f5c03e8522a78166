package node

import (
	"strconv"
	"testing"

	"github.com/stretchr/testify/require"
)

// The zone table numbers zones in order of first sight and finds each
// again after growing past its 32 built-in slots; region and zone are
// told apart ("a", "" is not "", "a").
func TestZoneTable(t *testing.T) {
	t.Parallel()
	var zt zoneTable
	zt.init()
	type key struct{ region, zone string }
	keys := []key{{"", ""}, {"a", ""}, {"", "a"}, {"a", "b"}, {"ab", ""}, {"", "ab"}}
	for i := range 100 {
		keys = append(keys, key{"r" + strconv.Itoa(i%7), "z" + strconv.Itoa(i)})
	}
	for i, k := range keys {
		require.Equal(t, i, zt.index(k.region, k.zone), "first sight of %q", k)
	}
	for i, k := range keys {
		require.Equal(t, i, zt.index(k.region, k.zone), "again: %q", k)
	}
	require.Len(t, zt.zones, len(keys))
}
