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
	spec := rapid.SampledFrom(propSchedules).Draw(t, "spec")
	zone := rapid.SampledFrom(propZones).Draw(t, "zone")
	s, err := cronjob.ParseSchedule(spec, &zone, cronjob.Options{})
	if err != nil {
		t.Fatal(err)
	}
	after := drawTime(t, "after")
	maxLen := int64(800 * 86400)
	if strings.HasPrefix(spec, "* ") || strings.HasPrefix(spec, "*/") {
		maxLen = 4 * 86400
	}
	until := after.Add(time.Duration(rapid.Int64Range(-10, maxLen).Draw(t, "len")) * time.Second)
	if got, want := s.Count(after, until), bruteCount(s, after, until); got != want {
		t.Fatalf("Count(%q in %s, %v, %v) = %d; want %d", spec, zone, after, until, got, want)
	}
}

func TestCountMatchesStepping(t *testing.T) {
	t.Parallel()
	rapid.Check(t, checkCountMatchesStepping)
}
