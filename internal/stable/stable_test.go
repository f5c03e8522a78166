package stable

import (
	"slices"
	"testing"

	"pgregory.net/rapid"
)

type kv struct{ k, v int }

// TestSortIsStable: Sort orders as slices.SortStableFunc does, on lists
// with many equal keys, some in order already.
func TestSortIsStable(t *testing.T) {
	t.Parallel()
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(0, 200).Draw(t, "n")
		s := make([]kv, n)
		for i := range s {
			s[i] = kv{rapid.IntRange(0, 7).Draw(t, "k"), i}
		}
		byKey := func(a, b kv) int { return a.k - b.k }
		if rapid.Bool().Draw(t, "in order") {
			slices.SortStableFunc(s, byKey)
		}
		want := slices.Clone(s)
		slices.SortStableFunc(want, byKey)
		Sort(s, byKey)
		if !slices.Equal(s, want) {
			t.Fatalf("Sort = %v; want %v", s, want)
		}
	})
}

func BenchmarkSort(b *testing.B) {
	in := make([]kv, 10000)
	for i := range in {
		in[i] = kv{(len(in) - i) / 3, i}
	}
	byKey := func(a, b kv) int { return a.k - b.k }
	s := make([]kv, len(in))
	b.Run("stable", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			copy(s, in)
			Sort(s, byKey)
		}
	})
	b.Run("slices.SortStableFunc", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			copy(s, in)
			slices.SortStableFunc(s, byKey)
		}
	})
}

func BenchmarkSortStrings(b *testing.B) {
	for _, order := range []string{"reversed", "shuffled"} {
		in := make([]*string, 10000)
		for i := range in {
			s := "web-2906" + string(rune('0'+i%10)) + string(rune('a'+i/10%26)) + string(rune('a'+i/260%26)) + string(rune('a'+i/6760))
			in[i] = &s
		}
		slices.SortFunc(in, func(a, b *string) int { return -cmpString(*a, *b) })
		if order == "shuffled" {
			for i := range in {
				j := (i * 7919) % len(in)
				in[i], in[j] = in[j], in[i]
			}
		}
		byName := func(a, b *string) int { return cmpString(*a, *b) }
		s := make([]*string, len(in))
		b.Run(order+"/stable", func(b *testing.B) {
			for b.Loop() {
				copy(s, in)
				Sort(s, byName)
			}
		})
		b.Run(order+"/slices.SortStableFunc", func(b *testing.B) {
			for b.Loop() {
				copy(s, in)
				slices.SortStableFunc(s, byName)
			}
		})
	}
}

func cmpString(a, b string) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}
