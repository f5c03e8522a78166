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
	after := drawTime(t, "after")
	maxLen := rapid.SampledFrom([]int64{3600, 10 * 86400, 400 * 86400, 3653 * 86400}).Draw(t, "maxLen")
	until := after.Add(time.Duration(rapid.Int64Range(-10, maxLen).Draw(t, "len")) * time.Second)
	if got, want := s.Count(after, until), s.PeriodCount(after, until); got != want {
		t.Fatalf("Count(%q in %s, %v, %v) = %d; want %d", spec, zone, after, until, got, want)
	}
}

func TestCountMatchesPeriods(t *testing.T) {
	t.Parallel()
	rapid.Check(t, checkCountMatchesPeriods)
}
