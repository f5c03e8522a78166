package podstatus

import (
	"math"
	"math/bits"
	"time"

	"github.com/kubesem/kubesem/meta"
)

// The words of a sortKey, compared in this order.
const (
	wordHead      = iota // rules 1-4
	wordRank             // rule 5
	wordReadyHi          // rule 6
	wordReadyLo          // rule 6
	wordRestarts         // rule 7
	wordCreatedHi        // rule 8
	wordCreatedLo        // rule 8
	keyWords
)

// sortKey holds, computed once per pod, the scale-down order as unsigned
// words compared lexicographically, lower deleted first, so that sorting
// compares integers only: no annotation parsing, condition scans,
// logarithms, time.Time or string comparisons.
//
// The head word packs rules 1-4: assigned (1 bit), phase ordinal (2 bits),
// ready (1 bit) and the deletion cost offset to be unsigned (32 bits). The
// rank and restart words are complemented so that higher sorts first.
//
// A time criterion takes two words. In the exact mode (now is zero, or
// while finding pods that share a time) a zero or inapplicable time is
// (0, 0) and any other time is its instant complemented, later first, with
// a low word of at least 1, so (0, 0) sorts first. In the logarithmic mode
// they are (0, 0) for a zero or inapplicable time and otherwise
// (1<<63 | (bucket+1)<<32 | group, 0), where group is the rank among all
// UIDs of the smallest UID of the pods that reach the criterion with
// exactly the same time: upstream orders different times in a bucket by
// UID.
type sortKey struct {
	w                          [keyWords]uint64
	readyBucket, createdBucket int8 // log2 buckets in the logarithmic mode
}

// less reports whether a's words sort before b's.
func (a *sortKey) less(b *sortKey) bool {
	for i := range a.w {
		if a.w[i] != b.w[i] {
			return a.w[i] < b.w[i]
		}
	}
	return false
}

// same reports whether a and b agree on their first n words.
func (a *sortKey) same(b *sortKey, n int) bool {
	for i := range n {
		if a.w[i] != b.w[i] {
			return false
		}
	}
	return true
}

// phaseOrdinal orders phases for deletion: Pending and any phase other than
// Unknown or Running first, then Unknown, then Running.
func phaseOrdinal(p Phase) uint64 {
	switch p {
	case Unknown:
		return 1
	case Running:
		return 2
	}
	return 0
}

// makeKey computes the exact-mode key of p, which may be nil (an empty
// pod), and, in the logarithmic mode (c.log), its log2 buckets. It reads
// each part of the pod once.
func makeKey(p *Pod, rank int, c *clock, cost CostMode) sortKey {
	if p == nil {
		p = &Pod{}
	}
	var head uint64
	if p.Spec.NodeName != "" {
		head = 1 << 35
	}
	head |= phaseOrdinal(p.Status.Phase) << 33
	var readySince time.Time
	if c := p.Condition(Ready); c != nil && c.Status == meta.ConditionTrue {
		head |= 1 << 32
		readySince = c.LastTransitionTime
	}
	if cost == WithCost {
		cost, _ := DeletionCost(p)
		head |= uint64(int64(cost) + math.MaxInt32 + 1)
	}
	regular, sidecar := MaxRestarts(p)
	var k sortKey
	k.w[wordHead] = head
	k.w[wordRank] = ^flipSign(int64(rank))
	k.w[wordRestarts] = ^(uint64(uint32(regular))<<32 | uint64(uint32(sidecar)))
	k.w[wordReadyHi], k.w[wordReadyLo], k.readyBucket = c.words(readySince)
	k.w[wordCreatedHi], k.w[wordCreatedLo], k.createdBucket = c.words(p.CreationTimestamp)
	return k
}

// flipSign maps int64 order onto uint64 order.
func flipSign(v int64) uint64 { return uint64(v) ^ 1<<63 }

// unixToInternal is the seconds from year 1 to 1970, which time.Time's
// Unix subtracts from its internal seconds.
const unixToInternal = 62135596800

// clock is now, prepared to bucket many times against it.
type clock struct {
	now       time.Time
	sec, nsec int64 // now's internal seconds and nanoseconds
	mono      bool  // now carries a monotonic reading
	log       bool  // now is not zero: the logarithmic mode
}

func newClock(now time.Time) clock {
	return clock{now: now, sec: now.Unix() + unixToInternal, nsec: int64(now.Nanosecond()),
		mono: now != now.Round(0), log: !now.IsZero()}
}

// words encodes t for the exact mode: (0, 0) for the zero time, else later
// first, with t's log2 bucket in the logarithmic mode (0 for the zero
// time). The internal seconds are recovered from Unix with the same
// wrapping arithmetic, so every time.Time compares as Time.Compare does
// without monotonic readings.
func (c *clock) words(t time.Time) (hi, lo uint64, bucket int8) {
	if t.IsZero() {
		return 0, 0, 0
	}
	sec, nsec := t.Unix()+unixToInternal, int64(t.Nanosecond())
	hi, lo = ^flipSign(sec), uint64(999_999_999-nsec)+1
	if c.log {
		bucket = int8(durationBucket(c.since(t, sec, nsec)))
	}
	return hi, lo, bucket
}

// since returns c.now.Sub(t) for t with internal seconds sec and
// nanoseconds nsec, computed directly when the difference is well within
// range and no monotonic reading could take part.
func (c *clock) since(t time.Time, sec, nsec int64) time.Duration {
	ds := c.sec - sec
	overflow := (c.sec^sec) < 0 && (ds^c.sec) < 0
	if c.mono || overflow || ds <= -9e9 || ds >= 9e9 {
		return c.now.Sub(t)
	}
	return time.Duration(ds)*time.Second + time.Duration(c.nsec-nsec)
}

// timeWord is the logarithmic-mode high word of a time criterion whose
// exact-mode words are hi, lo: 0 for a zero or inapplicable time, else the
// bucket, then the group's UID rank.
func timeWord(hi, lo uint64, bucket int8, group int) uint64 {
	if hi == 0 && lo == 0 {
		return 0
	}
	return 1<<63 | uint64(int64(bucket)+1)<<32 | uint64(uint32(group))
}

// prefixWord returns the 8 bytes of s from off, big-endian, padded with
// zeros. Two strings whose prefixes differ order as their prefixes do.
func prefixWord(s string, off int) uint64 {
	if len(s) >= off+8 {
		b := s[off : off+8]
		return uint64(b[0])<<56 | uint64(b[1])<<48 | uint64(b[2])<<40 | uint64(b[3])<<32 |
			uint64(b[4])<<24 | uint64(b[5])<<16 | uint64(b[6])<<8 | uint64(b[7])
	}
	var v uint64
	for i := off; i < off+8; i++ {
		v <<= 8
		if i < len(s) {
			v |= uint64(s[i])
		}
	}
	return v
}

// logBucket returns floor(log2(now - t)) as upstream computes it, or -1
// when t is not before now (see [durationBucket]).
func logBucket(t, now time.Time) int64 { return durationBucket(now.Sub(t)) }

// durationBucket returns int64(math.Log2(float64(d))) exactly as upstream
// computes it, or -1 when d <= 0.
//
// The float formula is exact floor(log2(d)) except where float64(d) rounds
// up to a power of two or the logarithm of the fraction rounds across an
// integer: near powers of two. Away from them (the fraction of d above
// 2^L at least 2^-10 of 2^L, and below 2^(L+1) by more than 2^-10 of it)
// both give L = bits.Len64(d)-1, so only d near a power of two takes the
// float path (see TestLogBucketMatchesFloat).
func durationBucket(d time.Duration) int64 {
	if d <= 0 {
		return -1
	}
	u := uint64(d)
	l := bits.Len64(u) - 1
	lowGap := u - 1<<l  // d - 2^L
	highGap := 2<<l - u // 2^(L+1) - d; L <= 62 as d < 2^63
	if lowGap > 0 && lowGap >= 1<<l>>10 && highGap > 1<<l>>9 {
		return int64(l)
	}
	return int64(math.Log2(float64(d)))
}
