package job

import "github.com/kubesem/kubesem/podstatus"

// NewIndexFailureCounts returns the index-failure-count and
// index-ignored-failure-count annotation values of the pod that replaces
// replaced, the last failed pod of its index (nil for an index's first pod:
// 0 and 0). The replaced pod's counts carry over; its own failure adds one
// to the failure count, or to the ignored count when the job's pod failure
// policy says the failure does not count (an Ignore rule). A missing,
// unparsable, negative or out-of-range annotation reads as 0.
//
// Source: upstream pkg/controller/job/indexed_job_utils.go
// getNewIndexFailureCounts, getIndexFailureCount (v1.36.3).
func NewIndexFailureCounts(j *Job, replaced *podstatus.Pod) (failures, ignored int32) {
	if replaced == nil {
		return 0, 0
	}
	failures = annotationCount(replaced, IndexFailureCountAnnotation)
	ignored = annotationCount(replaced, IndexIgnoredFailureCountAnnotation)
	if MatchPodFailurePolicy(j.Spec.PodFailurePolicy, replaced).CountFailed {
		failures = inc32(failures)
	} else {
		ignored = inc32(ignored)
	}
	return failures, ignored
}

// inc32 adds one, wrapping at MaxInt32 as upstream's int32 arithmetic does.
func inc32(n int32) int32 {
	if n == 1<<31-1 {
		return -1 << 31
	}
	return n + 1
}
