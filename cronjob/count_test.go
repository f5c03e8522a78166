package cronjob_test

import (
	"strings"
	"testing"
	"time"

	"pgregory.net/rapid"

	"github.com/kubesem/kubesem/cronjob"
)

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
	zone := rapid.SampledFrom(propZones).Draw(t, "zone")
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
