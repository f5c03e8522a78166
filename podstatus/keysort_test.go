package podstatus

import (
	"math/rand/v2"
	"testing"
)

// checkSorted fails unless order is a permutation of keys' indexes sorted by
// their words, and sameWords agrees with same on every adjacent pair.
func checkSorted(t *testing.T, name string, keys []sortKey, s *keySorter, order []uint64) {
	t.Helper()
	if len(order) != len(keys) {
		t.Fatalf("%s: sort returned %d pairs for %d keys", name, len(order), len(keys))
	}
	seen := make([]bool, len(keys))
	for i, p := range order {
		if seen[s.index(p)] {
			t.Fatalf("%s: index %d twice", name, s.index(p))
		}
		seen[s.index(p)] = true
		if i == 0 {
			continue
		}
		a, b := &keys[s.index(order[i-1])], &keys[s.index(p)]
		if b.less(a) {
			t.Fatalf("%s: position %d: %x sorts before %x", name, i, b.words(), a.words())
		}
		for n := 0; n <= keyWords; n++ {
			if got, want := s.sameWords(keys, order[i-1], p, n), a.same(b, n); got != want {
				t.Fatalf("%s: sameWords(%d) = %v; same says %v (%x, %x)", name, n, got, want, a.words(), b.words())
			}
		}
	}
}

// keyOfWords returns the key whose words are w (w's head within rules
// 1-4, its low time words within 32 bits).
func keyOfWords(w [keyWords]uint64) sortKey {
	var k sortKey
	k.r[rawHead], k.r[rawRank], k.r[rawReadyHi], k.r[rawRestarts] = w[wordHead], w[wordRank], w[wordReadyHi], w[wordRestarts]
	k.r[rawCreatedHi], k.r[rawLo] = w[wordCreatedHi], w[wordReadyLo]<<32|w[wordCreatedLo]
	return k
}

func TestKeySorter(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(7, 8))
	for _, tc := range []struct {
		name  string
		n     int
		wide  bool // the varying bits do not fit in the prefix
		words func(i int) [keyWords]uint64
	}{
		// Few varying bits: the prefix holds them all.
		{"narrow", 200, false, func(int) [keyWords]uint64 {
			return [keyWords]uint64{uint64(r.IntN(4)), 7, uint64(r.IntN(3)), 9, 0, uint64(r.IntN(5)), 0}
		}},
		// The first word's varying bits fill the prefix: equal prefixes
		// are decided by the later words, in runs longer than 16.
		{"wide, long runs", 300, true, func(int) [keyWords]uint64 {
			return [keyWords]uint64{(1<<35 | 1) * uint64(r.IntN(2)), (1<<63 | 1) * uint64(r.IntN(2)), uint64(r.IntN(3)), 0, 0, uint64(r.IntN(2)) << 63, uint64(r.IntN(40))}
		}},
		// The same in runs of at most 16 (insertion).
		{"wide, short runs", 12, true, func(int) [keyWords]uint64 {
			return [keyWords]uint64{(1<<35 | 1) * uint64(r.IntN(2)), (1<<63 | 1) * uint64(r.IntN(2)), 0, 0, 0, 0, uint64(r.Uint32())}
		}},
		{"random words", 300, true, func(int) [keyWords]uint64 {
			var w [keyWords]uint64
			for j := range w {
				w[j] = r.Uint64() >> r.IntN(64)
			}
			w[wordHead] &= headRules
			w[wordReadyLo] &= 1<<32 - 1
			w[wordCreatedLo] &= 1<<32 - 1
			return w
		}},
		{"all equal", 50, false, func(int) [keyWords]uint64 { return [keyWords]uint64{1, 2, 3, 4, 5, 6, 7} }},
		{"one key", 1, false, func(int) [keyWords]uint64 { return [keyWords]uint64{1} }},
	} {
		keys := make([]sortKey, tc.n)
		for i := range keys {
			keys[i] = keyOfWords(tc.words(i))
		}
		var varying [keyWords]uint64
		for i := range keys {
			for w, from := range exactFrom {
				varying[w] |= (keys[i].r[from] ^ keys[0].r[from]) & exactMask(w)
			}
		}
		s := newKeySorter(tc.n, make([]uint64, tc.n), make([]uint64, tc.n))
		order := s.sortKeys(keys, &varying)
		checkSorted(t, tc.name, keys, &s, order)
		if wide := !s.holds(keyWords); wide != tc.wide {
			t.Errorf("%s: %d varying bits, %d held; want wide %v", tc.name, s.packer.UpTo[keyWords], s.top, tc.wide)
		}
		if &order[0] != &s.buf[0] && &order[0] != &s.scratch[0] {
			t.Errorf("%s: the order is in neither buffer", tc.name)
		}
	}
	s := newKeySorter(0, nil, nil)
	if got := s.sortKeys(nil, new([keyWords]uint64)); len(got) != 0 {
		t.Errorf("sortKeys(nil) = %v; want nothing", got)
	}
}

func TestSortByWords(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(9, 10))
	for _, n := range []int{2, 16, 17, 100} {
		keys := make([]sortKey, n)
		s := newKeySorter(n, make([]uint64, n), make([]uint64, n))
		run := make([]uint64, n)
		for i := range keys {
			var w [keyWords]uint64
			w[r.IntN(keyWords)] = uint64(r.IntN(3))
			keys[i], run[i] = keyOfWords(w), uint64(i)
		}
		s.sortByWords(keys, run)
		for i := 1; i < n; i++ {
			if keys[s.index(run[i])].less(&keys[s.index(run[i-1])]) {
				t.Fatalf("sortByWords(%d keys): position %d out of order", n, i)
			}
		}
	}
}
