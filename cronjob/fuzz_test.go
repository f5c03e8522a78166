package cronjob_test

import (
	"errors"
	"testing"
	"time"

	"github.com/kubesem/kubesem/cronjob"
	"github.com/kubesem/kubesem/field"
	"github.com/kubesem/kubesem/internal/fuzzlimit"
)

func FuzzCountMonotone(f *testing.F)         { fuzzlimit.Rapid(f, checkCountMonotone) }
func FuzzMostRecentNotAfterNow(f *testing.F) { fuzzlimit.Rapid(f, checkMostRecentNotAfterNow) }
func FuzzStepOrderIndependent(f *testing.F)  { fuzzlimit.Rapid(f, checkStepOrderIndependent) }
func FuzzCountMatchesStepping(f *testing.F)  { fuzzlimit.Rapid(f, checkCountMatchesStepping) }

// FuzzParseSchedule: any schedule and zone parses or fails with a
// *field.Error, and a parsed schedule answers Next and Count without
// panicking.
func FuzzParseSchedule(f *testing.F) {
	for _, s := range []string{"* * * * *", "TZ=0", "TZ=", "TZ=UTC", "CRON_TZ=Local 0 * * * *", "@every 1h", "@every -1s", "0 0 31 2 *", "5-60 * * * *", " @daily", "*/0 * * * *"} {
		f.Add(s, "America/New_York", int64(0))
		f.Add(s, "", int64(1<<40))
	}
	f.Fuzz(func(t *testing.T, spec, zone string, at int64) {
		var tz *string
		if zone != "" {
			tz = &zone
		}
		s, err := cronjob.ParseSchedule(spec, tz, cronjob.Options{})
		if err != nil {
			var fe *field.Error
			if !errors.As(err, &fe) {
				t.Fatalf("ParseSchedule(%q, %q) error %v is not a *field.Error", spec, zone, err)
			}
			return
		}
		now := time.Unix(at%(1<<36), 0)
		_ = s.Next(now)
		_ = s.Count(now, now.Add(400*24*time.Hour))
	})
}

// FuzzStep: Step never panics on any schedule, zone, deadline and times.
func FuzzStep(f *testing.F) {
	f.Add("* * * * *", "UTC", int64(200), int64(0), int64(7000), "Forbid")
	f.Add("TZ=0", "", int64(-1), int64(0), int64(1<<40), "Replace")
	f.Fuzz(func(t *testing.T, spec, zone string, sds, created, now int64, policy string) {
		cj := &cronjob.CronJob{}
		cj.Name = "cj"
		cj.Spec.Schedule = spec
		cj.Spec.ConcurrencyPolicy = cronjob.ConcurrencyPolicy(policy)
		if zone != "" {
			cj.Spec.TimeZone = &zone
		}
		if sds >= 0 {
			cj.Spec.StartingDeadlineSeconds = &sds
		}
		cj.CreationTimestamp = time.Unix(created%(1<<36), 0)
		if _, err := cronjob.Step(cj, nil, time.Unix(now%(1<<36), 0), cronjob.Options{}); err != nil {
			t.Fatalf("Step: %v", err)
		}
	})
}
