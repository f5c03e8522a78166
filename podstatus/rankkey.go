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
// logarithms, time.Time or string comparisons. It takes one cache line:
// r holds the words (see words) and, in the logarithmic mode, more.
//
// The head word packs rules 1-4: assigned (1 bit), phase ordinal (2 bits),
// ready (1 bit) and the deletion cost offset to be unsigned (32 bits). The
// rank and restart words are complemented so that higher sorts first.
//
// A time criterion takes two words (see [clock.words]): (0, 0) for a zero
// or inapplicable time, sorting first, and otherwise the instant
// complemented, later first. The low words, at most 1e9, share r[rawLo].
// In the logarithmic mode the key also holds the times' log2 buckets (-1
// to 63) + 1 in bits 40-47 and 48-55 of r[rawHead], outside rules 1-4,
// and the UID's first words.
type sortKey struct {
	r [rawWords]uint64
}

// The words of sortKey.r.
const (
	rawHead      = iota // rules 1-4; the buckets
	rawRank             // rule 5
	rawReadyHi          // rule 6
	rawRestarts         // rule 7
	rawCreatedHi        // rule 8
	rawLo               // rules 6 and 8: the time's low words, ready << 32 | created
	rawUIDHi            // the UID's words
	rawUIDLo
	rawWords
)

// exactFrom is where the key's words lie in r: packers read them in place
// (see radix.Packer.ReadFrom), with exactMask's bits.
var exactFrom = [keyWords]int{rawHead, rawRank, rawReadyHi, rawLo, rawRestarts, rawCreatedHi, rawLo}

// exactMask returns the bits of a word of r that the key's word w holds,
// in place: varying words of r masked by it are a packer's varying words.
func exactMask(w int) uint64 {
	switch w {
	case wordHead:
		return headRules
	case wordReadyLo:
		return lo32 << 32
	case wordCreatedLo:
		return lo32
	}
	return math.MaxUint64
}

const (
	headRules          = 1<<36 - 1
	lo32               = 1<<32 - 1
	readyBucketShift   = 40
	createdBucketShift = 48
)

// words returns the key's words.
func (k *sortKey) words() [keyWords]uint64 {
	return [keyWords]uint64{k.r[rawHead] & headRules, k.r[rawRank], k.r[rawReadyHi], k.r[rawLo] >> 32, k.r[rawRestarts], k.r[rawCreatedHi], k.r[rawLo] & lo32}
}

// readyApplies and createdApplies report whether the time criteria hold a
// time.
func (k *sortKey) readyApplies() bool   { return k.r[rawReadyHi] != 0 || k.r[rawLo]>>32 != 0 }
func (k *sortKey) createdApplies() bool { return k.r[rawCreatedHi] != 0 || k.r[rawLo]&lo32 != 0 }

// readyBucket and createdBucket return the times' log2 buckets.
func (k *sortKey) readyBucket() int8   { return int8(uint8(k.r[rawHead]>>readyBucketShift) - 1) }
func (k *sortKey) createdBucket() int8 { return int8(uint8(k.r[rawHead]>>createdBucketShift) - 1) }

// less reports whether a's words sort before b's.
func (a *sortKey) less(b *sortKey) bool {
	wa, wb := a.words(), b.words()
	for i := range wa {
		if wa[i] != wb[i] {
			return wa[i] < wb[i]
		}
	}
	return false
}

// same reports whether a and b agree on their first n words.
func (a *sortKey) same(b *sortKey, n int) bool {
	wa, wb := a.words(), b.words()
	for i := range n {
		if wa[i] != wb[i] {
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

// makeKey sets *k to the key of p, which may be nil (an empty pod): in the
// logarithmic mode (c.log) with its log2 buckets and UID. It reads each
// part of the pod once.
func makeKey(k *sortKey, p *Pod, rank int, c *clock, cost CostMode) {
	var raw podRead
	readPod(&raw, p, cost, c.log)
	finishKey(k, &raw, rank, c)
}

// podRead is what makeKey reads of a pod, before any arithmetic on it.
type podRead struct {
	head             uint64 // rules 1-4
	ready, created   time.Time
	regular, sidecar int32
	uidHi, uidLo     uint64
}

// readPod reads into *raw the parts of p, which may be nil, that its key
// needs: only loads and tests, so that a loop of it keeps many pods'
// cache misses in flight (see keyChunk). The UID is read withUID.
func readPod(raw *podRead, p *Pod, cost CostMode, withUID bool) {
	if p == nil {
		p = &Pod{}
	}
	var head uint64
	if p.Spec.NodeName != "" {
		head = 1 << 35
	}
	head |= phaseOrdinal(p.Status.Phase) << 33
	var readySince time.Time
	conds := p.Status.Conditions
	for i := range conds {
		if conds[i].Type == Ready {
			if conds[i].Status == meta.ConditionTrue {
				head |= 1 << 32
				readySince = conds[i].LastTransitionTime
			}
			break
		}
	}
	if cost == WithCost {
		var cost int32
		if len(p.Annotations) != 0 {
			cost, _ = DeletionCost(p)
		}
		head |= uint64(int64(cost) + math.MaxInt32 + 1)
	}
	// MaxRestarts, its sidecars read only when there are init containers.
	var regular, sidecar int32
	for i := range p.Status.ContainerStatuses {
		regular = max(regular, p.Status.ContainerStatuses[i].RestartCount)
	}
	if len(p.Status.InitContainerStatuses) != 0 {
		regular, sidecar = MaxRestarts(p)
	}
	var uidHi, uidLo uint64
	if withUID {
		if uid := p.UID; len(uid) >= 16 {
			uidHi, uidLo = bigEndian(uid), bigEndian(uid[8:])
		} else {
			uidHi, uidLo = prefixWord(uid, 0), prefixWord(uid, 8)
		}
	}
	*raw = podRead{head: head, ready: readySince, created: p.CreationTimestamp, regular: regular, sidecar: sidecar, uidHi: uidHi, uidLo: uidLo}
}

// finishKey sets *k to the key of the pod read into raw, of rank rank.
func finishKey(k *sortKey, raw *podRead, rank int, c *clock) {
	readyHi, readyLo, readyBucket := c.words(raw.ready)
	createdHi, createdLo, createdBucket := c.words(raw.created)
	k.r[rawHead] = raw.head | uint64(uint8(readyBucket+1))<<readyBucketShift | uint64(uint8(createdBucket+1))<<createdBucketShift
	k.r[rawRank] = ^flipSign(int64(rank))
	k.r[rawReadyHi] = readyHi
	k.r[rawRestarts] = ^(uint64(uint32(raw.regular))<<32 | uint64(uint32(raw.sidecar)))
	k.r[rawCreatedHi] = createdHi
	k.r[rawLo] = readyLo<<32 | createdLo
	k.r[rawUIDHi], k.r[rawUIDLo] = raw.uidHi, raw.uidLo
}

// keyChunk is how many pods makeKeys reads before it turns them into
// keys: 128 podReads, 10 KB, stay in the first-level cache.
const keyChunk = 128

// makeKeys sets r.keys to the pods' keys, as makeKey does, adding each
// to p or, when p is nil, to e. It reads a chunk of pods with readPod
// alone, then makes their keys: the loop that misses the cache does
// nothing else, so that more pods' misses overlap.
func (r *ranker) makeKeys(ranks []int, c *clock, cost CostMode, p *plan, e *exactPlan) {
	var raw [keyChunk]podRead
	for lo := 0; lo < len(r.pods); lo += keyChunk {
		pods := r.pods[lo:min(lo+keyChunk, len(r.pods))]
		for j, pod := range pods {
			readPod(&raw[j], pod, cost, c.log)
		}
		keys := r.keys[lo : lo+len(pods)]
		for j := range keys {
			finishKey(&keys[j], &raw[j], rankOf(ranks, lo+j), c)
			if p != nil {
				p.add(&keys[j])
			} else {
				e.add(&keys[j])
			}
		}
	}
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
	// A time whose internal seconds are in [fastLo, fastLo+fastSpan) is
	// within 9e9 seconds of now, so that now minus it is computed
	// directly; fastSpan is 0 when now carries a monotonic reading.
	fastLo   int64
	fastSpan uint64
}

func newClock(now time.Time) clock {
	c := clock{now: now, sec: now.Unix() + unixToInternal, nsec: int64(now.Nanosecond()),
		mono: now != now.Round(0), log: !now.IsZero()}
	if !c.mono {
		const reach = 9e9 - 1
		lo, hi := int64(math.MinInt64), int64(math.MaxInt64)
		if c.sec > math.MinInt64+reach {
			lo = c.sec - reach
		}
		if c.sec < math.MaxInt64-reach {
			hi = c.sec + reach
		}
		c.fastLo, c.fastSpan = lo, uint64(hi-lo)+1
	}
	return c
}

// words encodes t for the exact mode: (0, 0) for the zero time, else later
// first, with t's log2 bucket in the logarithmic mode (0 for the zero
// time). The internal seconds are recovered from Unix with the same
// wrapping arithmetic, so every time.Time compares as Time.Compare does
// without monotonic readings.
//
// The bucket is durationBucket(c.since(t)); bucket computes the common
// case, a time within 9e9 seconds of now and away from a power of two
// from it, directly.
func (c *clock) words(t time.Time) (hi, lo uint64, bucket int8) {
	sec, nsec := t.Unix()+unixToInternal, int64(t.Nanosecond())
	if sec == 0 && nsec == 0 { // t.IsZero()
		return 0, 0, 0
	}
	if c.log {
		bucket = c.bucket(t, sec, nsec)
	}
	return ^flipSign(sec), uint64(999_999_999-nsec) + 1, bucket // lo in [1, 1e9]
}

// bucket returns durationBucket(c.since(t, sec, nsec)) for t, not zero,
// with internal seconds sec and nanoseconds nsec.
func (c *clock) bucket(t time.Time, sec, nsec int64) int8 {
	if uint64(sec-c.fastLo) >= c.fastSpan {
		return int8(durationBucket(c.since(t, sec, nsec)))
	}
	d := (c.sec-sec)*1e9 + c.nsec - nsec
	if d <= 0 {
		return -1
	}
	// d = 2^l + frac; away from 2^l and 2^(l+1) (see durationBucket):
	// max(1, 2^l/1024) <= frac < 2^l - 2^l/512.
	l := bits.Len64(uint64(d)) - 1
	p := uint64(1) << l
	low := max(1, p>>10)
	if uint64(d)-p-low < p-p>>9-low {
		return int8(l)
	}
	return int8(durationBucket(time.Duration(d)))
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

// bigEndian returns the first 8 bytes of s, at least 8 long, big-endian.
func bigEndian(s string) uint64 {
	_ = s[7]
	return uint64(s[0])<<56 | uint64(s[1])<<48 | uint64(s[2])<<40 | uint64(s[3])<<32 |
		uint64(s[4])<<24 | uint64(s[5])<<16 | uint64(s[6])<<8 | uint64(s[7])
}

// prefixWord returns the 8 bytes of s from off, big-endian, padded with
// zeros. Two strings whose prefixes differ order as their prefixes do.
func prefixWord(s string, off int) uint64 {
	if len(s) >= off+8 {
		return bigEndian(s[off:])
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
