package job

import (
	"strconv"
	"time"

	"github.com/kubesem/kubesem/meta"
	"github.com/kubesem/kubesem/plan"
	"github.com/kubesem/kubesem/podstatus"
)

// act deletes the active pods of a finishing job, or manages the pod count
// and the Suspended condition of a running one.
func (s *sync) act() {
	j := &s.job
	st := &j.Status
	if s.finished != nil {
		rm := make([]Removal, len(s.active))
		for i, p := range s.active {
			rm[i] = Removal{Pod: p}
		}
		s.delete(rm, ReasonFinishing)
	} else {
		managed := false
		if j.DeletionTimestamp == nil {
			s.manage()
			managed = true
		}
		complete := s.succeeded > 0 && s.activeN == 0
		if j.Spec.Completions != nil {
			complete = s.succeeded >= *j.Spec.Completions && s.activeN == 0
		}
		switch {
		case complete:
			s.finished = s.newCondition(SuccessCriteriaMet, meta.ConditionTrue, ConditionReasonCompletionsReached, msgCompletions)
		case managed && isSuspended(j):
			if s.ensureCondition(Suspended, meta.ConditionTrue, ConditionReasonSuspended, msgSuspended) {
				s.statusUpdate = true
				s.suspendEvent = &plan.Event{Type: plan.Normal, Reason: ReasonSuspendedEvent, Message: msgSuspended}
				if !s.opts.KeepStartTimeOnSuspend {
					st.StartTime = nil
				}
			}
		case managed:
			if s.ensureCondition(Suspended, meta.ConditionFalse, ConditionReasonResumed, msgResumed) {
				s.statusUpdate = true
				s.suspendEvent = &plan.Event{Type: plan.Normal, Reason: ReasonResumed, Message: msgResumed}
				t := s.now
				st.StartTime = &t
			}
		}
	}
	o := &s.orig.Status
	s.statusUpdate = s.statusUpdate || s.activeN != o.Active || o.Ready == nil || *o.Ready != s.ready ||
		o.Terminating == nil || *o.Terminating != s.terminating
	st.Active = s.activeN
	ready, term := s.ready, s.terminating
	st.Ready, st.Terminating = &ready, &term
}

// ensureCondition sets a condition's status, reason and message, replacing
// it (with fresh times) when any differs; a missing condition is added
// unless its status is False. It reports whether the list changed.
func (s *sync) ensureCondition(t ConditionType, status meta.ConditionStatus, reason, msg string) bool {
	st := &s.job.Status
	if c := findCondition(st.Conditions, t); c != nil {
		if c.Status == status && c.Reason == reason && c.Message == msg {
			return false
		}
		*c = *s.newCondition(t, status, reason, msg)
		return true
	}
	if status == meta.ConditionFalse {
		return false
	}
	st.Conditions = append(st.Conditions, *s.newCondition(t, status, reason, msg))
	return true
}

// delete records the removal of pods, each with the given reason when set.
func (s *sync) delete(rm []Removal, reason Reason) {
	for _, r := range rm {
		why := r.Reason
		if reason != "" {
			why = reason
		}
		s.plan.Delete = append(s.plan.Delete, plan.Deletion{Name: r.Pod.Name, UID: r.Pod.UID, Reason: why})
		if podstatus.IsReady(r.Pod) {
			s.ready--
		}
	}
	s.activeN -= int32(len(rm))
	s.terminating += int32(len(rm))
}

// syncBatchPeriod is the shortest delay the controller requeues a job with
// while pod creation waits for a backoff (upstream SyncJobBatchPeriod,
// enforced by enqueueSyncJobWithDelay).
const syncBatchPeriod = time.Second

// deleteReleasing records the removal of pods as manageJob removes them:
// each pod still carrying the tracking finalizer is patched to drop it
// just before its deletion (deleteJobPods). The patch is made whatever the
// rest of the sync does; the track step, walking the pods as they were
// read, may patch the same pod again.
func (s *sync) deleteReleasing(rm []Removal, reason Reason) {
	for _, r := range rm {
		if hasFinalizer(r.Pod) {
			s.plan.PodPatches++
		}
	}
	s.delete(rm, reason)
}

// manage creates or deletes pods to reach WantActive.
func (s *sync) manage() {
	j := &s.job
	if isSuspended(j) {
		s.deleteReleasing(PodsForRemoval(j, s.active, len(s.active)), ReasonSuspended)
		return
	}
	want := WantActive(j, s.succeeded, s.activeN)
	rm := PodsForRemoval(j, s.active, int(max(s.activeN-want, 0)))
	if len(rm) > maxPerSync {
		rm = rm[:maxPerSync]
	}
	if len(rm) > 0 {
		s.deleteReleasing(rm, "")
		return
	}
	var terminating int32
	if j.ReplacesOnlyFailed() {
		terminating = s.terminating
	}
	diff := int64(want) - int64(terminating) - int64(s.activeN)
	if diff <= 0 {
		return
	}
	if !hasBackoffLimitPerIndex(j) {
		if left := RemainingBackoff(s.record.FailuresAfterLastSuccess, s.record.LastFailureTime, s.now, s.opts); left > 0 {
			s.plan.Requeue = append(s.plan.Requeue, plan.Requeue{After: max(left, syncBatchPeriod), Reason: ReasonPodFailureBackoff})
			return
		}
	}
	diff = min(diff, maxPerSync)
	create := plan.Creation[NewPod]{Count: int32(diff), Reason: ReasonTooFewActive}
	if isIndexed(j) {
		ix, ok := s.pendingIndexes(int(diff))
		if !ok {
			return
		}
		create.Count = int32(len(ix))
		for _, i := range ix {
			create.Objects = append(create.Objects, s.newPod(i))
		}
	}
	if create.Count == 0 {
		return
	}
	s.activeN += create.Count
	s.plan.Create = create
}

// pendingIndexes returns the indexes to create pods for now; false when
// per-index backoff holds every one of them back (a requeue is recorded).
func (s *sync) pendingIndexes(n int) ([]int, bool) {
	j := &s.job
	taken := s.succIdx.withIndexes(podIndexes(s.active))
	if j.ReplacesOnlyFailed() {
		var term []*podstatus.Pod
		for _, p := range s.pods {
			if podstatus.IsTerminating(p) {
				term = append(term, p)
			}
		}
		taken = taken.withIndexes(podIndexes(term))
	}
	if s.hasFailedIdx {
		taken = taken.merge(s.failedIdx)
	}
	ix := firstPending(n, int(*j.Spec.Completions), taken)
	if !hasBackoffLimitPerIndex(j) {
		return ix, true
	}
	// The least nonzero wait, which may be negative when a finish time lies
	// centuries away and upstream's subtraction wraps.
	var now []int
	var wait time.Duration
	waiting := false
	for _, i := range ix {
		left := RemainingIndexBackoff(s.delayed[i], s.now, s.opts)
		if left == 0 {
			now = append(now, i)
		} else if !waiting || left < wait {
			wait, waiting = left, true
		}
	}
	if len(now) == 0 && wait > 0 {
		s.plan.Requeue = append(s.plan.Requeue, plan.Requeue{After: max(wait, syncBatchPeriod), Reason: ReasonIndexFailureBackoff})
		return nil, false
	}
	return now, true
}

func (s *sync) newPod(i int) NewPod {
	j := &s.job
	np := NewPod{Index: i, GenerateName: GenerateNameWithIndex(j.Name, i), Hostname: j.Name + "-" + strconv.Itoa(i)}
	if !hasBackoffLimitPerIndex(j) {
		return np
	}
	failures, ignored := NewIndexFailureCounts(j, s.delayed[i])
	np.IndexFailureCount = &failures
	if ignored > 0 {
		np.IndexIgnoredFailureCount = &ignored
	}
	return np
}
