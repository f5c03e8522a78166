package job

import (
	"cmp"
	"slices"
	"time"

	"github.com/kubesem/kubesem/podstatus"
)

// Removal is an active pod the controller deletes, and why.
type Removal struct {
	Pod    *podstatus.Pod
	Reason Reason
}

// PodsForRemoval returns the active pods to delete so that at least
// rmAtLeast go. For an Indexed job it first takes every pod without a valid
// completion index or with one at or beyond completions, and every pod
// sharing an index with a better one (by CompareForRemoval, the best of each
// index is kept); then, if that is not enough, it takes pods from the rest in
// CompareForRemoval order. Pods are listed in upstream's order: pods without
// index, duplicates index by index, out-of-range pods just before the
// duplicates of the highest in-range index, then the ordered rest. The
// result can exceed rmAtLeast; callers cap it (500 per sync). Input pods
// must be non-nil and are not modified.
//
// Source: upstream pkg/controller/job/job_controller.go activePodsForRemoval;
// indexed_job_utils.go appendDuplicatedIndexPodsForRemoval (v1.36.3).
func PodsForRemoval(j *Job, active []*podstatus.Pod, rmAtLeast int) []Removal {
	var rm []Removal
	left := active
	if isIndexed(j) && j.Spec.Completions != nil {
		rm, left = indexedRemovals(active, int(*j.Spec.Completions))
	}
	if len(rm) < rmAtLeast && len(left) > 0 {
		sorted := slices.Clone(left)
		slices.SortFunc(sorted, CompareForRemoval)
		for _, p := range sorted[:min(rmAtLeast-len(rm), len(sorted))] {
			rm = append(rm, Removal{Pod: p, Reason: ReasonTooManyActive})
		}
	}
	return rm
}

// indexedRemovals splits active pods of an Indexed job into pods to remove
// (no index, out of range, duplicates) and the ones left.
func indexedRemovals(active []*podstatus.Pod, completions int) (rm []Removal, left []*podstatus.Pod) {
	type pi struct {
		p  *podstatus.Pod
		ix int
	}
	byIx := make([]pi, len(active))
	for i, p := range active {
		byIx[i] = pi{p, CompletionIndex(p)}
	}
	slices.SortStableFunc(byIx, func(a, b pi) int {
		if c := cmp.Compare(a.ix, b.ix); c != 0 {
			return c
		}
		return CompareForRemoval(a.p, b.p)
	})
	var outOfRange []Removal
	var lastGroup []*podstatus.Pod
	for i := 0; i < len(byIx); {
		k := i
		for k < len(byIx) && byIx[k].ix == byIx[i].ix {
			k++
		}
		group := byIx[i:k]
		switch ix := group[0].ix; {
		case ix < 0:
			for _, g := range group {
				rm = append(rm, Removal{Pod: g.p, Reason: ReasonInvalidIndex})
			}
		case ix >= completions:
			for _, g := range byIx[i:] {
				outOfRange = append(outOfRange, Removal{Pod: g.p, Reason: ReasonInvalidIndex})
			}
			k = len(byIx)
		default:
			if lastGroup != nil {
				rm, left = keepBest(rm, left, lastGroup)
			}
			lastGroup = lastGroup[:0]
			for _, g := range group {
				lastGroup = append(lastGroup, g.p)
			}
		}
		i = k
	}
	rm = append(rm, outOfRange...)
	if lastGroup != nil {
		rm, left = keepBest(rm, left, lastGroup)
	}
	return rm, left
}

// keepBest removes all but the last pod of a group sorted in removal order.
func keepBest(rm []Removal, left, group []*podstatus.Pod) ([]Removal, []*podstatus.Pod) {
	for _, p := range group[:len(group)-1] {
		rm = append(rm, Removal{Pod: p, Reason: ReasonDuplicateIndex})
	}
	return rm, append(left, group[len(group)-1])
}

// newerFirst orders two times latest first, a zero time before any other.
func newerFirst(a, b time.Time) int {
	switch {
	case a.Equal(b):
		return 0
	case a.IsZero():
		return -1
	case b.IsZero():
		return 1
	case a.After(b):
		return -1
	}
	return 1
}

// CompareForRemoval orders active pods from the first to delete to the last:
// unassigned before assigned to a node; Pending (and any phase other than
// Unknown and Running) before Unknown before Running; not ready before
// ready; among ready pods, the more recently ready first (a zero ready time
// first); higher regular-container restart count first, then higher sidecar
// restart count; newer creation first (a zero timestamp first). Pods equal by
// all of these are ordered by name, then UID, where upstream's unstable sort
// leaves the order open.
//
// Source: upstream pkg/controller/controller_utils.go ActivePods.Less
// (v1.36.3).
func CompareForRemoval(a, b *podstatus.Pod) int {
	if (a.Spec.NodeName == "") != (b.Spec.NodeName == "") {
		if a.Spec.NodeName == "" {
			return -1
		}
		return 1
	}
	if c := cmp.Compare(phaseRank(a.Status.Phase), phaseRank(b.Status.Phase)); c != 0 {
		return c
	}
	ra, rb := podstatus.IsReady(a), podstatus.IsReady(b)
	if ra != rb {
		if !ra {
			return -1
		}
		return 1
	}
	if ra {
		if c := newerFirst(podstatus.ReadyTime(a), podstatus.ReadyTime(b)); c != 0 {
			return c
		}
	}
	ar, as := podstatus.MaxRestarts(a)
	br, bs := podstatus.MaxRestarts(b)
	if ar != br {
		return -cmp.Compare(ar, br)
	}
	if as != bs {
		return -cmp.Compare(as, bs)
	}
	if c := newerFirst(a.CreationTimestamp, b.CreationTimestamp); c != 0 {
		return c
	}
	if c := cmp.Compare(a.Name, b.Name); c != 0 {
		return c
	}
	return cmp.Compare(a.UID, b.UID)
}

func phaseRank(p podstatus.Phase) int {
	switch p {
	case podstatus.Unknown:
		return 1
	case podstatus.Running:
		return 2
	}
	return 0
}
