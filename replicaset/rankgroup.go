package replicaset

import (
	"cmp"
	"slices"
	"strings"

	"github.com/kubesem/kubesem/podstatus"
)

func podName(p *podstatus.Pod) string {
	if p == nil {
		return ""
	}
	return p.Name
}

func podUID(p *podstatus.Pod) string {
	if p == nil {
		return ""
	}
	return p.UID
}

// assignGroups sets, for keys sorted in the exact mode, each pod's
// ready-time and creation-time group: the pod with the smallest UID among
// those that reach the criterion with exactly the same time (the same
// words up to it). Only such runs of two or more pods compare UIDs.
func assignGroups(keys []sortKey, aux []podAux, pods []*podstatus.Pod) {
	for i := 0; i < len(keys); {
		j := i + 1
		for j < len(keys) && keys[i].same(&keys[j], wordReadyLo+1) {
			j++
		}
		g := leastUID(keys[i:j], pods)
		for _, k := range keys[i:j] {
			aux[k.idx].readyGroup = g
		}
		for a := i; a < j; {
			b := a + 1
			for b < j && keys[a].same(&keys[b], keyWords) {
				b++
			}
			g := leastUID(keys[a:b], pods)
			for _, k := range keys[a:b] {
				aux[k.idx].createdGroup = g
			}
			a = b
		}
		i = j
	}
}

// leastUID returns the input position of the pod of run with the smallest
// UID.
func leastUID(run []sortKey, pods []*podstatus.Pod) int32 {
	least := run[0].idx
	for _, k := range run[1:] {
		if podUID(pods[k.idx]) < podUID(pods[least]) {
			least = k.idx
		}
	}
	return int32(least)
}

// settler finishes keys sorted by their words into the order of
// [RankForDeletion]. In the logarithmic mode (aux not nil) a time's words
// hold only a prefix of its group's UID, so keys equal up to a time's
// words may still differ in the group's full UID, which decides before any
// later word.
type settler struct {
	keys []sortKey
	pods []*podstatus.Pod
	aux  []podAux
}

// groupUID returns the UID of the ready (created false) or creation-time
// group of k, or "" in the exact mode or when the time is zero.
func (s *settler) groupUID(k *sortKey, created bool) string {
	if s.aux == nil {
		return ""
	}
	a := &s.aux[k.idx]
	switch {
	case !created && k.w[wordReadyHi] != 0:
		return podUID(s.pods[a.readyGroup])
	case created && k.w[wordCreatedHi] != 0:
		return podUID(s.pods[a.createdGroup])
	}
	return ""
}

// compare is the scale-down order on keys: 0 means a tie.
func (s *settler) compare(a, b *sortKey) int {
	for i := range wordReadyLo + 1 {
		if a.w[i] != b.w[i] {
			return cmp.Compare(a.w[i], b.w[i])
		}
	}
	if c := strings.Compare(s.groupUID(a, false), s.groupUID(b, false)); c != 0 {
		return c
	}
	for i := wordReadyLo + 1; i < keyWords; i++ {
		if a.w[i] != b.w[i] {
			return cmp.Compare(a.w[i], b.w[i])
		}
	}
	return strings.Compare(s.groupUID(a, true), s.groupUID(b, true))
}

// comparePinned is compare with ties broken by pod name, UID and input
// position.
func (s *settler) comparePinned(a, b sortKey) int {
	if c := s.compare(&a, &b); c != 0 {
		return c
	}
	pa, pb := s.pods[a.idx], s.pods[b.idx]
	return cmp.Or(strings.Compare(podName(pa), podName(pb)), strings.Compare(podUID(pa), podUID(pb)), cmp.Compare(a.idx, b.idx))
}

// runs calls f on each run of at least two keys equal in their first n
// words.
func (s *settler) runs(n int, f func(run []sortKey)) {
	for i := 0; i < len(s.keys); {
		j := i + 1
		for j < len(s.keys) && s.keys[i].same(&s.keys[j], n) {
			j++
		}
		if j-i > 1 {
			f(s.keys[i:j])
		}
		i = j
	}
}

// settleRuns sorts keys, already sorted by their words, by comparePinned,
// sorting again only the runs the words cannot order: keys equal up to the
// ready time whose ready groups differ, and keys equal in every word. It
// returns the Ranking.
func settleRuns(keys []sortKey, pods []*podstatus.Pod, aux []podAux) Ranking {
	s := &settler{keys: keys, pods: pods, aux: aux}
	if aux != nil {
		s.runs(wordReadyLo+1, func(run []sortKey) {
			first := s.groupUID(&run[0], false)
			for i := range run[1:] {
				k := &run[i+1]
				if aux[k.idx].readyGroup != aux[run[0].idx].readyGroup && s.groupUID(k, false) != first {
					slices.SortFunc(run, s.comparePinned)
					return
				}
			}
		})
	}
	s.runs(keyWords, func(run []sortKey) { slices.SortFunc(run, s.comparePinned) })
	n := len(keys)
	buf := make([]int, 2*n)
	r := Ranking{Order: buf[:n:n], start: buf[n:]}
	for pos := range keys {
		r.Order[pos] = keys[pos].idx
		r.start[pos] = pos
		if pos > 0 && keys[pos-1].same(&keys[pos], keyWords) && s.compare(&keys[pos-1], &keys[pos]) == 0 {
			r.start[pos] = r.start[pos-1]
		}
	}
	return r
}
