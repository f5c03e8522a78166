package cronjob_test

import (
	"errors"
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

// TestTryNextSkippedDay pins the one class of input on which robfig/cron's
// Next never returns: Samoa and Tokelau skipped 2011-12-30, and package
// time resolves that day's midnight to the midnight before, so a walk that
// has to step from 2011-12-29 to the next day gets 2011-12-29 back for
// ever. The fixed point is checked on package time itself (that is what
// makes robfig/cron loop); TryNext must say ErrNeverEnds there and agree
// with robfig/cron everywhere around it.
func TestTryNextSkippedDay(t *testing.T) {
	t.Parallel()
	for _, zone := range []string{"Pacific/Apia", "Pacific/Fakaofo"} {
		loc, err := time.LoadLocation(zone)
		if err != nil {
			t.Fatal(err)
		}
		d29 := time.Date(2011, 12, 29, 0, 0, 0, 0, loc)
		if next := d29.AddDate(0, 0, 1); !next.Equal(d29) {
			t.Fatalf("%s: the day after %v is %v; the fixed point robfig/cron loops on is gone", zone, d29, next)
		}
		// 2011-12-29 was a Thursday: a Saturday schedule walks into it.
		s, err := cronjob.ParseSchedule("0 0 * * 6", &zone, cronjob.Options{})
		if err != nil {
			t.Fatal(err)
		}
		at := time.Date(2011, 12, 28, 12, 0, 0, 0, loc)
		if got, err := s.TryNext(at); !errors.Is(err, cronjob.ErrNeverEnds) {
			t.Errorf("%s: TryNext(%v) = %v, %v; want ErrNeverEnds", zone, at, got, err)
		}
		if got := s.Next(at); !got.IsZero() {
			t.Errorf("%s: Next(%v) = %v; want the zero time", zone, at, got)
		}
		ends, never := 0, 0
		for _, spec := range propSchedules {
			s, err := cronjob.ParseSchedule(spec, &zone, cronjob.Options{})
			if err != nil {
				t.Fatal(err)
			}
			r, err := cron.ParseStandard("TZ=" + zone + " " + spec)
			if err != nil {
				t.Fatal(err)
			}
			for at := d29.Add(-72 * time.Hour); at.Before(d29.Add(72 * time.Hour)); at = at.Add(17 * time.Minute) {
				got, err := s.TryNext(at)
				if err != nil {
					never++
					continue // robfig/cron would not return
				}
				ends++
				if want := r.Next(at); !got.Equal(want) {
					t.Fatalf("%s: TryNext(%q, %v) = %v; robfig/cron %v", zone, spec, at, got, want)
				}
			}
		}
		if ends == 0 || never == 0 {
			t.Errorf("%s: %d walks end, %d never end; want both", zone, ends, never)
		}
	}
}
