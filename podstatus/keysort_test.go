package podstatus

import (
	"math/rand/v2"
	"testing"

	"github.com/kubesem/kubesem/internal/radix"
)

// checkSorted fails unless order is a permutation of keys' indexes sorted by
// their words, and sameWords agrees with same on every adjacent pair.
func checkSorted(t *testing.T, name string, keys []sortKey, s *keySorter, order []radix.Pair) {
	t.Helper()
	if len(order) != len(keys) {
		t.Fatalf("%s: sort returned %d pairs for %d keys", name, len(order), len(keys))
	}
	seen := make([]bool, len(keys))
	for i, p := range order {
		if seen[p.Idx] {
			t.Fatalf("%s: index %d twice", name, p.Idx)
		}
		seen[p.Idx] = true
		if i == 0 {
			continue
		}
		a, b := &keys[order[i-1].Idx], &keys[p.Idx]
		if b.less(a) {
			t.Fatalf("%s: position %d: %x sorts before %x", name, i, b.w, a.w)
		}
		for n := 0; n <= keyWords; n++ {
			if got, want := s.sameWords(keys, order[i-1], p, n), a.same(b, n); got != want {
				t.Fatalf("%s: sameWords(%d) = %v; same says %v (%x, %x)", name, n, got, want, a.w, b.w)
			}
		}
	}
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
			return [keyWords]uint64{(1<<63 | 1) * uint64(r.IntN(2)), 0, uint64(r.IntN(3)), 0, 0, uint64(r.IntN(2)) << 63, uint64(r.IntN(40))}
		}},
		// The same in runs of at most 16 (insertion).
		{"wide, short runs", 12, true, func(int) [keyWords]uint64 {
			return [keyWords]uint64{(1<<63 | 1) * uint64(r.IntN(2)), 0, 0, 0, 0, 0, r.Uint64()}
		}},
		{"random words", 300, true, func(int) [keyWords]uint64 {
			var w [keyWords]uint64
			for j := range w {
				w[j] = r.Uint64() >> r.IntN(64)
			}
			return w
		}},
		{"all equal", 50, false, func(int) [keyWords]uint64 { return [keyWords]uint64{1, 2, 3, 4, 5, 6, 7} }},
		{"one key", 1, false, func(int) [keyWords]uint64 { return [keyWords]uint64{1} }},
	} {
		keys := make([]sortKey, tc.n)
		for i := range keys {
			keys[i].w = tc.words(i)
		}
		s := newKeySorter(tc.n)
		order := s.sort(keys)
		checkSorted(t, tc.name, keys, &s, order)
		if wide := s.packer.UpTo[keyWords] > 64; wide != tc.wide {
			t.Errorf("%s: %d varying bits; want wide %v", tc.name, s.packer.UpTo[keyWords], tc.wide)
		}
		if &order[0] != &s.pairs[0] && &order[0] != &s.scratch[0] {
			t.Errorf("%s: the order is in neither buffer", tc.name)
		}
		if &s.spare[0] == &order[0] {
			t.Errorf("%s: spare is the result", tc.name)
		}
	}
	var s keySorter
	if got := s.sort(nil); got != nil {
		t.Errorf("sort(nil) = %v; want nil", got)
	}
}

func TestSortByWords(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(9, 10))
	for _, n := range []int{2, 16, 17, 100} {
		keys := make([]sortKey, n)
		run := make([]radix.Pair, n)
		for i := range keys {
			keys[i].w[r.IntN(keyWords)] = uint64(r.IntN(3))
			run[i] = radix.Pair{Idx: uint32(i)}
		}
		sortByWords(keys, run)
		for i := 1; i < n; i++ {
			if keys[run[i].Idx].less(&keys[run[i-1].Idx]) {
				t.Fatalf("sortByWords(%d keys): position %d out of order", n, i)
			}
		}
	}
}
