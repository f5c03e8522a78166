package cronjob

import (
	"cmp"
	"errors"
	"slices"
	"strings"
	"time"

	"github.com/kubesem/kubesem/field"
	"github.com/kubesem/kubesem/internal/stable"
	"github.com/kubesem/kubesem/job"
	"github.com/kubesem/kubesem/plan"
)

// Reason says why a sync ended the way it did, why a Job is deleted, or
// names an event.
type Reason = plan.Reason

// Reasons a sync ends with (Plan.Outcome), in syncCronJob's order.
const (
	ReasonDeleting            Reason = "Deleting"            // the CronJob is being deleted
	ReasonUnknownTimeZone     Reason = "UnknownTimeZone"     // spec.timeZone names no zone
	ReasonSuspended           Reason = "Suspended"           // spec.suspend
	ReasonUnparseableSchedule Reason = "UnparseableSchedule" // spec.schedule does not parse
	ReasonInvalidSchedule     Reason = "InvalidSchedule"     // MostRecent failed (never fires)
	ReasonNotDue              Reason = "NotDue"              // no unmet start time
	ReasonTooLate             Reason = "TooLate"             // past startingDeadlineSeconds
	ReasonAlreadyProcessed    Reason = "AlreadyProcessed"    // the start time's Job exists
	ReasonForbidden           Reason = "Forbidden"           // Forbid and a Job is active
	ReasonTooManyMissed       Reason = "TooManyMissed"       // Options.RefuseTooManyMissed
	ReasonCreated             Reason = "Created"             // a Job is created
	ReasonAlreadyExists       Reason = "AlreadyExists"       // the start time's Job name is taken
)

// Reasons a Job is deleted (Deletion.Reason).
const (
	ReasonHistory Reason = "History" // beyond the history limits
	ReasonReplace Reason = "Replace" // an active Job the Replace policy removes
)

// ReasonStatusUpdate is the reason of the CronJob status write
// ([Plan.Writes]).
const ReasonStatusUpdate Reason = "StatusUpdate"

// Event reasons the controller records (Event.Reason) besides the
// outcomes above that are also events (UnknownTimeZone,
// UnparseableSchedule, InvalidSchedule, all warnings). The other warnings
// are UnexpectedJob, UnsupportedSchedule, TooManyMissedTimes and
// MissSchedule. v1.36.3's sync records no other event when every API call
// succeeds (FailedCreate, FailedDelete and FailedGet follow failed calls;
// UnParseableCronJobSchedule is recorded by the CronJob update handler,
// not by a sync).
const (
	ReasonSuccessfulCreate    Reason = "SuccessfulCreate"
	ReasonSuccessfulDelete    Reason = "SuccessfulDelete"
	ReasonSawCompletedJob     Reason = "SawCompletedJob"
	ReasonMissingJob          Reason = "MissingJob"
	ReasonJobAlreadyActive    Reason = "JobAlreadyActive"
	ReasonUnexpectedJob       Reason = "UnexpectedJob"
	ReasonUnsupportedSchedule Reason = "UnsupportedSchedule"
	ReasonTooManyMissedTimes  Reason = "TooManyMissedTimes"
	ReasonMissSchedule        Reason = "MissSchedule"
)

// Plan is what one sync of a CronJob does, in the house vocabulary
// (VOCABULARY.md).
type Plan struct {
	// Outcome says why the sync ended as it did.
	Outcome Reason `json:"outcome"`
	// Create holds the Job created (Count 1, Objects[0]), or nothing. With
	// Outcome AlreadyExists it is the create the API server refused. Its
	// UID is empty: the API server assigns it, and the new Status.Active
	// entry carries the same empty UID.
	Create plan.Creation[job.Job] `json:"create"`
	// Delete lists the Jobs deleted, history cleanup first (ReasonHistory),
	// then the active Jobs a Replace policy removes (ReasonReplace).
	Delete []plan.Deletion `json:"delete"`
	// Status is the CronJob status after the sync; UpdateStatus reports
	// whether the controller writes it.
	Status       Status `json:"status"`
	UpdateStatus bool   `json:"updateStatus"`
	// Events are the events recorded, in order.
	Events []plan.Event `json:"events"`
	// Requeue holds when the controller looks again (the next start time);
	// it is empty when the CronJob is deleting, suspended, or its time zone
	// or schedule is broken.
	Requeue []plan.Requeue `json:"requeue"`
	// ScheduledTime is the start time acted on (zero when none was due).
	ScheduledTime time.Time `json:"scheduledTime,omitzero"`
	// Missed is upstream's class, Estimate its estimate and MissedCount
	// the exact number of start times in (earliest, now] (see [Recent]).
	Missed      Missed `json:"missed"`
	Estimate    int64  `json:"estimate"`
	MissedCount int64  `json:"missedCount"`
}

// MarshalJSON encodes p with [plan.Encode].
func (p Plan) MarshalJSON() ([]byte, error) { return plan.Encode(p) }

// Job returns the Job p creates, or nil.
func (p Plan) Job() *job.Job {
	if len(p.Create.Objects) == 0 {
		return nil
	}
	return &p.Create.Objects[0]
}

func warning(reason Reason, object string) plan.Event {
	return plan.Event{Type: plan.Warning, Reason: reason, Object: object}
}

func normal(reason Reason, object string) plan.Event {
	return plan.Event{Type: plan.Normal, Reason: reason, Object: object}
}

// Step returns what one sync of the CronJob controller does, given the
// CronJob, the Jobs it controls, and now, in v1.36.3's order: history
// cleanup ([ExcessHistory]); then the active list (a finished Job leaves it,
// SawCompletedJob; a succeeded Job raises lastSuccessfulTime to its
// completion time; an unfinished Job missing from it is reported,
// UnexpectedJob; an entry whose Job is gone is dropped, MissingJob); then,
// stopping at the first that applies: deleting, unknown time zone,
// suspended, unparseable schedule, [ScheduledTime] failing, no start time
// due, [IsTooLate] (MissSchedule), start time already processed, Forbid with
// an active Job (JobAlreadyActive), Options.RefuseTooManyMissed with
// MissedMany; else Replace deletes the active Jobs and the Job from
// [JobFromTemplate] is created, appended to the active list, and
// lastScheduleTime set. Every requeue is [RequeueAfter].
//
// jobs are taken as the truth (an active entry whose Job is not listed is
// gone; upstream double-checks with the API server), creates and deletes
// are assumed to succeed, and spec.timeZone is interpreted with
// Options.LocalTimeZone for "Local". It returns a *field.Error only for a
// nil CronJob (Required) or a nil Job (jobs[i], Required).
//
// Source: upstream pkg/controller/cronjob/cronjob_controllerv2.go sync,
// cleanupFinishedJobs, syncCronJob (v1.36.3).
func Step(cj *CronJob, jobs []*job.Job, now time.Time, opts Options) (Plan, error) {
	if cj == nil {
		return Plan{}, field.New("cronJob", "", field.ErrRequired)
	}
	for i, j := range jobs {
		if j == nil {
			return Plan{}, field.New(field.Index("jobs", i), "", field.ErrRequired)
		}
	}
	jobs = byNameUID(jobs)
	p := Plan{Status: cloneStatus(cj.Status)}
	// Work on a copy whose status evolves as the sync goes.
	c := *cj
	c.Status = p.Status

	for _, j := range ExcessHistory(cj, jobs) {
		p.Delete = append(p.Delete, plan.Deletion{Name: j.Name, UID: j.UID, Reason: ReasonHistory})
		p.Events = append(p.Events, normal(ReasonSuccessfulDelete, j.Name))
		c.Status.Active = dropUID(c.Status.Active, j.UID)
		p.UpdateStatus = true
	}
	p.reconcile(&c, jobs)
	if err := p.decide(&c, jobs, now, opts); err != nil {
		// v1.36.3's sync never returns (ErrNeverEnds): no answer to give.
		return Plan{}, err
	}
	p.Status = c.Status
	return p, nil
}

// reconcile applies the Jobs to the active list and lastSuccessfulTime.
func (p *Plan) reconcile(c *CronJob, jobs []*job.Job) {
	children := make(map[string]bool, len(jobs))
	for _, j := range jobs {
		children[j.UID] = true
		found := hasUID(c.Status.Active, j.UID)
		finished := j.FinishedCondition()
		if !found && finished == nil {
			p.Events = append(p.Events, warning(ReasonUnexpectedJob, j.Name))
			continue
		}
		if finished == nil {
			continue
		}
		if found {
			c.Status.Active = dropUID(c.Status.Active, j.UID)
			p.Events = append(p.Events, normal(ReasonSawCompletedJob, j.Name))
			p.UpdateStatus = true
		}
		if finished.Type != job.Complete {
			continue
		}
		last := c.Status.LastSuccessfulTime
		if last == nil {
			c.Status.LastSuccessfulTime = cloneTime(j.Status.CompletionTime)
			p.UpdateStatus = true
			last = c.Status.LastSuccessfulTime
		}
		if ct := j.Status.CompletionTime; ct != nil && last != nil && ct.After(*last) {
			c.Status.LastSuccessfulTime = cloneTime(ct)
			p.UpdateStatus = true
		}
	}
	for _, ref := range slices.Clone(c.Status.Active) {
		if !children[ref.UID] {
			p.Events = append(p.Events, normal(ReasonMissingJob, ref.Name))
			c.Status.Active = dropUID(c.Status.Active, ref.UID)
			p.UpdateStatus = true
		}
	}
}

// decide walks syncCronJob's gates after reconciliation. It returns an
// error only where upstream's sync never ends ([ErrNeverEnds]).
func (p *Plan) decide(c *CronJob, jobs []*job.Job, now time.Time, opts Options) error {
	if c.DeletionTimestamp != nil {
		p.Outcome = ReasonDeleting
		return nil
	}
	if c.Spec.TimeZone != nil {
		if _, err := loadZone(*c.Spec.TimeZone, opts); err != nil {
			p.Outcome = ReasonUnknownTimeZone
			p.Events = append(p.Events, warning(ReasonUnknownTimeZone, ""))
			return nil
		}
	}
	if c.Spec.Suspend != nil && *c.Spec.Suspend {
		p.Outcome = ReasonSuspended
		return nil
	}
	if strings.Contains(c.Spec.Schedule, "TZ") {
		p.Events = append(p.Events, warning(ReasonUnsupportedSchedule, ""))
	}
	s, err := ParseSchedule(c.Spec.Schedule, c.Spec.TimeZone, opts)
	if err != nil {
		p.Outcome = ReasonUnparseableSchedule
		p.Events = append(p.Events, warning(ReasonUnparseableSchedule, ""))
		return nil
	}
	r, err := ScheduledTime(c, s, now)
	if errors.Is(err, ErrNeverEnds) {
		return err
	}
	p.Missed, p.Estimate, p.MissedCount = r.Missed, r.Estimate, r.Count
	if !r.Time.IsZero() && r.Missed == MissedMany {
		p.Events = append(p.Events, warning(ReasonTooManyMissedTimes, ""))
	}
	if err != nil {
		p.Outcome = ReasonInvalidSchedule
		p.Events = append(p.Events, warning(ReasonInvalidSchedule, ""))
		return nil
	}
	requeue := func(reason Reason) error {
		after, err := RequeueAfter(c, s, now)
		p.Outcome = reason
		p.Requeue = []plan.Requeue{{After: after, Reason: reason}}
		return err
	}
	if r.Time.IsZero() {
		return requeue(ReasonNotDue)
	}
	p.ScheduledTime = r.Time
	switch {
	case IsTooLate(c, r.Time, now):
		p.Events = append(p.Events, warning(ReasonMissSchedule, ""))
		return requeue(ReasonTooLate)
	case hasName(c.Status.Active, JobName(c.Name, r.Time), c.Namespace) ||
		(c.Status.LastScheduleTime != nil && c.Status.LastScheduleTime.Equal(r.Time)):
		return requeue(ReasonAlreadyProcessed)
	case c.Spec.ConcurrencyPolicy == Forbid && len(c.Status.Active) > 0:
		p.Events = append(p.Events, normal(ReasonJobAlreadyActive, ""))
		return requeue(ReasonForbidden)
	case opts.RefuseTooManyMissed && r.Missed == MissedMany:
		return requeue(ReasonTooManyMissed)
	}
	if c.Spec.ConcurrencyPolicy == Replace {
		for _, ref := range slices.Clone(c.Status.Active) {
			p.Delete = append(p.Delete, plan.Deletion{Name: ref.Name, UID: ref.UID, Reason: ReasonReplace})
			p.Events = append(p.Events, normal(ReasonSuccessfulDelete, ref.Name))
			c.Status.Active = dropUID(c.Status.Active, ref.UID)
			p.UpdateStatus = true
		}
	}
	j, err := JobFromTemplate(c, r.Time, opts)
	if err != nil { // unreachable: the zone loaded above
		p.Outcome = ReasonUnknownTimeZone
		return nil
	}
	p.Create = plan.Creation[job.Job]{Count: 1, Reason: ReasonCreated, Objects: []job.Job{*j}}
	deleted := func(x *job.Job) bool {
		return slices.ContainsFunc(p.Delete, func(d plan.Deletion) bool { return d.UID == x.UID && d.Name == x.Name })
	}
	if slices.ContainsFunc(jobs, func(x *job.Job) bool { return x.Name == j.Name && x.Namespace == j.Namespace && !deleted(x) }) {
		// A Job this sync deleted before (history cleanup, Replace) is
		// gone already: its deletion propagates in the background, so
		// its name is free.
		// The create fails with AlreadyExists. Upstream then reads the
		// Job back with the request's empty namespace, which fails, so
		// the sync ends in an error (retried with backoff) whoever owns
		// the Job: no status change, no requeue.
		p.Outcome = ReasonAlreadyExists
		return nil
	}
	p.Events = append(p.Events, normal(ReasonSuccessfulCreate, j.Name))
	ref := ObjectReference{Kind: "Job", Namespace: j.Namespace, Name: j.Name, APIVersion: "batch/v1"}
	c.Status.Active = append(c.Status.Active, ref)
	t := r.Time
	c.Status.LastScheduleTime = &t
	p.UpdateStatus = true
	return requeue(ReasonCreated)
}

func cloneStatus(s Status) Status {
	return Status{
		Active:             slices.Clone(s.Active),
		LastScheduleTime:   cloneTime(s.LastScheduleTime),
		LastSuccessfulTime: cloneTime(s.LastSuccessfulTime),
	}
}

func cloneTime(t *time.Time) *time.Time {
	if t == nil {
		return nil
	}
	c := *t
	return &c
}

func hasUID(refs []ObjectReference, uid string) bool {
	return slices.ContainsFunc(refs, func(r ObjectReference) bool { return r.UID == uid })
}

func hasName(refs []ObjectReference, name, namespace string) bool {
	return slices.ContainsFunc(refs, func(r ObjectReference) bool { return r.Name == name && r.Namespace == namespace })
}

// dropUID returns refs without the entries whose UID is uid (a new slice).
func dropUID(refs []ObjectReference, uid string) []ObjectReference {
	out := make([]ObjectReference, 0, len(refs))
	for _, r := range refs {
		if r.UID != uid {
			out = append(out, r)
		}
	}
	return out
}

// byNameUID returns jobs sorted by name, then UID. Upstream walks Jobs in
// its informer's order, which is arbitrary; kubesem pins this one, so that
// events come out in an order independent of the input's.
func byNameUID(jobs []*job.Job) []*job.Job {
	out := slices.Clone(jobs)
	stable.Sort(out, compareNameUID)
	return out
}

func compareNameUID(a, b *job.Job) int {
	return cmp.Or(strings.Compare(a.Name, b.Name), strings.Compare(a.UID, b.UID))
}
