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

// settleRuns finishes sorted keys into a Ranking. Each run of keys equal in
// every word is ordered by the groups' full UIDs (in the logarithmic mode,
// aux not nil, when the words' UID prefixes could not tell them apart),
// then pinned by pod name, UID and input position; pods whose groups'
// UIDs are equal too form a tie.
func settleRuns(keys []sortKey, pods []*podstatus.Pod, aux []podAux) Ranking {
	n := len(keys)
	buf := make([]int, 2*n)
	r := Ranking{Order: buf[:n:n], start: buf[n:]}
	groups := func(k sortKey) (ready, created string) {
		if aux == nil {
			return "", ""
		}
		a := &aux[k.idx]
		if k.w[wordReadyHi] != 0 {
			ready = podUID(pods[a.readyGroup])
		}
		if k.w[wordCreatedHi] != 0 {
			created = podUID(pods[a.createdGroup])
		}
		return ready, created
	}
	for i := 0; i < n; {
		j := i + 1
		for j < n && keys[i].same(&keys[j], keyWords) {
			j++
		}
		run := keys[i:j]
		if len(run) > 1 {
			slices.SortFunc(run, func(a, b sortKey) int {
				ra, ca := groups(a)
				rb, cb := groups(b)
				pa, pb := pods[a.idx], pods[b.idx]
				return cmp.Or(strings.Compare(ra, rb), strings.Compare(ca, cb),
					strings.Compare(podName(pa), podName(pb)), strings.Compare(podUID(pa), podUID(pb)),
					cmp.Compare(a.idx, b.idx))
			})
		}
		for pos := i; pos < j; pos++ {
			r.Order[pos] = keys[pos].idx
			r.start[pos] = pos
			if pos > i {
				rp, cp := groups(keys[pos-1])
				rc, cc := groups(keys[pos])
				if rp == rc && cp == cc {
					r.start[pos] = r.start[pos-1]
				}
			}
		}
		i = j
	}
	return r
}
