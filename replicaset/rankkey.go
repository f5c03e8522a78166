package replicaset

import (
	"cmp"
	"math"
	"strings"
	"time"

	"github.com/kubesem/kubesem/podstatus"
)

// podKey holds, computed once per pod, every value the scale-down order
// compares, so that sorting never parses an annotation, scans conditions or
// takes a logarithm again.
type podKey struct {
	// head packs rules 1-4: assigned (1 bit), phase ordinal (2 bits), ready
	// (1 bit) and the deletion cost offset to be unsigned (32 bits). Lower
	// is deleted first.
	head     uint64
	rank     int // rule 5, higher first
	ready    timeKey
	restarts uint64 // rule 7: regular<<32 | sidecar, higher first
	created  timeKey
	name     string
	uid      string
	idx      int
}

// timeKey is one time criterion (ready since, created at). With class 0 the
// time is zero (or does not apply) and sorts first. In the logarithmic mode
// pods compare by bucket, then by group, the smallest UID among the pods
// that reach this criterion together holding exactly the same time; in the
// exact mode (now is zero) by time, later first.
type timeKey struct {
	class  uint8
	bucket int64
	t      time.Time
	group  string
}

// phaseOrdinal orders phases for deletion: Pending and any phase other than
// Unknown or Running first, then Unknown, then Running.
func phaseOrdinal(p podstatus.Phase) uint64 {
	switch p {
	case podstatus.Unknown:
		return 1
	case podstatus.Running:
		return 2
	}
	return 0
}

// logBucket returns floor(log2(now - t)) as upstream computes it, in
// float64, or -1 when t is not before now.
func logBucket(t, now time.Time) int64 {
	d := now.Sub(t)
	if d <= 0 {
		return -1
	}
	return int64(math.Log2(float64(d)))
}

func makeTimeKey(t, now time.Time, applies bool) timeKey {
	if !applies || t.IsZero() {
		return timeKey{}
	}
	k := timeKey{class: 1, t: t}
	if !now.IsZero() {
		k.bucket = logBucket(t, now)
	}
	return k
}

// makeKey computes the key of p, which may be nil (an empty pod).
func makeKey(p *podstatus.Pod, idx, rank int, now time.Time, opts Options) podKey {
	if p == nil {
		p = &podstatus.Pod{}
	}
	var head uint64
	if p.Spec.NodeName != "" {
		head = 1 << 35
	}
	head |= phaseOrdinal(p.Status.Phase) << 33
	ready := podstatus.IsReady(p)
	if ready {
		head |= 1 << 32
	}
	if !opts.DisablePodDeletionCost {
		cost, _ := podstatus.DeletionCost(p)
		head |= uint64(int64(cost) + math.MaxInt32 + 1)
	}
	regular, sidecar := podstatus.MaxRestarts(p)
	return podKey{
		head:     head,
		rank:     rank,
		ready:    makeTimeKey(podstatus.ReadyTime(p), now, ready),
		restarts: uint64(uint32(regular))<<32 | uint64(uint32(sidecar)),
		created:  makeTimeKey(p.CreationTimestamp, now, true),
		name:     p.Name,
		uid:      p.UID,
		idx:      idx,
	}
}

// compareTime orders two time keys; exact selects the exact mode.
func compareTime(a, b *timeKey, exact bool) int {
	if a.class != b.class {
		return cmp.Compare(a.class, b.class)
	}
	if exact {
		return b.t.Compare(a.t)
	}
	if a.bucket != b.bucket {
		return cmp.Compare(a.bucket, b.bucket)
	}
	return strings.Compare(a.group, b.group)
}

// compareOrder compares two keys by the scale-down order alone: 0 means the
// pods are indistinguishable (a tie).
func compareOrder(a, b *podKey, exact bool) int {
	if a.head != b.head {
		return cmp.Compare(a.head, b.head)
	}
	if a.rank != b.rank {
		return cmp.Compare(b.rank, a.rank)
	}
	if c := compareTime(&a.ready, &b.ready, exact); c != 0 {
		return c
	}
	if a.restarts != b.restarts {
		return cmp.Compare(b.restarts, a.restarts)
	}
	return compareTime(&a.created, &b.created, exact)
}

// comparePinned is compareOrder with ties broken by name, UID and input
// position: the deterministic order kubesem reports.
func comparePinned(a, b *podKey, exact bool) int {
	if c := compareOrder(a, b, exact); c != 0 {
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

// compareExactTimes orders keys by rules 1-5, the ready time itself, rule 7
// and the creation time itself, so that pods that reach a time criterion
// together with exactly the same time are adjacent.
func compareExactTimes(a, b *podKey) int {
	if a.head != b.head {
		return cmp.Compare(a.head, b.head)
	}
	if a.rank != b.rank {
		return cmp.Compare(b.rank, a.rank)
	}
	if c := compareTimeExactGroup(&a.ready, &b.ready); c != 0 {
		return c
	}
	if a.restarts != b.restarts {
		return cmp.Compare(b.restarts, a.restarts)
	}
	return compareTimeExactGroup(&a.created, &b.created)
}

func compareTimeExactGroup(a, b *timeKey) int {
	if a.class != b.class {
		return cmp.Compare(a.class, b.class)
	}
	if a.bucket != b.bucket {
		return cmp.Compare(a.bucket, b.bucket)
	}
	return a.t.Compare(b.t)
}
