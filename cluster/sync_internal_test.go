package cluster

import "testing"

// TestReadsFit: every controller's reads fit the versions sync keeps of
// them (kindVersions).
func TestReadsFit(t *testing.T) {
	for _, c := range registry() {
		if len(c.reads) > maxReads {
			t.Errorf("%s reads %d kinds, more than %d", c.name, len(c.reads), maxReads)
		}
	}
}
