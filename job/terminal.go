package job

import (
	"github.com/kubesem/kubesem/meta"
	"github.com/kubesem/kubesem/plan"
	"github.com/kubesem/kubesem/podstatus"
)

// FailJobMessage returns the message of the first pod (in the order given)
// that the controller counts as failed and that matches a FailJob rule of
// the job's pod failure policy, and whether there is one.
//
// Source: upstream pkg/controller/job/job_controller.go getFailJobMessage
// (v1.36.3).
func FailJobMessage(j *Job, pods []*podstatus.Pod) (string, bool) {
	if j.Spec.PodFailurePolicy == nil {
		return "", false
	}
	for _, p := range pods {
		if p == nil || !IsPodFailed(j, p) {
			continue
		}
		if m := MatchPodFailurePolicy(j.Spec.PodFailurePolicy, p); m.Action == ActionFailJob {
			return m.Message, true
		}
	}
	return "", false
}

// evaluate finds the terminal condition, if any, in syncJob's order.
func (s *sync) evaluate() {
	j := &s.job
	st := &j.Status
	if c := successCriteriaMet(st.Conditions); c != nil {
		cc := *c
		s.finished = &cc
	} else if ft := findCondition(st.Conditions, FailureTarget); ft != nil && ft.Status == meta.ConditionTrue {
		s.finished = s.newCondition(Failed, meta.ConditionTrue, ft.Reason, ft.Message)
	} else if msg, ok := FailJobMessage(j, s.pods); ok {
		s.finished = s.newCondition(FailureTarget, meta.ConditionTrue, ConditionReasonPodFailurePolicy, msg)
	}
	if s.finished == nil {
		switch {
		case s.failed > backoffLimit(j) || PastBackoffLimitOnFailure(j, s.pods):
			s.finished = s.newCondition(FailureTarget, meta.ConditionTrue, ConditionReasonBackoffLimitExceeded, msgBackoffLimit)
		case PastActiveDeadline(j, s.now):
			s.finished = s.newCondition(FailureTarget, meta.ConditionTrue, ConditionReasonDeadlineExceeded, msgDeadline)
		case j.Spec.ActiveDeadlineSeconds != nil && !isSuspended(j):
			left := seconds(*j.Spec.ActiveDeadlineSeconds) - s.now.Sub(*st.StartTime)
			s.plan.Requeue = append(s.plan.Requeue, plan.Requeue{After: left, Reason: ReasonActiveDeadline})
		}
	}
	if !isIndexed(j) {
		return
	}
	s.prevSucc, s.succIdx = SucceededIndexes(j, s.pods)
	s.succeeded = int32(s.succIdx.Total())
	completions := int(*j.Spec.Completions)
	if hasBackoffLimitPerIndex(j) {
		s.failedIdx, s.hasFailedIdx = FailedIndexes(j, s.pods), true
		if s.finished == nil {
			nf := s.failedIdx.Total()
			if j.Spec.MaxFailedIndexes != nil && nf > int(*j.Spec.MaxFailedIndexes) {
				s.finished = s.newCondition(FailureTarget, meta.ConditionTrue, ConditionReasonMaxFailedIndexesExceeded, msgMaxFailedIndexes)
			} else if nf > 0 && nf+s.succIdx.Total() >= completions {
				s.finished = s.newCondition(FailureTarget, meta.ConditionTrue, ConditionReasonFailedIndexes, msgFailedIndexes)
			}
		}
		s.delayed = s.delayedPerIndex()
	}
	if s.finished == nil {
		if msg, ok := MatchSuccessPolicy(j.Spec.SuccessPolicy, *j.Spec.Completions, s.succIdx); ok {
			s.finished = s.newCondition(SuccessCriteriaMet, meta.ConditionTrue, ConditionReasonSuccessPolicy, msg)
		}
	}
}

// delayedPerIndex picks, for each index with no success, failure or active
// pod, the failed pod whose finalizer is kept until its replacement exists:
// walking the pods in order, a pod replaces the one kept so far when its
// absolute failure count is at least as high and it did not finish
// earlier. When count and finish time disagree (a higher count that
// finished earlier) the pod kept depends on the walk's order: Step walks
// by name, then UID (see "Informer order" in the package doc).
//
// Source: upstream pkg/controller/job/indexed_job_utils.go
// getPodsWithDelayedDeletionPerIndex (v1.36.3).
func (s *sync) delayedPerIndex() map[int]*podstatus.Pod {
	activeIx := podIndexes(s.active)
	out := map[int]*podstatus.Pod{}
	for _, p := range s.pods {
		if !s.countable(p) || !IsPodFailed(&s.job, p) {
			continue
		}
		ix := CompletionIndex(p)
		if s.succIdx.Has(ix) || s.failedIdx.Has(ix) || containsSorted(activeIx, ix) {
			continue
		}
		last, ok := out[ix]
		if !ok || (absoluteFailures(last) <= absoluteFailures(p) && !FinishedTime(p).Before(FinishedTime(last))) {
			out[ix] = p
		}
	}
	return out
}

func containsSorted(xs []int, x int) bool {
	lo, hi := 0, len(xs)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if xs[m] < x {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo < len(xs) && xs[lo] == x
}
