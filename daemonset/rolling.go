package daemonset

import (
	"errors"
	"time"

	"github.com/kubesem/kubesem/plan"
	"github.com/kubesem/kubesem/podstatus"
)

// errNodeNotFound is the surge path's failure on a node missing from the
// node list.
var errNodeNotFound = errors.New("node not found")

type rollingResult struct {
	creates []PodCreation
	deletes []plan.Deletion
}

// findUpdated returns the non-deleting new and old pod of a node; ok is
// false when there are two of either.
//
// Source: upstream pkg/controller/daemon findUpdatedPodsOnNode (v1.36.3).
func findUpdated(pods []*podstatus.Pod, hash string, gen int64, hasGen bool) (newPod, oldPod *podstatus.Pod, ok bool) {
	for _, pod := range pods {
		if pod.DeletionTimestamp != nil {
			continue
		}
		if isUpdated(pod.Labels, hash, gen, hasGen) {
			if newPod != nil {
				return nil, nil, false
			}
			newPod = pod
		} else {
			if oldPod != nil {
				return nil, nil, false
			}
			oldPod = pod
		}
	}
	return newPod, oldPod, true
}

// rollingUpdate is upstream rollingUpdate over the nodes in name order
// (upstream: Go map order). Walked nodes are those with pods and those
// that should run a pod.
func rollingUpdate(ds *DaemonSet, states []nodeState, index map[string]int, hash string, gen int64, hasGen bool, now time.Time, opts Options) (rollingResult, error) {
	var desired int32
	for i := range states {
		if states[i].node != nil && states[i].elig.ShouldRun {
			desired++
		}
	}
	b, err := UnavailableNumbers(ds, desired)
	if err != nil {
		return rollingResult{}, err
	}
	order := walkOrder(states)
	minReady := ds.Spec.MinReadySeconds
	var res rollingResult
	if b.MaxSurge == 0 {
		var numUnavailable int32
		var allowed, candidates []plan.Deletion
		for _, i := range order {
			s := &states[i]
			newPod, oldPod, ok := findUpdated(s.pods, hash, gen, hasGen)
			if !ok {
				numUnavailable++
				continue
			}
			switch {
			case oldPod == nil && newPod == nil, oldPod != nil && newPod != nil:
				numUnavailable++
			case newPod != nil:
				if !isAvailable(newPod, minReady, now) {
					numUnavailable++
				}
			default:
				switch {
				case !isAvailable(oldPod, minReady, now):
					allowed = append(allowed, del(oldPod, ReasonOldPodUnavailable))
					numUnavailable++
				case numUnavailable >= b.MaxUnavailable:
				default:
					candidates = append(candidates, del(oldPod, ReasonUpdateOldPod))
				}
			}
		}
		remaining := min(max(b.MaxUnavailable-numUnavailable, 0), int32(len(candidates)))
		res.deletes = append(allowed, candidates[:remaining]...)
		return res, nil
	}

	var oldToDelete, shouldNotRun []plan.Deletion
	var candidates, allowed []PodCreation
	var numSurge, numAvailable int32
	for _, i := range order {
		s := &states[i]
		newPod, oldPod, ok := findUpdated(s.pods, hash, gen, hasGen)
		if !ok {
			numSurge++
			continue
		}
		if oldPod != nil {
			if isAvailable(oldPod, minReady, now) {
				numAvailable++
			}
		} else if newPod != nil && isAvailable(newPod, minReady, now) {
			numAvailable++
		}
		switch {
		case oldPod == nil:
		case newPod == nil:
			if s.node == nil {
				return rollingResult{}, errNodeNotFound
			}
			if !isAvailable(oldPod, minReady, now) {
				if !s.elig.ShouldRun {
					oldToDelete = append(oldToDelete, del(oldPod, ReasonShouldNotRun))
					continue
				}
				allowed = append(allowed, PodCreation{Node: s.name, Reason: ReasonOldPodUnavailable})
				continue
			}
			if !s.elig.ShouldRun {
				shouldNotRun = append(shouldNotRun, del(oldPod, ReasonShouldNotRun))
				continue
			}
			if numSurge >= b.MaxSurge {
				continue
			}
			candidates = append(candidates, PodCreation{Node: s.name, Reason: ReasonSurgeOldPod})
		default:
			if !isAvailable(newPod, minReady, now) {
				numSurge++
				continue
			}
			oldToDelete = append(oldToDelete, del(oldPod, ReasonNewPodAvailable))
		}
	}
	if n := numAvailable - desired; n > 0 {
		n = min(n, int32(len(shouldNotRun)))
		oldToDelete = append(oldToDelete, shouldNotRun[:n]...)
	}
	remaining := min(max(b.MaxSurge-numSurge, 0), int32(len(candidates)))
	res.creates = append(allowed, candidates[:remaining]...)
	res.deletes = oldToDelete
	_ = index
	return res, nil
}

// walkOrder returns the indexes of the nodes upstream's nodeToDaemonPods
// holds (nodes with pods, and listed nodes that should run a pod), by name.
func walkOrder(states []nodeState) []int {
	var listed, extra []int
	for i := range states {
		s := &states[i]
		switch {
		case s.node == nil:
			extra = append(extra, i)
		case s.entry || s.elig.ShouldRun:
			listed = append(listed, i)
		}
	}
	// states holds the listed nodes by name, then the others by name;
	// merge them into one order by name.
	out := make([]int, 0, len(listed)+len(extra))
	a, b := 0, 0
	for a < len(listed) || b < len(extra) {
		if b == len(extra) || a < len(listed) && states[listed[a]].name < states[extra[b]].name {
			out = append(out, listed[a])
			a++
		} else {
			out = append(out, extra[b])
			b++
		}
	}
	return out
}
