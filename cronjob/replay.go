package cronjob

import (
	"strconv"
	"time"

	"github.com/kubesem/kubesem/field"
	"github.com/kubesem/kubesem/job"
	"github.com/kubesem/kubesem/meta"
	"github.com/kubesem/kubesem/plan"
)

// Outcome is what became of one start time in a [Replay].
type Outcome string

// Outcomes of a start time.
const (
	Started    Outcome = "Started"    // a Job was created for it
	Replaced   Outcome = "Replaced"   // a Job was created after deleting running ones (Replace)
	Skipped    Outcome = "Skipped"    // due while a Job ran under Forbid
	NotStarted Outcome = "NotStarted" // never started: controller down, past the deadline, or a later time won
)

// Slot is one start time of a [Replay] and its outcome.
type Slot struct {
	Time    time.Time `json:"time"`
	Outcome Outcome   `json:"outcome"`
	Job     string    `json:"job,omitempty"`
	// StartedAt is when the Job for this start time was created: Time,
	// or later when the controller was down or a Forbid policy held it
	// until the running Job finished. Zero when no Job started.
	StartedAt time.Time `json:"startedAt,omitzero"`
}

// Window is a stretch of time, start inclusive, end exclusive.
type Window struct {
	Start time.Time `json:"start"`
	End   time.Time `json:"end"`
}

// MaxReplaySlots bounds how many start times a [Replay] reports; a window
// holding more is cut after the first MaxReplaySlots (callers say so).
const MaxReplaySlots = 10000

// Replay runs the controller over (from, to + RequeueDelta] and reports, for every start
// time in that window, whether a Job was started, started by replacing a
// running one, skipped (Forbid) or not started (NotStarted). The controller syncs when
// [Step] asks to be requeued and when one of its Jobs finishes; while
// down (outage) it does nothing and it syncs once when it comes back. Every
// Job runs for jobDuration and then succeeds; Jobs get UIDs "replay-<n>".
// The CronJob is taken as it is at from (its status included); it is not
// modified. At most [MaxReplaySlots] start times are reported.
//
// It returns a *field.Error at "to" (ErrInvalid) when to is before from,
// and Step's errors.
func Replay(cj *CronJob, from, to time.Time, jobDuration time.Duration, outage *Window, opts Options) ([]Slot, error) {
	if cj == nil {
		return nil, field.New("cronJob", "", field.ErrRequired)
	}
	if to.Before(from) {
		return nil, field.New("to", to.Format(time.RFC3339), field.ErrInvalid)
	}
	c := *cj
	c.Status = cloneStatus(cj.Status)
	var slots []Slot
	index := map[int64]int{}
	if s, err := ParseSchedule(c.Spec.Schedule, c.Spec.TimeZone, opts); err == nil {
		for t := s.Next(from); !t.IsZero() && !t.After(to) && len(slots) < MaxReplaySlots; t = s.Next(t) {
			index[t.Unix()] = len(slots)
			slots = append(slots, Slot{Time: t, Outcome: NotStarted})
		}
	}
	var jobs []*job.Job
	finish := map[string]time.Time{}
	uid := 0
	now := from
	// The controller runs until the requeue after the last start time, so
	// that a start time at the very end of the window is acted on.
	end := to.Add(RequeueDelta)
	for steps := 0; !now.After(end) && steps < 4*MaxReplaySlots+100; steps++ {
		if outage != nil && !now.Before(outage.Start) && now.Before(outage.End) {
			now = outage.End
			continue
		}
		current := jobsAt(jobs, finish, now)
		p, err := Step(&c, current, now, opts)
		if err != nil {
			return nil, err
		}
		for _, d := range p.Delete {
			jobs = dropJob(jobs, d.UID)
		}
		if created := p.Job(); created != nil && p.Outcome == ReasonCreated {
			uid++
			j := *created
			j.UID = "replay-" + strconv.Itoa(uid)
			start := now
			j.Status.StartTime = &start
			jobs = append(jobs, &j)
			finish[j.UID] = now.Add(jobDuration)
			p.Status.Active[len(p.Status.Active)-1].UID = j.UID
			if i, ok := index[p.ScheduledTime.Unix()]; ok {
				slots[i].Outcome, slots[i].Job, slots[i].StartedAt = Started, j.Name, now
				if hasReplace(p.Delete) {
					slots[i].Outcome = Replaced
				}
			}
		} else if p.Outcome == ReasonForbidden {
			if i, ok := index[p.ScheduledTime.Unix()]; ok {
				slots[i].Outcome = Skipped
			}
		}
		c.Status = p.Status
		next := end.Add(time.Nanosecond)
		if r, ok := plan.First(p.Requeue); ok {
			next = now.Add(max(r.After, time.Millisecond))
		}
		for _, j := range jobs {
			if f := finish[j.UID]; f.After(now) && f.Before(next) {
				next = f
			}
		}
		now = next
	}
	return slots, nil
}

// jobsAt returns the Jobs as they stand at now: those whose run has ended
// carry a True Complete condition and their completion time.
func jobsAt(jobs []*job.Job, finish map[string]time.Time, now time.Time) []*job.Job {
	out := make([]*job.Job, 0, len(jobs))
	for _, j := range jobs {
		if f := finish[j.UID]; !f.After(now) && j.Status.CompletionTime == nil {
			done := *j
			ct := f
			done.Status.CompletionTime = &ct
			done.Status.Conditions = []job.Condition{{Type: job.Complete, Status: meta.ConditionTrue}}
			*j = done
		}
		out = append(out, j)
	}
	return out
}

func dropJob(jobs []*job.Job, uid string) []*job.Job {
	out := jobs[:0:0]
	for _, j := range jobs {
		if j.UID != uid {
			out = append(out, j)
		}
	}
	return out
}

func hasReplace(ds []plan.Deletion) bool {
	for _, d := range ds {
		if d.Reason == ReasonReplace {
			return true
		}
	}
	return false
}
