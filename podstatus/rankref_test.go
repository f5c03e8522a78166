package podstatus

import (
	"cmp"
	"math"
	"slices"
	"strings"
	"time"
)

// This file keeps the first implementation of RankForDeletion (pointer keys,
// time.Time and string comparisons) as the reference the fast one must
// reproduce exactly; see TestRankMatchesReference.

func refRankForDeletion(pods []*Pod, ranks []int, now time.Time, cost CostMode) Ranking {
	keys := make([]refPodKey, len(pods))
	ptrs := make([]*refPodKey, len(pods))
	for i, p := range pods {
		r := 0
		if i < len(ranks) {
			r = ranks[i]
		}
		keys[i] = refMakeKey(p, i, r, now, cost)
		ptrs[i] = &keys[i]
	}
	exact := now.IsZero()
	if !exact {
		refAssignGroups(ptrs)
	}
	slices.SortFunc(ptrs, func(a, b *refPodKey) int { return refComparePinned(a, b, exact) })
	return refRanking(ptrs, exact)
}

// refAssignGroups sets the refGroup of every ready and creation time key to the
// smallest UID among the pods that reach that criterion with the same time.
func refAssignGroups(ptrs []*refPodKey) {
	slices.SortFunc(ptrs, refCompareExactTimes)
	sameReady := func(a, b *refPodKey) bool {
		return a.head == b.head && a.rank == b.rank && refCompareTimeExactGroup(&a.ready, &b.ready) == 0
	}
	sameCreated := func(a, b *refPodKey) bool { return refCompareExactTimes(a, b) == 0 }
	refGroup(ptrs, sameReady, func(k *refPodKey) *refTimeKey { return &k.ready })
	refGroup(ptrs, sameCreated, func(k *refPodKey) *refTimeKey { return &k.created })
}

func refGroup(ptrs []*refPodKey, same func(a, b *refPodKey) bool, field func(*refPodKey) *refTimeKey) {
	for i := 0; i < len(ptrs); {
		j := i + 1
		least := ptrs[i].uid
		for j < len(ptrs) && same(ptrs[i], ptrs[j]) {
			least = min(least, ptrs[j].uid)
			j++
		}
		if field(ptrs[i]).class == 1 {
			for _, k := range ptrs[i:j] {
				field(k).refGroup = least
			}
		}
		i = j
	}
}

func refRanking(ptrs []*refPodKey, exact bool) Ranking {
	r := Ranking{Order: make([]int, len(ptrs)), start: make([]uint64, len(ptrs))}
	for pos, k := range ptrs {
		r.Order[pos] = k.idx
		if pos > 0 && refCompareOrder(ptrs[pos-1], k, exact) == 0 {
			r.start[pos] = r.start[pos-1]
		} else {
			r.start[pos] = uint64(pos)
		}
	}
	return r
}

type refPodKey struct {
	// head packs rules 1-4: assigned (1 bit), phase ordinal (2 bits), ready
	// (1 bit) and the deletion cost offset to be unsigned (32 bits). Lower
	// is deleted first.
	head     uint64
	rank     int // rule 5, higher first
	ready    refTimeKey
	restarts uint64 // rule 7: regular<<32 | sidecar, higher first
	created  refTimeKey
	name     string
	uid      string
	idx      int
}

// refTimeKey is one time criterion (ready since, created at). With class 0 the
// time is zero (or does not apply) and sorts first. In the logarithmic mode
// pods compare by bucket, then by refGroup, the smallest UID among the pods
// that reach this criterion together holding exactly the same time; in the
// exact mode (now is zero) by time, later first.
type refTimeKey struct {
	class    uint8
	bucket   int64
	t        time.Time
	refGroup string
}

func refMakeTimeKey(t, now time.Time, applies bool) refTimeKey {
	if !applies || t.IsZero() {
		return refTimeKey{}
	}
	k := refTimeKey{class: 1, t: t}
	if !now.IsZero() {
		k.bucket = refLogBucket(t, now)
	}
	return k
}

// refMakeKey computes the key of p, which may be nil (an empty pod).
func refMakeKey(p *Pod, idx, rank int, now time.Time, cost CostMode) refPodKey {
	if p == nil {
		p = &Pod{}
	}
	var head uint64
	if p.Spec.NodeName != "" {
		head = 1 << 35
	}
	head |= phaseOrdinal(p.Status.Phase) << 33
	ready := IsReady(p)
	if ready {
		head |= 1 << 32
	}
	if cost == WithCost {
		cost, _ := DeletionCost(p)
		head |= uint64(int64(cost) + math.MaxInt32 + 1)
	}
	regular, sidecar := MaxRestarts(p)
	return refPodKey{
		head:     head,
		rank:     rank,
		ready:    refMakeTimeKey(ReadyTime(p), now, ready),
		restarts: uint64(uint32(regular))<<32 | uint64(uint32(sidecar)),
		created:  refMakeTimeKey(p.CreationTimestamp, now, true),
		name:     p.Name,
		uid:      p.UID,
		idx:      idx,
	}
}

// refCompareTime orders two time keys; exact selects the exact mode.
func refCompareTime(a, b *refTimeKey, exact bool) int {
	if a.class != b.class {
		return cmp.Compare(a.class, b.class)
	}
	if exact {
		return b.t.Compare(a.t)
	}
	if a.bucket != b.bucket {
		return cmp.Compare(a.bucket, b.bucket)
	}
	return strings.Compare(a.refGroup, b.refGroup)
}

// refCompareOrder compares two keys by the scale-down order alone: 0 means the
// pods are indistinguishable (a tie).
func refCompareOrder(a, b *refPodKey, exact bool) int {
	if a.head != b.head {
		return cmp.Compare(a.head, b.head)
	}
	if a.rank != b.rank {
		return cmp.Compare(b.rank, a.rank)
	}
	if c := refCompareTime(&a.ready, &b.ready, exact); c != 0 {
		return c
	}
	if a.restarts != b.restarts {
		return cmp.Compare(b.restarts, a.restarts)
	}
	return refCompareTime(&a.created, &b.created, exact)
}

// refComparePinned is refCompareOrder with ties broken by name, UID and input
// position: the deterministic order kubesem reports.
func refComparePinned(a, b *refPodKey, exact bool) int {
	if c := refCompareOrder(a, b, exact); c != 0 {
		return c
	}
	if c := strings.Compare(a.name, b.name); c != 0 {
		return c
	}
	if c := strings.Compare(a.uid, b.uid); c != 0 {
		return c
	}
	return cmp.Compare(a.idx, b.idx)
}

// refCompareExactTimes orders keys by rules 1-5, the ready time itself, rule 7
// and the creation time itself, so that pods that reach a time criterion
// together with exactly the same time are adjacent.
func refCompareExactTimes(a, b *refPodKey) int {
	if a.head != b.head {
		return cmp.Compare(a.head, b.head)
	}
	if a.rank != b.rank {
		return cmp.Compare(b.rank, a.rank)
	}
	if c := refCompareTimeExactGroup(&a.ready, &b.ready); c != 0 {
		return c
	}
	if a.restarts != b.restarts {
		return cmp.Compare(b.restarts, a.restarts)
	}
	return refCompareTimeExactGroup(&a.created, &b.created)
}

func refCompareTimeExactGroup(a, b *refTimeKey) int {
	if a.class != b.class {
		return cmp.Compare(a.class, b.class)
	}
	if a.bucket != b.bucket {
		return cmp.Compare(a.bucket, b.bucket)
	}
	return a.t.Compare(b.t)
}

// refLogBucket is floor(log2(now - t)) computed in float64 as upstream does,
// or -1 when t is not before now.
func refLogBucket(t, now time.Time) int64 {
	d := now.Sub(t)
	if d <= 0 {
		return -1
	}
	return int64(math.Log2(float64(d)))
}
