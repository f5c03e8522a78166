// Package radix sorts integer keys for kubesem's pod rankings: an
// order-preserving packing of several 64-bit words into one 64-bit prefix,
// and a least-significant-digit radix sort of words that each hold a
// prefix's top bits above an index.
package radix

import "math/bits"

// MaxWords is the most words a Packer packs.
const MaxWords = 8

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

// packField is where one word's span goes: the span's bits (src) of
// words[word] rotated left by rot, keeping dst; bits cut from a span that
// does not fit wrap around outside dst. of is the word's position in the
// order of the words.
type packField struct {
	word, of int
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
			p.fields[p.n] = packField{word: w, of: w, rot: left - lo, src: src, dst: (uint64(1)<<uint(width) - 1) << uint(left)}
		} else {
			cut := width - left // low bits of the span that do not fit
			p.fields[p.n] = packField{word: w, of: w, rot: -lo - cut, src: src, dst: uint64(1)<<uint(left) - 1}
			left = 0
		}
		p.n++
	}
	return p
}

// ReadFrom makes Pack read the i-th word from words[from[i]], where the
// varying bits NewPacker was given lie in place: several words may share
// one of words in disjoint bits.
func (p *Packer) ReadFrom(from []int) {
	for i := range p.n {
		p.fields[i].word = from[p.fields[i].of]
	}
}

// Pack returns the prefix of words.
func (p *Packer) Pack(words []uint64) uint64 { return p.PackFields(words, 0, p.n) }

// FieldsBefore returns how many of the packed spans belong to the words
// before the w-th: PackFields(words, 0, FieldsBefore(w)) packs those words
// alone, in place.
func (p *Packer) FieldsBefore(w int) int {
	n := 0
	for n < p.n && p.fields[n].of < w {
		n++
	}
	return n
}

// PackFields returns the bits of the prefix of words that spans [lo, hi)
// (see FieldsBefore) hold; the prefix is their OR over a partition of
// [0, FieldsBefore(MaxWords)).
func (p *Packer) PackFields(words []uint64, lo, hi int) uint64 {
	var x uint64
	for i := lo; i < hi; i++ {
		f := &p.fields[i]
		x |= bits.RotateLeft64(words[f.word]&f.src, f.rot) & f.dst
	}
	return x
}

// radixBits is the width of a radix digit: 2048 counters stay in cache,
// and a 64-bit prefix takes 6 passes.
const radixBits = 11

// SortBits sorts keys by their bits [lo, lo+width), which must be the top
// bits that may be set (the bits above are zero in every key), with a
// least-significant-digit radix sort in digits of radixBits bits from lo,
// skipping the digits on which all keys agree, and returns the sorted
// slice (keys or scratch, which must be as long). It is stable.
//
// The bits below lo are carried along: callers keep an index there, so
// that a key is a sort prefix and the position of what it stands for in
// one word, half the memory of a [Pair].
func SortBits(keys, scratch []uint64, lo, width uint) []uint64 {
	if width == 0 || len(keys) < 2 {
		return keys
	}
	if len(keys) <= 32 {
		for i := 1; i < len(keys); i++ {
			k := keys[i]
			j := i
			for ; j > 0 && k>>lo < keys[j-1]>>lo; j-- {
				keys[j] = keys[j-1]
			}
			keys[j] = k
		}
		return keys
	}
	const mask = 1<<radixBits - 1
	digits := int(width+radixBits-1) / radixBits
	var counts [(64 + radixBits - 1) / radixBits][mask + 1]uint32
	c0, c1, c2, c3 := &counts[0], &counts[1], &counts[2], &counts[3]
	// Count every digit in one pass; the first four, which most sorts
	// need alone, unrolled.
	switch {
	case digits == 1:
		for _, k := range keys {
			c0[k>>lo&mask]++
		}
	case digits == 2:
		for _, k := range keys {
			k >>= lo
			c0[k&mask]++
			c1[k>>radixBits&mask]++
		}
	case digits == 3:
		for _, k := range keys {
			k >>= lo
			c0[k&mask]++
			c1[k>>radixBits&mask]++
			c2[k>>(2*radixBits)&mask]++
		}
	default:
		for _, k := range keys {
			k >>= lo
			c0[k&mask]++
			c1[k>>radixBits&mask]++
			c2[k>>(2*radixBits)&mask]++
			c3[k>>(3*radixBits)&mask]++
		}
		for d := 4; d < digits; d++ {
			c := &counts[d]
			shift := lo + uint(d)*radixBits
			for _, k := range keys {
				c[k>>shift&mask]++
			}
		}
	}
	n := uint32(len(keys))
	for d := range digits {
		c := &counts[d]
		shift := lo + uint(d)*radixBits
		if c[keys[0]>>shift&mask] == n {
			continue
		}
		sum := uint32(0)
		for b, v := range c {
			c[b], sum = sum, sum+v
		}
		dst := scratch[:len(keys)]
		for _, k := range keys {
			b := k >> shift & mask
			dst[c[b]] = k
			c[b]++
		}
		keys, scratch = dst, keys
	}
	return keys
}
