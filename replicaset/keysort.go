package replicaset

import (
	"math/bits"
	"slices"
)

// keySorter sorts sortKeys by their words without moving them: sorting
// the 64-byte keys themselves would move four times the memory. It
// radix-sorts 16-byte (prefix, index) pairs instead, the prefix packed by
// a [packer]. When the packer holds all the varying bits, equal prefixes
// mean equal words; otherwise runs of equal prefixes are sorted again by
// the words.
type keySorter struct {
	pairs, scratch []prefixed
	// spare is the one of pairs and scratch that the last sort's result
	// is not.
	spare []prefixed
	// packer is the last sort's.
	packer packer
}

// prefixed is a key's prefix and its index in the sorted keys.
type prefixed struct {
	prefix uint64
	idx    uint32
}

func newKeySorter(n int) keySorter {
	buf := make([]prefixed, 2*n)
	return keySorter{pairs: buf[:n], scratch: buf[n:]}
}

// sort returns the order of keys by their words (unstable): the keys'
// indexes in the idx fields. The result is valid until the next call.
func (s *keySorter) sort(keys []sortKey) []prefixed {
	if len(keys) == 0 {
		return nil
	}
	var varying [keyWords]uint64
	first := keys[0].w
	for i := range keys {
		w := &keys[i].w
		varying[0] |= w[0] ^ first[0]
		varying[1] |= w[1] ^ first[1]
		varying[2] |= w[2] ^ first[2]
		varying[3] |= w[3] ^ first[3]
		varying[4] |= w[4] ^ first[4]
		varying[5] |= w[5] ^ first[5]
		varying[6] |= w[6] ^ first[6]
	}
	s.packer = newPacker(varying[:])
	pairs := s.pairs[:len(keys)]
	for i := range keys {
		pairs[i] = prefixed{prefix: s.packer.pack(keys[i].w[:]), idx: uint32(i)}
	}
	pairs = radixSort(pairs, s.scratch[:len(keys)], min(s.packer.upTo[keyWords], 64))
	s.spare = s.scratch
	if &pairs[0] == &s.scratch[0] {
		s.spare = s.pairs
	}
	if s.packer.upTo[keyWords] <= 64 {
		return pairs
	}
	for i, j := 0, 0; i < len(pairs); i = j {
		for j = i + 1; j < len(pairs) && pairs[j].prefix == pairs[i].prefix; j++ {
		}
		if j-i > 1 {
			sortByWords(keys, pairs[i:j])
		}
	}
	return pairs
}

// sameWords reports whether the keys of a and b, pairs of the last sort,
// agree on their first n words. It reads the keys only when the prefixes
// agree on those words' bits but do not hold all of them.
func (s *keySorter) sameWords(keys []sortKey, a, b prefixed, n int) bool {
	upTo := s.packer.upTo[n]
	top := min(upTo, 64)
	if top > 0 && (a.prefix^b.prefix)>>(64-top) != 0 {
		return false
	}
	return upTo <= 64 || keys[a.idx].same(&keys[b.idx], n)
}

// sortByWords sorts a run of pairs by their keys' words: by insertion when
// it is short, as runs of equal prefixes usually are.
func sortByWords(keys []sortKey, run []prefixed) {
	if len(run) > 16 {
		slices.SortFunc(run, func(a, b prefixed) int {
			ka, kb := &keys[a.idx], &keys[b.idx]
			if ka.less(kb) {
				return -1
			}
			if kb.less(ka) {
				return 1
			}
			return 0
		})
		return
	}
	for i := 1; i < len(run); i++ {
		p := run[i]
		j := i
		for ; j > 0 && keys[p.idx].less(&keys[run[j-1].idx]); j-- {
			run[j] = run[j-1]
		}
		run[j] = p
	}
}

// packer packs words into an order-preserving 64-bit prefix: of each word
// it keeps only the span of bits in which some packed words differ from
// the first (the bits outside it are the same everywhere, so they never
// decide), and concatenates the spans, most significant first, keeping
// the top 64 bits.
type packer struct {
	fields [keyWords]packField
	n      int
	// upTo[n] is the number of bits the spans of the first n words take,
	// more than 64 when they do not all fit.
	upTo [keyWords + 1]uint
}

// packField is where one word's span goes: the span's bits (src) rotated
// left by rot, keeping dst; bits cut from a span that does not fit wrap
// around outside dst.
type packField struct {
	word     int
	rot      int
	src, dst uint64
}

// newPacker plans the prefix of words whose bits differ from the first
// words' in varying.
func newPacker(varying []uint64) packer {
	var p packer
	left := 64
	for w, v := range varying {
		width, lo := 0, 0
		if v != 0 {
			lo = bits.TrailingZeros64(v)
			width = 64 - bits.LeadingZeros64(v) - lo
		}
		p.upTo[w+1] = p.upTo[w] + uint(width)
		if width == 0 || left == 0 {
			continue
		}
		src := (uint64(1)<<uint(width) - 1) << uint(lo)
		if width <= left {
			left -= width
			p.fields[p.n] = packField{word: w, rot: left - lo, src: src, dst: (uint64(1)<<uint(width) - 1) << uint(left)}
		} else {
			cut := width - left // low bits of the span that do not fit
			p.fields[p.n] = packField{word: w, rot: -lo - cut, src: src, dst: uint64(1)<<uint(left) - 1}
			left = 0
		}
		p.n++
	}
	return p
}

// pack returns the prefix of words.
func (p *packer) pack(words []uint64) uint64 {
	var x uint64
	for _, f := range p.fields[:p.n] {
		x |= bits.RotateLeft64(words[f.word]&f.src, f.rot) & f.dst
	}
	return x
}

// radixBits is the width of a radix digit: 2048 counters stay in cache,
// and a 64-bit prefix takes 6 passes.
const radixBits = 11

// radixSort sorts pairs by prefix, of which only the top used bits may
// differ, with a least-significant-digit radix sort, skipping the digits
// on which all prefixes agree, and returns the sorted slice (pairs or
// scratch).
func radixSort(pairs, scratch []prefixed, used uint) []prefixed {
	if len(pairs) <= 32 {
		for i := 1; i < len(pairs); i++ {
			p := pairs[i]
			j := i
			for ; j > 0 && p.prefix < pairs[j-1].prefix; j-- {
				pairs[j] = pairs[j-1]
			}
			pairs[j] = p
		}
		return pairs
	}
	const digits, mask = (64 + radixBits - 1) / radixBits, 1<<radixBits - 1
	var counts [digits][mask + 1]uint32
	low := int(64-used) / radixBits // digits below are zero in every prefix
	for _, p := range pairs {
		for d := low; d < digits; d++ {
			counts[d][p.prefix>>(radixBits*d)&mask]++
		}
	}
	for d := low; d < digits; d++ {
		c := &counts[d]
		if c[pairs[0].prefix>>(radixBits*d)&mask] == uint32(len(pairs)) {
			continue
		}
		sum := uint32(0)
		for b := range c {
			c[b], sum = sum, sum+c[b]
		}
		for _, p := range pairs {
			b := p.prefix >> (radixBits * d) & mask
			scratch[c[b]] = p
			c[b]++
		}
		pairs, scratch = scratch, pairs
	}
	return pairs
}
