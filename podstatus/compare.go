package podstatus

import (
	"time"
)

// DeletesBefore reports whether upstream's comparator puts a (with rank
// rankA) before b (with rank rankB): the pairwise form of
// [RankForDeletion]'s eight rules, including the UID comparison that ends
// rules 6 and 8 when two different times share a bucket, even when the UIDs
// are equal. It is not transitive (see [RankForDeletion]); use it to
// compare two pods, not to sort. Nil pods compare as empty pods.
//
// Source: upstream pkg/controller/controller_utils.go ActivePodsWithRanks.Less
// (v1.36.3).
func DeletesBefore(a, b *Pod, rankA, rankB int, now time.Time, cost CostMode) bool {
	if a == nil {
		a = &Pod{}
	}
	if b == nil {
		b = &Pod{}
	}
	if (a.Spec.NodeName == "") != (b.Spec.NodeName == "") {
		return a.Spec.NodeName == ""
	}
	if pa, pb := phaseOrdinal(a.Status.Phase), phaseOrdinal(b.Status.Phase); pa != pb {
		return pa < pb
	}
	readyA, readyB := IsReady(a), IsReady(b)
	if readyA != readyB {
		return !readyA
	}
	if cost == WithCost {
		ca, _ := DeletionCost(a)
		cb, _ := DeletionCost(b)
		if ca != cb {
			return ca < cb
		}
	}
	if rankA != rankB {
		return rankA > rankB
	}
	if readyA && readyB {
		if decided, less := newerFirst(ReadyTime(a), ReadyTime(b), a.UID, b.UID, now); decided {
			return less
		}
	}
	ra, sa := MaxRestarts(a)
	rb, sb := MaxRestarts(b)
	if ra != rb {
		return ra > rb
	}
	if sa != sb {
		return sa > sb
	}
	_, less := newerFirst(a.CreationTimestamp, b.CreationTimestamp, a.UID, b.UID, now)
	return less
}

// newerFirst compares two times of rule 6 or 8: decided is false when they
// are equal, and less says whether ta's pod goes first.
func newerFirst(ta, tb time.Time, uidA, uidB string, now time.Time) (decided, less bool) {
	if ta.Equal(tb) {
		return false, false
	}
	if now.IsZero() || ta.IsZero() || tb.IsZero() {
		if ta.IsZero() || tb.IsZero() {
			return true, ta.IsZero()
		}
		return true, ta.After(tb)
	}
	if ba, bb := logBucket(ta, now), logBucket(tb, now); ba != bb {
		return true, ba < bb
	}
	return true, uidA < uidB
}
