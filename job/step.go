package job

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/kubesem/kubesem/field"
	"github.com/kubesem/kubesem/internal/stable"
	"github.com/kubesem/kubesem/meta"
	"github.com/kubesem/kubesem/plan"
	"github.com/kubesem/kubesem/podstatus"
)

// maxPerSync caps pod creations and deletions per sync, and the finished
// pods accounted for per sync (MaxPodCreateDeletePerSync, MaxUncountedPods).
const maxPerSync = 500

// Plan is what the Job controller does in one sync, in the house
// vocabulary (VOCABULARY.md).
type Plan struct {
	// Outcome is ReasonSynced, or ReasonManagedExternally or
	// ReasonAlreadyFinished when the sync does nothing.
	Outcome Reason `json:"outcome"`
	// Create is the pods to create; for an Indexed job Objects describes
	// each one, in creation order.
	Create plan.Creation[NewPod] `json:"create"`
	// Delete lists the active pods to delete, in upstream's order.
	Delete []plan.Deletion `json:"delete"`
	// RemoveFinalizers lists the UIDs of finished pods the controller
	// accounts for in this sync and releases (removes the tracking finalizer).
	RemoveFinalizers []string `json:"removeFinalizers"`
	// PodPatches counts the patches that remove the tracking finalizer:
	// one per pod in RemoveFinalizers, plus one per pod carrying the
	// finalizer that the controller deletes to manage the pod count
	// (suspension, too many active pods, duplicate or invalid indexes),
	// which it patches just before deleting it. Such a pod is patched twice
	// when the same sync also releases it (the job meets its completions
	// with it deleted). Pods deleted because the job finishes are deleted
	// without a patch and released through RemoveFinalizers.
	PodPatches int `json:"podPatches"`
	// FlushStatus is the status the controller writes first, before it
	// removes any tracking finalizer (the newly finished pods' UIDs in
	// uncountedTerminatedPods, the interim FailureTarget or
	// SuccessCriteriaMet condition); nil when the sync makes no such write.
	// Upstream: flushUncountedAndRemoveFinalizers.
	FlushStatus *Status `json:"flushStatus"`
	// Status is the job status after the sync; UpdateStatus says whether
	// the controller writes a status at all (FlushStatus, Status or both).
	// The sync writes Status after the finalizer removals unless that
	// write would repeat FlushStatus (nothing changed since): see
	// [Plan.StatusWrites].
	Status       Status `json:"status"`
	UpdateStatus bool   `json:"updateStatus"`
	// Events are the events the sync records, in order: the pod control's
	// SuccessfulDelete (object and message name the pod) for each deletion
	// and SuccessfulCreate for each creation (object and message empty:
	// the API server names the pod; upstream's message is "Created pod:
	// <name>"), then Suspended or Resumed when the Suspended condition
	// changes, then, once the final condition is written, Completed (after
	// a Warning TooManySucceededPods when succeeded exceeds completions)
	// or a Warning named by the Failed condition's reason with its message
	// (BackoffLimitExceeded, DeadlineExceeded, PodFailurePolicy,
	// MaxFailedIndexesExceeded, FailedIndexes). Upstream creates and
	// deletes pods concurrently, so the order of the pod control's events
	// among themselves is the Plan's order of Create and Delete, one of
	// the orders upstream may record.
	Events []plan.Event `json:"events"`
	// Requeue lists when the controller looks at the job again, and why.
	Requeue []plan.Requeue `json:"requeue"`
	// Memory is the controller's backoff record for the job after the sync:
	// the record updated with the pods newly finished, stored only when the
	// sync writes the status before releasing finalizers (upstream stores
	// it with that first write); otherwise the previous record, unchanged.
	Memory BackoffRecord `json:"memory"`
}

// MarshalJSON encodes p with [plan.Encode].
func (p Plan) MarshalJSON() ([]byte, error) { return plan.Encode(p) }

// NewPod is one pod of an Indexed job to create.
type NewPod struct {
	Index        int    `json:"index"`
	GenerateName string `json:"generateName"`
	Hostname     string `json:"hostname"`
	// IndexFailureCount and IndexIgnoredFailureCount are the annotation
	// values carried over, set only with backoffLimitPerIndex (the ignored
	// count only when above 0).
	IndexFailureCount        *int32 `json:"indexFailureCount,omitempty"`
	IndexIgnoredFailureCount *int32 `json:"indexIgnoredFailureCount,omitempty"`
}

// Step returns what the Job controller does in one sync of j, given the
// pods it owns (all of them: active, terminating and finished), the
// controller's backoff record for the job, and now. It assumes the
// controller's expectations are met and every API call succeeds, as
// upstream's unit tests do.
//
// Terminal conditions are evaluated in syncJob's order, first match wins: an
// existing SuccessCriteriaMet; an existing FailureTarget (→ Failed); a
// FailJob pod failure policy rule (FailureTarget, PodFailurePolicy);
// failed > backoffLimit or the OnFailure restart limit (BackoffLimitExceeded);
// the active deadline (DeadlineExceeded); with backoffLimitPerIndex, too many
// failed indexes (MaxFailedIndexesExceeded) or every index finished with some
// failed (FailedIndexes); the success policy (SuccessCriteriaMet,
// SuccessPolicy). With a terminal condition every active pod is deleted and
// the interim condition (FailureTarget or SuccessCriteriaMet) is written; the
// final one (Failed or Complete, with completionTime) waits until no pod is
// terminating and every finished pod is counted. Otherwise pods are created
// or deleted to reach WantActive, respecting backoff and suspension, and a
// job whose succeeded count reaches completions (or, without completions,
// with a success and no active pod) gets SuccessCriteriaMet
// (CompletionsReached). Suspending adds Suspended=True and clears startTime;
// resuming sets Suspended=False and resets startTime to now.
//
// prev is the controller's backoff record for the job from the previous
// sync (the zero record for a freshly started controller); the Plan's
// Memory is the record to pass to the next sync: the one updated with the
// newly finished pods when the sync writes the status before releasing
// finalizers, prev otherwise (as upstream's flushUncountedAndRemoveFinalizers
// stores it only with that write). A failure the sync releases without
// that write (an ignored failure, say) is thus not remembered.
//
// Validation errors are those of Validate; on error the Plan is zero.
//
// Source: upstream pkg/controller/job/job_controller.go syncJob, manageJob,
// trackJobStatusAndRemoveFinalizers, enactJobFinished (v1.36.3); seed 000 Job.
func Step(j *Job, pods []*podstatus.Pod, prev BackoffRecord, now time.Time, opts Options) (Plan, error) {
	if err := Validate(j, pods); err != nil {
		return Plan{}, err
	}
	if j.Spec.ManagedBy != nil && *j.Spec.ManagedBy != "kubernetes.io/job-controller" {
		return Plan{Outcome: ReasonManagedExternally, Status: j.Status, Memory: prev}, nil
	}
	if j.IsFinished() {
		return Plan{Outcome: ReasonAlreadyFinished, Status: j.Status}, nil
	}
	s := newSync(withDefaults(j), byNameUID(pods), prev, now, opts)
	s.evaluate()
	s.act()
	s.track()
	if err := s.upstreamPanics(); err != nil {
		return Plan{}, err
	}
	s.plan.Outcome = ReasonSynced
	s.plan.PodPatches += len(s.plan.RemoveFinalizers)
	s.plan.Events = s.events()
	return s.plan, nil
}

// errCounterWraps is the cause of the error Step returns where v1.36.3's
// Job controller panics.
var errCounterWraps = fmt.Errorf("%w: status.succeeded wraps past int32 and v1.36.3's Job controller panics (its pods-finished metric cannot decrease)", field.ErrOverflow)

// upstreamPanics reports the sync where upstream's recordJobPodFinished
// panics: a NonIndexed job whose flushed status.succeeded has wrapped below
// its previous value, so the Prometheus counter would be decremented. There
// is no upstream answer to mirror (kube-controller-manager crashes), so
// Step says so instead of answering.
func (s *sync) upstreamPanics() error {
	if !s.plan.UpdateStatus || isIndexed(&s.job) || s.plan.Status.Succeeded >= s.orig.Status.Succeeded {
		return nil
	}
	return &field.Error{Path: "status.succeeded", Value: strconv.FormatInt(int64(s.orig.Status.Succeeded), 10), Err: errCounterWraps}
}

// sync carries one sync's working state.
type sync struct {
	job  Job // shallow copy; job.Status is the status being built
	orig *Job
	pods []*podstatus.Pod
	now  time.Time
	opts Options

	active                  []*podstatus.Pod
	ready, terminating      int32
	succeeded, failed       int32
	uncS, uncF              map[string]bool
	newSucceeded, newFailed []*podstatus.Pod
	prev, record            BackoffRecord

	finished          *Condition
	prevSucc, succIdx Indexes
	failedIdx         Indexes
	hasFailedIdx      bool
	delayed           map[int]*podstatus.Pod
	activeN           int32
	statusUpdate      bool
	plan              Plan

	// suspendEvent is the Suspended or Resumed event manageJob's caller
	// records ("" when none); finishedEvents those recorded with the
	// final condition.
	suspendEvent   *plan.Event
	finishedEvents []plan.Event
}

func newSync(j *Job, pods []*podstatus.Pod, prev BackoffRecord, now time.Time, opts Options) *sync {
	s := &sync{job: *j, orig: j, pods: pods, now: now, opts: opts}
	st := &s.job.Status
	st.Conditions = slices.Clone(j.Status.Conditions)
	unc := UncountedTerminatedPods{}
	if j.Status.UncountedTerminatedPods != nil {
		unc.Succeeded = slices.Clone(j.Status.UncountedTerminatedPods.Succeeded)
		unc.Failed = slices.Clone(j.Status.UncountedTerminatedPods.Failed)
	}
	st.UncountedTerminatedPods = &unc
	s.uncS, s.uncF = uidSet(unc.Succeeded), uidSet(unc.Failed)
	for _, p := range pods {
		if podstatus.IsActive(p) {
			s.active = append(s.active, p)
			if podstatus.IsReady(p) {
				s.ready++
			}
		}
		if podstatus.IsTerminating(p) {
			s.terminating++
		}
	}
	s.activeN = int32(len(s.active))
	for _, p := range pods {
		if !s.countable(p) {
			continue
		}
		if p.Status.Phase == podstatus.Succeeded && !s.uncS[p.UID] {
			s.newSucceeded = append(s.newSucceeded, p)
		}
		if IsPodFailed(&s.job, p) && !s.uncF[p.UID] {
			s.newFailed = append(s.newFailed, p)
		}
	}
	s.succeeded = wrap32(int64(st.Succeeded) + int64(len(s.newSucceeded)) + int64(len(unc.Succeeded)))
	nonIgnored := 0
	for _, p := range s.newFailed {
		if MatchPodFailurePolicy(j.Spec.PodFailurePolicy, p).CountFailed {
			nonIgnored++
		}
	}
	s.failed = wrap32(int64(st.Failed) + int64(nonIgnored) + int64(len(unc.Failed)))
	if st.StartTime == nil && !isSuspended(j) {
		t := now
		st.StartTime = &t
	}
	s.prev = prev
	s.record = NewBackoffRecord(prev, s.newSucceeded, s.newFailed)
	return s
}

// countable reports whether a pod is still to be accounted for: it has the
// tracking finalizer and, in an Indexed job, a valid index below completions.
func (s *sync) countable(p *podstatus.Pod) bool {
	if !hasFinalizer(p) {
		return false
	}
	if isIndexed(&s.job) {
		ix := CompletionIndex(p)
		return ix >= 0 && ix < int(*s.job.Spec.Completions)
	}
	return true
}

func uidSet(uids []string) map[string]bool {
	m := make(map[string]bool, len(uids))
	for _, u := range uids {
		m[u] = true
	}
	return m
}

func (s *sync) newCondition(t ConditionType, status meta.ConditionStatus, reason, msg string) *Condition {
	return &Condition{Type: t, Status: status, LastProbeTime: s.now, LastTransitionTime: s.now, Reason: reason, Message: msg}
}

func findCondition(list []Condition, t ConditionType) *Condition {
	for i := range list {
		if list[i].Type == t {
			return &list[i]
		}
	}
	return nil
}

func successCriteriaMet(list []Condition) *Condition {
	if c := findCondition(list, SuccessCriteriaMet); c != nil && c.Status == meta.ConditionTrue {
		return c
	}
	return nil
}

// withDefaults returns a shallow copy of j with the API defaults the
// controller relies on applied to its spec.
func withDefaults(j *Job) *Job {
	d := *j
	one := int32(1)
	if d.Spec.Completions == nil && d.Spec.Parallelism == nil {
		d.Spec.Completions, d.Spec.Parallelism = &one, &one
	}
	if d.Spec.Parallelism == nil {
		d.Spec.Parallelism = &one
	}
	if d.Spec.BackoffLimit == nil {
		b := backoffLimit(j)
		d.Spec.BackoffLimit = &b
	}
	return &d
}

// byNameUID returns pods sorted by name, then UID. Upstream walks pods in
// its informer's order, which is arbitrary; kubesem pins this one, so that
// the Plan does not depend on the order of its input.
func byNameUID(pods []*podstatus.Pod) []*podstatus.Pod {
	out := slices.Clone(pods)
	stable.Sort(out, func(a, b *podstatus.Pod) int {
		if a == nil || b == nil {
			return cmp.Compare(boolInt(a != nil), boolInt(b != nil))
		}
		return cmp.Or(strings.Compare(a.Name, b.Name), strings.Compare(a.UID, b.UID))
	})
	return out
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// events lists the sync's events in the order upstream records them: the
// pod control's, then the Suspended or Resumed event, then those of the
// final condition.
func (s *sync) events() []plan.Event {
	var out []plan.Event
	for _, d := range s.plan.Delete {
		out = append(out, plan.Event{Type: plan.Normal, Reason: ReasonSuccessfulDelete, Object: d.Name, Message: msgDeletedPod + d.Name})
	}
	for range s.plan.Create.Count {
		out = append(out, plan.Event{Type: plan.Normal, Reason: ReasonSuccessfulCreate})
	}
	if s.suspendEvent != nil {
		out = append(out, *s.suspendEvent)
	}
	return append(out, s.finishedEvents...)
}
