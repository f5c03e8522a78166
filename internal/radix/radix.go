// Package radix sorts integer keys for kubesem's pod rankings: an
// order-preserving packing of several 64-bit words into one 64-bit prefix,
// and a least-significant-digit radix sort of (prefix, index) pairs.
package radix

import "math/bits"

// MaxWords is the most words a Packer packs.
const MaxWords = 8

// Pair is a sort key's packed prefix and the index of the key it stands for.
type Pair struct {
	Prefix uint64
	Idx    uint32
}

// Packer packs words into an order-preserving 64-bit prefix: of each word
// it keeps only the span of bits in which some packed words differ from
// the first (the bits outside it are the same everywhere, so they never
// decide), and concatenates the spans, most significant first, keeping
// the top 64 bits.
type Packer struct {
	fields [MaxWords]packField
	n      int
	// UpTo[n] is the number of bits the spans of the first n words take,
	// more than 64 when they do not all fit.
	UpTo [MaxWords + 1]uint
}

// packField is where one word's span goes: the span's bits (src) rotated
// left by rot, keeping dst; bits cut from a span that does not fit wrap
// around outside dst.
type packField struct {
	word     int
	rot      int
	src, dst uint64
}

// NewPacker plans the prefix of words whose bits differ from the first
// words' in varying (at most MaxWords words).
func NewPacker(varying []uint64) Packer {
	var p Packer
	left := 64
	for w, v := range varying {
		width, lo := 0, 0
		if v != 0 {
			lo = bits.TrailingZeros64(v)
			width = 64 - bits.LeadingZeros64(v) - lo
		}
		p.UpTo[w+1] = p.UpTo[w] + uint(width)
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

// Pack returns the prefix of words.
func (p *Packer) Pack(words []uint64) uint64 {
	var x uint64
	for _, f := range p.fields[:p.n] {
		x |= bits.RotateLeft64(words[f.word]&f.src, f.rot) & f.dst
	}
	return x
}

// radixBits is the width of a radix digit: 2048 counters stay in cache,
// and a 64-bit prefix takes 6 passes.
const radixBits = 11

// Sort sorts pairs by prefix, of which only the top used bits may differ,
// with a least-significant-digit radix sort, skipping the digits on which
// all prefixes agree, and returns the sorted slice (pairs or scratch, which
// must be as long). It is stable.
func Sort(pairs, scratch []Pair, used uint) []Pair {
	if len(pairs) <= 32 {
		for i := 1; i < len(pairs); i++ {
			p := pairs[i]
			j := i
			for ; j > 0 && p.Prefix < pairs[j-1].Prefix; j-- {
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
			counts[d][p.Prefix>>(radixBits*d)&mask]++
		}
	}
	for d := low; d < digits; d++ {
		c := &counts[d]
		if c[pairs[0].Prefix>>(radixBits*d)&mask] == uint32(len(pairs)) {
			continue
		}
		sum := uint32(0)
		for b := range c {
			c[b], sum = sum, sum+c[b]
		}
		for _, p := range pairs {
			b := p.Prefix >> (radixBits * d) & mask
			scratch[c[b]] = p
			c[b]++
		}
		pairs, scratch = scratch, pairs
	}
	return pairs
}
