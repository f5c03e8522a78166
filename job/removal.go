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
	keys := removalKeys(active)
	var rm []Removal
	var left []int32
	if isIndexed(j) && j.Spec.Completions != nil {
		rm, left = indexedRemovals(keys, int(*j.Spec.Completions))
	} else {
		left = make([]int32, len(keys))
		for i := range left {
			left[i] = int32(i)
		}
	}
	if len(rm) < rmAtLeast && len(left) > 0 {
		slices.SortFunc(left, func(a, b int32) int { return compareKeys(&keys[a], &keys[b]) })
		for _, k := range left[:min(rmAtLeast-len(rm), len(left))] {
			rm = append(rm, Removal{Pod: keys[k].p, Reason: ReasonTooManyActive})
		}
	}
	return rm
}

// indexedRemovals splits the keyed active pods of an Indexed job into pods
// to remove (no index, out of range, duplicates) and the positions of the
// ones left.
func indexedRemovals(keys []removalKey, completions int) (rm []Removal, left []int32) {
	order := make([]int32, len(keys))
	for i := range order {
		order[i] = int32(i)
	}
	slices.SortFunc(order, func(a, b int32) int {
		if c := cmp.Compare(keys[a].ix, keys[b].ix); c != 0 {
			return c
		}
		return compareKeys(&keys[a], &keys[b])
	})
	var outOfRange []Removal
	var lastGroup []int32
	keep := func(group []int32) {
		for _, g := range group[:len(group)-1] {
			rm = append(rm, Removal{Pod: keys[g].p, Reason: ReasonDuplicateIndex})
		}
		left = append(left, group[len(group)-1])
	}
	for i := 0; i < len(order); {
		k := i
		ix := keys[order[i]].ix
		for k < len(order) && keys[order[k]].ix == ix {
			k++
		}
		switch {
		case ix < 0:
			for _, g := range order[i:k] {
				rm = append(rm, Removal{Pod: keys[g].p, Reason: ReasonInvalidIndex})
			}
		case ix >= completions:
			for _, g := range order[i:] {
				outOfRange = append(outOfRange, Removal{Pod: keys[g].p, Reason: ReasonInvalidIndex})
			}
			k = len(order)
		default:
			if lastGroup != nil {
				keep(lastGroup)
			}
			lastGroup = order[i:k]
		}
		i = k
	}
	rm = append(rm, outOfRange...)
	if lastGroup != nil {
		keep(lastGroup)
	}
	return rm, left
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
	ka, kb := keyOf(a), keyOf(b)
	return compareKeys(&ka, &kb)
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

// removalKey caches what CompareForRemoval reads of a pod, so that sorting
// reads each pod once.
type removalKey struct {
	p                 *podstatus.Pod
	ix                int
	assigned, ready   bool
	phase             int
	readyTime         time.Time
	regular, sidecars int32
}

func removalKeys(pods []*podstatus.Pod) []removalKey {
	keys := make([]removalKey, len(pods))
	for i, p := range pods {
		keys[i] = keyOf(p)
	}
	return keys
}

func keyOf(p *podstatus.Pod) removalKey {
	k := removalKey{p: p, ix: CompletionIndex(p), assigned: p.Spec.NodeName != "", phase: phaseRank(p.Status.Phase), ready: podstatus.IsReady(p)}
	if k.ready {
		k.readyTime = podstatus.ReadyTime(p)
	}
	k.regular, k.sidecars = podstatus.MaxRestarts(p)
	return k
}

func compareKeys(a, b *removalKey) int {
	switch {
	case a.assigned != b.assigned:
		if !a.assigned {
			return -1
		}
		return 1
	case a.phase != b.phase:
		return cmp.Compare(a.phase, b.phase)
	case a.ready != b.ready:
		if !a.ready {
			return -1
		}
		return 1
	}
	if a.ready {
		if c := newerFirst(a.readyTime, b.readyTime); c != 0 {
			return c
		}
	}
	if a.regular != b.regular {
		return -cmp.Compare(a.regular, b.regular)
	}
	if a.sidecars != b.sidecars {
		return -cmp.Compare(a.sidecars, b.sidecars)
	}
	if c := newerFirst(a.p.CreationTimestamp, b.p.CreationTimestamp); c != 0 {
		return c
	}
	if c := cmp.Compare(a.p.Name, b.p.Name); c != 0 {
		return c
	}
	return cmp.Compare(a.p.UID, b.p.UID)
}
