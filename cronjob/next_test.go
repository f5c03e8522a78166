package cronjob_test

import (
	"testing"
	"time"

	"github.com/robfig/cron/v3"
	"pgregory.net/rapid"

	"github.com/kubesem/kubesem/cronjob"
)

var propSchedules = []string{
	"* * * * *", "0 * * * *", "*/5 * * * *", "30 6-16/4 * * 1-5", "30 10,11,12 * * 1-5",
	"0 0 13 * 5", "0 0 31 2 *", "0 0 29 2 *", "59 23 31 2 *", "0 12 * * 4", "15 2 * * *",
	"30 1 * * *", "0 0 1 1 *", "@hourly", "@daily", "@weekly", "@monthly", "@yearly",
	"0 0 * * 0", "0 0 1-7 * 1", "0 0 */2 * 1-5", "5 4 31 * *", "* 2 * * *", "0 3 * * *",
}

var propZones = []string{
	"UTC", "America/New_York", "Europe/Berlin", "Australia/Sydney", "Asia/Kolkata", "America/Santiago", "Asia/Tehran", "Pacific/Chatham",
}

// robfig/cron derails for good after Lord Howe's 30-minute spring-forward
// (a weekly midnight start drifts to 00:30 and never matches again), so that
// zone is in the Next property but not in the Count one.
var nextZones = append([]string{"Australia/Lord_Howe"}, propZones...)

func drawTime(t *rapid.T, label string) time.Time {
	base := time.Date(2016, 5, 19, 10, 0, 0, 0, time.UTC).Unix()
	secs := rapid.Int64Range(-3*365*86400, 30*365*86400).Draw(t, label)
	ns := rapid.SampledFrom([]int64{0, 0, 1, 500_000_000, 999_999_999}).Draw(t, label+"ns")
	return time.Unix(base+secs, ns).UTC()
}

// checkNextMatchesRobfig compares Next with robfig/cron on the same schedule.
func checkNextMatchesRobfig(t *rapid.T) {
	spec := rapid.SampledFrom(propSchedules).Draw(t, "spec")
	zone := rapid.SampledFrom(nextZones).Draw(t, "zone")
	s, err := cronjob.ParseSchedule(spec, &zone, cronjob.Options{})
	if err != nil {
		t.Fatalf("ParseSchedule(%q) = %v", spec, err)
	}
	r, err := cron.ParseStandard("TZ=" + zone + " " + spec)
	if err != nil {
		t.Fatal(err)
	}
	at := drawTime(t, "t")
	if got, want := s.Next(at), r.Next(at); !got.Equal(want) {
		t.Fatalf("Next(%q in %s, %v) = %v; want %v", spec, zone, at, got, want)
	}
}

func TestNextMatchesRobfig(t *testing.T) {
	t.Parallel()
	rapid.Check(t, checkNextMatchesRobfig)
}
