package podstatus

import (
	"cmp"
	"slices"
)

// rankByComparison ranks the pods by comparing them, for the rankings in
// which two cells' smallest UIDs are equal: it recomputes the cells with
// the cells sort, gives every pod its ready and creation cell and sorts
// the pods by the rules.
func (r *ranker) rankByComparison(p *plan, out Ranking) {
	order := r.sortCells(p)
	s := &r.s
	n := len(order)
	ready, created := make([]uint32, n), make([]uint32, n)
	for i := range ready {
		ready[i], created[i] = uint32(i), uint32(i)
	}
	for i, j := 0, 0; i < n; i = j {
		j = s.runEnd(r.keys, order, i, wordReadyLo+1)
		run := order[i:j]
		if r.keys[s.index(run[0])].readyApplies() {
			g := r.least(run)
			for _, e := range run {
				ready[s.index(e)] = g
			}
			// Creation cells inside, by the pods' own words.
			s.sortByWords(r.keys, run)
		}
		for a, c := 0, 0; a < len(run); a = c {
			for c = a + 1; c < len(run) && r.keys[s.index(run[a])].same(&r.keys[s.index(run[c])], keyWords); c++ {
			}
			g := r.least(run[a:c])
			for _, e := range run[a:c] {
				created[s.index(e)] = g
			}
		}
	}
	compareTime := func(ta, tb bool, ba, bb int8, ca, cb uint32) int {
		switch {
		case ta != tb:
			if ta {
				return 1
			}
			return -1
		case !ta:
			return 0
		}
		return cmp.Or(cmp.Compare(ba, bb), r.compareUID(ca, cb))
	}
	compareLog := func(a, b uint32) int {
		ka, kb := &r.keys[a], &r.keys[b]
		return cmp.Or(cmp.Compare(ka.r[rawHead]&headRules, kb.r[rawHead]&headRules), cmp.Compare(ka.r[rawRank], kb.r[rawRank]),
			compareTime(ka.readyApplies(), kb.readyApplies(), ka.readyBucket(), kb.readyBucket(), ready[a], ready[b]),
			cmp.Compare(ka.r[rawRestarts], kb.r[rawRestarts]),
			compareTime(ka.createdApplies(), kb.createdApplies(), ka.createdBucket(), kb.createdBucket(), created[a], created[b]))
	}
	idx := make([]uint32, n)
	for i := range idx {
		idx[i] = uint32(i)
	}
	slices.SortFunc(idx, func(a, b uint32) int { return cmp.Or(compareLog(a, b), r.comparePinned(a, b)) })
	for pos, i := range idx {
		out.Order[pos], out.start[pos] = int(i), uint64(pos)
		if pos > 0 && compareLog(idx[pos-1], i) == 0 {
			out.start[pos] = out.start[pos-1]
		}
	}
}
