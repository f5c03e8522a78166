package job

import (
	"time"

	"github.com/kubesem/kubesem/podstatus"
)

// IsPodFailed reports whether the controller counts the pod as failed: its
// phase is Failed, or, unless only failed pods are replaced (see
// ReplacesOnlyFailed), it is being deleted and has not Succeeded.
//
// Source: upstream pkg/controller/job/job_controller.go isPodFailed (v1.36.3);
// seed 000 Job "Handling Pod and container failures" (000:L3026-3028).
func IsPodFailed(j *Job, p *podstatus.Pod) bool {
	if p.Status.Phase == podstatus.Failed {
		return true
	}
	if j.ReplacesOnlyFailed() {
		return false
	}
	return p.DeletionTimestamp != nil && p.Status.Phase != podstatus.Succeeded
}

// ReplacesOnlyFailed reports whether replacement pods wait for a
// terminating pod to reach the Failed phase: podReplacementPolicy is Failed,
// or a pod failure policy is set.
//
// Source: upstream pkg/controller/job/job_controller.go onlyReplaceFailedPods
// (v1.36.3, JobPodReplacementPolicy on).
func (j *Job) ReplacesOnlyFailed() bool {
	return (j.Spec.PodReplacementPolicy != nil && *j.Spec.PodReplacementPolicy == FailedOnly) || j.Spec.PodFailurePolicy != nil
}

// PastBackoffLimitOnFailure reports whether a job whose pods restart in
// place (template restartPolicy OnFailure) has used up its backoffLimit: the
// restart counts of all init and regular containers of Running and Pending
// pods, summed, are at least backoffLimit, or above 0 when backoffLimit is 0.
// Other restart policies never are. The sum is int32 and wraps, as
// upstream's does. j must be defaulted (backoffLimit set).
//
// Source: upstream pkg/controller/job/job_controller.go
// pastBackoffLimitOnFailure (v1.36.3); seed 000 Job "Pod backoff failure
// policy" (000:L3034-3038).
func PastBackoffLimitOnFailure(j *Job, pods []*podstatus.Pod) bool {
	if j.Spec.Template.Spec.RestartPolicy != podstatus.RestartOnFailure {
		return false
	}
	var sum int32 // upstream's int32 sum, wrap included
	for _, p := range pods {
		if p == nil || (p.Status.Phase != podstatus.Running && p.Status.Phase != podstatus.Pending) {
			continue
		}
		for _, s := range p.Status.InitContainerStatuses {
			sum += s.RestartCount
		}
		for _, s := range p.Status.ContainerStatuses {
			sum += s.RestartCount
		}
	}
	limit := backoffLimit(j)
	if limit == 0 {
		return sum > 0
	}
	return sum >= limit
}

// PastActiveDeadline reports whether a running job has been active for at
// least activeDeadlineSeconds: the deadline and startTime are set, the job
// is not suspended, and now - startTime >= the deadline (inclusive).
//
// Source: upstream pkg/controller/job/job_controller.go pastActiveDeadline
// (v1.36.3); seed 000 Job "Job termination and cleanup" (000:L3044-3071).
func PastActiveDeadline(j *Job, now time.Time) bool {
	if j.Spec.ActiveDeadlineSeconds == nil || j.Status.StartTime == nil || isSuspended(j) {
		return false
	}
	return now.Sub(*j.Status.StartTime) >= seconds(*j.Spec.ActiveDeadlineSeconds)
}

// seconds converts whole seconds to a Duration as upstream does,
// time.Duration(s) * time.Second, which wraps beyond ~292 years: an
// activeDeadlineSeconds of 9223372037 (the API accepts any positive int64)
// is a negative Duration, so the deadline has passed at once.
func seconds(s int64) time.Duration {
	return time.Duration(s) * time.Second
}

// WantActive returns how many pods the job should run, given the pods that
// succeeded and those active now. With completions unset (a work queue) it
// is parallelism until a pod succeeds and then the active count, so nothing
// new starts; otherwise it is completions - succeeded, clamped to
// [0, parallelism]. Unset fields take their API defaults: both unset means
// completions 1 and parallelism 1, parallelism alone unset means 1.
//
// Source: upstream pkg/controller/job/job_controller.go manageJob (v1.36.3);
// seed 000 Job "Parallel execution for Jobs" and "Controlling parallelism"
// (000:L2960-3000).
func WantActive(j *Job, succeeded, active int32) int32 {
	parallelism := derefInt32(j.Spec.Parallelism, 1)
	completions := j.Spec.Completions
	if completions == nil && j.Spec.Parallelism == nil {
		one := int32(1)
		completions = &one
	}
	if completions == nil {
		if succeeded > 0 {
			return active
		}
		return parallelism
	}
	// int32, as upstream: completions - succeeded wraps when succeeded
	// (status.succeeded plus new successes) has wrapped below 0, and the
	// result is capped by parallelism (1 when both are unset).
	want := *completions - succeeded
	return max(min(want, parallelism), 0)
}

func isSuspended(j *Job) bool { return j.Spec.Suspend != nil && *j.Spec.Suspend }

func isIndexed(j *Job) bool {
	return j.Spec.CompletionMode != nil && *j.Spec.CompletionMode == Indexed
}

func hasBackoffLimitPerIndex(j *Job) bool { return j.Spec.BackoffLimitPerIndex != nil }

// backoffLimit returns spec.backoffLimit, defaulted as the API server does:
// MaxInt32 with backoffLimitPerIndex, else 6.
func backoffLimit(j *Job) int32 {
	if j.Spec.BackoffLimit != nil {
		return *j.Spec.BackoffLimit
	}
	if j.Spec.BackoffLimitPerIndex != nil {
		return 1<<31 - 1
	}
	return 6
}

func derefInt32(p *int32, def int32) int32 {
	if p == nil {
		return def
	}
	return *p
}
