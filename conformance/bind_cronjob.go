package conformance

import (
	"fmt"
	"strings"
	"time"

	"github.com/kubesem/kubesem/cronjob"
	"github.com/kubesem/kubesem/field"
	"github.com/kubesem/kubesem/job"
	"github.com/kubesem/kubesem/meta"
)

type (
	cronScheduleIn struct {
		Schedule string    `json:"schedule"`
		TimeZone *string   `json:"timeZone"`
		After    time.Time `json:"after"`
		Until    time.Time `json:"until,omitzero"`
	}
	cronJobIn struct {
		CronJob      cronjob.CronJob `json:"cronJob"`
		Now          time.Time       `json:"now,omitzero"`
		WithDeadline bool            `json:"withDeadline,omitempty"`
		Scheduled    time.Time       `json:"scheduled,omitzero"`
	}
	cronNextOut struct {
		Next *time.Time `json:"next"`
	}
	cronCountOut struct {
		Count int64 `json:"count"`
	}
	cronRecentOut struct {
		Earliest   time.Time      `json:"earliest"`
		MostRecent *time.Time     `json:"mostRecent"`
		Missed     cronjob.Missed `json:"missed"`
		Estimate   int64          `json:"estimate"`
		Count      int64          `json:"count"`
	}
	cronScheduledOut struct {
		ScheduledTime *time.Time     `json:"scheduledTime"`
		Missed        cronjob.Missed `json:"missed"`
	}
	cronRequeueOut struct {
		RequeueAfter time.Duration `json:"requeueAfter"`
	}
	cronTooLateOut struct {
		TooLate bool `json:"tooLate"`
	}
	cronJobNameIn struct {
		Name      string    `json:"name"`
		Scheduled time.Time `json:"scheduled"`
	}
	cronJobNameOut struct {
		Name string `json:"name"`
	}
	cronJobMetaOut struct {
		Metadata meta.ObjectMeta `json:"metadata"`
	}
	cronJobsIn struct {
		Jobs []*job.Job `json:"jobs"`
	}
	cronNamesOut struct {
		Names []string `json:"names"`
	}
	cronJobAndJobsIn struct {
		CronJob cronjob.CronJob `json:"cronJob"`
		Jobs    []*job.Job      `json:"jobs,omitempty"`
		Now     time.Time       `json:"now,omitzero"`
	}
	// cronStepIn is Step's input: the CronJob is not validated first,
	// because the controller itself answers a stored CronJob whose
	// schedule no longer parses (an UnparseableSchedule warning, no
	// requeue), as upstream's sync table shows.
	cronStepIn struct {
		CronJob cronjob.CronJob `json:"cronJob"`
		Jobs    []*job.Job      `json:"jobs,omitempty"`
		Now     time.Time       `json:"now"`
	}
	cronDeleteOut struct {
		Delete []string `json:"delete"`
	}
	cronValidateIn struct {
		CronJob cronjob.CronJob  `json:"cronJob"`
		Old     *cronjob.CronJob `json:"old"`
	}
	validOut struct {
		Valid bool `json:"valid"`
	}
)

// timeOrNil returns nil for the zero time.
func timeOrNil(t time.Time) *time.Time {
	if t.IsZero() {
		return nil
	}
	return &t
}

func jobNames(jobs []*job.Job) []string {
	out := []string{}
	for _, j := range jobs {
		if j != nil {
			out = append(out, j.Name)
		}
	}
	return out
}

func cronSchedule(cj *cronjob.CronJob, opts cronjob.Options) (*cronjob.Schedule, error) {
	return cronjob.ParseSchedule(cj.Spec.Schedule, cj.Spec.TimeZone, opts)
}

// cronjobDecisions returns the cronjob decisions the vectors in testdata/cronjob name.
// Shapes are documented in testdata/cronjob/README.md.
func cronjobDecisions() []Decision {
	return []Decision{
		Bind("cronjob.Next", func(in cronScheduleIn, opts cronjob.Options) (cronNextOut, error) {
			s, err := in.parse(opts)
			if err != nil {
				return cronNextOut{}, err
			}
			next, err := s.TryNext(in.After)
			if err != nil {
				return cronNextOut{}, field.New("schedule", in.Schedule, fmt.Errorf("%w: %w", field.ErrUnsupported, err))
			}
			if next.Year() > 9999 {
				// robfig/cron answers a time RFC 3339 cannot write.
				return cronNextOut{}, field.New("after", in.After.Format(time.RFC3339Nano), fmt.Errorf("%w: the next start time, %s, is after the year 9999, which RFC 3339 cannot write", field.ErrUnsupported, next.UTC().Format("2006-01-02T15:04:05Z")))
			}
			return cronNextOut{timeOrNil(next)}, nil
		}),
		Bind("cronjob.Count", func(in cronScheduleIn, opts cronjob.Options) (cronCountOut, error) {
			s, err := in.parse(opts)
			if err != nil {
				return cronCountOut{}, err
			}
			return cronCountOut{s.Count(in.After, in.Until)}, nil
		}),
		Bind("cronjob.MostRecent", func(in cronJobIn, opts cronjob.Options) (cronRecentOut, error) {
			s, err := cronSchedule(&in.CronJob, opts)
			if err != nil {
				return cronRecentOut{}, err
			}
			r, err := cronjob.MostRecent(&in.CronJob, s, in.Now, cronjob.Deadline(in.WithDeadline))
			if err != nil {
				return cronRecentOut{}, err
			}
			return cronRecentOut{r.Earliest, timeOrNil(r.Time), r.Missed, r.Estimate, r.Count}, nil
		}),
		Bind("cronjob.ScheduledTime", func(in cronJobIn, opts cronjob.Options) (cronScheduledOut, error) {
			s, err := cronSchedule(&in.CronJob, opts)
			if err != nil {
				return cronScheduledOut{}, err
			}
			r, err := cronjob.ScheduledTime(&in.CronJob, s, in.Now)
			if err != nil {
				return cronScheduledOut{}, err
			}
			return cronScheduledOut{timeOrNil(r.Time), r.Missed}, nil
		}),
		Bind("cronjob.RequeueAfter", func(in cronJobIn, opts cronjob.Options) (cronRequeueOut, error) {
			s, err := cronSchedule(&in.CronJob, opts)
			if err != nil {
				return cronRequeueOut{}, err
			}
			after, err := cronjob.RequeueAfter(&in.CronJob, s, in.Now)
			return cronRequeueOut{after}, err
		}),
		Bind("cronjob.IsTooLate", func(in cronJobIn, _ cronjob.Options) (cronTooLateOut, error) {
			return cronTooLateOut{cronjob.IsTooLate(&in.CronJob, in.Scheduled, in.Now)}, nil
		}),
		Bind("cronjob.JobName", func(in cronJobNameIn, _ struct{}) (cronJobNameOut, error) {
			return cronJobNameOut{cronjob.JobName(in.Name, in.Scheduled)}, nil
		}),
		Bind("cronjob.JobFromTemplate", func(in cronJobIn, opts cronjob.Options) (cronJobMetaOut, error) {
			j, err := cronjob.JobFromTemplate(&in.CronJob, in.Scheduled, opts)
			if err != nil {
				return cronJobMetaOut{}, err
			}
			return cronJobMetaOut{j.ObjectMeta}, nil
		}),
		Bind("cronjob.ByStartTime", func(in cronJobsIn, _ struct{}) (cronNamesOut, error) {
			return cronNamesOut{jobNames(cronjob.ByStartTime(in.Jobs))}, nil
		}),
		Bind("cronjob.ExcessHistory", func(in cronJobAndJobsIn, _ struct{}) (cronDeleteOut, error) {
			return cronDeleteOut{jobNames(cronjob.ExcessHistory(&in.CronJob, in.Jobs))}, nil
		}),
		Bind("cronjob.Validate", func(in cronValidateIn, _ struct{}) (validOut, error) {
			if err := cronjob.Validate(&in.CronJob, in.Old); err != nil {
				return validOut{}, field.Under("cronJob", err)
			}
			return validOut{true}, nil
		}),
		Bind("cronjob.Step", func(in cronStepIn, opts cronjob.Options) (cronjob.Plan, error) {
			return cronjob.Step(&in.CronJob, in.Jobs, in.Now, opts)
		}),
	}
}

// A CronJob in a decision's input is a stored object: it is validated as
// an update against itself, so that what the API server keeps (a "TZ="
// schedule created before v1.27) is accepted and what it rejects is an
// error.
func (in *cronJobIn) validate() error { return cronjob.Validate(&in.CronJob, &in.CronJob) }

// parse parses the schedule of a schedule-only input; errors name the
// input's own keys (schedule, timeZone).
func (in *cronScheduleIn) parse(opts cronjob.Options) (*cronjob.Schedule, error) {
	s, err := cronjob.ParseSchedule(in.Schedule, in.TimeZone, opts)
	if fe, ok := err.(*field.Error); ok {
		return nil, &field.Error{Path: strings.TrimPrefix(fe.Path, "spec."), Value: fe.Value, Err: fe.Err}
	}
	return s, err
}
func (in *cronJobsIn) validate() error { return vJobs("jobs", in.Jobs) }
func (in *cronJobAndJobsIn) validate() error {
	return first(field.Under("cronJob", cronjob.Validate(&in.CronJob, &in.CronJob)), vJobs("jobs", in.Jobs))
}

// vJobs validates each Job of a list, naming it by index under key.
func vJobs(key string, jobs []*job.Job) error {
	for i, j := range jobs {
		if j == nil {
			return field.New(fmt.Sprintf("%s[%d]", key, i), "", field.ErrRequired)
		}
		if err := job.Validate(j, nil); err != nil {
			return field.Under(fmt.Sprintf("%s[%d]", key, i), err)
		}
	}
	return nil
}
