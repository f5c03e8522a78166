// Package stable sorts as slices.SortStableFunc does, faster: a list
// already in order is left as it is, and any other is sorted by pdqsort
// with each element's place breaking ties, which gives the stable order in
// fewer moves than insertion sort and symmetric merging.
package stable

import "slices"

// Sort sorts s by compare, keeping equal elements in their order: the
// result of slices.SortStableFunc(s, compare).
func Sort[T any](s []T, compare func(a, b T) int) {
	if slices.IsSortedFunc(s, compare) {
		return
	}
	type placed struct {
		v T
		i int
	}
	ps := make([]placed, len(s))
	for i, v := range s {
		ps[i] = placed{v, i}
	}
	slices.SortFunc(ps, func(a, b placed) int {
		if c := compare(a.v, b.v); c != 0 {
			return c
		}
		return a.i - b.i
	})
	for i, p := range ps {
		s[i] = p.v
	}
}
