package job

import (
	"cmp"
	"slices"

	"github.com/kubesem/kubesem/internal/deepcopy"
	"github.com/kubesem/kubesem/meta"
	"github.com/kubesem/kubesem/plan"
	"github.com/kubesem/kubesem/podstatus"
)

// track accounts for finished pods (at most 500 per sync), writes the index
// strings and the interim and final conditions, and decides whether the
// status is written.
func (s *sync) track() {
	j := &s.job
	st := &j.Status
	indexed := isIndexed(j)
	order := s.pods
	if indexed {
		order = slices.Clone(s.pods)
		slices.SortStableFunc(order, func(a, b *podstatus.Pod) int {
			return cmp.Compare(CompletionIndex(a), CompletionIndex(b))
		})
	}
	// Which uncounted pods still carry the finalizer (the others are
	// counted now): looked up only for the uncounted UIDs.
	var withFinalizer map[string]bool
	if n := len(st.UncountedTerminatedPods.Succeeded) + len(st.UncountedTerminatedPods.Failed); n > 0 {
		withFinalizer = make(map[string]bool, n)
		for _, uids := range [][]string{st.UncountedTerminatedPods.Succeeded, st.UncountedTerminatedPods.Failed} {
			for _, u := range uids {
				withFinalizer[u] = false
			}
		}
		for _, p := range s.pods {
			if _, ok := withFinalizer[p.UID]; ok && hasFinalizer(p) {
				withFinalizer[p.UID] = true
			}
		}
	}
	flush := s.statusUpdate
	if countUncounted(st, withFinalizer) {
		flush = true
	}
	unc := st.UncountedTerminatedPods
	var newSucc []int
	reachedMax := false
	for _, p := range order {
		if !hasFinalizer(p) {
			continue
		}
		failed := IsPodFailed(j, p)
		if !s.canRelease(p, failed) {
			continue
		}
		s.plan.RemoveFinalizers = append(s.plan.RemoveFinalizers, p.UID)
		switch {
		case p.Status.Phase == podstatus.Succeeded && !s.uncF[p.UID]:
			if indexed {
				if ix := CompletionIndex(p); ix >= 0 && ix < int(*j.Spec.Completions) && !s.prevSucc.Has(ix) {
					newSucc = append(newSucc, ix)
					flush = true
				}
			} else if !s.uncS[p.UID] {
				unc.Succeeded = append(unc.Succeeded, p.UID)
				flush = true
			}
		case failed || (s.finished != nil && !isSuccessCriteriaMet(s.finished)):
			ix := CompletionIndex(p)
			if !s.uncF[p.UID] && (!indexed || (ix >= 0 && ix < int(*j.Spec.Completions))) {
				if MatchPodFailurePolicy(j.Spec.PodFailurePolicy, p).CountFailed {
					unc.Failed = append(unc.Failed, p.UID)
					flush = true
				}
			}
		}
		if len(newSucc)+len(unc.Succeeded)+len(unc.Failed) >= maxPerSync {
			reachedMax = true
			break
		}
	}
	if indexed {
		s.succIdx = s.succIdx.withIndexes(newSucc)
		str := s.succIdx.String()
		if str != st.CompletedIndexes {
			flush = true
		}
		st.Succeeded = int32(s.succIdx.Total())
		st.CompletedIndexes = str
		var fs *string
		if s.hasFailedIdx {
			f := s.failedIdx.String()
			fs = &f
		}
		if (fs == nil) != (st.FailedIndexes == nil) || (fs != nil && *fs != *st.FailedIndexes) {
			st.FailedIndexes = fs
			flush = true
		}
	}
	if s.finished != nil && s.finished.Type == FailureTarget {
		st.Conditions = append(st.Conditions, *s.finished)
		flush = true
		s.finished = s.newCondition(Failed, meta.ConditionTrue, s.finished.Reason, s.finished.Message)
	}
	if isSuccessCriteriaMet(s.finished) {
		if successCriteriaMet(st.Conditions) == nil {
			st.Conditions = append(st.Conditions, *s.finished)
			flush = true
		}
		s.finished = s.newCondition(Complete, meta.ConditionTrue, s.finished.Reason, s.finished.Message)
	}
	// The first write, before the finalizers go, stores the backoff record.
	s.plan.Memory = s.prev
	if flush {
		s.plan.Memory = s.record
		fs := deepcopy.Copy(*st)
		s.plan.FlushStatus = &fs
	}
	for _, uid := range s.plan.RemoveFinalizers {
		delete(withFinalizer, uid)
	}
	if countUncounted(st, withFinalizer) {
		flush = true
	}
	if !reachedMax && s.enactFinished() {
		flush = true
	}
	s.plan.UpdateStatus = flush
	if flush {
		s.plan.Status = *st
	} else {
		s.plan.Status = s.orig.Status
	}
}

// canRelease reports whether the pod's tracking finalizer may go now.
func (s *sync) canRelease(p *podstatus.Pod, failed bool) bool {
	if s.job.DeletionTimestamp != nil || s.finished != nil || p.Status.Phase == podstatus.Succeeded {
		return true
	}
	if !failed {
		return false
	}
	if hasBackoffLimitPerIndex(&s.job) {
		if ix := CompletionIndex(p); ix >= 0 {
			if d, ok := s.delayed[ix]; ok && d.UID == p.UID {
				return false
			}
		}
	}
	return true
}

// countUncounted moves uncounted UIDs whose pods no longer carry the
// finalizer into the succeeded and failed counters, reporting any change.
func countUncounted(st *Status, withFinalizer map[string]bool) bool {
	unc := st.UncountedTerminatedPods
	keep := func(uids []string) ([]string, int) {
		var out []string
		for _, u := range uids {
			if withFinalizer[u] {
				out = append(out, u)
			}
		}
		return out, len(uids) - len(out)
	}
	changed := false
	if rest, n := keep(unc.Succeeded); n > 0 {
		st.Succeeded = wrap32(int64(st.Succeeded) + int64(n))
		unc.Succeeded, changed = rest, true
	}
	if rest, n := keep(unc.Failed); n > 0 {
		st.Failed = wrap32(int64(st.Failed) + int64(n))
		unc.Failed, changed = rest, true
	}
	return changed
}

// enactFinished writes the final condition once nothing is left to count
// and no pod is terminating.
func (s *sync) enactFinished() bool {
	if s.finished == nil {
		return false
	}
	st := &s.job.Status
	if len(st.UncountedTerminatedPods.Succeeded)+len(st.UncountedTerminatedPods.Failed) > 0 || s.terminating > 0 {
		return false
	}
	f := s.finished
	s.ensureCondition(f.Type, f.Status, f.Reason, f.Message)
	if f.Type == Complete {
		t := f.LastTransitionTime
		st.CompletionTime = &t
		if c := s.job.Spec.Completions; c != nil && st.Succeeded > *c {
			s.finishedEvents = append(s.finishedEvents, plan.Event{Type: plan.Warning, Reason: ReasonTooManySucceededPods, Message: msgTooManySucceeded})
		}
		s.finishedEvents = append(s.finishedEvents, plan.Event{Type: plan.Normal, Reason: ReasonCompleted, Message: msgCompleted})
	} else {
		s.finishedEvents = append(s.finishedEvents, plan.Event{Type: plan.Warning, Reason: Reason(f.Reason), Message: f.Message})
	}
	return true
}

func isSuccessCriteriaMet(c *Condition) bool {
	return c != nil && c.Type == SuccessCriteriaMet && c.Status == meta.ConditionTrue
}
