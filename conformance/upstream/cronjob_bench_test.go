package upstream_test

import (
	"testing"
	"time"

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
			ucj := toUpstreamCronJob(cj)
			sched, _ := upSchedule(ucj)
			s, _ := kcronjob.ParseSchedule(spec, nil, kcronjob.Options{})
			name := spec + "/" + down.name
			b.Run(name+"/kubesem", func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					_, _ = kcronjob.MostRecent(cj, s, now, true)
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
	ucj := toUpstreamCronJob(cj)
	sched, _ := upSchedule(ucj)
	s, _ := kcronjob.ParseSchedule(cj.Spec.Schedule, nil, kcronjob.Options{})
	b.Run("kubesem", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			_ = kcronjob.RequeueAfter(cj, s, now)
		}
	})
	b.Run("upstream", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			_ = upNextScheduleTimeDuration(ucj, now, sched)
		}
	})
}
