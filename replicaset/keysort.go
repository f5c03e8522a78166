package replicaset

import "math/bits"

// sortKeys sorts keys by their words (not by idx), unstably, in
// O(n log n) comparisons: an introsort (quicksort with a median-of-three
// or ninther pivot, insertion sort for short runs, heapsort past a depth
// limit) specialised to sortKey so that comparisons inline. Its partition
// stops on keys equal to the pivot from both sides, so many equal keys
// split evenly instead of degrading to quadratic time.
//
// slices.SortFunc would call the comparator through a function value and
// copy two keys per comparison; this is several times faster.
func sortKeys(k []sortKey) {
	quickSortKeys(k, 2*bits.Len(uint(len(k))))
}

const insertionThreshold = 12

func quickSortKeys(k []sortKey, depth int) {
	for len(k) > insertionThreshold {
		if depth == 0 {
			heapSortKeys(k)
			return
		}
		depth--
		p := partitionKeys(k)
		if p < len(k)-p {
			quickSortKeys(k[:p], depth)
			k = k[p+1:]
		} else {
			quickSortKeys(k[p+1:], depth)
			k = k[:p]
		}
	}
	insertionSortKeys(k)
}

// partitionKeys moves a pivot to its final position p and returns p, with
// k[:p] not after it and k[p+1:] not before it.
func partitionKeys(k []sortKey) int {
	n := len(k)
	m := n / 2
	if n > 64 {
		s := n / 8
		m = medianKeys(k, medianKeys(k, 0, s, 2*s), medianKeys(k, m-s, m, m+s), medianKeys(k, n-1-2*s, n-1-s, n-1))
	} else {
		m = medianKeys(k, 0, m, n-1)
	}
	k[0], k[m] = k[m], k[0]
	i, j := 0, n
	for {
		for i++; i < n && k[i].less(&k[0]); i++ {
		}
		for j--; k[0].less(&k[j]); j-- {
		}
		if i >= j {
			break
		}
		k[i], k[j] = k[j], k[i]
	}
	k[0], k[j] = k[j], k[0]
	return j
}

// medianKeys returns the index of the median of k[a], k[b] and k[c].
func medianKeys(k []sortKey, a, b, c int) int {
	if k[b].less(&k[a]) {
		a, b = b, a
	}
	if k[c].less(&k[b]) {
		b = c
		if k[b].less(&k[a]) {
			b = a
		}
	}
	return b
}

func insertionSortKeys(k []sortKey) {
	for i := 1; i < len(k); i++ {
		if !k[i].less(&k[i-1]) {
			continue
		}
		x := k[i]
		j := i
		for ; j > 0 && x.less(&k[j-1]); j-- {
			k[j] = k[j-1]
		}
		k[j] = x
	}
}

func heapSortKeys(k []sortKey) {
	for i := len(k)/2 - 1; i >= 0; i-- {
		siftDownKeys(k, i)
	}
	for end := len(k) - 1; end > 0; end-- {
		k[0], k[end] = k[end], k[0]
		siftDownKeys(k[:end], 0)
	}
}

func siftDownKeys(k []sortKey, root int) {
	for {
		child := 2*root + 1
		if child >= len(k) {
			return
		}
		if child+1 < len(k) && k[child].less(&k[child+1]) {
			child++
		}
		if !k[root].less(&k[child]) {
			return
		}
		k[root], k[child] = k[child], k[root]
		root = child
	}
}
