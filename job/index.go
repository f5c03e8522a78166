package job

import (
	"fmt"
	"math"
	"slices"
	"strconv"

	"github.com/kubesem/kubesem/field"

	"github.com/kubesem/kubesem/podstatus"
)

// Annotations and the finalizer the Job controller puts on its pods.
const (
	CompletionIndexAnnotation          = "batch.kubernetes.io/job-completion-index"
	IndexFailureCountAnnotation        = "batch.kubernetes.io/job-index-failure-count"
	IndexIgnoredFailureCountAnnotation = "batch.kubernetes.io/job-index-ignored-failure-count"
	TrackingFinalizer                  = "batch.kubernetes.io/job-tracking"
)

// maxGeneratedNameLength is the longest generateName prefix the API server
// keeps: 63 characters less the 5 random ones it appends.
const maxGeneratedNameLength = 58

// CompletionIndex returns the pod's completion index from its
// batch.kubernetes.io/job-completion-index annotation, or -1 when the
// annotation is missing, is not a decimal integer within int64 (an optional
// sign is accepted) or is negative. "-0" is index 0.
//
// Source: upstream pkg/controller/job/indexed_job_utils.go getCompletionIndex
// (v1.36.3).
func CompletionIndex(p *podstatus.Pod) int {
	v, ok := p.Annotations[CompletionIndexAnnotation]
	if !ok {
		return -1
	}
	neg := v != "" && v[0] == '-'
	if neg {
		v = v[1:]
		if v != "" && v[0] == '+' {
			return -1
		}
	}
	n, ok := atoi(v)
	if !ok || (neg && n != 0) {
		return -1
	}
	return int(n)
}

// GenerateNameWithIndex returns the generateName prefix of a pod for
// completion index i of the named job, "<job>-<i>-". When that is longer than
// 58 characters the job name is cut so that the prefix is exactly 58.
//
// Source: upstream pkg/controller/job/indexed_job_utils.go
// podGenerateNameWithIndex (v1.36.3); apiserver names.MaxGeneratedNameLength.
func GenerateNameWithIndex(jobName string, i int) string {
	suffix := "-" + strconv.Itoa(i) + "-"
	if len(jobName)+len(suffix) > maxGeneratedNameLength {
		cut := maxGeneratedNameLength - len(suffix)
		if cut < 0 {
			cut = 0
		}
		if cut < len(jobName) {
			jobName = jobName[:cut]
		}
	}
	return jobName + suffix
}

// MaxPendingIndexes is the most indexes [FirstPendingIndexes] is asked for:
// an Indexed Job's parallelism is at most 100,000 (API validation), so no
// sync wants more pods at once (the controller itself asks for at most
// 500). A larger count is an error, not an allocation.
const MaxPendingIndexes = maxIndexedParallelism

// errTooManyPending is the cause FirstPendingIndexes reports for a count
// above MaxPendingIndexes.
var errTooManyPending = fmt.Errorf("%w: must be at most %d (an Indexed Job's parallelism)", field.ErrInvalid, MaxPendingIndexes)

// FirstPendingIndexes returns, in increasing order, up to count indexes in
// [0, completions) that are neither succeeded, nor held by one of pods (the
// active pods, plus the terminating ones when only failed pods are
// replaced; pods without a valid completion index hold none), nor failed.
// Its cost is bounded by count, the number of intervals and len(pods),
// never by completions. A count of 0 or less asks for nothing.
//
// Errors (*field.Error): count above [MaxPendingIndexes] (ErrInvalid at
// "count"); completions negative or beyond int32 (ErrNegative, ErrOverflow
// at "completions"); succeeded or failed not well-formed intervals
// ([ValidateIndexes] at "succeeded", "failed").
//
// Source: upstream pkg/controller/job/indexed_job_utils.go firstPendingIndexes
// (v1.36.3); pkg/apis/batch/validation/validation.go
// maxParallelismForIndexedJob.
func FirstPendingIndexes(count, completions int, succeeded Indexes, pods []*podstatus.Pod, failed Indexes) ([]int, error) {
	switch {
	case count > MaxPendingIndexes:
		return nil, field.Int("count", int64(count), errTooManyPending)
	case completions < 0:
		return nil, field.Int("completions", int64(completions), field.ErrNegative)
	case completions > math.MaxInt32:
		return nil, field.Int("completions", int64(completions), field.ErrOverflow)
	}
	if err := ValidateIndexes("succeeded", succeeded); err != nil {
		return nil, err
	}
	if err := ValidateIndexes("failed", failed); err != nil {
		return nil, err
	}
	return firstPending(count, completions, succeeded.withIndexes(podIndexes(pods)).merge(failed)), nil
}

func firstPending(count, completions int, taken Indexes) []int {
	if count <= 0 {
		return nil
	}
	out := make([]int, 0, min(count, max(completions, 0)))
	c := 0
	for _, iv := range taken {
		for ; c < completions && len(out) < count && c < iv.First; c++ {
			out = append(out, c)
		}
		if c < iv.Last+1 {
			c = iv.Last + 1
		}
	}
	for ; c < completions && len(out) < count; c++ {
		out = append(out, c)
	}
	return out
}

// podIndexes returns the sorted distinct known completion indexes of pods.
func podIndexes(pods []*podstatus.Pod) []int {
	var out []int
	for _, p := range pods {
		if p == nil {
			continue
		}
		if ix := CompletionIndex(p); ix >= 0 {
			out = append(out, ix)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// hasFinalizer reports whether the pod still carries the job-tracking
// finalizer, that is, whether the controller has yet to account for it.
func hasFinalizer(p *podstatus.Pod) bool {
	return slices.Contains(p.Finalizers, TrackingFinalizer)
}

// SucceededIndexes returns the job's completed indexes before this sync
// (status.completedIndexes parsed against completions) and after it: those
// plus the indexes of Succeeded pods with a valid index below completions
// that still carry the tracking finalizer. j must be an Indexed job with
// completions set.
//
// Source: upstream pkg/controller/job/indexed_job_utils.go
// calculateSucceededIndexes (v1.36.3).
func SucceededIndexes(j *Job, pods []*podstatus.Pod) (prev, now Indexes) {
	c := int(*j.Spec.Completions)
	prev = ParseIndexes(j.Status.CompletedIndexes, c)
	var ix []int
	for _, p := range pods {
		if i := CompletionIndex(p); p.Status.Phase == podstatus.Succeeded && i >= 0 && i < c && hasFinalizer(p) {
			ix = append(ix, i)
		}
	}
	slices.Sort(ix)
	return prev, prev.withIndexes(slices.Compact(ix))
}

// FailedIndexes returns the job's failed indexes: status.failedIndexes parsed
// against completions plus the indexes (valid, below completions) of pods
// still carrying the tracking finalizer whose index failed: the pod failed
// and either the pod failure policy chose FailIndex, or the failure counts
// and the pod's index-failure-count annotation has reached
// backoffLimitPerIndex. j must be an Indexed job with completions and
// backoffLimitPerIndex set.
//
// Source: upstream pkg/controller/job/indexed_job_utils.go
// calculateFailedIndexes, isIndexFailed (v1.36.3).
func FailedIndexes(j *Job, pods []*podstatus.Pod) Indexes {
	c := int(*j.Spec.Completions)
	var prev Indexes
	if j.Status.FailedIndexes != nil {
		prev = ParseIndexes(*j.Status.FailedIndexes, c)
	}
	var ix []int
	for _, p := range pods {
		if i := CompletionIndex(p); i >= 0 && i < c && hasFinalizer(p) && isIndexFailed(j, p) {
			ix = append(ix, i)
		}
	}
	slices.Sort(ix)
	out := prev.withIndexes(slices.Compact(ix))
	if out == nil {
		out = Indexes{}
	}
	return out
}

func isIndexFailed(j *Job, p *podstatus.Pod) bool {
	if !IsPodFailed(j, p) {
		return false
	}
	counts := true
	if j.Spec.PodFailurePolicy != nil {
		m := MatchPodFailurePolicy(j.Spec.PodFailurePolicy, p)
		if m.Action == ActionFailIndex {
			return true
		}
		counts = m.CountFailed
	}
	return counts && annotationCount(p, IndexFailureCountAnnotation) >= *j.Spec.BackoffLimitPerIndex
}

// annotationCount reads a non-negative int32 counter annotation; a missing,
// unparsable or out-of-range value is 0.
func annotationCount(p *podstatus.Pod, key string) int32 {
	v, ok := p.Annotations[key]
	if !ok {
		return 0
	}
	neg := v != "" && v[0] == '-'
	if neg {
		v = v[1:]
		if v != "" && v[0] == '+' {
			return 0
		}
	}
	n, ok := atoi(v)
	if !ok || neg || n > 1<<31-1 {
		return 0
	}
	return int32(n)
}
