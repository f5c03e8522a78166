package node

import (
	"strconv"
	"testing"

	"github.com/stretchr/testify/require"
)

// The zone table numbers zones in order of first sight and finds each
// again, scanned (up to zoneScan zones), then hashed and grown past 32;
// region and zone are told apart ("a", "" is not "", "a").
func TestZoneTable(t *testing.T) {
	t.Parallel()
	var zt zoneTable
	type key struct{ region, zone string }
	keys := []key{{"", ""}, {"a", ""}, {"", "a"}, {"a", "b"}, {"ab", ""}, {"", "ab"}}
	for i := range 100 {
		keys = append(keys, key{"r" + strconv.Itoa(i%7), "z" + strconv.Itoa(i)})
	}
	for i, k := range keys {
		require.Equal(t, i, zt.index(k.region, k.zone), "first sight of %q", k)
		for j, old := range keys[:i+1] { // every zone so far, found again
			require.Equal(t, j, zt.index(old.region, old.zone), "after adding %q: %q", k, old)
		}
	}
	for i, k := range keys {
		require.Equal(t, i, zt.index(k.region, k.zone), "again: %q", k)
	}
	require.Len(t, zt.zones, len(keys))
}
