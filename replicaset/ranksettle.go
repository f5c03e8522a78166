package replicaset

import (
	"cmp"
	"slices"
	"strings"

	"github.com/kubesem/kubesem/podstatus"
)

// settler finishes keys sorted by their words into the order of
// [RankForDeletion]. In the logarithmic mode a time's words hold only a
// prefix of its group's UID, so keys equal up to a time's words may still
// differ in the group's full UID, which decides before any later word.
type settler struct {
	keys    []sortKey
	pods    []*podstatus.Pod
	logMode bool
}

// compareGroups compares the ready (created false) or creation-time
// groups of a and b, whose words agree up to that time: 0 in the exact
// mode, for zero times, or for the same group, else their pods' UIDs.
func (s *settler) compareGroups(a, b *sortKey, created bool) int {
	ga, gb, hi := a.readyGroup, b.readyGroup, a.w[wordReadyHi]
	if created {
		ga, gb, hi = a.createdGroup, b.createdGroup, a.w[wordCreatedHi]
	}
	if !s.logMode || hi == 0 || ga == gb {
		return 0
	}
	return strings.Compare(podUID(s.pods[ga]), podUID(s.pods[gb]))
}

// compare is the scale-down order on keys: 0 means a tie.
func (s *settler) compare(a, b *sortKey) int {
	for i := range wordReadyLo + 1 {
		if a.w[i] != b.w[i] {
			return cmp.Compare(a.w[i], b.w[i])
		}
	}
	if c := s.compareGroups(a, b, false); c != 0 {
		return c
	}
	for i := wordReadyLo + 1; i < keyWords; i++ {
		if a.w[i] != b.w[i] {
			return cmp.Compare(a.w[i], b.w[i])
		}
	}
	return s.compareGroups(a, b, true)
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

// settle sorts keys, already sorted by their words, by comparePinned,
// sorting again only the runs the words cannot order: keys equal up to the
// ready time whose ready groups differ, and keys equal in every word. It
// returns the Ranking.
func settle(keys []sortKey, pods []*podstatus.Pod, logMode bool) Ranking {
	s := &settler{keys: keys, pods: pods, logMode: logMode}
	if logMode {
		s.runs(wordReadyLo+1, func(run []sortKey) {
			for i := range run[1:] {
				if s.compareGroups(&run[0], &run[i+1], false) != 0 {
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
		r.Order[pos] = int(keys[pos].idx)
		r.start[pos] = pos
		if pos > 0 && keys[pos-1].same(&keys[pos], keyWords) && s.compare(&keys[pos-1], &keys[pos]) == 0 {
			r.start[pos] = r.start[pos-1]
		}
	}
	return r
}
