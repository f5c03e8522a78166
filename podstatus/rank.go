package podstatus

import (
	"time"
)

// Ranking is an order in which a controller deletes pods, with the pods the
// order cannot tell apart grouped into ties.
type Ranking struct {
	// Order holds indexes into the ranked pods; Order[0] is deleted first.
	// Inside a tie, pods are pinned by name, then UID, then input position.
	Order []int
	// start[pos] is the position in Order where the tie of Order[pos]
	// begins. (Before it does, RankForDeletion sorts in its memory.)
	start []uint64
}

// CostMode says whether [RankForDeletion] reads the pod-deletion-cost
// annotation (the PodDeletionCost gate, on in v1.36.3).
type CostMode bool

// Cost modes.
const (
	WithoutCost CostMode = false
	WithCost    CostMode = true
)

// RankForDeletion ranks pods for scale-down, first to delete first, by the
// v1.36.3 order (upstream's ActivePodsWithRanks), each criterion deciding only when the ones before it tie:
//
//  1. unscheduled (no nodeName) before scheduled;
//  2. phase Pending (and any phase but Unknown and Running) before Unknown
//     before Running;
//  3. not ready before ready;
//  4. lower pod-deletion-cost first, an invalid annotation counting as 0
//     (only with cost WithCost);
//  5. higher rank first (ranks[i] is pod i's rank, see replicaset.NodeRanks; missing
//     entries are 0);
//  6. when both are ready, more recently ready first;
//  7. more restarts of a regular container first, then of a sidecar;
//  8. newer first by creation time.
//
// In 6 and 8, with a non-zero now, times fall into buckets
// floor(log2(now - t)) (-1 when t is not before now) and a zero time sorts
// first; pods in the same bucket with different times are ordered by UID.
// With a zero now, times compare exactly, later (and zero) first.
//
// Upstream's rule 6 and 8 are not transitive: pods with exactly the same
// time go on to the next criterion while pods with different times in the
// bucket compare by UID. RankForDeletion orders pods holding the same time
// by the smallest UID among them, which agrees with upstream on every pair
// unless two pods in one criterion's run share a time, and is a strict weak
// order. Pods with equal UIDs are assumed to be the same pod.
//
// Pods equal under all eight rules form a tie: upstream's unstable sort
// deletes any of them. Nil pods rank as empty pods. Inputs are not modified.
// Pod times are compared as wall-clock instants: monotonic clock readings,
// which times decoded from the API never carry, are ignored.
//
// It reads each pod once into a one-cache-line key of integers and orders
// the keys with radix sorts of one word per pod (rankkey.go, keysort.go):
// in the exact mode one by the keys; in the logarithmic mode one by exact
// times, which puts the pods sharing a time together (rankcell.go), and
// one of the runs of pods that stay together, by their smallest UID
// (rankplan.go, rankblock.go). It takes O(n) time for bounded prefix
// widths and allocates about 96 bytes per pod, the Ranking included.
//
// Source: upstream pkg/controller/controller_utils.go ActivePodsWithRanks.Less,
// logarithmicRankDiff, afterOrZero, podReadyTime, maxContainerRestarts
// (v1.36.3); seed 000 ReplicaSet scale-down order (000:L2274).
func RankForDeletion(pods []*Pod, ranks []int, now time.Time, cost CostMode) Ranking {
	var rk Ranker
	return rk.RankForDeletion(pods, ranks, now, cost)
}

// A Ranker ranks pods as [RankForDeletion] does and keeps its working
// memory (about 96 bytes a pod, the Ranking included) for the next call,
// so that a caller ranking many times allocates nothing once the Ranker
// has grown to its largest input. The zero Ranker is ready to use. A
// Ranker is not safe for concurrent use.
type Ranker struct {
	keys        []sortKey
	work, start []uint64
	order       []int
	cell        []cellPod
}

// RankForDeletion returns what [RankForDeletion] returns for the same
// arguments, in rk's memory: the Ranking, and the Victims and Ties taken
// from it, hold until rk's next call (copy Order to keep it).
//
// Source: upstream pkg/controller/controller_utils.go
// ActivePodsWithRanks.Less (v1.36.3); seed 000 ReplicaSet scale-down order
// (000:L2274).
func (rk *Ranker) RankForDeletion(pods []*Pod, ranks []int, now time.Time, cost CostMode) Ranking {
	n := len(pods)
	if cap(rk.order) < n {
		// Grown once for the largest input; nothing of the old
		// contents is kept, so none is copied.
		rk.order, rk.start = make([]int, n), make([]uint64, n)
		rk.keys, rk.work = make([]sortKey, n), make([]uint64, 2*n)
	}
	out := Ranking{Order: rk.order[:n:n], start: rk.start[:n:n]}
	if n == 0 {
		return out
	}
	c := newClock(now)
	r := ranker{pods: pods, keys: rk.keys[:n:n], cell: rk.cell[:0]}
	if c.log {
		r.rankLog(ranks, &c, cost, rk.work[:2*n:2*n], out)
	} else {
		r.rankExact(ranks, &c, cost, rk.work[:n:n], out)
	}
	rk.cell = r.cell[:0]
	return out
}

// exactPlan gathers, while the keys are made, the bits in which the
// words of the exact mode's sort vary: in the words of r, in place.
type exactPlan struct {
	first sortKey // the first pod's
	raw   [rawUIDHi]uint64
}

// add notes the key of the next pod.
func (e *exactPlan) add(k *sortKey) {
	f := &e.first
	e.raw[rawHead] |= k.r[rawHead] ^ f.r[rawHead]
	e.raw[rawRank] |= k.r[rawRank] ^ f.r[rawRank]
	e.raw[rawReadyHi] |= k.r[rawReadyHi] ^ f.r[rawReadyHi]
	e.raw[rawRestarts] |= k.r[rawRestarts] ^ f.r[rawRestarts]
	e.raw[rawCreatedHi] |= k.r[rawCreatedHi] ^ f.r[rawCreatedHi]
	e.raw[rawLo] |= k.r[rawLo] ^ f.r[rawLo]
}

// rankOf returns pod i's rank: ranks[i], 0 past the end of ranks.
func rankOf(ranks []int, i int) int {
	if i < len(ranks) {
		return ranks[i]
	}
	return 0
}

// rankExact fills out in the exact mode: one sort by the keys' words.
func (r *ranker) rankExact(ranks []int, c *clock, cost CostMode, work []uint64, out Ranking) {
	makeKey(&r.keys[0], r.pods[0], rankOf(ranks, 0), c, cost)
	e := exactPlan{first: r.keys[0]}
	r.makeKeys(ranks, c, cost, nil, &e)
	var varying [keyWords]uint64
	for w, from := range exactFrom {
		varying[w] = e.raw[from] & exactMask(w)
	}
	// The sort's scratch is out.start; the order leaves it before
	// settleExact writes the ties there.
	n := len(r.keys)
	r.s = newKeySorter(n, work, out.start)
	order := r.s.sortKeys(r.keys, &varying)
	if &order[0] == &out.start[0] {
		order = work[:copy(work, order)]
	}
	r.settleExact(order, out)
}

// rankLog fills out in the logarithmic mode (see ranker).
func (r *ranker) rankLog(ranks []int, c *clock, cost CostMode, work []uint64, out Ranking) {
	makeKey(&r.keys[0], r.pods[0], rankOf(ranks, 0), c, cost)
	p := newPlan(&r.keys[0])
	r.makeKeys(ranks, c, cost, &p, nil)
	n := len(r.keys)
	r.s = newKeySorter(n, work[:n], work[n:])
	order := r.sortCells(&p)
	free := work[:n]
	if &order[0] == &free[0] {
		free = work[n:]
	}
	// The blocks sort's scratch is out.start, which expand writes last.
	r.b = newKeySorter(n, free, out.start)
	blocks := r.b.sortTop(len(r.formBlocks(order, &p, 64)), logPrefixBits)
	if &blocks[0] == &out.start[0] {
		blocks = free[:copy(free, blocks)]
	}
	if !r.expand(order, blocks, out) {
		r.rankByComparison(&p, out)
	}
}

// logPrefixBits is the most prefix bits the blocks sort orders by: four
// radix digits. The prefix ends with the cells' UIDs, which would take all
// 64 bits; the elements hold as many as fit beside the positions (47 for
// 100,000 pods), and expand orders the few runs equal in the first 44 by
// the rest as integers before it compares blocks.
const logPrefixBits = 44

// RankActive ranks pods by upstream's ActivePods order, which the Job
// controller uses to pick pods to delete: rules 1-3, 6, 7 and 8 of
// [RankForDeletion] with exact times, without the deletion cost and the
// rank; ties are pinned by name, then UID, then input position.
//
// Source: upstream pkg/controller/controller_utils.go ActivePods.Less (v1.36.3).
func RankActive(pods []*Pod) Ranking {
	return RankForDeletion(pods, nil, time.Time{}, WithoutCost)
}

// Ties returns the groups of two or more pods (as indexes into the ranked
// pods, in Order's order) that the order cannot tell apart.
func (r Ranking) Ties() [][]int {
	var ties [][]int
	for pos := 0; pos < len(r.Order); {
		end := r.tieEnd(pos)
		if end-pos > 1 {
			ties = append(ties, r.Order[pos:end:end])
		}
		pos = end
	}
	return ties
}

func (r Ranking) tieEnd(pos int) int {
	end := pos + 1
	for end < len(r.start) && r.start[end] == r.start[pos] {
		end++
	}
	return end
}

// Victims is the outcome of deleting the first pods of a ranking.
type Victims struct {
	// Pods are the indexes of the pods kubesem deletes, in order.
	Pods []int
	// Sure says that every v1.36.3 run deletes Pods[:Sure].
	Sure int
	// Tied, when not empty, is the tie the cut falls into: v1.36.3 deletes
	// any len(Pods)-Sure of these pods; kubesem picks Pods[Sure:].
	Tied []int
}

// Victims returns the first n pods of r (n is clamped to [0, len(Order)]),
// and how far the choice is determined.
func (r Ranking) Victims(n int) Victims {
	n = max(0, min(n, len(r.Order)))
	v := Victims{Pods: r.Order[:n:n], Sure: n}
	if n == 0 || n == len(r.Order) || r.start[n] != r.start[n-1] {
		return v
	}
	s := int(r.start[n])
	end := r.tieEnd(s)
	v.Sure, v.Tied = s, r.Order[s:end:end]
	return v
}
