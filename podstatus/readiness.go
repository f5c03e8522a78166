package podstatus

import (
	"time"

	"github.com/kubesem/kubesem/meta"
)

// IsReady reports whether the pod's Ready condition has status True.
//
// Source: upstream pkg/api/v1/pod/util.go IsPodReady (v1.36.3).
func IsReady(p *Pod) bool {
	c := p.Condition(Ready)
	return c != nil && c.Status == meta.ConditionTrue
}

// ReadyTime returns the last transition time of a True Ready condition, or
// the zero time when the pod is not ready.
//
// Source: upstream pkg/controller/controller_utils.go podReadyTime (v1.36.3).
func ReadyTime(p *Pod) time.Time {
	c := p.Condition(Ready)
	if c == nil || c.Status != meta.ConditionTrue {
		return time.Time{}
	}
	return c.LastTransitionTime
}

// IsAvailable reports whether the pod is ready and has been ready for at
// least minReadySeconds: readyTime + minReadySeconds <= now, inclusive at the
// boundary. With minReadySeconds <= 0 a ready pod is available at once; a ready
// pod with a zero transition time is not available when minReadySeconds > 0.
//
// Source: upstream pkg/api/v1/pod/util.go IsPodAvailable (v1.36.3);
// seed 000 Deployment minReadySeconds.
func IsAvailable(p *Pod, minReadySeconds int32, now time.Time) bool {
	c := p.Condition(Ready)
	if c == nil || c.Status != meta.ConditionTrue {
		return false
	}
	if minReadySeconds <= 0 {
		return true
	}
	if c.LastTransitionTime.IsZero() {
		return false
	}
	return !c.LastTransitionTime.Add(time.Duration(minReadySeconds) * time.Second).After(now)
}

// NextAvailabilityCheck returns how long until the first of pods that is
// ready but not yet available becomes available, and whether there is such a
// pod. Controllers requeue after that delay so that availability is counted
// on time. It returns false when minReadySeconds <= 0.
//
// Source: upstream pkg/controller/controller_utils.go
// FindMinNextPodAvailabilityCheck (v1.36.3).
func NextAvailabilityCheck(pods []*Pod, minReadySeconds int32, now time.Time) (time.Duration, bool) {
	if minReadySeconds <= 0 {
		return 0, false
	}
	min := time.Duration(0)
	found := false
	window := time.Duration(minReadySeconds) * time.Second
	for _, p := range pods {
		if p == nil {
			continue
		}
		rt := ReadyTime(p)
		if rt.IsZero() {
			continue
		}
		left := rt.Add(window).Sub(now)
		if left <= 0 {
			continue
		}
		if !found || left < min {
			min, found = left, true
		}
	}
	return min, found
}
