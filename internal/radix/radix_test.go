package radix_test

import (
	"math/rand/v2"
	"slices"
	"testing"

	"pgregory.net/rapid"

	"github.com/kubesem/kubesem/internal/radix"
)

// TestPacker: packing keeps the lexicographic order of the words.
func TestPacker(t *testing.T) {
	t.Parallel()
	rapid.Check(t, func(t *rapid.T) {
		a := [3]uint64{rapid.Uint64Range(0, 3).Draw(t, "a0"), rapid.Uint64Range(0, 255).Draw(t, "a1") << 20, rapid.Uint64().Draw(t, "a2")}
		b := [3]uint64{rapid.Uint64Range(0, 3).Draw(t, "b0"), rapid.Uint64Range(0, 255).Draw(t, "b1") << 20, rapid.Uint64().Draw(t, "b2")}
		var varying [3]uint64
		for i := range a {
			varying[i] = a[i] ^ b[i]
		}
		p := radix.NewPacker(varying[:])
		pa, pb := p.Pack(a[:]), p.Pack(b[:])
		cmpWords := slices.Compare(a[:], b[:])
		if p.UpTo[3] <= 64 && (pa < pb) != (cmpWords < 0) {
			t.Fatalf("Pack order %d, %d disagrees with words %v, %v", pa, pb, a, b)
		}
		if cmpWords < 0 && pa > pb {
			t.Fatalf("Pack(%v) = %d > Pack(%v) = %d", a, pa, b, pb)
		}
	})
}

// TestSortBits: SortBits orders keys by their bits from lo, stably, for
// short (insertion) and long (radix) inputs and every number of digits.
func TestSortBits(t *testing.T) {
	t.Parallel()
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(0, 300).Draw(t, "n")
		lo := rapid.UintRange(0, 20).Draw(t, "lo")
		width := rapid.UintRange(0, 64-lo).Draw(t, "width")
		keys := make([]uint64, n)
		for i := range keys {
			var v uint64
			if width > 0 {
				v = rapid.Uint64().Draw(t, "k") >> (64 - width)
				if rapid.Bool().Draw(t, "small") {
					v &= 7
				}
			}
			keys[i] = v<<lo | uint64(i)&(1<<lo-1)
		}
		want := slices.Clone(keys)
		slices.SortStableFunc(want, func(a, b uint64) int {
			switch {
			case a>>lo < b>>lo:
				return -1
			case a>>lo > b>>lo:
				return 1
			}
			return 0
		})
		got := radix.SortBits(keys, make([]uint64, n), lo, width)
		if !slices.Equal(got, want) {
			t.Fatalf("SortBits(lo %d, width %d) = %x; want %x", lo, width, got, want)
		}
	})
}

// TestPackFields: the prefix is the OR of PackFields over the spans before
// and from any word, and ReadFrom packs words that share one word of the
// input in disjoint bits as if they were apart.
func TestPackFields(t *testing.T) {
	t.Parallel()
	rapid.Check(t, func(t *rapid.T) {
		// Words 0 and 2 are the low and high halves of one input word.
		in := [2]uint64{rapid.Uint64().Draw(t, "shared"), rapid.Uint64().Draw(t, "other")}
		first := [2]uint64{rapid.Uint64().Draw(t, "firstShared"), rapid.Uint64().Draw(t, "firstOther")}
		split := func(w [2]uint64) [3]uint64 { return [3]uint64{w[0] & (1<<32 - 1), w[1], w[0] &^ (1<<32 - 1)} }
		apart, firstApart := split(in), split(first)
		var varying [3]uint64
		for i := range varying {
			varying[i] = apart[i] ^ firstApart[i]
		}
		p := radix.NewPacker(varying[:])
		want := p.Pack(apart[:])
		w := rapid.IntRange(0, 3).Draw(t, "w")
		mid := p.FieldsBefore(w)
		if got := p.PackFields(apart[:], 0, mid) | p.PackFields(apart[:], mid, p.FieldsBefore(radix.MaxWords)); got != want {
			t.Fatalf("PackFields split before word %d = %#x; Pack = %#x", w, got, want)
		}
		p.ReadFrom([]int{0, 1, 0})
		if got := p.Pack(in[:]); got != want {
			t.Fatalf("Pack after ReadFrom = %#x; want %#x", got, want)
		}
	})
}

// benchmarkSortBits sorts n elements of width random prefix bits above a
// 17-bit index, as the ranking's cells (n 100,000, 21 bits) and blocks
// (n 64,438, 44 bits) sorts do.
func benchmarkSortBits(b *testing.B, n int, width uint) {
	r := rand.New(rand.NewPCG(1, 2))
	keys := make([]uint64, n)
	for i := range keys {
		keys[i] = r.Uint64()>>(64-width)<<17 | uint64(i)
	}
	work, scratch := make([]uint64, n), make([]uint64, n)
	for b.Loop() {
		copy(work, keys)
		radix.SortBits(work, scratch, 17, width)
	}
}

func BenchmarkSortBitsCells(b *testing.B)  { benchmarkSortBits(b, 100_000, 21) }
func BenchmarkSortBitsBlocks(b *testing.B) { benchmarkSortBits(b, 64_438, 44) }
