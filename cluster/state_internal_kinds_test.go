package cluster

import "testing"

// TestKindIndex: kindIndex is each kind's place in kinds (the State's
// per-kind arrays and ownership bits rely on it), and -1 for any other.
func TestKindIndex(t *testing.T) {
	for i, k := range kinds {
		if got := kindIndex(k); got != i {
			t.Errorf("kindIndex(%s) = %d; want %d (its place in kinds)", k, got, i)
		}
	}
	if got := kindIndex("Service"); got != -1 {
		t.Errorf("kindIndex(Service) = %d; want -1", got)
	}
	if len(kinds) > 32 {
		t.Errorf("%d kinds do not fit State's 32-bit ownership masks", len(kinds))
	}
}
