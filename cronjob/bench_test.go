package cronjob_test

import (
	"testing"
	"time"

	"github.com/kubesem/kubesem/cronjob"
	"github.com/kubesem/kubesem/job"
	"github.com/kubesem/kubesem/meta"
)

func benchCronJob() (*cronjob.CronJob, *cronjob.Schedule, time.Time) {
	cj := &cronjob.CronJob{}
	cj.Name, cj.Namespace, cj.UID = "hello", "default", "uid"
	cj.CreationTimestamp = time.Date(2024, 5, 20, 8, 29, 0, 0, time.UTC)
	cj.Spec.Schedule = "* * * * *"
	s, _ := cronjob.ParseSchedule(cj.Spec.Schedule, nil, cronjob.Options{})
	return cj, s, time.Date(2024, 5, 20, 10, 21, 0, 0, time.UTC)
}

func BenchmarkParseSchedule(b *testing.B) {
	b.ReportAllocs()
	ny := "America/New_York"
	for b.Loop() {
		_, _ = cronjob.ParseSchedule("30 6-16/4 * * 1-5", &ny, cronjob.Options{})
	}
}

func BenchmarkNext(b *testing.B) {
	for _, zone := range []string{"UTC", "America/New_York"} {
		s, _ := cronjob.ParseSchedule("30 6-16/4 * * 1-5", &zone, cronjob.Options{})
		t := time.Date(2024, 5, 20, 10, 21, 0, 0, time.UTC)
		b.Run(zone, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				_ = s.Next(t)
			}
		})
	}
}

// BenchmarkCount measures the exact missed count after a controller outage
// of 1 minute, 1 day, 1 year and 10 years, for regular, irregular and
// never-firing schedules in UTC and the daylight-saving zones of countZones.
func BenchmarkCount(b *testing.B) {
	after := time.Date(2024, 5, 20, 8, 29, 0, 0, time.UTC)
	downs := []struct {
		name string
		d    time.Duration
	}{{"1m", time.Minute}, {"1d", 24 * time.Hour}, {"1y", 365 * 24 * time.Hour}, {"10y", 3652 * 24 * time.Hour}}
	for _, zone := range countZones[:6] {
		for _, spec := range []string{"* * * * *", "30 6-16/4 * * 1-5", "0 0 31 2 *", "0 0 13 * 5"} {
			s, err := cronjob.ParseSchedule(spec, &zone, cronjob.Options{})
			if err != nil {
				b.Fatal(err)
			}
			for _, down := range downs {
				until := after.Add(down.d + 30*time.Second)
				b.Run(zone+"/"+spec+"/"+down.name, func(b *testing.B) {
					b.ReportAllocs()
					for b.Loop() {
						_ = s.Count(after, until)
					}
				})
			}
		}
	}
}

func BenchmarkMostRecent(b *testing.B) {
	cj, s, now := benchCronJob()
	b.ReportAllocs()
	for b.Loop() {
		_, _ = cronjob.MostRecent(cj, s, now, cronjob.WithDeadline)
	}
}

func BenchmarkScheduledTime(b *testing.B) {
	cj, s, now := benchCronJob()
	b.ReportAllocs()
	for b.Loop() {
		_, _ = cronjob.ScheduledTime(cj, s, now)
	}
}

func BenchmarkRequeueAfter(b *testing.B) {
	cj, s, now := benchCronJob()
	b.ReportAllocs()
	for b.Loop() {
		_, _ = cronjob.RequeueAfter(cj, s, now)
	}
}

func BenchmarkIsTooLate(b *testing.B) {
	cj, _, now := benchCronJob()
	d := int64(200)
	cj.Spec.StartingDeadlineSeconds = &d
	b.ReportAllocs()
	for b.Loop() {
		_ = cronjob.IsTooLate(cj, now.Add(-time.Minute), now)
	}
}

func BenchmarkJobName(b *testing.B) {
	_, _, now := benchCronJob()
	b.ReportAllocs()
	for b.Loop() {
		_ = cronjob.JobName("hello", now)
	}
}

func BenchmarkJobFromTemplate(b *testing.B) {
	cj, _, now := benchCronJob()
	b.ReportAllocs()
	for b.Loop() {
		_, _ = cronjob.JobFromTemplate(cj, now, cronjob.Options{})
	}
}

func benchJobs() []*job.Job {
	var jobs []*job.Job
	for i := range 8 {
		st := time.Date(2024, 5, 20, 8, i, 0, 0, time.UTC)
		j := &job.Job{ObjectMeta: meta.ObjectMeta{Name: "hello-" + string(rune('a'+i)), UID: string(rune('a' + i)), Namespace: "default"}}
		j.Status.StartTime = &st
		j.Status.Conditions = []job.Condition{{Type: job.Complete, Status: meta.ConditionTrue}}
		jobs = append(jobs, j)
	}
	return jobs
}

func BenchmarkByStartTime(b *testing.B) {
	jobs := benchJobs()
	b.ReportAllocs()
	for b.Loop() {
		_ = cronjob.ByStartTime(jobs)
	}
}

func BenchmarkExcessHistory(b *testing.B) {
	cj, _, _ := benchCronJob()
	jobs := benchJobs()
	b.ReportAllocs()
	for b.Loop() {
		_ = cronjob.ExcessHistory(cj, jobs)
	}
}

func BenchmarkValidate(b *testing.B) {
	cj, _, _ := benchCronJob()
	b.ReportAllocs()
	for b.Loop() {
		_ = cronjob.Validate(cj, nil)
	}
}

func BenchmarkStep(b *testing.B) {
	cj, _, now := benchCronJob()
	jobs := benchJobs()
	b.ReportAllocs()
	for b.Loop() {
		_, _ = cronjob.Step(cj, jobs, now, cronjob.Options{})
	}
}

func BenchmarkReplay(b *testing.B) {
	cj, _, now := benchCronJob()
	b.ReportAllocs()
	for b.Loop() {
		_, _ = cronjob.Replay(cj, now, now.Add(time.Hour), 90*time.Second, nil, cronjob.Options{})
	}
}

// BenchmarkFarInstants times the inputs of issue 19 (each took from 30 s
// to many minutes when the stepping crawled through a zone's era of local
// mean time) and their year-9999 counterparts: Count every 30 minutes in
// New York from 0001-01-01, a Step of a CronJob created in 1850 in New
// York, and a Step of a Lord Howe CronJob without creationTimestamp.
func BenchmarkFarInstants(b *testing.B) {
	ny, lh := "America/New_York", "Australia/Lord_Howe"
	now := time.Date(2024, 11, 4, 5, 0, 0, 0, time.UTC)
	end := time.Date(9999, 12, 31, 23, 59, 59, 0, time.UTC)
	step := func(zone string, created time.Time) *cronjob.CronJob {
		cj := &cronjob.CronJob{}
		cj.Name, cj.Namespace = "c", "default"
		cj.Spec.Schedule, cj.Spec.TimeZone, cj.CreationTimestamp = "*/30 * * * *", &zone, created
		return cj
	}
	s, _ := cronjob.ParseSchedule("*/30 * * * *", &ny, cronjob.Options{})
	for _, until := range []time.Time{now, end} {
		b.Run("Count/New_York/0001-"+until.Format("2006"), func(b *testing.B) {
			for b.Loop() {
				_ = s.Count(time.Time{}, until)
			}
		})
	}
	for _, c := range []struct {
		name string
		cj   *cronjob.CronJob
	}{
		{"Step/New_York/1850-", step(ny, time.Date(1850, 1, 1, 0, 0, 0, 0, time.UTC))},
		{"Step/Lord_Howe/0001-", step(lh, time.Time{})},
	} {
		for _, at := range []time.Time{now, end} {
			b.Run(c.name+at.Format("2006"), func(b *testing.B) {
				for b.Loop() {
					if _, err := cronjob.Step(c.cj, nil, at, cronjob.Options{}); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
