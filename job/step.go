package job

import (
	"slices"
	"time"

	"github.com/kubesem/kubesem/meta"
	"github.com/kubesem/kubesem/podstatus"
)

// maxPerSync caps pod creations and deletions per sync, and the finished
// pods accounted for per sync (MaxPodCreateDeletePerSync, MaxUncountedPods).
const maxPerSync = 500

// Plan is what the Job controller does in one sync.
type Plan struct {
	// Skip is set when the sync does nothing: ReasonManagedExternally or
	// ReasonAlreadyFinished.
	Skip Reason `json:"skip,omitempty"`
	// Create is the pods to create, or nil.
	Create *Create `json:"create,omitempty"`
	// Delete lists the active pods to delete, in upstream's order.
	Delete []Deletion `json:"delete,omitempty"`
	// RemoveFinalizers lists the UIDs of finished pods the controller
	// accounts for in this sync and releases (removes the tracking finalizer).
	RemoveFinalizers []string `json:"removeFinalizers,omitempty"`
	// Status is the job status after the sync; StatusChanged says whether
	// the controller writes it.
	Status        Status `json:"status"`
	StatusChanged bool   `json:"statusChanged"`
	// Requeue lists when the controller looks at the job again, and why.
	Requeue []Requeue `json:"requeue,omitempty"`
	// Backoff is the controller's backoff record after the sync.
	Backoff BackoffRecord `json:"backoff"`
}

// Create is a batch of pods to create.
type Create struct {
	Count  int32  `json:"count"`
	Reason Reason `json:"reason"`
	// Pods describes each new pod of an Indexed job, in creation order.
	Pods []NewPod `json:"pods,omitempty"`
}

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

// Deletion is an active pod to delete.
type Deletion struct {
	Name   string `json:"name"`
	UID    string `json:"uid"`
	Reason Reason `json:"reason"`
}

// Requeue asks for another sync after a delay.
type Requeue struct {
	After  time.Duration `json:"after"`
	Reason Reason        `json:"reason"`
}

// Step returns what the Job controller does in one sync of j, given the pods
// it owns, at now, starting from an empty backoff record (a freshly started
// controller). See StepFrom.
func Step(j *Job, pods []*podstatus.Pod, now time.Time, opts Options) (Plan, error) {
	return StepFrom(j, pods, BackoffRecord{}, now, opts)
}

// StepFrom returns what the Job controller does in one sync of j, given the
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
// Validation errors are those of Validate; on error the Plan is zero.
//
// Source: upstream pkg/controller/job/job_controller.go syncJob, manageJob,
// trackJobStatusAndRemoveFinalizers, enactJobFinished (v1.36.3); seed 000 Job.
func StepFrom(j *Job, pods []*podstatus.Pod, prev BackoffRecord, now time.Time, opts Options) (Plan, error) {
	if err := Validate(j, pods); err != nil {
		return Plan{}, err
	}
	if j.Spec.ManagedBy != nil && *j.Spec.ManagedBy != "kubernetes.io/job-controller" {
		return Plan{Skip: ReasonManagedExternally, Status: j.Status, Backoff: prev}, nil
	}
	if IsFinished(j) {
		return Plan{Skip: ReasonAlreadyFinished, Status: j.Status}, nil
	}
	s := newSync(withDefaults(j), pods, prev, now, opts)
	s.evaluate()
	s.act()
	s.track()
	return s.plan, nil
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
	record                  BackoffRecord

	finished          *Condition
	prevSucc, succIdx Indexes
	failedIdx         Indexes
	hasFailedIdx      bool
	delayed           map[int]*podstatus.Pod
	activeN           int32
	statusUpdate      bool
	plan              Plan
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
	s.succeeded = sat32(int64(st.Succeeded) + int64(len(s.newSucceeded)) + int64(len(unc.Succeeded)))
	nonIgnored := 0
	for _, p := range s.newFailed {
		if MatchPodFailurePolicy(j.Spec.PodFailurePolicy, p).CountFailed {
			nonIgnored++
		}
	}
	s.failed = sat32(int64(st.Failed) + int64(nonIgnored) + int64(len(unc.Failed)))
	if st.StartTime == nil && !isSuspended(j) {
		t := now
		st.StartTime = &t
	}
	s.record = NewBackoffRecord(prev, s.newSucceeded, s.newFailed)
	s.plan.Backoff = s.record
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
