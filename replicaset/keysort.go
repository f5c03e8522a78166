package replicaset

import (
	"math/bits"
	"slices"
)

// keySorter sorts sortKeys by their words. Sorting the keys themselves
// would move 88 bytes per swap; it instead radix-sorts 16-byte
// (prefix, index) pairs and then moves each key once, in place.
//
// The prefix is an order-preserving compression of the words: in each word
// only the span of bits in which some key differs from the first is kept
// (the bits outside it are the same in every key, so they never decide),
// and the spans are concatenated, most significant first, into 64 bits.
// When the spans fit, equal prefixes mean equal words; otherwise runs of
// equal prefixes are sorted again by the words.
type keySorter struct {
	pairs, scratch []prefixed
}

type prefixed struct {
	prefix uint64
	idx    uint32
}

// span is the bits of one word that the prefix keeps: width bits from lo.
type span struct{ lo, width uint }

func newKeySorter(n int) *keySorter {
	buf := make([]prefixed, 2*n)
	return &keySorter{pairs: buf[:n], scratch: buf[n:]}
}

// sort sorts keys by their words, unstably.
func (s *keySorter) sort(keys []sortKey) {
	if len(keys) == 0 {
		return
	}
	spans, complete := prefixSpans(keys)
	pairs := s.pairs[:len(keys)]
	for i := range keys {
		pairs[i] = prefixed{prefix: prefixOf(&keys[i], &spans), idx: uint32(i)}
	}
	pairs = radixSort(pairs, s.scratch[:len(keys)])
	permute(keys, pairs)
	if complete {
		return
	}
	for i := 0; i < len(keys); {
		j := i + 1
		for j < len(keys) && pairs[j].prefix == pairs[i].prefix {
			j++
		}
		if j-i > 1 {
			sortByWords(keys[i:j])
		}
		i = j
	}
}

// permute moves keys[pairs[i].idx] to keys[i] for every i, following
// each cycle of the permutation once; it marks placed positions in pairs.
func permute(keys []sortKey, pairs []prefixed) {
	for i := range pairs {
		if pairs[i].idx == uint32(i) {
			continue
		}
		k := keys[i]
		j := i
		for {
			from := int(pairs[j].idx)
			pairs[j].idx = uint32(j)
			if from == i {
				keys[j] = k
				break
			}
			keys[j] = keys[from]
			j = from
		}
	}
}

// sortByWords sorts a run of keys by their words: by insertion when it
// is short, as runs of equal prefixes usually are.
func sortByWords(run []sortKey) {
	if len(run) > 16 {
		slices.SortFunc(run, func(a, b sortKey) int {
			if a.less(&b) {
				return -1
			}
			if b.less(&a) {
				return 1
			}
			return 0
		})
		return
	}
	for i := 1; i < len(run); i++ {
		if !run[i].less(&run[i-1]) {
			continue
		}
		k := run[i]
		j := i
		for ; j > 0 && k.less(&run[j-1]); j-- {
			run[j] = run[j-1]
		}
		run[j] = k
	}
}

// prefixSpans returns the span of varying bits of each word and whether
// they fit in 64 bits together.
func prefixSpans(keys []sortKey) (spans [keyWords]span, complete bool) {
	var varying [keyWords]uint64
	first := &keys[0].w
	for i := range keys {
		for w := range varying {
			varying[w] |= keys[i].w[w] ^ first[w]
		}
	}
	total := uint(0)
	for w, v := range varying {
		if v != 0 {
			lo := uint(bits.TrailingZeros64(v))
			spans[w] = span{lo: lo, width: uint(64-bits.LeadingZeros64(v)) - lo}
			total += spans[w].width
		}
	}
	return spans, total <= 64
}

// prefixOf concatenates k's spans into the top bits of a word.
func prefixOf(k *sortKey, spans *[keyWords]span) uint64 {
	var p uint64
	left := uint(64)
	for w, sp := range spans {
		if sp.width == 0 {
			continue
		}
		f := k.w[w] >> sp.lo & (1<<sp.width - 1)
		if sp.width >= left {
			return p<<left | f>>(sp.width-left)
		}
		p = p<<sp.width | f
		left -= sp.width
	}
	return p << left
}

// radixSort sorts pairs by prefix with a least-significant-digit radix
// sort over bytes, skipping the bytes on which all prefixes agree, and
// returns the sorted slice (pairs or scratch).
func radixSort(pairs, scratch []prefixed) []prefixed {
	if len(pairs) <= 32 {
		for i := 1; i < len(pairs); i++ {
			for j := i; j > 0 && pairs[j].prefix < pairs[j-1].prefix; j-- {
				pairs[j], pairs[j-1] = pairs[j-1], pairs[j]
			}
		}
		return pairs
	}
	var counts [8][256]uint32
	for _, p := range pairs {
		for d := range counts {
			counts[d][byte(p.prefix>>(8*d))]++
		}
	}
	for d := range counts {
		c := &counts[d]
		if c[byte(pairs[0].prefix>>(8*d))] == uint32(len(pairs)) {
			continue
		}
		sum := uint32(0)
		for b := range c {
			c[b], sum = sum, sum+c[b]
		}
		for _, p := range pairs {
			b := byte(p.prefix >> (8 * d))
			scratch[c[b]] = p
			c[b]++
		}
		pairs, scratch = scratch, pairs
	}
	return pairs
}
