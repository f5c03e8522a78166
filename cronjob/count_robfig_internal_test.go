package cronjob

import (
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/robfig/cron/v3"
	"pgregory.net/rapid"

	"github.com/kubesem/kubesem/internal/fuzzlimit"
)

// changeZones are the zones the robfig/cron properties draw from: offsets
// or changes of 30 and 45 minutes, changes at or next to midnight (some
// historic), the common whole-hour ones, and others robfig/cron does not
// step as the wall clock.
var changeZones = []string{
	"Australia/Lord_Howe", "Asia/Kathmandu", "Asia/Kolkata", "Australia/Adelaide", "Pacific/Chatham",
	"America/St_Johns", "America/Santiago", "America/Havana", "America/Asuncion", "Asia/Beirut",
	"Africa/Cairo", "Asia/Tehran", "America/Sao_Paulo", "America/Godthab", "America/Nuuk",
	"UTC", "America/New_York", "Europe/Berlin", "Australia/Sydney", "Europe/London",
	"America/Los_Angeles", "Asia/Tokyo", "Pacific/Auckland", "Atlantic/Azores", "America/Scoresbysund",
	// Midnights repeated east of UTC (time.Date answers their second
	// pass), Ramadan suspensions, a two-hour change, negative daylight
	// saving, a skipped day.
	"Asia/Amman", "Asia/Gaza", "Asia/Damascus", "CET", "Africa/Casablanca", "Antarctica/Troll",
	"Europe/Dublin", "Pacific/Apia", "Atlantic/Madeira",
}

// cronMacros are robfig/cron's standard descriptors.
var cronMacros = []string{"@yearly", "@annually", "@monthly", "@weekly", "@daily", "@midnight", "@hourly"}

// drawSpec draws a standard cron expression: each field a star, a value,
// a range, a step over a star, a value or a range, or a list of those,
// the values favouring the hours and minutes at which offsets change;
// sometimes a macro.
func drawSpec(t *rapid.T) string {
	if rapid.IntRange(0, 7).Draw(t, "isMacro") == 0 {
		return rapid.SampledFrom(cronMacros).Draw(t, "macro")
	}
	minute := drawField(t, "minute", 0, 59, []int{0, 0, 30, 45, 15, 59, 1, 29, 31})
	hour := drawField(t, "hour", 0, 23, []int{0, 1, 2, 3, 23, 0, 22, 4, 12})
	dom := drawField(t, "dom", 1, 31, []int{1, 2, 13, 28, 29, 30, 31, 7, 8})
	month := drawField(t, "month", 1, 12, []int{1, 2, 3, 4, 9, 10, 11, 12})
	dow := drawField(t, "dow", 0, 6, []int{0, 6, 5, 1})
	if rapid.IntRange(0, 9).Draw(t, "question") == 0 {
		// "?" is robfig/cron's other star, in either day field.
		if rapid.Bool().Draw(t, "qDom") {
			dom = "?"
		} else {
			dow = "?"
		}
	}
	return strings.Join([]string{minute, hour, dom, month, dow}, " ")
}

// drawField draws one field with values lo..hi, usually from hot.
func drawField(t *rapid.T, label string, lo, hi int, hot []int) string {
	value := func(l string) int {
		if rapid.IntRange(0, 2).Draw(t, l+"Hot") > 0 {
			return rapid.SampledFrom(hot).Draw(t, l+"H")
		}
		return rapid.IntRange(lo, hi).Draw(t, l)
	}
	item := func(l string) string {
		switch rapid.IntRange(0, 5).Draw(t, l+"Kind") {
		case 0:
			return "*"
		case 1, 2:
			return strconv.Itoa(value(l + "V"))
		case 3:
			a := value(l + "A")
			b := rapid.IntRange(a, hi).Draw(t, l+"B")
			return strconv.Itoa(a) + "-" + strconv.Itoa(b)
		case 4:
			step := rapid.IntRange(1, max(1, (hi-lo)/2)).Draw(t, l+"Step")
			return "*/" + strconv.Itoa(step)
		default:
			a := value(l + "A")
			step := "/" + strconv.Itoa(rapid.IntRange(1, max(1, (hi-lo)/2)).Draw(t, l+"Step"))
			if rapid.Bool().Draw(t, l+"Open") {
				return strconv.Itoa(a) + step // a-hi/step
			}
			return strconv.Itoa(a) + "-" + strconv.Itoa(rapid.IntRange(a, hi).Draw(t, l+"B")) + step
		}
	}
	switch rapid.IntRange(0, 4).Draw(t, label+"Shape") {
	case 0:
		return "*"
	case 1:
		n := rapid.IntRange(2, 4).Draw(t, label+"Len")
		items := make([]string, n)
		for i := range items {
			items[i] = item(label + strconv.Itoa(i))
		}
		return strings.Join(items, ",")
	}
	return item(label)
}

// nearChange draws a change of offset of loc between 1900 and 2060 (in
// the rule-based era too; mostly from 1970), or an instant of such a year
// in a zone without one, and an instant around it: at it, or seconds to a
// year before or after it, as often near as far.
func nearChange(t *rapid.T, loc *time.Location) (change, at time.Time) {
	y := rapid.IntRange(1970, 2060).Draw(t, "year")
	switch rapid.IntRange(0, 3).Draw(t, "era") {
	case 0:
		y = rapid.IntRange(1900, 1969).Draw(t, "oldYear")
	case 1, 2:
		y = rapid.IntRange(2015, 2045).Draw(t, "recentYear")
	}
	var changes []time.Time
	at = time.Date(y, 1, 1, 0, 0, 0, 0, time.UTC).In(loc)
	for i := 0; i < 16 && at.Year() <= y; i++ {
		_, end := at.ZoneBounds()
		if end.IsZero() || !end.After(at) {
			break
		}
		_, o1 := at.Zone()
		if _, o2 := end.Zone(); o1 != o2 {
			changes = append(changes, end)
		}
		at = end
	}
	change = time.Date(y, 1, 1, 0, 0, 0, 0, time.UTC).Add(time.Duration(rapid.Int64Range(0, 365*86400).Draw(t, "inYear")) * time.Second)
	if len(changes) > 0 {
		change = rapid.SampledFrom(changes).Draw(t, "change")
	}
	scale := rapid.SampledFrom([]int64{0, 60, 3600, 3 * 3600, 86400, 3 * 86400, 40 * 86400, 400 * 86400}).Draw(t, "scale")
	d := spread(t, "shift", -scale, scale)
	if d != 0 && rapid.Bool().Draw(t, "whole") {
		d = d / 60 * 60 // whole minutes, where start times are
	}
	return change, change.Add(time.Duration(d) * time.Second)
}

// countRobfigLimit bounds the robfig/cron steps one case takes.
const countRobfigLimit = 4000

// checkCountMatchesRobfig: Count answers what stepping robfig/cron v3.0.1's
// own Next answers, for random schedules, in zones whose changes robfig/cron
// does not step as the wall clock, over windows from a minute to ten years
// starting around a change (from an arbitrary instant or from a start
// time), half of those that start before it reaching past it. A window holding more than countRobfigLimit
// start times is cut at the last of them robfig/cron reached.
func checkCountMatchesRobfig(t *rapid.T) {
	zone := rapid.SampledFrom(changeZones).Draw(t, "zone")
	spec := drawSpec(t)
	s, err := ParseSchedule(spec, &zone, Options{})
	if err != nil {
		t.Fatalf("ParseSchedule(%q): %v", spec, err)
	}
	r, err := cron.ParseStandard("TZ=" + zone + " " + spec)
	if err != nil {
		t.Fatal(err)
	}
	change, after := nearChange(t, s.loc)
	if rapid.IntRange(0, 3).Draw(t, "acrossFromStart") == 0 {
		// From a start time days to weeks before the change, past it.
		after = change.Add(-time.Duration(spread(t, "before", 2*86400, 60*86400)) * time.Second)
	}
	if rapid.Bool().Draw(t, "fromStart") {
		// From a start time, as a controller counts from its last.
		if _, err := s.TryNext(after); err == nil {
			if x := r.Next(after); !x.IsZero() {
				after = x
			}
		}
	}
	if rapid.IntRange(0, 4).Draw(t, "hasNanos") == 0 {
		after = after.Add(time.Duration(rapid.Int64Range(1, 999_999_999).Draw(t, "nanos")))
	}
	length := rapid.SampledFrom([]int64{60, 3600, 86400, 7 * 86400, 60 * 86400, 400 * 86400, 3 * 366 * 86400, 3653 * 86400}).Draw(t, "maxLen")
	from := after
	if after.Before(change) && rapid.Bool().Draw(t, "across") {
		from = change // the window holds the change
	}
	until := from.Add(time.Duration(spread(t, "len", -60, length)) * time.Second)
	want, until := robfigSteps(r, s, after, until, countRobfigLimit)
	if got := s.Count(after, until); got != want {
		t.Fatalf("Count(%v, %v) in %s for %q = %d; robfig/cron stepped %d", after.UTC(), until.UTC(), zone, spec, got, want)
	}
}

// robfigSteps counts robfig/cron's steps from after up to until, as
// robfigCount does, but stops at limit steps, and then returns the last of
// them as the window's end.
func robfigSteps(r cron.Schedule, s *Schedule, after, until time.Time, limit int) (n int64, end time.Time) {
	prev := after
	for {
		if _, err := s.TryNext(prev); err != nil {
			return n, until
		}
		t := r.Next(prev)
		if t.IsZero() || !t.After(prev) || t.After(until) {
			return n, until
		}
		if n++; n == int64(limit) {
			return n, t
		}
		prev = t
	}
}

func TestCountMatchesRobfig(t *testing.T) {
	t.Parallel()
	rapid.Check(t, checkCountMatchesRobfig)
}

func FuzzCountMatchesRobfig(f *testing.F) { fuzzlimit.Rapid(f, checkCountMatchesRobfig) }

// checkPlainCrossesPlainly: where plainChange vouches for a change,
// following robfig/cron's walk across it (crossSteps) finds no start time
// the wall clock does not have, and none missing.
func checkPlainCrossesPlainly(t *rapid.T) {
	zone := rapid.SampledFrom(changeZones).Draw(t, "zone")
	spec := drawSpec(t)
	s, err := ParseSchedule(spec, &zone, Options{})
	if err != nil {
		t.Fatalf("ParseSchedule(%q): %v", spec, err)
	}
	change, _ := nearChange(t, s.loc)
	if s.fixed || s.delay > 0 || s.never || s.leapOnly {
		return
	}
	e := change.Unix()
	_, o1 := time.Unix(e-1, 0).In(s.loc).Zone()
	_, o2 := time.Unix(e, 0).In(s.loc).Zone()
	if o1 == o2 {
		return
	}
	prev, _ := time.Unix(e-1, 0).In(s.loc).ZoneBounds()
	_, next := time.Unix(e, 0).In(s.loc).ZoneBounds()
	if (!prev.IsZero() && e-prev.Unix() < plainMargin) || (!next.IsZero() && next.Unix()-e < plainMargin) {
		return
	}
	c := newChange(e, int64(o1), int64(o2))
	plain, empty := s.plainChange(int64(o1), &c)
	if !plain {
		return
	}
	lo, hi := e-crossReach, e+crossReach
	if !prev.IsZero() {
		lo = max(lo, prev.Unix()+secondsPerDay)
	}
	if !next.IsZero() {
		hi = min(hi, next.Unix()-secondsPerDay)
	}
	if d, ok := s.crossSteps(e, int64(o1), int64(o2), lo, hi, lo, hi); ok && d != 0 {
		t.Fatalf("%q in %s at %v: plainChange (empty %v), but crossSteps finds %d more start times", spec, zone, change.UTC(), empty, d)
	}
	if empty {
		if n := s.wallCount(e+int64(min(o1, o2)), e+int64(max(o1, o2))); n != 0 {
			t.Fatalf("%q in %s at %v: plainChange says no start time changes, but %d do", spec, zone, change.UTC(), n)
		}
	}
}

func TestPlainCrossesPlainly(t *testing.T) {
	t.Parallel()
	rapid.Check(t, checkPlainCrossesPlainly)
}

// sweepSchedules are the schedules TestCountAcrossChanges sweeps: start
// times in the hours and minutes offsets change at, daily, weekly,
// monthly, weekday and day-of-month combinations, dense ones.
var sweepSchedules = []string{
	"* * * * *", "*/7 * * * *", "0 * * * *", "30 * * * *", "45 * * * *", "15,45 * * * *", "0 0 * * *",
	"30 0 * * *", "0 1 * * *", "30 1 * * *", "45 1 * * *", "0 2 * * *", "30 2 * * *", "0 3 * * *",
	"59 23 * * *", "0 23 * * *", "30 23 * * *", "0 0 * * 0", "0 0 * * 6", "30 0 * * 0", "0 1 * * 0",
	"0 0 1 * *", "0 0 2-8 * 0", "0 0 13 * 5", "30 6-16/4 * * 1-5", "0 0,12 * * *", "*/30 0-3 * * *",
	"0 22-23 * * 6", "0 0 * 4,9,10 *", "@hourly", "@daily", "@weekly", "@monthly", "0 0 1 1 *",
}

// sweepLimit bounds the robfig/cron steps of one window of
// TestCountAcrossChanges.
const sweepLimit = 1500

// TestCountAcrossChanges: around every change of offset from 2000 to 2045
// in the zones of changeZones (every 50th unless CRONJOB_SWEEP=all), for
// sweepSchedules, Count answers what stepping robfig/cron answers, from a
// start time three days before the change and from an instant 40 days
// before it, to days after it.
func TestCountAcrossChanges(t *testing.T) {
	t.Parallel()
	every := 50
	if os.Getenv("CRONJOB_SWEEP") == "all" {
		every = 1
	}
	cases := 0
	for _, zone := range changeZones {
		loc, err := time.LoadLocation(zone)
		if err != nil {
			t.Fatal(err)
		}
		var changes []time.Time
		for at := time.Date(2000, 1, 1, 0, 0, 0, 0, loc); at.Year() < 2046; {
			_, end := at.ZoneBounds()
			if end.IsZero() || !end.After(at) {
				break
			}
			_, o1 := at.Zone()
			if _, o2 := end.Zone(); o1 != o2 {
				changes = append(changes, end)
			}
			at = end
		}
		for i, e := range changes {
			if i%every != 0 {
				continue
			}
			for _, spec := range sweepSchedules {
				s, err := ParseSchedule(spec, &zone, Options{})
				if err != nil {
					t.Fatal(err)
				}
				r, err := cron.ParseStandard("TZ=" + zone + " " + spec)
				if err != nil {
					t.Fatal(err)
				}
				start := e.Add(-72 * time.Hour)
				if _, err := s.TryNext(start); err == nil { // robfig/cron's Next returns
					start = r.Next(start)
				}
				for _, w := range [][2]time.Time{
					{start, e.Add(8 * 24 * time.Hour)},
					{e.Add(-40*24*time.Hour + 17*time.Minute + 5*time.Second), e.Add(3 * 24 * time.Hour)},
				} {
					want, until := robfigSteps(r, s, w[0], w[1], sweepLimit)
					after := w[0]
					cases++
					if got := s.Count(after, until); got != want {
						t.Errorf("Count(%v, %v) in %s for %q = %d; robfig/cron stepped %d", after.UTC(), until.UTC(), zone, spec, got, want)
					}
				}
			}
		}
	}
	t.Logf("%d windows", cases)
}

// TestCountNeverStrays: a schedule that selects no day still fires where
// robfig/cron's walk strays into a month it does not test (a change that
// skips the midnight of a 1st: Atlantic/Madeira in 1917–1919, where the
// walk from 1917-03-13 answers 1918-03-31), and Count counts those start
// times; elsewhere it fires never.
func TestCountNeverStrays(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		zone         string
		after, until time.Time
		strays       bool
		want         int64
	}{
		{"Atlantic/Madeira", time.Date(1917, 3, 13, 18, 39, 2, 0, time.UTC), time.Date(1918, 3, 31, 0, 0, 0, 0, time.UTC), true, 1},
		{"Atlantic/Madeira", time.Date(1915, 1, 1, 0, 0, 0, 0, time.UTC), time.Date(1925, 1, 1, 0, 0, 0, 0, time.UTC), true, 0},
		{"America/New_York", time.Date(2024, 5, 20, 8, 29, 0, 0, time.UTC), time.Date(2034, 5, 20, 8, 29, 0, 0, time.UTC), false, 0},
		{"America/Santiago", time.Date(2024, 5, 20, 8, 29, 0, 0, time.UTC), time.Date(2034, 5, 20, 8, 29, 0, 0, time.UTC), false, 0},
	} {
		s, err := ParseSchedule("0 0 31 2 *", &c.zone, Options{})
		if err != nil {
			t.Fatal(err)
		}
		r, err := cron.ParseStandard("TZ=" + c.zone + " 0 0 31 2 *")
		if err != nil {
			t.Fatal(err)
		}
		if got := s.strays(c.after.Unix(), c.until.Unix()); got != c.strays {
			t.Errorf("%s: strays(%v) = %v; want %v", c.zone, c.after, got, c.strays)
		}
		if n, _ := robfigCount(r, s, c.after, c.until, 100); n != c.want {
			t.Fatalf("%s: robfig/cron steps %d times from %v to %v; the test expects %d", c.zone, n, c.after, c.until, c.want)
		}
		if got := s.Count(c.after, c.until); got != c.want {
			t.Errorf("Count(%v, %v) in %s = %d; robfig/cron stepped %d", c.after, c.until, c.zone, got, c.want)
		}
	}
}

// TestCountCrossingCases: windows the properties found where robfig/cron's
// walk crosses a change unlike the wall clock, against its own Next:
// midnights repeated east of UTC, whose first pass the walk's day loop
// skips (CET in 1916, Asia/Amman in 2015, the window ending inside the
// first pass), and October 1 midnights that send a yearly walk astray
// until it gives up (America/Asuncion in the 1980s).
func TestCountCrossingCases(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		zone, spec   string
		after, until time.Time
	}{
		{"CET", "0 0 * * 0", time.Date(1916, 4, 27, 22, 0, 0, 0, time.UTC), time.Date(1917, 3, 16, 16, 54, 13, 0, time.UTC)},
		{"Asia/Amman", "* * ? * 5", time.Date(2015, 10, 27, 21, 59, 59, 1, time.UTC), time.Date(2015, 10, 29, 21, 59, 0, 0, time.UTC)},
		{"Asia/Amman", "* * ? * 5", time.Date(2015, 10, 20, 21, 59, 59, 0, time.UTC), time.Date(2015, 11, 2, 0, 0, 0, 0, time.UTC)},
		{"America/Asuncion", "@yearly", time.Date(1981, 9, 29, 3, 59, 59, 0, time.UTC), time.Date(1990, 2, 14, 20, 27, 50, 0, time.UTC)},
		{"America/Asuncion", "@yearly", time.Date(1980, 1, 1, 4, 0, 0, 0, time.UTC), time.Date(1990, 2, 14, 20, 27, 50, 0, time.UTC)},
	} {
		s, err := ParseSchedule(c.spec, &c.zone, Options{})
		if err != nil {
			t.Fatal(err)
		}
		r, err := cron.ParseStandard("TZ=" + c.zone + " " + c.spec)
		if err != nil {
			t.Fatal(err)
		}
		want, done := robfigCount(r, s, c.after, c.until, 100000)
		if !done {
			t.Fatalf("%s %q: robfig/cron takes more than 100000 steps", c.zone, c.spec)
		}
		if got := s.Count(c.after, c.until); got != want {
			t.Errorf("Count(%v, %v) in %s for %q = %d; robfig/cron stepped %d", c.after, c.until, c.zone, c.spec, got, want)
		}
	}
}
