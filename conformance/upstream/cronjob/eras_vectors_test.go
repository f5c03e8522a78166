package cronjob_test

import (
	"testing"
	"time"

	"github.com/kubesem/kubesem/conformance/upstream/internal/difftest"
	kcronjob "github.com/kubesem/kubesem/cronjob"
)

// erasVectors are the vectors of testdata/cronjob/eras.json: CronJobs and
// schedules in the eras where stepping every start time is slow (issue 19):
// without creationTimestamp (0001-01-01T00:00:00Z), created in 1850,
// across a zone's first change of offset (local mean time before it),
// and in the year 9999. Every want is upstream's: planWant for Step, its
// mostRecentScheduleTime and nextScheduleTimeDuration through linkname,
// and robfig/cron's Next, stepped, for Next and Count.
func erasVectors(t *testing.T) []vec {
	const src = "issue:19 (kubesem) CronJob time computations bounded for any instant in any zone; wants from upstream v1.36.3"
	ny, lh, utc := "America/New_York", "Australia/Lord_Howe", "UTC"
	mk := func(name, schedule string, tz *string, created time.Time) *kcronjob.CronJob {
		c := &kcronjob.CronJob{}
		c.Name, c.Namespace, c.UID = name, "default", "cj-uid"
		c.CreationTimestamp = created
		c.Spec.Schedule = schedule
		c.Spec.TimeZone = tz
		return c
	}
	y1850 := rfc("1850-01-01T00:00:00Z")
	now2024 := rfc("2024-11-04T05:00:00Z")
	end := rfc("9999-12-31T23:59:59Z")
	var vs []vec
	step := func(name string, cj *kcronjob.CronJob, now time.Time) {
		vs = append(vs, vec{Decision: "cronjob.Step", Name: "eras/" + name, Source: src,
			Input: stepInput(cj, nil, now), Want: stepPlanWant(t, cj, nil, now, false)})
	}
	step("New York created 1850, daily: upstream jumps from its estimate", mk("daily", "0 3 * * *", &ny, y1850), now2024)
	step("New York without creationTimestamp, yearly: upstream steps from the year 293", mk("yearly", "0 0 1 1 *", &ny, time.Time{}), now2024)
	step("Lord Howe without creationTimestamp, yearly", mk("yearly", "0 0 1 1 *", &lh, time.Time{}), now2024)
	step("UTC without creationTimestamp, yearly, at the end of 9999", mk("yearly", "0 0 1 1 *", &utc, time.Time{}), end)
	step("Lord Howe created in 9999, every 30 minutes, at the end of 9999", mk("often", "*/30 * * * *", &lh, rfc("9999-06-01T00:00:00Z")), end)
	step("New York across its first change of offset, every 30 minutes", mk("often", "*/30 * * * *", &ny, rfc("1883-11-18T12:00:00Z")), rfc("1883-11-18T20:00:00Z"))
	step("New York in local mean time, every 30 minutes, first start passed over", mk("often", "*/30 * * * *", &ny, rfc("1850-01-01T00:10:00Z")), rfc("1850-01-01T01:10:00Z"))

	// MostRecent and RequeueAfter through upstream's helpers.
	for _, c := range []struct {
		name string
		cj   *kcronjob.CronJob
		now  time.Time
	}{
		{"New York without creationTimestamp, yearly", mk("yearly", "0 0 1 1 *", &ny, time.Time{}), now2024},
		{"UTC without creationTimestamp, every 30 minutes, now in the year 200 (upstream jumps)", mk("often", "*/30 * * * *", &utc, time.Time{}), rfc("0200-03-01T10:20:00Z")},
		{"New York created 1850, every 30 minutes", mk("often", "*/30 * * * *", &ny, y1850), now2024},
	} {
		ucj := difftest.UpCronJob(c.cj)
		sched, err := upSchedule(ucj)
		if err != nil {
			t.Fatal(err)
		}
		earliest, recent, missed, err := upMostRecentScheduleTime(ucj, c.now, sched, true)
		if err != nil {
			t.Fatal(err)
		}
		var r time.Time
		if recent != nil {
			r = *recent
		}
		vs = append(vs, vec{Decision: "cronjob.MostRecent", Name: "eras/" + c.name, Source: src,
			Input: map[string]any{"cronJob": c.cj, "now": c.now, "withDeadline": true},
			Want:  map[string]any{"earliest": earliest.UTC().Format(time.RFC3339Nano), "mostRecent": nullTime(r), "missed": []string{"none", "few", "many"}[missed]}})
		d := upNextScheduleTimeDuration(ucj, c.now, sched)
		vs = append(vs, vec{Decision: "cronjob.RequeueAfter", Name: "eras/requeue " + c.name, Source: src,
			Input: map[string]any{"cronJob": c.cj, "now": c.now}, Want: map[string]any{"requeueAfter": d.String()}})
	}

	// Next and Count on robfig/cron's Next, stepped.
	next := func(name, spec string, tz *string, after string) {
		in := map[string]any{"schedule": spec, "after": rfc(after), "timeZone": *tz}
		vs = append(vs, vec{Decision: "cronjob.Next", Name: "eras/" + name, Source: src, Input: in,
			Want: map[string]any{"next": nullTime(robfigNext(spec, tz, rfc(after)))}})
	}
	count := func(name, spec string, tz *string, after, until time.Time) {
		in := map[string]any{"schedule": spec, "after": after, "until": until, "timeZone": *tz}
		s, err := upSchedule(difftest.UpCronJob(mk("c", spec, tz, after)))
		if err != nil {
			t.Fatal(err)
		}
		vs = append(vs, vec{Decision: "cronjob.Count", Name: "eras/" + name, Source: src, Input: in,
			Want: map[string]any{"count": upStepCount(s, after, until)}})
	}
	next("New York local mean time: the first step from 00:10Z passes over 19:30 local", "*/30 * * * *", &ny, "1850-01-01T00:10:00Z")
	next("New York local mean time: from a start time, the next on the wall clock", "*/30 * * * *", &ny, "1850-01-01T00:56:02Z")
	next("New York noon of the day of its first change of offset passed over (a first step from seconds off the minute in local mean time)", "0 12 * * *", &ny, "1883-11-17T17:00:00Z")
	next("Lord Howe at the end of 9999", "*/30 * * * *", &lh, "9999-12-31T12:00:00Z")
	count("New York local mean time: one start time in the hour after 00:10Z", "*/30 * * * *", &ny, rfc("1850-01-01T00:10:00Z"), rfc("1850-01-01T01:10:00Z"))
	count("New York yearly from 0001-01-01 to 2024", "0 0 1 1 *", &ny, time.Time{}, now2024)
	count("Lord Howe daily 1890-1900 across its first change of offset", "0 3 * * *", &lh, rfc("1890-01-01T00:00:00Z"), rfc("1900-01-01T00:00:00Z"))
	count("New York across its first change, every 30 minutes", "*/30 * * * *", &ny, rfc("1883-11-18T12:00:00Z"), rfc("1883-11-18T20:00:00Z"))
	count("February 29 from 2090: stepping ends at 2096 (2104 is eight years on)", "0 0 29 2 *", &utc, rfc("2090-01-01T00:00:00Z"), rfc("2110-01-01T00:00:00Z"))
	count("Lord Howe every 30 minutes over 9999", "*/30 * * * *", &lh, rfc("9999-01-01T00:00:00Z"), end)
	return vs
}
