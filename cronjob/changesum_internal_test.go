package cronjob

import (
	"testing"
	"time"

	"github.com/robfig/cron/v3"
	"pgregory.net/rapid"

	"github.com/kubesem/kubesem/internal/fuzzlimit"
)

// checkSumsMatchChangeByChange: Count with the schedule's change sums
// (changeSums) equals Count taking every change one by one (no sums), in
// every zone of the database (half the time the zones of changeZones),
// for random schedules (drawSpec, half the time eraSchedules) and windows
// of up to forty years (half the time up to three) around the zone
// tables' span (1950–2050, mostly 1969–2037), window bounds often on or
// next to a change, or whole hours within 40 days of one.
func checkSumsMatchChangeByChange(t *rapid.T, zones []string) {
	zone := rapid.SampledFrom(changeZones).Draw(t, "zone")
	if rapid.Bool().Draw(t, "anyZone") {
		zone = rapid.SampledFrom(zones).Draw(t, "zone")
	}
	loc, err := time.LoadLocation(zone)
	if err != nil {
		t.Skip(err)
	}
	spec := drawSpec(t)
	if rapid.Bool().Draw(t, "eraSpec") {
		spec = rapid.SampledFrom(eraSchedules).Draw(t, "spec")
	}
	s, err := ParseSchedule(spec, &zone, Options{})
	if err != nil {
		t.Skip(err)
	}
	plain := *s
	plain.zones.sums = nil
	lo := time.Date(1950, 1, 1, 0, 0, 0, 0, time.UTC).Unix()
	hi := time.Date(2050, 1, 1, 0, 0, 0, 0, time.UTC).Unix()
	if rapid.IntRange(0, 3).Draw(t, "wide") != 0 {
		lo = time.Date(1969, 1, 1, 0, 0, 0, 0, time.UTC).Unix()
		hi = time.Date(2037, 1, 1, 0, 0, 0, 0, time.UTC).Unix()
	}
	bound := func(label string) int64 {
		x := rapid.Int64Range(lo, hi).Draw(t, label)
		if rapid.Bool().Draw(t, label+"AtChange") {
			// On, just before or just after a change of offset.
			_, end := time.Unix(x, 0).In(loc).ZoneBounds()
			if !end.IsZero() {
				x = end.Unix() + rapid.Int64Range(-90, 90).Draw(t, label+"Shift")
			}
		}
		return x
	}
	a := bound("after")
	u := a + rapid.Int64Range(0, 40*365*secondsPerDay).Draw(t, "length")
	if rapid.Bool().Draw(t, "short") {
		u = a + rapid.Int64Range(0, 3*365*secondsPerDay).Draw(t, "shortLength")
	}
	switch rapid.IntRange(0, 2).Draw(t, "untilAt") {
	case 1: // on, just before or just after a change
		if _, end := time.Unix(u, 0).In(loc).ZoneBounds(); !end.IsZero() {
			u = end.Unix() + rapid.Int64Range(-90, 90).Draw(t, "untilShift")
		}
	case 2: // whole hours within 40 days before or after a change
		if _, end := time.Unix(u, 0).In(loc).ZoneBounds(); !end.IsZero() {
			u = end.Unix() + 3600*rapid.Int64Range(-960, 960).Draw(t, "untilHours")
		}
	}
	if u < a {
		a, u = u, a
	}
	after, until := time.Unix(a, 0).UTC(), time.Unix(u, 0).UTC()
	if got, want := s.Count(after, until), plain.Count(after, until); got != want {
		t.Fatalf("%q in %s, (%v, %v]: Count %d with change sums, %d change by change", spec, zone, after, until, got, want)
	}
}

func TestSumsMatchChangeByChange(t *testing.T) {
	zones := testZones(t)
	rapid.Check(t, func(t *rapid.T) { checkSumsMatchChangeByChange(t, zones) })
}

// TestSumsMatchRobfigOverYears: over three years in the zones with
// changes robfig/cron does not step as the wall clock, Count with change
// sums equals robfig/cron's own stepping, for hourly and sparser
// schedules (stepping a minutely schedule over years takes too long).
func TestSumsMatchRobfigOverYears(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		zone := rapid.SampledFrom(changeZones).Draw(t, "zone")
		spec := rapid.SampledFrom(eraSchedules[1:]).Draw(t, "spec")
		s, err := ParseSchedule(spec, &zone, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if s.zones.sums == nil {
			t.Skip("no change to sum")
		}
		r, err := cron.ParseStandard("TZ=" + zone + " " + spec)
		if err != nil {
			t.Fatal(err)
		}
		from := time.Date(1975, 1, 1, 0, 0, 0, 0, time.UTC).Unix()
		a := from + rapid.Int64Range(0, 55*365*secondsPerDay).Draw(t, "after")
		after := time.Unix(a, 0).UTC()
		until := after.Add(time.Duration(rapid.Int64Range(1, 3*365).Draw(t, "days")) * 24 * time.Hour)
		want, done := robfigCount(r, s, after, until, 40_000)
		if !done {
			t.Skip("stepping did not finish")
		}
		if got := s.Count(after, until); got != want {
			t.Fatalf("%q in %s, (%v, %v]: Count %d, robfig/cron steps %d", spec, zone, after, until, got, want)
		}
	})
}

func FuzzSumsMatchChangeByChange(f *testing.F) {
	zones := testZones(f)
	fuzzlimit.Rapid(f, func(t *rapid.T) { checkSumsMatchChangeByChange(t, zones) })
}
