package podstatus

import (
	"math/bits"
	"slices"

	"github.com/kubesem/kubesem/internal/radix"
)

// keySorter orders the pods of one ranking by integer words without moving
// the words: each element of an order is one uint64 holding the top bits
// of the pod's words packed by a [radix.Packer] (the bits that vary among
// the pods, most significant first) above the pod's index, in the low
// idxBits bits. Elements sort as their prefixes do, with [radix.SortBits].
// When the elements hold all the varying bits, equal prefixes mean equal
// words; otherwise runs of equal prefixes are decided by the words.
type keySorter struct {
	buf, scratch []uint64
	idxBits      uint // the low bits of an element holding the index
	top          uint // prefix bits the elements hold, above idxBits
	packer       radix.Packer
}

// newKeySorter returns a sorter of n keys with buffers buf and scratch,
// n long each.
func newKeySorter(n int, buf, scratch []uint64) keySorter {
	return keySorter{buf: buf[:n:n], scratch: scratch[:n:n], idxBits: uint(bits.Len(uint(max(n, 2) - 1)))}
}

// index returns the index that element e stands for.
func (s *keySorter) index(e uint64) uint32 { return uint32(e & (1<<s.idxBits - 1)) }

// plan prepares packing words that differ from one another only in the
// bits of varying, holding at most limit bits of the prefix.
func (s *keySorter) plan(varying []uint64, limit uint) {
	s.packer = radix.NewPacker(varying)
	s.top = min(s.packer.UpTo[len(varying)], 64-s.idxBits, limit)
}

// element returns the element of words for index i.
func (s *keySorter) element(words []uint64, i int) uint64 {
	return s.prefixed(s.packer.Pack(words), i)
}

// prefixed returns the element of the packed prefix x for index i.
func (s *keySorter) prefixed(x uint64, i int) uint64 {
	return x>>(64-s.top)<<s.idxBits | uint64(i)
}

// sort sorts the first n elements of buf by prefix, stably.
func (s *keySorter) sort(n int) []uint64 {
	return radix.SortBits(s.buf[:n], s.scratch[:n], s.idxBits, s.top)
}

// sortTop sorts the first n elements of buf by the top width bits of
// their prefixes (all of them when they hold fewer), stably, carrying the
// bits below; runs of elements equal in those bits are left in input
// order (see topShift).
func (s *keySorter) sortTop(n int, width uint) []uint64 {
	w := min(width, s.top)
	return radix.SortBits(s.buf[:n], s.scratch[:n], s.idxBits+s.top-w, w)
}

// topShift returns the shift that leaves of an element the top width bits
// of its prefix, those sortTop(n, width) orders by.
func (s *keySorter) topShift(width uint) uint { return s.idxBits + s.top - min(width, s.top) }

// holds reports whether elements hold all the varying bits of the first nw
// words.
func (s *keySorter) holds(nw int) bool { return s.packer.UpTo[nw] <= s.top }

// samePrefix reports whether elements a and b agree on the bits they hold
// of the first nw words.
func (s *keySorter) samePrefix(a, b uint64, nw int) bool {
	return (a^b)>>(s.idxBits+s.top-min(s.packer.UpTo[nw], s.top)) == 0
}

// sameRun reports whether elements a and b have the same prefix.
func (s *keySorter) sameRun(a, b uint64) bool { return (a^b)>>s.idxBits == 0 }

// sortKeys returns the order of keys by their words, whose bits differ
// from one another only in varying (equal keys in any order). The result
// is valid until the next sort.
func (s *keySorter) sortKeys(keys []sortKey, varying *[keyWords]uint64) []uint64 {
	s.plan(varying[:], 64)
	s.packer.ReadFrom(exactFrom[:])
	for i := range keys {
		s.buf[i] = s.element(keys[i].r[:], i)
	}
	order := s.sort(len(keys))
	if s.holds(keyWords) {
		return order
	}
	for i, j := 0, 0; i < len(order); i = j {
		for j = i + 1; j < len(order) && s.sameRun(order[i], order[j]); j++ {
		}
		if j-i > 1 {
			s.sortByWords(keys, order[i:j])
		}
	}
	return order
}

// sameWords reports whether the keys of elements a and b of the last
// sortKeys agree on their first nw words. It reads the keys only when the
// elements agree on those words' bits but do not hold all of them.
func (s *keySorter) sameWords(keys []sortKey, a, b uint64, nw int) bool {
	if !s.samePrefix(a, b, nw) {
		return false
	}
	return s.holds(nw) || keys[s.index(a)].same(&keys[s.index(b)], nw)
}

// runEnd returns the end of the run of elements of order from i on whose
// keys agree with order[i]'s on their first nw words, like sameWords.
func (s *keySorter) runEnd(keys []sortKey, order []uint64, i, nw int) int {
	shift := s.idxBits + s.top - min(s.packer.UpTo[nw], s.top)
	first := order[i] >> shift
	j := i + 1
	if s.holds(nw) {
		for j < len(order) && order[j]>>shift == first {
			j++
		}
		return j
	}
	for j < len(order) && order[j]>>shift == first && keys[s.index(order[i])].same(&keys[s.index(order[j])], nw) {
		j++
	}
	return j
}

// sortByWords sorts a run of elements by their keys' words.
func (s *keySorter) sortByWords(keys []sortKey, run []uint64) {
	sortRun(run, func(a, b uint64) int {
		ka, kb := &keys[s.index(a)], &keys[s.index(b)]
		if ka.less(kb) {
			return -1
		}
		if kb.less(ka) {
			return 1
		}
		return 0
	})
}

// sortRun sorts a run of elements by cmp: by insertion when it is short,
// as runs of equal prefixes usually are.
func sortRun(run []uint64, cmp func(a, b uint64) int) {
	if len(run) > 12 {
		slices.SortFunc(run, cmp)
		return
	}
	for i := 1; i < len(run); i++ {
		e := run[i]
		j := i
		for ; j > 0 && cmp(e, run[j-1]) < 0; j-- {
			run[j] = run[j-1]
		}
		run[j] = e
	}
}
