package job

import (
	"slices"
	"time"

	"github.com/kubesem/kubesem/meta"
	"github.com/kubesem/kubesem/podstatus"
)

// Pod failure backoff: the first delay and the v1.36.3 cap.
const (
	BackoffBase       = 10 * time.Second
	DefaultBackoffCap = 10 * time.Minute
)

// BackoffRecord is the controller's memory of a job's recent failures: how
// many pods failed after the last success, and when the last of them
// finished. The controller keeps it in memory, not in the Job.
type BackoffRecord struct {
	FailuresAfterLastSuccess int32      `json:"failuresAfterLastSuccess"`
	LastFailureTime          *time.Time `json:"lastFailureTime,omitempty"`
}

// NewBackoffRecord returns prev updated with the pods that newly succeeded
// and newly failed. Without new successes, every new failure is added and
// the latest failure's finish time becomes LastFailureTime. With a new
// success the count restarts from the failures that finished strictly after
// the latest success, and LastFailureTime is the latest of those (nil when
// there are none). Pods are ordered by FinishedTime; ties keep their input
// order. Nil pods are skipped.
//
// Source: upstream pkg/controller/job/backoff_utils.go newBackoffRecord
// (v1.36.3).
func NewBackoffRecord(prev BackoffRecord, succeeded, failed []*podstatus.Pod) BackoffRecord {
	lastSuccess, anySuccess := latestFinish(succeeded)
	if !anySuccess {
		if countPods(failed) == 0 {
			return prev
		}
		last, _ := latestFinish(failed)
		return BackoffRecord{FailuresAfterLastSuccess: wrap32(int64(prev.FailuresAfterLastSuccess) + int64(countPods(failed))), LastFailureTime: &last}
	}
	var r BackoffRecord
	for _, p := range failed {
		if p == nil {
			continue
		}
		if t := FinishedTime(p); t.After(lastSuccess) {
			r.FailuresAfterLastSuccess++
			if r.LastFailureTime == nil || t.After(*r.LastFailureTime) {
				r.LastFailureTime = &t
			}
		}
	}
	return r
}

func countPods(pods []*podstatus.Pod) int {
	n := 0
	for _, p := range pods {
		if p != nil {
			n++
		}
	}
	return n
}

// latestFinish returns the latest FinishedTime among pods.
func latestFinish(pods []*podstatus.Pod) (time.Time, bool) {
	var last time.Time
	found := false
	for _, p := range pods {
		if p == nil {
			continue
		}
		if t := FinishedTime(p); !found || !t.Before(last) {
			last, found = t, true
		}
	}
	return last, found
}

// FinishedTime returns when the pod finished: the latest finishedAt of its
// sidecar containers and, when every regular container is terminated with a
// non-zero finishedAt, of its regular containers, provided every sidecar is
// terminated and at least one container was considered (a running regular
// container thus leaves the sidecars' time, as upstream does); else the transition time of a False Ready condition
// (if not zero); else deletionTimestamp minus deletionGracePeriodSeconds;
// else the creation timestamp.
//
// Source: upstream pkg/controller/job/backoff_utils.go getFinishedTime
// (v1.36.3, SidecarContainers on).
func FinishedTime(p *podstatus.Pod) time.Time {
	if t, ok := containersFinished(p); ok {
		return t
	}
	if c := p.Condition(podstatus.Ready); c != nil && c.Status == meta.ConditionFalse && !c.LastTransitionTime.IsZero() {
		return c.LastTransitionTime
	}
	if p.DeletionTimestamp != nil {
		var grace int64
		if p.DeletionGracePeriodSeconds != nil {
			grace = *p.DeletionGracePeriodSeconds
		}
		return p.DeletionTimestamp.Add(-time.Duration(grace) * time.Second)
	}
	return p.CreationTimestamp
}

func containersFinished(p *podstatus.Pod) (time.Time, bool) {
	last, ok := latestTerminated(time.Time{}, false, p.Status.ContainerStatuses, nil)
	return latestTerminated(last, ok, p.Status.InitContainerStatuses, p)
}

// latestTerminated folds the finish times of statuses into (last, ok): it
// returns (zero, false) as soon as one is not terminated with a finish time.
// With sidecarsOf set, only that pod's sidecar statuses are considered. Each
// list starts from the previous result, so a running regular container does
// not hide a sidecar's finish time (upstream latestFinishTime).
func latestTerminated(last time.Time, ok bool, statuses []podstatus.ContainerStatus, sidecarsOf *podstatus.Pod) (time.Time, bool) {
	for i := range statuses {
		s := &statuses[i]
		if sidecarsOf != nil && !isSidecar(sidecarsOf, s.Name) {
			continue
		}
		t := s.State.Terminated
		if t == nil || t.FinishedAt.IsZero() {
			return time.Time{}, false
		}
		if !ok || last.Before(t.FinishedAt) {
			last, ok = t.FinishedAt, true
		}
	}
	return last, ok
}

func isSidecar(p *podstatus.Pod, name string) bool {
	return slices.ContainsFunc(p.Spec.InitContainers, func(c podstatus.Container) bool {
		return c.Name == name && podstatus.IsRestartableInit(&c)
	})
}

// BackoffDelay returns how long the controller waits before replacing pods
// after failures consecutive failures: 0 for none, else the base
// (opts.BackoffBase, 10s by default) doubled for each failure after the
// first, stopping at the cap (opts.BackoffCap, 10m by default): 10s, 20s,
// 40s, 1m20s, 2m40s, 5m20s, 10m, 10m, ... The first delay is the base even
// when the cap is lower. Negative counts are treated as one failure, as
// upstream's loop does.
//
// Source: upstream pkg/controller/job/backoff_utils.go
// getRemainingTimeForFailuresCount, job_controller.go
// DefaultJobPodFailureBackOff, MaxJobPodFailureBackOff (v1.36.3); seed 000
// Job "Pod backoff failure policy" (000:L3032), which says 6 minutes.
func BackoffDelay(failures int32, opts Options) time.Duration {
	if failures == 0 {
		return 0
	}
	base, limit := opts.backoffBase(), opts.backoffCap()
	if failures <= 1 {
		return base
	}
	k := failures - 1
	if k >= 62 || base > limit>>k {
		return limit
	}
	return base << k
}

// RemainingBackoff returns how much of the backoff delay for failures
// failures is left at now, counting from lastFailure: the delay minus the
// time since, or 0 when the time since is longer. With no failures, or no
// lastFailure, it is 0. As upstream, the time since saturates (time.Sub) and
// the subtraction wraps: a lastFailure more than ~292 years after now gives
// a negative remainder, which the controller treats as no wait.
//
// Source: upstream pkg/controller/job/backoff_utils.go
// getRemainingTimeForFailuresCount (v1.36.3).
func RemainingBackoff(failures int32, lastFailure *time.Time, now time.Time, opts Options) time.Duration {
	if failures == 0 || lastFailure == nil {
		return 0
	}
	delay := BackoffDelay(failures, opts)
	since := now.Sub(*lastFailure)
	if delay < since {
		return 0
	}
	return delay - since
}

// RemainingIndexBackoff returns the backoff left at now before a replacement
// for the index of lastFailed (the failed pod of that index whose
// replacement is pending) may be created: failures counted as the pod's
// index-failure-count plus index-ignored-failure-count annotations plus one,
// from the pod's FinishedTime. A nil pod means no wait.
//
// Source: upstream pkg/controller/job/backoff_utils.go
// getRemainingTimePerIndex (v1.36.3).
func RemainingIndexBackoff(lastFailed *podstatus.Pod, now time.Time, opts Options) time.Duration {
	if lastFailed == nil {
		return 0
	}
	n := absoluteFailures(lastFailed) + 1
	t := FinishedTime(lastFailed)
	return RemainingBackoff(n, &t, now, opts)
}

// absoluteFailures is the index failure count plus the ignored failure
// count, wrapping like the int32 sum upstream computes.
func absoluteFailures(p *podstatus.Pod) int32 {
	return annotationCount(p, IndexFailureCountAnnotation) + annotationCount(p, IndexIgnoredFailureCountAnnotation)
}

// wrap32 returns n's low 32 bits: what upstream's int32 sum of the same
// terms comes to, wrap included.
func wrap32(n int64) int32 { return int32(n) }
