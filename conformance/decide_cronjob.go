package conformance

import (
	"time"

	"github.com/kubesem/kubesem/cronjob"
	"github.com/kubesem/kubesem/job"
)

// cronjobDecisions returns the cronjob decisions the vectors in testdata/cronjob name.
// Shapes are documented in testdata/cronjob/README.md.
func cronjobLegacy() map[string]decider {
	type scheduleIn struct {
		Schedule string    `json:"schedule"`
		TimeZone *string   `json:"timeZone"`
		After    time.Time `json:"after"`
		Until    time.Time `json:"until"`
	}
	type cronJobIn struct {
		CronJob      cronjob.CronJob `json:"cronJob"`
		Now          time.Time       `json:"now"`
		WithDeadline bool            `json:"withDeadline"`
		Scheduled    time.Time       `json:"scheduled"`
	}
	parse := func(cj *cronjob.CronJob, opts cronjob.Options) (*cronjob.Schedule, error) {
		return cronjob.ParseSchedule(cj.Spec.Schedule, cj.Spec.TimeZone, opts)
	}
	return map[string]decider{
		"cronjob.Next": rule(func(in scheduleIn, opts cronjob.Options) (any, error) {
			s, err := cronjob.ParseSchedule(in.Schedule, in.TimeZone, opts)
			if err != nil {
				return nil, err
			}
			return map[string]any{"next": cronTime(s.Next(in.After))}, nil
		}),
		"cronjob.Count": rule(func(in scheduleIn, opts cronjob.Options) (any, error) {
			s, err := cronjob.ParseSchedule(in.Schedule, in.TimeZone, opts)
			if err != nil {
				return nil, err
			}
			return map[string]any{"count": s.Count(in.After, in.Until)}, nil
		}),
		"cronjob.MostRecent": rule(func(in cronJobIn, opts cronjob.Options) (any, error) {
			s, err := parse(&in.CronJob, opts)
			if err != nil {
				return nil, err
			}
			r, err := cronjob.MostRecent(&in.CronJob, s, in.Now, in.WithDeadline)
			if err != nil {
				return nil, err
			}
			return map[string]any{
				"earliest": r.Earliest, "mostRecent": cronTime(r.Time), "missed": r.Missed.String(),
				"estimate": r.Estimate, "count": r.Count,
			}, nil
		}),
		"cronjob.ScheduledTime": rule(func(in cronJobIn, opts cronjob.Options) (any, error) {
			s, err := parse(&in.CronJob, opts)
			if err != nil {
				return nil, err
			}
			r, err := cronjob.ScheduledTime(&in.CronJob, s, in.Now)
			if err != nil {
				return nil, err
			}
			return map[string]any{"scheduledTime": cronTime(r.Time), "missed": r.Missed.String()}, nil
		}),
		"cronjob.RequeueAfter": rule(func(in cronJobIn, opts cronjob.Options) (any, error) {
			s, err := parse(&in.CronJob, opts)
			if err != nil {
				return nil, err
			}
			return map[string]any{"requeueAfter": cronjob.RequeueAfter(&in.CronJob, s, in.Now).String()}, nil
		}),
		"cronjob.IsTooLate": rule(func(in cronJobIn, _ cronjob.Options) (any, error) {
			return map[string]any{"tooLate": cronjob.IsTooLate(&in.CronJob, in.Scheduled, in.Now)}, nil
		}),
		"cronjob.JobName": rule(func(in struct {
			Name      string    `json:"name"`
			Scheduled time.Time `json:"scheduled"`
		}, _ struct{}) (any, error) {
			return map[string]any{"name": cronjob.JobName(in.Name, in.Scheduled)}, nil
		}),
		"cronjob.JobFromTemplate": rule(func(in cronJobIn, opts cronjob.Options) (any, error) {
			j, err := cronjob.JobFromTemplate(&in.CronJob, in.Scheduled, opts)
			if err != nil {
				return nil, err
			}
			return map[string]any{"metadata": j.ObjectMeta}, nil
		}),
		"cronjob.ByStartTime": rule(func(in struct {
			Jobs []*job.Job `json:"jobs"`
		}, _ struct{}) (any, error) {
			return map[string]any{"names": cronJobNames(cronjob.ByStartTime(in.Jobs))}, nil
		}),
		"cronjob.ExcessHistory": rule(func(in struct {
			CronJob cronjob.CronJob `json:"cronJob"`
			Jobs    []*job.Job      `json:"jobs"`
		}, _ struct{}) (any, error) {
			return map[string]any{"delete": cronJobNames(cronjob.ExcessHistory(&in.CronJob, in.Jobs))}, nil
		}),
		"cronjob.Validate": rule(func(in struct {
			CronJob cronjob.CronJob  `json:"cronJob"`
			Old     *cronjob.CronJob `json:"old"`
		}, _ struct{}) (any, error) {
			if err := cronjob.Validate(&in.CronJob, in.Old); err != nil {
				return nil, err
			}
			return map[string]any{"valid": true}, nil
		}),
		"cronjob.Step": rule(func(in struct {
			CronJob cronjob.CronJob `json:"cronJob"`
			Jobs    []*job.Job      `json:"jobs"`
			Now     time.Time       `json:"now"`
		}, opts cronjob.Options) (any, error) {
			p, err := cronjob.Step(&in.CronJob, in.Jobs, in.Now, opts)
			if err != nil {
				return nil, err
			}
			return cronStepOutput(p), nil
		}),
	}
}

// cronStepOutput is the JSON shape of a cronjob Plan.
func cronStepOutput(p cronjob.Plan) map[string]any {
	var create any
	if p.Create != nil {
		create = map[string]any{
			"name":               p.Create.Name,
			"scheduledTimestamp": p.Create.Annotations[cronjob.ScheduledTimestampAnnotation],
		}
	}
	deletes := []string{}
	for _, d := range p.Delete {
		deletes = append(deletes, d.Name)
	}
	active := []string{}
	for _, r := range p.Status.Active {
		active = append(active, r.Name)
	}
	events := []string{}
	for _, e := range p.Events {
		kind := "Normal "
		if e.Warning {
			kind = "Warning "
		}
		events = append(events, kind+e.Reason)
	}
	out := map[string]any{
		"reason": string(p.Reason), "create": create, "delete": deletes, "active": active,
		"lastScheduleTime": cronTimePtr(p.Status.LastScheduleTime), "lastSuccessfulTime": cronTimePtr(p.Status.LastSuccessfulTime),
		"updateStatus": p.UpdateStatus, "requeue": p.Requeue, "events": events,
		"missed": p.Missed.String(), "missedCount": p.MissedCount,
	}
	if p.Requeue {
		out["requeueAfter"] = p.RequeueAfter.String()
	}
	return out
}

func cronTime(t time.Time) any {
	if t.IsZero() {
		return nil
	}
	return t.Format(time.RFC3339Nano)
}

func cronTimePtr(t *time.Time) any {
	if t == nil {
		return nil
	}
	return cronTime(*t)
}

func cronJobNames(jobs []*job.Job) []string {
	out := []string{}
	for _, j := range jobs {
		if j != nil {
			out = append(out, j.Name)
		}
	}
	return out
}

// cronjobDecisions returns the cronjob decisions.
func cronjobDecisions() []Decision { return legacyTable(cronjobLegacy()) }
