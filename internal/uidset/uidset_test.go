package uidset

import (
	"fmt"
	"testing"

	"pgregory.net/rapid"
)

// A Set answers as a map of the strings added so far, whatever their
// number, repeats and common prefixes, sized or not.
func TestPropertyAsMap(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(0, 300).Draw(t, "n")
		distinct := rapid.IntRange(1, 400).Draw(t, "distinct")
		var s Set
		if rapid.Bool().Draw(t, "sized") {
			s = New(rapid.IntRange(0, n).Draw(t, "size"))
		}
		seen := map[string]bool{}
		for i := range n {
			k := fmt.Sprintf("00000000-0000-4000-8000-%012x", rapid.IntRange(0, distinct-1).Draw(t, "k"))
			if rapid.IntRange(0, 9).Draw(t, "short") == 0 {
				k = k[len(k)-rapid.IntRange(0, 12).Draw(t, "len"):]
			}
			if got, want := s.Add(k), !seen[k]; got != want {
				t.Fatalf("Add #%d %q = %v, want %v", i, k, got, want)
			}
			seen[k] = true
		}
	})
}

func BenchmarkAdd70(b *testing.B) {
	var uids []string
	for i := range 70 {
		uids = append(uids, fmt.Sprintf("00000000-0000-4000-8000-%012x", 5000+i*7))
	}
	b.ReportAllocs()
	for b.Loop() {
		s := New(len(uids))
		for _, u := range uids {
			if !s.Add(u) {
				b.Fatal(u)
			}
		}
	}
}
