package statefulset

import (
	"testing"
	"time"

	"github.com/kubesem/kubesem/meta"
)

// Parallel slow-start batches 1, 2, 4 … capped at 500; a failed write ends
// the sync after its batch.
func TestParallelBatches(t *testing.T) {
	t.Parallel()
	deleting := genNow.Add(-time.Second)
	fail := func(n, at int32) int {
		cs := []*Claim{{ObjectMeta: meta.ObjectMeta{Name: ClaimName("www", "web", at), DeletionTimestamp: &deleting}}}
		p := mustStep(t, gset(n, parallel, claims("www")), nil, revs("web-v1"), cs, Options{})
		if p.Outcome != ReasonError || p.Requeue[0].Reason != ReasonClaimBeingDeleted {
			t.Fatalf("failing at %d: %s %+v", at, p.Outcome, p.Requeue)
		}
		return len(p.Create.Objects)
	}
	// batches [0] [1 2] [3..6] [7..14] …
	for _, c := range []struct{ n, at, want int32 }{
		{6, 0, 0},   // the first batch fails: nothing else
		{6, 1, 2},   // [1 2]: 0 and 2 created
		{6, 2, 2},   // [1 2]: 0 and 1
		{6, 3, 5},   // [3..6] capped at 6 replicas: 0,1,2,4,5
		{20, 7, 14}, // [7..14]: 0..14 but 7
		// 1+2+…+256 = 511 slots, then a batch of 500 (not 512): 511..1010
		{1200, 600, 1010},
	} {
		if got := fail(c.n, c.at); got != int(c.want) {
			t.Errorf("%d replicas failing at %d: %d created; want %d", c.n, c.at, got, c.want)
		}
	}
	if p := mustStep(t, gset(1200, parallel), nil, revs("web-v1"), nil, Options{}); len(p.Create.Objects) != 1200 {
		t.Errorf("1200 created in batches: %d", len(p.Create.Objects))
	}
}
