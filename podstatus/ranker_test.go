package podstatus

import (
	"math"
	"testing"
	"time"

	"pgregory.net/rapid"
)

// poison fills every word of rk's memory, to its capacity, with v, so that
// a ranking that read what an earlier one left, or relied on zeroed memory,
// goes wrong.
func poison(rk *Ranker, v uint64) {
	keys := rk.keys[:cap(rk.keys)]
	for i := range keys {
		for w := range keys[i].r {
			keys[i].r[w] = v
		}
	}
	for _, b := range [][]uint64{rk.work[:cap(rk.work)], rk.start[:cap(rk.start)]} {
		for i := range b {
			b[i] = v
		}
	}
	order := rk.order[:cap(rk.order)]
	for i := range order {
		order[i] = int(v)
	}
	cell := rk.cell[:cap(rk.cell)]
	for i := range cell {
		cell[i] = cellPod{restarts: v, created: v, idx: uint32(v), cell: uint32(v), createdLo: uint32(v)}
	}
}

// TestRankerMatchesReference: one Ranker, reused for a run of rankings of
// different sizes and modes with its memory poisoned between them, ranks
// each as the reference does.
func TestRankerMatchesReference(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		var rk Ranker
		for round := range rapid.IntRange(1, 4).Draw(t, "rounds") {
			_ = round
			now := rapid.SampledFrom([]time.Time{{}, fastNow, fastNow.Add(1)}).Draw(t, "now")
			n := rapid.SampledFrom([]int{rapid.IntRange(0, 12).Draw(t, "small"), rapid.IntRange(13, 200).Draw(t, "large")}).Draw(t, "n")
			pods := make([]*Pod, n)
			ranks := make([]int, n)
			for i := range pods {
				pods[i] = drawFastPod(t, now)
				ranks[i] = rapid.SampledFrom([]int{0, 1, -1, math.MaxInt}).Draw(t, "rank")
			}
			cost := CostMode(rapid.Bool().Draw(t, "cost"))
			poison(&rk, rapid.SampledFrom([]uint64{0, math.MaxUint64, 0x5555555555555555, 1}).Draw(t, "poison"))
			got := rk.RankForDeletion(pods, ranks, now, cost)
			want := refRankForDeletion(pods, ranks, now, cost)
			if !slicesEqual(got.Order, want.Order) || !slicesEqual(got.start, want.start) {
				t.Fatalf("round %d: Ranker.RankForDeletion = %v %v; want %v %v", round, got.Order, got.start, want.Order, want.start)
			}
		}
	})
}

// TestRankerAllocatesNothingOnceGrown: a Ranker that has ranked its
// largest input allocates nothing for the next rankings (the point of
// keeping the memory).
func TestRankerAllocatesNothingOnceGrown(t *testing.T) {
	pods := make([]*Pod, 500)
	for i := range pods {
		p := &Pod{}
		p.Name, p.UID = "p"+string(rune('a'+i%26)), string(rune('a'+i%26))+"-uid-"+string(rune('a'+i/26))
		p.Spec.NodeName = "n"
		p.Status.Phase = Running
		p.CreationTimestamp = fastNow.Add(-time.Duration(i%7) * time.Hour)
		pods[i] = p
	}
	var rk Ranker
	rk.RankForDeletion(pods, nil, fastNow, WithCost)
	for _, now := range []time.Time{fastNow, {}} {
		if a := testing.AllocsPerRun(20, func() { rk.RankForDeletion(pods[:300], nil, now, WithCost) }); a != 0 {
			t.Errorf("now %v: %v allocations a ranking, want 0", now, a)
		}
	}
}
