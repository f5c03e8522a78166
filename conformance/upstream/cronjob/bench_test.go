package cronjob_test

import (
	"testing"
	"time"

	"github.com/kubesem/kubesem/conformance/upstream/internal/difftest"
	kcronjob "github.com/kubesem/kubesem/cronjob"
)

// BenchmarkCronJobMostRecent compares MostRecent with upstream's
// mostRecentScheduleTime after a controller outage of each length, for a
// regular and an irregular schedule. "count" is the exact missed count.
func BenchmarkCronJobMostRecent(b *testing.B) {
	last := time.Date(2024, 5, 20, 8, 29, 0, 0, time.UTC)
	for _, spec := range []string{"* * * * *", "30 6-16/4 * * 1-5"} {
		for _, down := range []struct {
			name string
			d    time.Duration
		}{{"1m", time.Minute}, {"1d", 24 * time.Hour}, {"1y", 365 * 24 * time.Hour}, {"10y", 3652 * 24 * time.Hour}} {
			cj := &kcronjob.CronJob{}
			cj.CreationTimestamp, cj.Spec.Schedule = last, spec
			cj.Status.LastScheduleTime = &last
			now := last.Add(down.d + 30*time.Second)
			ucj := difftest.UpCronJob(cj)
			sched, _ := upSchedule(ucj)
			s, _ := kcronjob.ParseSchedule(spec, nil, kcronjob.Options{})
			name := spec + "/" + down.name
			b.Run(name+"/kubesem", func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					_, _ = kcronjob.MostRecent(cj, s, now, kcronjob.WithDeadline)
				}
			})
			b.Run(name+"/upstream", func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					_, _, _, _ = upMostRecentScheduleTime(ucj, now, sched, true)
				}
			})
			b.Run(name+"/count", func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					_ = s.Count(last, now)
				}
			})
		}
	}
}

// BenchmarkCronJobRequeueAfter compares RequeueAfter with upstream's
// nextScheduleTimeDuration.
func BenchmarkCronJobRequeueAfter(b *testing.B) {
	last := time.Date(2024, 5, 20, 8, 29, 0, 0, time.UTC)
	cj := &kcronjob.CronJob{}
	cj.CreationTimestamp, cj.Spec.Schedule = last, "*/5 * * * *"
	cj.Status.LastScheduleTime = &last
	now := last.Add(3 * time.Hour)
	ucj := difftest.UpCronJob(cj)
	sched, _ := upSchedule(ucj)
	s, _ := kcronjob.ParseSchedule(cj.Spec.Schedule, nil, kcronjob.Options{})
	b.Run("kubesem", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			_, _ = kcronjob.RequeueAfter(cj, s, now)
		}
	})
	b.Run("upstream", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			_ = upNextScheduleTimeDuration(ucj, now, sched)
		}
	})
}

// BenchmarkCronJobCount measures kubesem's exact missed count, which
// upstream does not compute (it steps or estimates), after an outage of
// each length in UTC and in zones with daylight-saving changes, for regular,
// irregular and never-firing schedules. "mostRecent" runs MostRecent, which
// includes the count, beside upstream's mostRecentScheduleTime in the same
// zone.
func BenchmarkCronJobCount(b *testing.B) {
	last := time.Date(2024, 5, 20, 8, 29, 0, 0, time.UTC)
	zones := []string{"UTC", "America/New_York", "Europe/Berlin", "Australia/Sydney", "Australia/Lord_Howe", "America/Santiago"}
	for _, zone := range zones {
		for _, spec := range []string{"* * * * *", "30 6-16/4 * * 1-5", "0 0 31 2 *", "0 0 13 * 5"} {
			for _, down := range []struct {
				name string
				d    time.Duration
			}{{"1m", time.Minute}, {"1d", 24 * time.Hour}, {"1y", 365 * 24 * time.Hour}, {"10y", 3652 * 24 * time.Hour}} {
				s, err := kcronjob.ParseSchedule(spec, &zone, kcronjob.Options{})
				if err != nil {
					b.Fatal(err)
				}
				now := last.Add(down.d + 30*time.Second)
				name := zone + "/" + spec + "/" + down.name
				b.Run(name+"/count", func(b *testing.B) {
					b.ReportAllocs()
					for b.Loop() {
						_ = s.Count(last, now)
					}
				})
				if spec == "0 0 31 2 *" {
					continue // both reject a schedule that never fires
				}
				cj := &kcronjob.CronJob{}
				cj.CreationTimestamp, cj.Spec.Schedule, cj.Spec.TimeZone = last, spec, &zone
				cj.Status.LastScheduleTime = &last
				ucj := difftest.UpCronJob(cj)
				sched, err := upSchedule(ucj)
				if err != nil {
					b.Fatal(err)
				}
				b.Run(name+"/mostRecent/kubesem", func(b *testing.B) {
					b.ReportAllocs()
					for b.Loop() {
						_, _ = kcronjob.MostRecent(cj, s, now, kcronjob.WithDeadline)
					}
				})
				b.Run(name+"/mostRecent/upstream", func(b *testing.B) {
					b.ReportAllocs()
					for b.Loop() {
						_, _, _, _ = upMostRecentScheduleTime(ucj, now, sched, true)
					}
				})
			}
		}
	}
}
