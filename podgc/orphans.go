package podgc

import (
	"cmp"
	"slices"
	"time"

	"github.com/kubesem/kubesem/meta"
	"github.com/kubesem/kubesem/podstatus"
)

// OrphanMessage is the DisruptionTarget message of an orphan.
const OrphanMessage = "PodGC: node no longer exists"

// quarantine runs the collector's node queue at now: entries whose time
// has come are checked now and are gone unless the node is listed or in
// the API; the others wait, and every node of missing (the nodes pods are
// bound to that the cache does not list) waits until now+wait unless it
// already waits for less (a non-positive wait checks it at once). It
// returns the queue after the pass, by node name, and the nodes confirmed
// gone.
func quarantine(missing []string, known nodeIndex, mem Memory, now time.Time, wait time.Duration) (Memory, map[string]bool) {
	waiting := map[string]time.Time{}
	gone := map[string]bool{}
	for _, q := range mem.Quarantine {
		if q.ReadyAt.After(now) {
			if at, ok := waiting[q.Node]; !ok || q.ReadyAt.Before(at) {
				waiting[q.Node] = q.ReadyAt
			}
		} else if !known.inAPI(q.Node) {
			gone[q.Node] = true
		}
	}
	for _, n := range missing {
		at := now.Add(wait)
		if !at.After(now) {
			// A non-positive quarantine queues the node at once.
			if !known.inAPI(n) {
				gone[n] = true
			}
			continue
		}
		if cur, ok := waiting[n]; !ok || at.Before(cur) {
			waiting[n] = at
		}
	}
	var m Memory
	for name, at := range waiting {
		m.Quarantine = append(m.Quarantine, Quarantined{Node: name, ReadyAt: at})
	}
	slices.SortFunc(m.Quarantine, func(a, b Quarantined) int { return cmp.Compare(a.Node, b.Node) })
	if m.Quarantine == nil {
		m.Quarantine = []Quarantined{}
	}
	return m, gone
}

// orphans returns the pods bound to a node confirmed gone, by namespace,
// then name.
func orphans(pods []*podstatus.Pod, gone map[string]bool) []*podstatus.Pod {
	var out []*podstatus.Pod
	for _, pod := range pods {
		if pod == nil {
			continue
		}
		if gone[pod.Spec.NodeName] {
			out = append(out, pod)
		}
	}
	slices.SortFunc(out, byNamespaceName)
	return out
}

// orphanCondition is the DisruptionTarget condition an orphan is patched
// with: reason DeletionByPodGC, [OrphanMessage], and the transition time
// of a DisruptionTarget=True condition the pod already has, else now.
func orphanCondition(pod *podstatus.Pod, now time.Time) podstatus.Condition {
	c := podstatus.DisruptionCondition(podstatus.ReasonDeletionByPodGC, OrphanMessage, now)
	c.ObservedGeneration = pod.Generation // (gate PodObservedGenerationTracking, locked on)
	if old := pod.Condition(podstatus.DisruptionTarget); old != nil && old.Status == meta.ConditionTrue {
		c.LastTransitionTime = old.LastTransitionTime
	}
	return c
}
