package daemonset

import (
	"time"
)

// statusOf counts the status over the listed nodes.
func statusOf(ds *DaemonSet, states []nodeState, hash string, gen int64, hasGen bool, now time.Time) Status {
	var st Status
	for i := range states {
		s := &states[i]
		if s.node == nil {
			continue
		}
		scheduled := len(s.pods) > 0
		if !s.elig.ShouldRun {
			if scheduled {
				st.NumberMisscheduled++
			}
			continue
		}
		st.DesiredNumberScheduled++
		if !scheduled {
			continue
		}
		st.CurrentNumberScheduled++
		oldest := s.pods[0]
		for _, pod := range s.pods[1:] {
			if olderPod(pod, oldest) {
				oldest = pod
			}
		}
		if isReady(oldest) {
			st.NumberReady++
			if isAvailable(oldest, ds.Spec.MinReadySeconds, now) {
				st.NumberAvailable++
			}
		}
		if isUpdated(oldest.Labels, hash, gen, hasGen) {
			st.UpdatedNumberScheduled++
		}
	}
	st.NumberUnavailable = st.DesiredNumberScheduled - st.NumberAvailable
	return st
}

// writeStatus returns the status the controller stores and whether it
// writes: the counts of st and observedGeneration raised to the
// generation, unless every count is unchanged and observedGeneration is
// already at least the generation.
//
// Source: upstream pkg/controller/daemon storeDaemonSetStatus (v1.36.3);
// TestStoreDaemonSetStatus.
func writeStatus(ds *DaemonSet, st Status) (Status, bool) {
	cur := ds.Status
	if c := cur.CollisionCount; c != nil {
		v := *c
		cur.CollisionCount = &v
	}
	if cur.DesiredNumberScheduled == st.DesiredNumberScheduled &&
		cur.CurrentNumberScheduled == st.CurrentNumberScheduled &&
		cur.NumberMisscheduled == st.NumberMisscheduled &&
		cur.NumberReady == st.NumberReady &&
		cur.UpdatedNumberScheduled == st.UpdatedNumberScheduled &&
		cur.NumberAvailable == st.NumberAvailable &&
		cur.NumberUnavailable == st.NumberUnavailable &&
		cur.ObservedGeneration >= ds.Generation {
		return cur, false
	}
	out := cur
	out.ObservedGeneration = ds.Generation
	out.DesiredNumberScheduled = st.DesiredNumberScheduled
	out.CurrentNumberScheduled = st.CurrentNumberScheduled
	out.NumberMisscheduled = st.NumberMisscheduled
	out.NumberReady = st.NumberReady
	out.UpdatedNumberScheduled = st.UpdatedNumberScheduled
	out.NumberAvailable = st.NumberAvailable
	out.NumberUnavailable = st.NumberUnavailable
	return out, true
}
