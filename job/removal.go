package job

import (
	"cmp"
	"slices"

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
// sharing an index with a better one (by [podstatus.RankActive], upstream's
// ActivePods order: the best of each index is kept); then, if that is not
// enough, it takes pods from the rest in that order. Pods are listed in upstream's order: pods without
// index, duplicates index by index, out-of-range pods just before the
// duplicates of the highest in-range index, then the ordered rest. The
// result can exceed rmAtLeast; callers cap it (500 per sync). Input pods
// must be non-nil and are not modified.
//
// Source: upstream pkg/controller/job/job_controller.go activePodsForRemoval;
// indexed_job_utils.go appendDuplicatedIndexPodsForRemoval (v1.36.3).
func PodsForRemoval(j *Job, active []*podstatus.Pod, rmAtLeast int) []Removal {
	indexed := isIndexed(j) && j.Spec.Completions != nil
	if !indexed && rmAtLeast <= 0 {
		return nil // (nothing to take, and no index to check: no order needed)
	}
	keys := removalKeys(active)
	var rm []Removal
	var left []int32
	if indexed {
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

// removalKey is what the removal order reads of a pod: its completion index
// and its position in upstream's ActivePods order ([podstatus.RankActive]).
type removalKey struct {
	p    *podstatus.Pod
	ix   int
	rank int
}

func removalKeys(pods []*podstatus.Pod) []removalKey {
	keys := make([]removalKey, len(pods))
	for pos, i := range podstatus.RankActive(pods).Order {
		keys[i] = removalKey{p: pods[i], ix: CompletionIndex(pods[i]), rank: pos}
	}
	return keys
}

func compareKeys(a, b *removalKey) int { return cmp.Compare(a.rank, b.rank) }
