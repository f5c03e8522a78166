package cronjob

import (
	"archive/zip"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/robfig/cron/v3"
	"pgregory.net/rapid"
)

var (
	zonesOnce sync.Once
	zonesAll  []string
)

// testZones lists every zone of the database Go ships
// ($GOROOT/lib/time/zoneinfo.zip) that loads.
func testZones(t testing.TB) []string {
	zonesOnce.Do(func() {
		r, err := zip.OpenReader(filepath.Join(runtime.GOROOT(), "lib", "time", "zoneinfo.zip"))
		if err != nil {
			return
		}
		defer r.Close()
		for _, f := range r.File {
			if strings.HasSuffix(f.Name, "/") {
				continue
			}
			if _, err := time.LoadLocation(f.Name); err == nil {
				zonesAll = append(zonesAll, f.Name)
			}
		}
		slices.Sort(zonesAll)
	})
	if len(zonesAll) < 300 {
		t.Fatalf("found %d zones; want the whole database", len(zonesAll))
	}
	return zonesAll
}

// eraSchedules are schedules for the era properties: dense, daily at an
// hour some changes skip or repeat, weekly at midnight, monthly, yearly,
// February 29 only (start times eight years apart across 2100), irregular,
// and one that never fires.
var eraSchedules = []string{
	"*/30 * * * *", "0 * * * *", "30 2 * * *", "0 3 * * *", "0 0 * * *", "0 0 * * 0", "0 0 1 * *",
	"0 0 1 1 *", "0 0 29 2 *", "30 6-16/4 * * 1-5", "0 0 13 * 5", "0 0 31 2 *",
}

// firstChange returns the first instant at which loc's offset changes, or
// the zero time when it never does.
func firstChange(loc *time.Location) time.Time {
	_, end := time.Time{}.In(loc).ZoneBounds()
	return end
}

// drawEra draws an instant from one of the eras the stepping treats
// differently: the first years after 0001-01-01 (a missing
// creationTimestamp), the year before, the days and years around the
// zone's first change of offset (local mean time before it), 1850-1950,
// the rule-based era (December 31 of leap years, when package time's
// bounds go wrong, and the leap years around 2100), and the last years
// before 10000.
func drawEra(t *rapid.T, loc *time.Location, label string) time.Time {
	day := int64(secondsPerDay)
	var base time.Time
	var span int64
	switch rapid.IntRange(0, 6).Draw(t, label+"Era") {
	case 0:
		base, span = time.Time{}.Add(3*366*24*time.Hour), 3*366*day
	case 1:
		base, span = time.Date(0, 7, 1, 0, 0, 0, 0, time.UTC), 200*day
	case 2:
		base = firstChange(loc)
		if base.IsZero() {
			base = time.Date(1883, 11, 18, 17, 0, 0, 0, time.UTC)
		}
		span = rapid.SampledFrom([]int64{3 * day, 60 * day, 20 * 366 * day}).Draw(t, label+"Span")
	case 3:
		base, span = time.Date(1900, 1, 1, 0, 0, 0, 0, time.UTC), 50*366*day
	case 4:
		y := 2040 + 4*rapid.IntRange(0, 500).Draw(t, label+"Leap")
		base, span = time.Date(y, 12, 31, 12, 0, 0, 0, time.UTC), 3*day
	case 5:
		base, span = time.Date(2100, 3, 1, 0, 0, 0, 0, time.UTC), 6*366*day
	default:
		base, span = time.Date(9995, 1, 1, 0, 0, 0, 0, time.UTC), 4*366*day
	}
	return base.Add(time.Duration(spread(t, label, -span, span)) * time.Second)
}

// spread draws from lo..hi spread over the whole range: rapid favours
// small numbers, so a draw is scattered by a multiplication modulo the
// range's length (small draws, and the shrunk ones, stay near lo).
func spread(t *rapid.T, label string, lo, hi int64) int64 {
	n := hi - lo + 1
	k := rapid.Int64Range(0, n-1).Draw(t, label)
	if rapid.Bool().Draw(t, label+"Scatter") {
		k = int64((uint64(k) * 0x9E3779B97F4A7C15) % uint64(n))
	}
	return lo + k
}

// TestWalkMatchesTimeWalk: the walk on clock answers what the walk on
// package time's calendar answers, in every zone and era.
func TestWalkMatchesTimeWalk(t *testing.T) {
	t.Parallel()
	zones := testZones(t)
	rapid.Check(t, func(t *rapid.T) {
		zone := rapid.SampledFrom(zones).Draw(t, "zone")
		spec := rapid.SampledFrom(eraSchedules).Draw(t, "spec")
		s, err := ParseSchedule(spec, &zone, Options{})
		if err != nil {
			t.Fatal(err)
		}
		at := drawEra(t, s.loc, "at")
		at = at.Add(time.Duration(rapid.SampledFrom([]int64{0, 0, 1, 999_999_999}).Draw(t, "ns")))
		got, okGot := s.walk(at)
		want, okWant := s.walkRef(at)
		if okGot != okWant || !got.Equal(want) || got.Location() != want.Location() {
			t.Fatalf("walk(%v) in %s for %q = %v, %v; on package time's calendar %v, %v", at, zone, spec, got, okGot, want, okWant)
		}
	})
}

// cycleZones have daylight saving by rule after their last listed
// transition, most with changes robfig/cron does not step as the wall
// clock.
var cycleZones = []string{
	"America/New_York", "Australia/Lord_Howe", "America/Santiago", "Pacific/Chatham", "Atlantic/Azores",
	"America/Havana", "America/Asuncion", "Europe/Berlin", "Australia/Sydney", "America/Nuuk",
	"Asia/Beirut", "Pacific/Easter", "Antarctica/Troll", "CST6CDT",
}

// TestCyclesMatchStepping: over windows of more than two 400-year cycles,
// steps (which repeats whole cycles) and lastUpTo (which does too) answer
// what stepping the whole window answers.
func TestCyclesMatchStepping(t *testing.T) {
	t.Parallel()
	n := 0
	rapid.Check(t, func(t *rapid.T) {
		zone := rapid.SampledFrom(cycleZones).Draw(t, "zone")
		spec := rapid.SampledFrom(eraSchedules).Draw(t, "spec")
		s, err := ParseSchedule(spec, &zone, Options{})
		if err != nil {
			t.Fatal(err)
		}
		a := drawEra(t, s.loc, "after").Unix()
		u := a + 2*cycle + rapid.Int64Range(1, cycle).Draw(t, "len")
		if rapid.Bool().Draw(t, "intoRule") {
			// From before the rule-based era to more than two cycles
			// into it.
			u = max(u, time.Date(2041, 1, 1, 0, 0, 0, 0, time.UTC).Unix()+2*cycle+rapid.Int64Range(1, cycle).Draw(t, "ruleLen"))
		}
		u = min(u, time.Date(10400, 1, 1, 0, 0, 0, 0, time.UTC).Unix())
		if u-a <= 2*cycle {
			return
		}
		if got, want := s.steps(a, u, nil), s.walkRun(a, u, nil); got != want {
			t.Fatalf("steps(%v, %v) in %s for %q = %+v; stepping the whole window %+v", time.Unix(a, 0).UTC(), time.Unix(u, 0).UTC(), zone, spec, got, want)
		}
		rule, ok := s.ruleEra()
		if !ok || u-max(a, rule+2*resetReach) <= 2*cycle {
			return
		}
		n++
		gl, gs, gok := s.visitCycles(a, u, rule+2*resetReach, nil)
		wl, ws, wok := s.visit(a, u, nil)
		if gl != wl || gs != ws || gok != wok {
			t.Fatalf("visitCycles(%v, %v) in %s for %q = %v %v %v; visiting the whole window %v %v %v", time.Unix(a, 0).UTC(), time.Unix(u, 0).UTC(), zone, spec, gl, gs, gok, wl, ws, wok)
		}
	})
	if n == 0 {
		t.Error("no window compared visitCycles")
	}
}

// TestCyclesMatchSteppingToYear10000: from 0001-01-01 and from 1850 to
// the last second of 9999, steps and lastUpTo answer what stepping the
// whole window answers.
func TestCyclesMatchSteppingToYear10000(t *testing.T) {
	t.Parallel()
	u := time.Date(9999, 12, 31, 23, 59, 59, 0, time.UTC).Unix()
	for _, c := range []struct{ zone, spec string }{
		{"Australia/Lord_Howe", "0 0 * * 0"}, {"Pacific/Chatham", "*/30 * * * *"}, {"America/New_York", "0 3 * * *"},
		{"Atlantic/Azores", "*/30 * * * *"}, {"America/Santiago", "0 0 29 2 *"}, {"America/Havana", "0 0 * * *"},
	} {
		s, err := ParseSchedule(c.spec, &c.zone, Options{})
		if err != nil {
			t.Fatal(err)
		}
		rule, ok := s.ruleEra()
		if !ok {
			t.Fatalf("%s: no rule-based era", c.zone)
		}
		for _, a := range []int64{time.Time{}.Unix(), time.Date(1850, 1, 1, 0, 0, 0, 0, time.UTC).Unix()} {
			if got, want := s.steps(a, u, nil), s.walkRun(a, u, nil); got != want {
				t.Errorf("steps(%v, 9999) in %s for %q = %+v; stepping the whole window %+v", time.Unix(a, 0).UTC(), c.zone, c.spec, got, want)
			}
			gl, gs, gok := s.visitCycles(a, u, rule+2*resetReach, nil)
			wl, ws, wok := s.visit(a, u, nil)
			if gl != wl || gs != ws || gok != wok {
				t.Errorf("visitCycles(%v, 9999) in %s for %q = %v %v %v; visiting the whole window %v %v %v", time.Unix(a, 0).UTC(), c.zone, c.spec, gl, gs, gok, wl, ws, wok)
			}
		}
	}
}

// workBound is the most work (robfig/cron steps, arithmetic stretches and
// restarts) a Count or a MostRecent may take, whatever the window: the
// changes of offset of the listed transitions (a few hundred since the
// 1840s), and of at most four 400-year cycles of the rule after them.
const workBound = 16000

// TestWorkBounded: Count and MostRecent take at most workBound units of
// work for windows from 0001-01-01 (a CronJob without creationTimestamp),
// 0000 and 1850 to 2024 and 9999, in every zone, however many start
// times the window holds. (Stepping every start time, as upstream does,
// takes 35 million steps from 0001 to 2024 for "*/30 * * * *".)
// CRONJOB_SWEEP=all runs every schedule of eraSchedules and more windows.
func TestWorkBounded(t *testing.T) {
	t.Parallel()
	type window struct{ from, now time.Time }
	year1, year0 := time.Time{}, time.Date(0, 1, 1, 0, 0, 0, 0, time.UTC)
	y1850 := time.Date(1850, 1, 1, 0, 0, 0, 0, time.UTC)
	y2024, y9999 := time.Date(2024, 11, 4, 5, 0, 0, 0, time.UTC), time.Date(9999, 12, 31, 23, 59, 59, 0, time.UTC)
	specs := []string{"*/30 * * * *"}
	windows := []window{{year1, y9999}}
	if os.Getenv("CRONJOB_SWEEP") == "all" {
		specs = eraSchedules
		windows = append(windows, window{y1850, y9999}, window{year1, y2024}, window{year0, y9999}, window{y1850, y2024}, window{y2024, y9999})
	}
	var worst meter
	var worstAt string
	for _, zone := range testZones(t) {
		for _, spec := range specs {
			s, err := ParseSchedule(spec, &zone, Options{})
			if err != nil {
				t.Fatal(err)
			}
			for _, w := range windows {
				cj := &CronJob{}
				cj.Spec.Schedule, cj.Spec.TimeZone, cj.CreationTimestamp = spec, &zone, w.from
				var mc, mr meter
				s.count(w.from, w.now, &mc)
				_, _ = mostRecent(cj, s, w.now, WithDeadline, &mr)
				for _, m := range []meter{mc, mr} {
					if m.total() > worst.total() {
						worst, worstAt = m, zone+" "+spec+" "+w.from.Format(time.RFC3339)+" to "+w.now.Format(time.RFC3339)
					}
				}
			}
		}
	}
	t.Logf("most work: %+v (%s)", worst, worstAt)
	if worst.total() > workBound {
		t.Errorf("%s: %+v = %d units of work; want at most %d", worstAt, worst, worst.total(), workBound)
	}
}

func (m meter) total() int64 { return m.walks + m.stretch + m.restarts }

// eraWindow is the longest window over which stepping robfig/cron through
// spec's start times stays quick.
func eraWindow(spec string) int64 {
	switch spec {
	case "*/30 * * * *", "0 * * * *":
		return 20 * secondsPerDay
	case "0 0 1 * *", "0 0 1 1 *", "0 0 29 2 *", "0 0 13 * 5", "0 0 31 2 *":
		return 30 * 366 * secondsPerDay
	}
	return 3 * 366 * secondsPerDay
}

// robfigLoop is upstream's loop on robfig/cron's own schedule: t = Next(from),
// and while t is not after now, last = t and t = Next(t). ok is false when
// it comes back to a value (it never ends); done is false when it takes
// more than limit steps (the case is skipped). kubesem's TryNext stops it
// first where robfig/cron's Next itself never returns.
func robfigLoop(r cron.Schedule, s *Schedule, from, now time.Time, limit int) (last time.Time, ok, done bool) {
	seen := map[int64]bool{}
	next := func(x time.Time) (time.Time, bool) {
		if _, err := s.TryNext(x); err != nil {
			return time.Time{}, false
		}
		return r.Next(x), true
	}
	t, alive := next(from)
	for steps := 0; alive && !t.After(now); steps++ {
		if steps > limit {
			return time.Time{}, false, false
		}
		last = t
		if seen[t.Unix()] {
			return time.Time{}, false, true
		}
		seen[t.Unix()] = true
		t, alive = next(t)
	}
	return last, alive, true
}

// robfigCount counts robfig/cron's steps from after up to until, stopping
// where a step does not go forward or never returns; done is false past
// limit steps.
func robfigCount(r cron.Schedule, s *Schedule, after, until time.Time, limit int) (n int64, done bool) {
	prev := after
	for {
		if _, err := s.TryNext(prev); err != nil {
			return n, true
		}
		t := r.Next(prev)
		if t.IsZero() || !t.After(prev) || t.After(until) {
			return n, true
		}
		if n++; n > int64(limit) {
			return n, false
		}
		prev = t
	}
}

// TestErasMatchRobfig: in every zone, from every era (a missing
// creationTimestamp, before the zone's first change of offset, its first
// changes, the rule-based era, the years before 10000), Next, Count and
// upstream's loop (lastUpTo) answer what robfig/cron v3.0.1's own Next,
// stepped, answers.
func TestErasMatchRobfig(t *testing.T) {
	t.Parallel()
	zones := testZones(t)
	rapid.Check(t, func(t *rapid.T) {
		zone := rapid.SampledFrom(zones).Draw(t, "zone")
		spec := rapid.SampledFrom(eraSchedules).Draw(t, "spec")
		s, err := ParseSchedule(spec, &zone, Options{})
		if err != nil {
			t.Fatal(err)
		}
		r, err := cron.ParseStandard("TZ=" + zone + " " + spec)
		if err != nil {
			t.Fatal(err)
		}
		after := drawEra(t, s.loc, "after")
		until := after.Add(time.Duration(spread(t, "len", -10, eraWindow(spec))) * time.Second)
		if _, err := s.TryNext(after); err == nil {
			if got, want := s.Next(after), r.Next(after); !got.Equal(want) {
				t.Fatalf("Next(%v) in %s for %q = %v; robfig/cron %v", after, zone, spec, got, want)
			}
		}
		if want, done := robfigCount(r, s, after, until, 50000); done {
			if got := s.Count(after, until); got != want {
				t.Fatalf("Count(%v, %v) in %s for %q = %d; robfig/cron stepped %d", after, until, zone, spec, got, want)
			}
		}
		if want, wantOK, done := robfigLoop(r, s, after, until, 50000); done {
			got, ok := s.lastUpTo(after, until, nil)
			if ok != wantOK || (ok && !got.Equal(want)) {
				t.Fatalf("lastUpTo(%v, %v) in %s for %q = %v, %v; robfig/cron's loop %v, %v", after, until, zone, spec, got, ok, want, wantOK)
			}
		}
	})
}

// TestStepTimeSweep (CRONJOB_SWEEP=all) times Step in every zone for
// CronJobs without creationTimestamp and created in 1850, at
// 2024-11-04T05:00:00Z and at the end of 9999, and logs the slowest. It
// asserts nothing about time (TestWorkBounded bounds the work).
func TestStepTimeSweep(t *testing.T) {
	if os.Getenv("CRONJOB_SWEEP") != "all" {
		t.Skip("set CRONJOB_SWEEP=all to time Step in every zone")
	}
	type timing struct {
		d    time.Duration
		what string
	}
	var all []timing
	for _, zone := range testZones(t) {
		for _, spec := range []string{"*/30 * * * *", "0 3 * * *", "0 0 * * 0", "0 0 1 1 *"} {
			for _, created := range []time.Time{{}, time.Date(1850, 1, 1, 0, 0, 0, 0, time.UTC)} {
				for _, now := range []time.Time{time.Date(2024, 11, 4, 5, 0, 0, 0, time.UTC), time.Date(9999, 12, 31, 23, 59, 59, 0, time.UTC)} {
					cj := &CronJob{}
					cj.Name, cj.Namespace = "c", "default"
					cj.Spec.Schedule, cj.Spec.TimeZone, cj.CreationTimestamp = spec, &zone, created
					start := time.Now()
					_, err := Step(cj, nil, now, Options{})
					d := time.Since(start)
					if err != nil && !strings.Contains(err.Error(), "never finishes") {
						t.Errorf("Step in %s for %q created %v at %v: %v", zone, spec, created, now, err)
					}
					all = append(all, timing{d, zone + " " + spec + " created " + created.Format(time.RFC3339) + " at " + now.Format(time.RFC3339)})
				}
			}
		}
	}
	slices.SortFunc(all, func(a, b timing) int { return int(b.d - a.d) })
	var total time.Duration
	for _, x := range all {
		total += x.d
	}
	t.Logf("%d Steps in %v; slowest:", len(all), total)
	for _, x := range all[:10] {
		t.Logf("  %v %s", x.d, x.what)
	}
}
