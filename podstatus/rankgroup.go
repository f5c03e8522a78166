package podstatus

import (
	"github.com/kubesem/kubesem/internal/radix"

	"cmp"
	"slices"
	"strings"
)

func podName(p *Pod) string {
	if p == nil {
		return ""
	}
	return p.Name
}

func podUID(p *Pod) string {
	if p == nil {
		return ""
	}
	return p.UID
}

// uidRanks sets ranks[i] to the number of pods whose UID sorts before
// pods[i]'s (as strings.Compare orders them), so that equal UIDs share a
// rank. The caller has put bytes 0-7 and 8-15 of each UID ([prefixWord])
// in s.pairs[i].Prefix and s.scratch[i].Prefix. It radix-sorts them,
// packed as [keySorter] packs words, and compares strings only
// among pods whose compressed prefixes are equal.
func uidRanks(pods []*Pod, s *keySorter, ranks []int) {
	n := len(pods)
	pairs, scratch := s.pairs[:n], s.scratch[:n]
	var varying [2]uint64
	for i := range n {
		varying[0] |= pairs[i].Prefix ^ pairs[0].Prefix
		varying[1] |= scratch[i].Prefix ^ scratch[0].Prefix
	}
	pk := radix.NewPacker(varying[:])
	for i := range n {
		pairs[i] = radix.Pair{Prefix: pk.Pack([]uint64{pairs[i].Prefix, scratch[i].Prefix}), Idx: uint32(i)}
	}
	pairs = radix.Sort(pairs, scratch, min(pk.UpTo[2], 64))
	byUID := func(a, b radix.Pair) int { return strings.Compare(podUID(pods[a.Idx]), podUID(pods[b.Idx])) }
	for i, j := 0, 0; i < n; i = j {
		for j = i + 1; j < n && pairs[j].Prefix == pairs[i].Prefix; j++ {
		}
		if j-i > 1 {
			slices.SortFunc(pairs[i:j], byUID)
		}
		first := i
		for m := i; m < j; m++ {
			if m > i && byUID(pairs[m-1], pairs[m]) != 0 {
				first = m
			}
			ranks[pairs[m].Idx] = first
		}
	}
}

// toLogarithmic turns exact-mode keys, sorted by s into order, into
// logarithmic-mode keys in place, given the pods' UID ranks. Pods that
// reach a time criterion with exactly the same time (the same words up to
// it, so adjacent in order) share a group, the one with the smallest UID;
// every other pod is its own group. Only runs of two or more pods read
// their keys in order, noting their groups in s.spare (1 + the rank, 0 for
// the pod's own); the words are then rewritten in input order.
func toLogarithmic(keys []sortKey, order []radix.Pair, s *keySorter, ranks []int) {
	groups := s.spare[:len(keys)]
	clear(groups)
	least := func(run []radix.Pair) int {
		g := ranks[run[0].Idx]
		for _, o := range run[1:] {
			g = min(g, ranks[o.Idx])
		}
		return g + 1
	}
	for i, j := 0, 0; i < len(order); i = j {
		for j = i + 1; j < len(order) && s.sameWords(keys, order[i], order[j], wordReadyLo+1); j++ {
		}
		if j-i == 1 {
			continue
		}
		for a, b := i, i; a < j; a = b {
			for b = a + 1; b < j && s.sameWords(keys, order[a], order[b], keyWords); b++ {
			}
			if b-a > 1 {
				g := least(order[a:b])
				for _, o := range order[a:b] {
					groups[o.Idx].Idx = uint32(g)
				}
			}
		}
		g := least(order[i:j])
		for _, o := range order[i:j] {
			groups[o.Idx].Prefix = uint64(g)
		}
	}
	for i := range keys {
		k := &keys[i]
		ready, created := ranks[i], ranks[i]
		if g := groups[i]; g.Prefix != 0 {
			ready = int(g.Prefix - 1)
		}
		if g := groups[i]; g.Idx != 0 {
			created = int(g.Idx - 1)
		}
		k.w[wordReadyHi] = timeWord(k.w[wordReadyHi], k.w[wordReadyLo], k.readyBucket, ready)
		k.w[wordCreatedHi] = timeWord(k.w[wordCreatedHi], k.w[wordCreatedLo], k.createdBucket, created)
		k.w[wordReadyLo], k.w[wordCreatedLo] = 0, 0
	}
}

// settle pins the ties of order, sorted by s by the keys' words: each run
// of keys equal in every word is ordered by pod name, UID and input
// position. It fills buf (2*len(order) long) with the Ranking's order and
// tie starts and returns the Ranking.
func settle(keys []sortKey, order []radix.Pair, s *keySorter, pods []*Pod, buf []int) Ranking {
	pinned := func(a, b radix.Pair) int {
		pa, pb := pods[a.Idx], pods[b.Idx]
		return cmp.Or(strings.Compare(podName(pa), podName(pb)), strings.Compare(podUID(pa), podUID(pb)), cmp.Compare(a.Idx, b.Idx))
	}
	n := len(order)
	r := Ranking{Order: buf[:n:n], start: buf[n:]}
	for i, j := 0, 0; i < n; i = j {
		for j = i + 1; j < n && s.sameWords(keys, order[i], order[j], keyWords); j++ {
		}
		if j-i > 1 {
			slices.SortFunc(order[i:j], pinned)
		}
		for pos := i; pos < j; pos++ {
			r.Order[pos] = int(order[pos].Idx)
			r.start[pos] = i
		}
	}
	return r
}
