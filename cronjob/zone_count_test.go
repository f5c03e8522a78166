package cronjob_test

import (
	"testing"
	"time"

	"pgregory.net/rapid"

	"github.com/kubesem/kubesem/cronjob"
)

// countZones are the zones Count is checked in: UTC, whole-hour
// daylight-saving changes in both hemispheres, Lord Howe's 30-minute
// change, Santiago's change at midnight, and zones with other offsets.
var countZones = []string{
	"UTC", "America/New_York", "Europe/Berlin", "Australia/Sydney", "Australia/Lord_Howe",
	"America/Santiago", "Asia/Kolkata", "Asia/Tehran", "Pacific/Chatham",
}

// countSchedules adds schedules near the changes of offset to the property
// schedules.
var countSchedules = append([]string{
	"0 0 * * 0", "30 2 * * *", "0,30 1-3 * * *", "0 0 * * *", "30 0 * * *", "0 23 * * *", "*/30 * * * *",
	"0 2 * 3,10 0", "15 1 1-7 4,11 *", "0 0 1 * *",
}, propSchedules...)

// checkCountMatchesPeriods compares Count with the period-by-period count
// it must equal, over windows of up to ten years.
func checkCountMatchesPeriods(t *rapid.T) {
	spec := rapid.SampledFrom(countSchedules).Draw(t, "spec")
	zone := rapid.SampledFrom(countZones).Draw(t, "zone")
	s, err := cronjob.ParseSchedule(spec, &zone, cronjob.Options{})
	if err != nil {
		t.Fatal(err)
	}
	maxLen := int64(3653 * 86400)
	if (zone == "Australia/Lord_Howe" || zone == "America/Santiago") && stepWindow(spec) < 100*86400 {
		maxLen = 400 * 86400 // periodCount steps every start time near each change
	}
	if s.SteppedCount() {
		maxLen = min(maxLen, stepWindow(spec)) // PeriodCount steps every start time
	}
	after, until := drawWindow(t, maxLen)
	if got, want := s.Count(after, until), s.PeriodCount(after, until); got != want {
		t.Fatalf("Count(%q in %s, %v, %v) = %d; want %d", spec, zone, after, until, got, want)
	}
}

func TestCountMatchesPeriods(t *testing.T) {
	t.Parallel()
	rapid.Check(t, checkCountMatchesPeriods)
}

// TestCountAtChanges compares Count with the period-by-period count on
// windows that start or end at, just before or just after a change of
// offset, in years inside and beyond package time's transition tables.
func TestCountAtChanges(t *testing.T) {
	t.Parallel()
	edges := []int64{-86400, -3601, -1, 0, 1, 1800, 3600, 3 * 86400}
	for _, zone := range countZones {
		loc, err := time.LoadLocation(zone)
		if err != nil {
			t.Fatal(err)
		}
		var changes []int64
		for _, y := range []int{2024, 2040} {
			at := time.Date(y, 1, 1, 0, 0, 0, 0, loc)
			for at.Year() == y {
				_, end := at.ZoneBounds()
				if end.IsZero() || !end.After(at) {
					break
				}
				_, o1 := at.Zone()
				if _, o2 := end.Zone(); o1 != o2 {
					changes = append(changes, end.Unix())
				}
				at = end
			}
		}
		for _, spec := range countSchedules {
			s, err := cronjob.ParseSchedule(spec, &zone, cronjob.Options{})
			if err != nil {
				t.Fatal(err)
			}
			for _, e := range changes {
				for _, da := range edges {
					for _, du := range edges {
						after, until := time.Unix(e+da, 0), time.Unix(e+du+3600, 0)
						if got, want := s.Count(after, until), s.PeriodCount(after, until); got != want {
							t.Errorf("Count(%q in %s, %v, %v) = %d; want %d", spec, zone, after.UTC(), until.UTC(), got, want)
						}
					}
				}
			}
		}
	}
}

// TestCountAtLeapYearEnd compares Count with the period-by-period count on
// windows around December 31 (UTC) of a leap year after package time's
// transition tables end, where its rule-based period bounds end before
// the instant asked about.
func TestCountAtLeapYearEnd(t *testing.T) {
	t.Parallel()
	day := time.Date(2040, 12, 31, 0, 0, 0, 0, time.UTC)
	for _, zone := range []string{"America/New_York", "Australia/Sydney", "Australia/Lord_Howe", "America/Santiago"} {
		for _, spec := range []string{"* * * * *", "30 6-16/4 * * 1-5", "0 0 * * *"} {
			s, err := cronjob.ParseSchedule(spec, &zone, cronjob.Options{})
			if err != nil {
				t.Fatal(err)
			}
			for _, d := range []time.Duration{-time.Second, 12 * time.Hour} {
				for _, l := range []time.Duration{time.Hour, 72 * time.Hour} {
					after, until := day.Add(d), day.Add(d+l)
					if got, want := s.Count(after, until), s.PeriodCount(after, until); got != want {
						t.Errorf("Count(%q in %s, %v, %v) = %d; want %d", spec, zone, after, until, got, want)
					}
				}
			}
		}
	}
}

// checkBenignAgrees: the fast test for a change robfig/cron steps exactly
// agrees with periodCount's.
func checkBenignAgrees(t *rapid.T) {
	at := rapid.Int64Range(-1e10, 1e10).Draw(t, "t") / 1800 * 1800
	at += rapid.SampledFrom([]int64{0, 0, 1, 60}).Draw(t, "jitter")
	o1 := rapid.Int64Range(-50400, 50400).Draw(t, "o1") / 900 * 900
	o2 := o1 + rapid.SampledFrom([]int64{-7200, -3600, -1800, 1, 1800, 3600, 7200, 86400}).Draw(t, "d")
	if !cronjob.BenignAgrees(at, o1, o2) {
		t.Fatalf("benignAt(%d, %d, %d) disagrees with benignChange", at, o1, o2)
	}
}

func TestBenignAgrees(t *testing.T) {
	t.Parallel()
	rapid.Check(t, checkBenignAgrees)
}
