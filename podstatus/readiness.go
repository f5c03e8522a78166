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
// boundary. With minReadySeconds == 0 a ready pod is available at once; with
// any other value (including a negative one, which validation rejects) a
// ready pod needs a non-zero transition time. A nil pod is not available.
//
// Source: upstream pkg/api/v1/pod/util.go IsPodAvailable (v1.36.3);
// seed 000 Deployment minReadySeconds (000:L2003, 000:L2448).
func IsAvailable(p *Pod, minReadySeconds int32, now time.Time) bool {
	c := p.Condition(Ready)
	if c == nil || c.Status != meta.ConditionTrue {
		return false
	}
	if minReadySeconds == 0 {
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
// on time. The delay is always positive. It returns false when
// minReadySeconds <= 0, and skips nil pods and pods whose Ready condition has
// a zero transition time.
//
// It is [NextAvailabilityCheckSince] with the status evaluated at now.
//
// Source: upstream pkg/controller/controller_utils.go
// FindMinNextPodAvailabilityCheck, findMinNextPodAvailabilitySimpleCheck,
// nextPodAvailabilityCheck (v1.36.3).
func NextAvailabilityCheck(pods []*Pod, minReadySeconds int32, now time.Time) (time.Duration, bool) {
	d, _, ok := earliestAvailable(pods, minReadySeconds, now)
	return d, ok
}

// NextAvailabilityCheckSince returns the requeue delay of a controller that
// computed its status at evaluated and is now at now: the pod that was the
// first to become available as of evaluated is looked at again at now, and
// the delay is its remaining time then, or 0 when it has become available
// meanwhile. It returns false when no pod was waiting as of evaluated.
//
// Source: upstream pkg/controller/controller_utils.go
// FindMinNextPodAvailabilityCheck (v1.36.3), with evaluated as
// lastOwnerStatusEvaluation and now as clock.Now().
func NextAvailabilityCheckSince(pods []*Pod, minReadySeconds int32, evaluated, now time.Time) (time.Duration, bool) {
	_, first, ok := earliestAvailable(pods, minReadySeconds, evaluated)
	if !ok {
		return 0, false
	}
	if left, waiting := remaining(first, minReadySeconds, now); waiting {
		return left, true
	}
	return 0, true
}

// earliestAvailable returns the smallest positive remaining time among pods
// and the first pod that has it.
func earliestAvailable(pods []*Pod, minReadySeconds int32, now time.Time) (time.Duration, *Pod, bool) {
	var (
		min   time.Duration
		first *Pod
	)
	for _, p := range pods {
		left, waiting := remaining(p, minReadySeconds, now)
		if waiting && (first == nil || left < min) {
			min, first = left, p
		}
	}
	return min, first, first != nil
}

// remaining returns how long until a ready pod becomes available, when that
// is still ahead of now.
func remaining(p *Pod, minReadySeconds int32, now time.Time) (time.Duration, bool) {
	if minReadySeconds <= 0 {
		return 0, false
	}
	rt := ReadyTime(p)
	if rt.IsZero() {
		return 0, false
	}
	left := rt.Add(time.Duration(minReadySeconds) * time.Second).Sub(now)
	return left, left > 0
}
