package podstatus

import (
	"github.com/kubesem/kubesem/internal/radix"

	"slices"
)

// keySorter sorts sortKeys by their words without moving them: sorting
// the 64-byte keys themselves would move four times the memory. It
// radix-sorts 16-byte (prefix, index) pairs instead, the prefix packed by
// a [packer]. When the packer holds all the varying bits, equal prefixes
// mean equal words; otherwise runs of equal prefixes are sorted again by
// the words.
type keySorter struct {
	pairs, scratch []radix.Pair
	// spare is the one of pairs and scratch that the last sort's result
	// is not.
	spare []radix.Pair
	// packer is the last sort's.
	packer radix.Packer
}

func newKeySorter(n int) keySorter {
	buf := make([]radix.Pair, 2*n)
	return keySorter{pairs: buf[:n], scratch: buf[n:]}
}

// sort returns the order of keys by their words (unstable): the keys'
// indexes in the idx fields. The result is valid until the next call.
func (s *keySorter) sort(keys []sortKey) []radix.Pair {
	if len(keys) == 0 {
		return nil
	}
	var varying [keyWords]uint64
	first := keys[0].w
	for i := range keys {
		w := &keys[i].w
		varying[0] |= w[0] ^ first[0]
		varying[1] |= w[1] ^ first[1]
		varying[2] |= w[2] ^ first[2]
		varying[3] |= w[3] ^ first[3]
		varying[4] |= w[4] ^ first[4]
		varying[5] |= w[5] ^ first[5]
		varying[6] |= w[6] ^ first[6]
	}
	s.packer = radix.NewPacker(varying[:])
	pairs := s.pairs[:len(keys)]
	for i := range keys {
		pairs[i] = radix.Pair{Prefix: s.packer.Pack(keys[i].w[:]), Idx: uint32(i)}
	}
	pairs = radix.Sort(pairs, s.scratch[:len(keys)], min(s.packer.UpTo[keyWords], 64))
	s.spare = s.scratch
	if &pairs[0] == &s.scratch[0] {
		s.spare = s.pairs
	}
	if s.packer.UpTo[keyWords] <= 64 {
		return pairs
	}
	for i, j := 0, 0; i < len(pairs); i = j {
		for j = i + 1; j < len(pairs) && pairs[j].Prefix == pairs[i].Prefix; j++ {
		}
		if j-i > 1 {
			sortByWords(keys, pairs[i:j])
		}
	}
	return pairs
}

// sameWords reports whether the keys of a and b, pairs of the last sort,
// agree on their first n words. It reads the keys only when the prefixes
// agree on those words' bits but do not hold all of them.
func (s *keySorter) sameWords(keys []sortKey, a, b radix.Pair, n int) bool {
	upTo := s.packer.UpTo[n]
	top := min(upTo, 64)
	if top > 0 && (a.Prefix^b.Prefix)>>(64-top) != 0 {
		return false
	}
	return upTo <= 64 || keys[a.Idx].same(&keys[b.Idx], n)
}

// sortByWords sorts a run of pairs by their keys' words: by insertion when
// it is short, as runs of equal prefixes usually are.
func sortByWords(keys []sortKey, run []radix.Pair) {
	if len(run) > 16 {
		slices.SortFunc(run, func(a, b radix.Pair) int {
			ka, kb := &keys[a.Idx], &keys[b.Idx]
			if ka.less(kb) {
				return -1
			}
			if kb.less(ka) {
				return 1
			}
			return 0
		})
		return
	}
	for i := 1; i < len(run); i++ {
		p := run[i]
		j := i
		for ; j > 0 && keys[p.Idx].less(&keys[run[j-1].Idx]); j-- {
			run[j] = run[j-1]
		}
		run[j] = p
	}
}
