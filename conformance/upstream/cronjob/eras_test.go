package cronjob_test

import (
	"errors"
	"os"
	"reflect"
	"testing"
	"time"

	"pgregory.net/rapid"

	"github.com/kubesem/kubesem/conformance/upstream/internal/difftest"
	kcronjob "github.com/kubesem/kubesem/cronjob"
)

// Schedules for the eras differential: those upstream steps quickly over
// any gap (start times a year or more apart; February 29 only, whose
// stepping cycles from 2096 on), and denser ones for gaps upstream jumps
// over (under about 292 years: its estimate is a time.Duration).
var (
	eraSparse = []string{"0 0 1 1 *", "@yearly", "30 2 1 3 *", "0 0 29 2 *"}
	eraDense  = []string{"*/30 * * * *", "0 * * * *", "30 2 * * *", "0 3 * * *", "0 0 * * 0", "0 0 1 * *", "30 6-16/4 * * 1-5", "0 0 13 * 5"}
)

// eraSpread draws from lo..hi spread over the whole range (rapid favours
// small numbers).
func eraSpread(t *rapid.T, label string, lo, hi int64) int64 {
	n := hi - lo + 1
	k := rapid.Int64Range(0, n-1).Draw(t, label)
	if rapid.Bool().Draw(t, label+"Scatter") {
		k = int64((uint64(k) * 0x9E3779B97F4A7C15) % uint64(n))
	}
	return lo + k
}

// drawEraCreated draws a creation time in one of the eras the stepping
// treats differently: absent (0001-01-01T00:00:00Z, what a CronJob
// without metadata.creationTimestamp reads as), the first years after it,
// around the zone's first change of offset (local mean time before it),
// 1850-1950, December 31 of a leap year in the rule-based era, around
// 2100, and the last years before 10000.
func drawEraCreated(t *rapid.T, loc *time.Location) time.Time {
	day := int64(86400)
	var base time.Time
	var span int64
	switch rapid.IntRange(0, 7).Draw(t, "createdEra") {
	case 0:
		return time.Time{}
	case 1:
		base, span = time.Time{}.Add(3*366*24*time.Hour), 3*366*day
	case 2:
		_, base = time.Time{}.In(loc).ZoneBounds()
		if base.IsZero() {
			base = time.Date(1883, 11, 18, 17, 0, 0, 0, time.UTC)
		}
		span = rapid.SampledFrom([]int64{3 * day, 60 * day, 20 * 366 * day}).Draw(t, "createdSpan")
	case 3:
		base, span = time.Date(1900, 1, 1, 0, 0, 0, 0, time.UTC), 50*366*day
	case 4:
		y := 2040 + 4*rapid.IntRange(0, 500).Draw(t, "createdLeap")
		base, span = time.Date(y, 12, 31, 12, 0, 0, 0, time.UTC), 3*day
	case 5:
		base, span = time.Date(2100, 3, 1, 0, 0, 0, 0, time.UTC), 6*366*day
	default:
		base, span = time.Date(9995, 1, 1, 0, 0, 0, 0, time.UTC), 4*366*day
	}
	// In UTC, as the API server writes it (RFC 3339 offsets are whole
	// minutes; local mean time's are not).
	return base.Add(time.Duration(eraSpread(t, "created", -span, span)) * time.Second).UTC()
}

// eraEnd is the last second an RFC 3339 timestamp (four-digit year) can
// name.
var eraEnd = time.Date(9999, 12, 31, 23, 59, 59, 0, time.UTC)

// checkErasDifferential draws a zone of the whole database, a CronJob
// created in any era (or without creationTimestamp), and a now from
// seconds to thousands of years later (no later than 9999), and compares
// MostRecent (both deadline modes), RequeueAfter and a whole sync with
// upstream. Gaps beyond 292 years are drawn with sparse schedules only:
// upstream then steps every start time from 292 years after the creation
// (robfig/cron's Next takes up to a few hundred microseconds a step in a
// zone's rule-based era).
func checkErasDifferential(counts map[string]int) func(*rapid.T) {
	return func(t *rapid.T) {
		zone := rapid.SampledFrom(zones).Draw(t, "zone")
		loc, _ := time.LoadLocation(zone)
		cj := &kcronjob.CronJob{}
		cj.Name, cj.Namespace, cj.UID = "cj", "default", "cj-uid"
		cj.Spec.TimeZone = &zone
		cj.CreationTimestamp = drawEraCreated(t, loc)
		far := rapid.IntRange(0, 3).Draw(t, "far") == 0
		day := int64(86400)
		var gap int64
		if far {
			// Upstream steps every start time from 292 years after the
			// creation: up to 700 years of them, or from year 293 to a
			// now in 2000-2030 for a CronJob without creationTimestamp.
			cj.Spec.Schedule = rapid.SampledFrom(eraSparse).Draw(t, "spec")
			gap = eraSpread(t, "gap", 293*366*day, 700*366*day)
			if rapid.IntRange(0, 3).Draw(t, "absent") == 0 {
				cj.CreationTimestamp = time.Time{}
				gap = time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC).Unix() - cj.CreationTimestamp.Unix() + eraSpread(t, "gap2000", 0, 31*366*day)
			}
		} else {
			cj.Spec.Schedule = rapid.SampledFrom(append(eraDense, eraSparse...)).Draw(t, "spec")
			gap = rapid.SampledFrom([]int64{3 * day, 400 * day, 280 * 365 * day}).Draw(t, "maxGap")
			gap = eraSpread(t, "gap", -3600, gap)
		}
		now := time.Unix(cj.CreationTimestamp.Unix()+gap, 0).UTC()
		if now.After(eraEnd) {
			now = eraEnd.Add(-time.Duration(eraSpread(t, "beforeEnd", 0, 400*day)) * time.Second)
		}
		if rapid.Bool().Draw(t, "hasLast") {
			last := cj.CreationTimestamp.Add(time.Duration(eraSpread(t, "last", 0, max(0, int64(now.Sub(cj.CreationTimestamp)/time.Second)))) * time.Second)
			cj.Status.LastScheduleTime = &last
		}
		if rapid.Bool().Draw(t, "hasDeadline") {
			d := rapid.SampledFrom([]int64{0, 60, 3600, 86400, 1 << 40}).Draw(t, "deadline")
			cj.Spec.StartingDeadlineSeconds = &d
		}
		ucj := difftest.UpCronJob(cj)
		sched, err := upSchedule(ucj)
		if err != nil {
			t.Fatalf("upstream cannot parse %q in %s: %v", cj.Spec.Schedule, zone, err)
		}
		s, err := kcronjob.ParseSchedule(cj.Spec.Schedule, cj.Spec.TimeZone, kcronjob.Options{})
		if err != nil {
			t.Fatal(err)
		}
		for _, deadline := range []bool{false, true} {
			var earliest time.Time
			var recent *time.Time
			var missed int
			var uerr error
			endless := zoneRun(func() {
				earliest, recent, missed, uerr = upMostRecentScheduleTime(ucj, now, &zoneCounting{inner: sched, limit: zoneLimit, check: s, seen: map[int64]int{}}, deadline)
			})
			r, err := kcronjob.MostRecent(cj, s, now, kcronjob.Deadline(deadline))
			if endless {
				counts["upstream never ends"]++
				if !errors.Is(err, kcronjob.ErrNeverEnds) {
					t.Fatalf("upstream's mostRecentScheduleTime never ends in %s for %q created %v at %v; MostRecent = %v, %v", zone, cj.Spec.Schedule, cj.CreationTimestamp, now, r, err)
				}
				continue
			}
			if (err != nil) != (uerr != nil) {
				t.Fatalf("MostRecent error in %s for %q created %v at %v = %v; upstream %v", zone, cj.Spec.Schedule, cj.CreationTimestamp, now, err, uerr)
			}
			var want time.Time
			if recent != nil {
				want = *recent
			}
			if !r.Earliest.Equal(earliest) || !r.Time.Equal(want) || int(r.Missed) != missed {
				t.Fatalf("MostRecent in %s for %q created %v at %v (deadline %v) = %v, %v, %v; upstream %v, %v, %d", zone, cj.Spec.Schedule, cj.CreationTimestamp, now, deadline, r.Earliest, r.Time, r.Missed, earliest, want, missed)
			}
			counts["compared"]++
			if now.Sub(cj.CreationTimestamp) > 292*365*24*time.Hour {
				counts["compared beyond 292 years"]++
			}
		}
		var wantAfter *time.Duration
		endless := zoneRun(func() {
			wantAfter = upNextScheduleTimeDuration(ucj, now, &zoneCounting{inner: sched, limit: zoneLimit, check: s, seen: map[int64]int{}})
		})
		after, err := kcronjob.RequeueAfter(cj, s, now)
		switch {
		case endless:
			if !errors.Is(err, kcronjob.ErrNeverEnds) {
				t.Fatalf("upstream's nextScheduleTimeDuration never ends in %s for %q at %v; RequeueAfter = %v, %v", zone, cj.Spec.Schedule, now, after, err)
			}
		case err != nil || after != *wantAfter:
			t.Fatalf("RequeueAfter in %s for %q created %v at %v = %v, %v; upstream %v", zone, cj.Spec.Schedule, cj.CreationTimestamp, now, after, err, *wantAfter)
		}
		p, err := kcronjob.Step(cj, nil, now, kcronjob.Options{})
		if errors.Is(err, kcronjob.ErrNeverEnds) {
			counts["step: upstream never ends"]++
			return
		}
		if err != nil {
			t.Fatalf("Step: %v", err)
		}
		want, ok := zoneStepWant(cj, now)
		if !ok {
			t.Fatalf("upstream's sync in %s for %q at %v (created %v) does not finish; Step = %+v", zone, cj.Spec.Schedule, now, cj.CreationTimestamp, p)
		}
		got := planShape(p)
		for k, w := range want {
			if !reflect.DeepEqual(got[k], w) {
				t.Fatalf("Step in %s for %q created %v at %v: %s = %#v; upstream %#v", zone, cj.Spec.Schedule, cj.CreationTimestamp, now, k, got[k], w)
			}
		}
		counts["steps compared"]++
	}
}

// TestCronJobErasDifferential runs checkErasDifferential over the whole
// zone database.
func TestCronJobErasDifferential(t *testing.T) {
	zoneOnce.Do(func() { zones = allZones(t) })
	counts := map[string]int{}
	rapid.Check(t, checkErasDifferential(counts))
	t.Logf("%d zones; %v", len(zones), counts)
	if counts["compared"] == 0 || counts["compared beyond 292 years"] == 0 {
		t.Fatalf("compared %v", counts)
	}
}

// TestCronJobIssue19Slow (KUBESEM_SLOW=1; upstream takes tens of minutes)
// runs upstream's whole sync on the Step inputs of issue 19 that v1.36.3
// answers only by stepping every start time: a CronJob every 30 minutes
// without creationTimestamp in Australia/Lord_Howe and in America/New_York
// at 2024-11-04T05:00:00Z (upstream steps from the year 293, some 30
// million robfig/cron steps per call), and the one created in 1850 in New
// York (upstream jumps), and compares Step with it.
func TestCronJobIssue19Slow(t *testing.T) {
	if os.Getenv("KUBESEM_SLOW") == "" {
		t.Skip("set KUBESEM_SLOW=1 to run upstream's sync on issue 19's inputs (tens of minutes)")
	}
	now := time.Date(2024, 11, 4, 5, 0, 0, 0, time.UTC)
	for _, c := range []struct {
		zone    string
		created time.Time
	}{
		{"America/New_York", time.Date(1850, 1, 1, 0, 0, 0, 0, time.UTC)},
		{"Australia/Lord_Howe", time.Time{}},
		{"America/New_York", time.Time{}},
	} {
		cj := &kcronjob.CronJob{}
		cj.Name, cj.Namespace = "c", "default"
		zone := c.zone
		cj.Spec.Schedule, cj.Spec.TimeZone, cj.CreationTimestamp = "*/30 * * * *", &zone, c.created
		start := time.Now()
		p, err := kcronjob.Step(cj, nil, now, kcronjob.Options{})
		kd := time.Since(start)
		if err != nil {
			t.Fatal(err)
		}
		start = time.Now()
		want, _ := stepWant(cj, nil, now)
		ud := time.Since(start)
		got := planShape(p)
		for k, w := range want {
			if !reflect.DeepEqual(got[k], w) {
				t.Errorf("%s created %v: %s = %#v; upstream %#v", c.zone, c.created, k, got[k], w)
			}
		}
		t.Logf("%s created %v: kubesem %v, upstream %v; %v", c.zone, c.created.Format(time.RFC3339), kd, ud, want)
	}
}
