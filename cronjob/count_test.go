package cronjob_test

import (
	"strings"
	"testing"
	"time"

	"pgregory.net/rapid"

	"github.com/kubesem/kubesem/cronjob"
)

// quirkZones have changes of offset robfig/cron does not step as the wall
// clock: 30-minute and 02:45 changes, changes at midnight, a skipped day,
// Ramadan suspensions, a two-hour change, negative daylight saving.
var quirkZones = []string{
	"Australia/Lord_Howe", "Pacific/Chatham", "America/Santiago", "Asia/Beirut", "America/Asuncion",
	"America/Havana", "Africa/Cairo", "Asia/Tehran", "Europe/Chisinau", "Asia/Gaza", "Asia/Amman",
	"Asia/Damascus", "America/Nuuk", "America/Scoresbysund", "Antarctica/Troll", "Pacific/Apia",
	"Pacific/Fakaofo", "Pacific/Norfolk", "Pacific/Easter", "Africa/Casablanca", "Europe/Dublin",
	"America/Godthab", "Asia/Dhaka", "America/Caracas", "Asia/Pyongyang", "Pacific/Bougainville",
}

// checkCountNearChanges compares Count with stepping Next on windows that
// start within two days before one of the zone's changes of offset between
// 2000 and 2037 and reach up to a stepping window past it.
func checkCountNearChanges(t *rapid.T) {
	spec := rapid.SampledFrom(countSchedules).Draw(t, "spec")
	zone := rapid.SampledFrom(quirkZones).Draw(t, "zone")
	changes := zoneChanges(t, zone)
	if len(changes) == 0 {
		t.Skip("no change")
	}
	e := rapid.SampledFrom(changes).Draw(t, "change")
	s, err := cronjob.ParseSchedule(spec, &zone, cronjob.Options{})
	if err != nil {
		t.Fatal(err)
	}
	after := e.Add(-time.Duration(rapid.Int64Range(0, 2*86400).Draw(t, "before")) * time.Second)
	until := after.Add(time.Duration(rapid.Int64Range(0, stepWindow(spec)).Draw(t, "len")) * time.Second)
	if _, err := s.TryNext(after); err != nil {
		return // robfig/cron never returns: nothing to step
	}
	if got, want := s.Count(after, until), bruteCount(s, after, until); got != want {
		t.Fatalf("Count(%q in %s, %v, %v) = %d; stepping %d", spec, zone, after.UTC(), until.UTC(), got, want)
	}
}

func TestCountNearChanges(t *testing.T) {
	t.Parallel()
	rapid.Check(t, checkCountNearChanges)
}

// zoneChanges returns the instants between 2000 and 2037 at which zone's
// offset changes.
func zoneChanges(t *rapid.T, zone string) []time.Time {
	loc, err := time.LoadLocation(zone)
	if err != nil {
		t.Fatal(err)
	}
	var out []time.Time
	at := time.Date(2000, 1, 1, 0, 0, 0, 0, loc)
	for at.Year() < 2038 {
		_, end := at.ZoneBounds()
		if end.IsZero() || !end.After(at) {
			break
		}
		_, o1 := at.Zone()
		if _, o2 := end.Zone(); o1 != o2 {
			out = append(out, end)
		}
		at = end
	}
	return out
}

// bruteCount steps Next from after and counts the start times up to until.
func bruteCount(s *cronjob.Schedule, after, until time.Time) int64 {
	var n int64
	prev := after
	for t := s.Next(after); !t.IsZero() && t.After(prev) && !t.After(until); t = s.Next(t) {
		n, prev = n+1, t
	}
	return n
}

// checkCountMatchesStepping compares Count with stepping Next.
func checkCountMatchesStepping(t *rapid.T) {
	spec := rapid.SampledFrom(countSchedules).Draw(t, "spec")
	zone := rapid.SampledFrom(nextZones).Draw(t, "zone")
	s, err := cronjob.ParseSchedule(spec, &zone, cronjob.Options{})
	if err != nil {
		t.Fatal(err)
	}
	after, until := drawWindow(t, stepWindow(spec))
	if got, want := s.Count(after, until), bruteCount(s, after, until); got != want {
		t.Fatalf("Count(%q in %s, %v, %v) = %d; want %d", spec, zone, after, until, got, want)
	}
}

// drawWindow draws a window of up to maxLen seconds between 2013 and 2056:
// rapid favours small numbers, so both the start and the length are drawn
// as often near their upper bound as near their lower one.
func drawWindow(t *rapid.T, maxLen int64) (after, until time.Time) {
	after = drawTime(t, "after")
	if rapid.Bool().Draw(t, "late") {
		after = after.Add(time.Duration(30*365*86400-rapid.Int64Range(0, 30*365*86400).Draw(t, "shift")) * time.Second)
	}
	maxLen = rapid.SampledFrom([]int64{3600, 4 * 86400, 400 * 86400, maxLen}).Draw(t, "maxLen")
	n := rapid.Int64Range(-10, maxLen).Draw(t, "len")
	if rapid.Bool().Draw(t, "long") {
		n = maxLen - n
	}
	return after, after.Add(time.Duration(n) * time.Second)
}

// stepWindow returns the longest window over which stepping Next through
// spec's start times stays quick: 4 days for schedules firing every few
// minutes, 100 days for hourly ones, ten years otherwise.
func stepWindow(spec string) int64 {
	switch {
	case strings.HasPrefix(spec, "* ") || strings.HasPrefix(spec, "*/5 ") || strings.HasPrefix(spec, "@every"):
		return 4 * 86400
	case strings.HasPrefix(spec, "*/") || strings.Contains(spec, " * * * *") || spec == "@hourly":
		return 100 * 86400
	}
	return 3653 * 86400
}

func TestCountMatchesStepping(t *testing.T) {
	t.Parallel()
	rapid.Check(t, checkCountMatchesStepping)
}
