package cronjob_test

import (
	"archive/zip"
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/robfig/cron/v3"
	"pgregory.net/rapid"

	"github.com/kubesem/kubesem/conformance/upstream/internal/difftest"
	kcronjob "github.com/kubesem/kubesem/cronjob"
)

// allZones lists every zone of the zone database Go ships
// ($GOROOT/lib/time/zoneinfo.zip), falling back to /usr/share/zoneinfo:
// not a hand-picked few.
func allZones(t testing.TB) []string {
	var names []string
	if r, err := zip.OpenReader(filepath.Join(runtime.GOROOT(), "lib", "time", "zoneinfo.zip")); err == nil {
		defer r.Close()
		for _, f := range r.File {
			if !strings.HasSuffix(f.Name, "/") {
				names = append(names, f.Name)
			}
		}
	} else {
		root := "/usr/share/zoneinfo"
		filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return nil
			}
			rel, _ := filepath.Rel(root, p)
			if strings.HasPrefix(rel, "posix") || strings.HasPrefix(rel, "right") || !strings.ContainsAny(rel[:1], "ABCDEFGHIJKLMNOPQRSTUVWXYZ") || strings.Contains(rel, ".") {
				return nil
			}
			names = append(names, rel)
			return nil
		})
	}
	var ok []string
	for _, n := range names {
		if _, err := time.LoadLocation(n); err == nil {
			ok = append(ok, n)
		}
	}
	slices.Sort(ok)
	if len(ok) < 300 {
		t.Fatalf("found %d zones; want the whole database", len(ok))
	}
	return ok
}

var (
	zoneOnce        sync.Once
	zones           []string
	zoneMu          sync.Mutex
	zoneTransitions = map[string][]time.Time{}
)

// zoneChanges returns the instants in 2000-2037 at which zone's UTC offset
// changes (found day by day, then to the second).
func zoneChanges(zone string) []time.Time {
	zoneMu.Lock()
	defer zoneMu.Unlock()
	if ts, ok := zoneTransitions[zone]; ok {
		return ts
	}
	loc, _ := time.LoadLocation(zone)
	off := func(t time.Time) int { _, o := t.In(loc).Zone(); return o }
	var out []time.Time
	from := time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC)
	end := time.Date(2038, 1, 1, 0, 0, 0, 0, time.UTC)
	prev := off(from)
	for t := from.Add(24 * time.Hour); t.Before(end); t = t.Add(24 * time.Hour) {
		o := off(t)
		if o == prev {
			continue
		}
		lo, hi := t.Add(-24*time.Hour).Unix(), t.Unix() // off(lo) == prev != off(hi)
		for hi-lo > 1 {
			mid := (lo + hi) / 2
			if off(time.Unix(mid, 0)) == prev {
				lo = mid
			} else {
				hi = mid
			}
		}
		out = append(out, time.Unix(hi, 0).UTC())
		prev = o
	}
	zoneTransitions[zone] = out
	return out
}

// zoneCounting is a cron.Schedule that stops a walk (by panicking with
// zoneEndless) after limit calls of Next: upstream's loops have no bound, and
// a test must not hang where they never end.
//
// One robfig/cron Next call can itself never return (Pacific/Apia and
// Pacific/Fakaofo around their skipped 2011-12-30); such a call cannot be
// stopped, so zoneCounting asks kubesem's TryNext first (check, when set) and
// stops the walk there. That TryNext answers ErrNeverEnds exactly on those
// calls is the cronjob package's TestTryNextSkippedDay: it pins the
// calendar fixed point robfig/cron loops on and agrees with robfig/cron
// everywhere around it.
type zoneCounting struct {
	inner cron.Schedule
	n     int
	limit int
	check *kcronjob.Schedule
	// seen, when not nil, counts every argument: Next is a function of
	// its argument alone, so upstream's loop (t = Next(t)) that meets an
	// argument again repeats for ever. Outside the loop upstream asks for
	// the same argument again (Next(earliest) for the requeue, Next(t1)
	// from an estimate of two), so a walk counts as endless when one
	// argument comes a fifth time.
	seen map[int64]int
}

type zoneEndless struct{}

func (c *zoneCounting) Next(t time.Time) time.Time {
	c.n++
	if c.n > c.limit {
		panic(zoneEndless{})
	}
	if c.seen != nil {
		if c.seen[t.UnixNano()]++; c.seen[t.UnixNano()] > 4 {
			panic(zoneEndless{})
		}
	}
	if c.check != nil {
		if _, err := c.check.TryNext(t); err != nil {
			panic(zoneEndless{})
		}
	}
	return c.inner.Next(t)
}

// zoneRun calls f, reporting whether it was stopped by zoneCounting.
func zoneRun(f func()) (endless bool) {
	defer func() {
		if r := recover(); r != nil {
			if _, ok := r.(zoneEndless); !ok {
				panic(r)
			}
			endless = true
		}
	}()
	f()
	return false
}

// zoneLimit is how many Next calls upstream gets before a walk counts as
// never ending: far more than any walk that ends takes on the states
// drawn here (with seen set, a cycle is found exactly, long before).
const zoneLimit = 1<<20 + 16

// checkZonesDifferential draws a zone of the whole database, one of its
// offset changes between 2000 and 2037 (any time for zones without one), a
// schedule and a CronJob whose times lie within two days of the change, and
// compares Next, MostRecent (both deadline modes), RequeueAfter and a whole
// sync with upstream. Where upstream's walk never ends, kubesem must say
// so (ErrNeverEnds) rather than answer.
func checkZonesDifferential(counts map[string]int) func(*rapid.T) {
	return func(t *rapid.T) {
		zone := rapid.SampledFrom(zones).Draw(t, "zone")
		changes := zoneChanges(zone)
		var center time.Time
		if len(changes) > 0 {
			center = rapid.SampledFrom(changes).Draw(t, "change")
		} else {
			center = time.Date(2000+rapid.IntRange(0, 37).Draw(t, "year"), 6, 1, 0, 0, 0, 0, time.UTC)
		}
		near := func(label string) time.Time {
			unit := rapid.SampledFrom([]time.Duration{time.Second, time.Minute, 15 * time.Minute, time.Hour}).Draw(t, label+"Unit")
			k := rapid.Int64Range(-int64(48*time.Hour/unit), int64(48*time.Hour/unit)).Draw(t, label)
			return center.Add(time.Duration(k) * unit)
		}
		cj, _ := drawCronJob(t)
		cj.Spec.TimeZone = &zone
		cj.CreationTimestamp = near("created")
		cj.Status.LastScheduleTime = nil
		if rapid.Bool().Draw(t, "hasLast") {
			last := near("last")
			if last.Before(cj.CreationTimestamp) {
				last = cj.CreationTimestamp
			}
			cj.Status.LastScheduleTime = &last
		}
		now := near("now")
		ucj := difftest.UpCronJob(cj)
		sched, err := upSchedule(ucj)
		if err != nil {
			t.Fatalf("upstream cannot parse %q in %s: %v", cj.Spec.Schedule, zone, err)
		}
		s, err := kcronjob.ParseSchedule(cj.Spec.Schedule, cj.Spec.TimeZone, kcronjob.Options{})
		if err != nil {
			t.Fatalf("ParseSchedule(%q, %s) = %v", cj.Spec.Schedule, zone, err)
		}
		if _, err := s.TryNext(now); err != nil {
			if !errors.Is(err, kcronjob.ErrNeverEnds) || (zone != "Pacific/Apia" && zone != "Pacific/Fakaofo") {
				t.Fatalf("TryNext(%v) in %s for %q = %v", now, zone, cj.Spec.Schedule, err)
			}
			counts["next never ends"]++
		} else if got, want := s.Next(now), sched.Next(now); !got.Equal(want) {
			t.Fatalf("Next(%v) in %s for %q = %v; robfig %v", now, zone, cj.Spec.Schedule, got, want)
		}
		for _, deadline := range []bool{false, true} {
			var earliest time.Time
			var recent *time.Time
			var missed int
			var uerr error
			endless := zoneRun(func() {
				earliest, recent, missed, uerr = upMostRecentScheduleTime(ucj, now, &zoneCounting{inner: sched, limit: zoneLimit, check: s}, deadline)
			})
			r, err := kcronjob.MostRecent(cj, s, now, kcronjob.Deadline(deadline))
			if endless {
				counts["upstream never ends"]++
				if !errors.Is(err, kcronjob.ErrNeverEnds) {
					t.Fatalf("upstream's mostRecentScheduleTime never ends in %s for %q at %v; MostRecent = %v, %v", zone, cj.Spec.Schedule, now, r, err)
				}
				continue
			}
			if (err != nil) != (uerr != nil) {
				t.Fatalf("MostRecent error in %s for %q at %v = %v; upstream %v", zone, cj.Spec.Schedule, now, err, uerr)
			}
			var want time.Time
			if recent != nil {
				want = *recent
			}
			if !r.Earliest.Equal(earliest) || !r.Time.Equal(want) || int(r.Missed) != missed {
				t.Fatalf("MostRecent in %s for %q at %v (deadline %v) = %v, %v, %v; upstream %v, %v, %d", zone, cj.Spec.Schedule, now, deadline, r.Earliest, r.Time, r.Missed, earliest, want, missed)
			}
			counts["compared"]++
		}
		var wantAfter *time.Duration
		endless := zoneRun(func() {
			wantAfter = upNextScheduleTimeDuration(ucj, now, &zoneCounting{inner: sched, limit: zoneLimit, check: s})
		})
		after, err := kcronjob.RequeueAfter(cj, s, now)
		switch {
		case endless:
			if !errors.Is(err, kcronjob.ErrNeverEnds) {
				t.Fatalf("upstream's nextScheduleTimeDuration never ends in %s for %q at %v; RequeueAfter = %v, %v", zone, cj.Spec.Schedule, now, after, err)
			}
		case err != nil || after != *wantAfter:
			t.Fatalf("RequeueAfter in %s for %q at %v = %v, %v; upstream %v", zone, cj.Spec.Schedule, now, after, err, *wantAfter)
		}
		p, err := kcronjob.Step(cj, nil, now, kcronjob.Options{})
		if errors.Is(err, kcronjob.ErrNeverEnds) {
			// The sync reached a walk upstream never finishes; the
			// unbounded upstream sync is not run.
			counts["step: upstream never ends"]++
			return
		}
		if err != nil {
			t.Fatalf("Step: %v", err)
		}
		want, ok := zoneStepWant(cj, now)
		if !ok {
			t.Fatalf("upstream's sync in %s for %q at %v (created %v, last %v) does not finish; Step = %+v", zone, cj.Spec.Schedule, now, cj.CreationTimestamp, cj.Status.LastScheduleTime, p)
		}
		got := planShape(p)
		for k, w := range want {
			if !reflect.DeepEqual(got[k], w) {
				t.Fatalf("Step in %s for %q at %v: %s = %#v; upstream %#v", zone, cj.Spec.Schedule, now, k, got[k], w)
			}
		}
		counts["steps compared"]++
	}
}

// TestCronJobZonesDifferential runs checkZonesDifferential over the whole
// zone database (CRONJOB_ZONES=all runs every zone × change exhaustively
// for Next instead of sampling).
func TestCronJobZonesDifferential(t *testing.T) {
	zoneOnce.Do(func() { zones = allZones(t) })
	counts := map[string]int{}
	rapid.Check(t, checkZonesDifferential(counts))
	t.Logf("%d zones; %v", len(zones), counts)
	if counts["compared"] == 0 {
		t.Fatal("nothing compared")
	}
	if os.Getenv("CRONJOB_ZONES") == "all" {
		zoneExhaustiveNext(t)
	}
}

// zoneExhaustiveNext compares Next with robfig/cron's on every zone, every
// change and a fixed set of schedules, every 15 minutes from two hours
// before each change to two hours after.
func zoneExhaustiveNext(t *testing.T) {
	schedules := []string{"0 3 * * *", "30 2 * * *", "*/15 * * * *", "0 0 * * *", "45 1 * * 0", "0 */2 * * *"}
	n := 0
	for _, zone := range zones {
		for _, spec := range schedules {
			tz := zone
			s, err := kcronjob.ParseSchedule(spec, &tz, kcronjob.Options{})
			if err != nil {
				t.Fatal(err)
			}
			r, err := cron.ParseStandard("CRON_TZ=" + zone + " " + spec)
			if err != nil {
				t.Fatal(err)
			}
			for _, c := range zoneChanges(zone) {
				for d := -2 * time.Hour; d <= 2*time.Hour; d += 15 * time.Minute {
					at := c.Add(d)
					if got, want := s.Next(at), r.Next(at); !got.Equal(want) {
						t.Fatalf("Next(%v) in %s for %q = %v; robfig %v", at, zone, spec, got, want)
					}
					n++
				}
			}
		}
	}
	t.Logf("exhaustive Next: %d comparisons", n)
}

// TestCronJobZoneStepVectorsUpstream: the vectors of
// testdata/cronjob/zones_step.json (one per zone class: 30-minute shift,
// 02:45 shift, midnight shift, whole-hour gap and fall-back) are upstream's
// answers: the same input through upstream's sync gives what kubesem's Step
// gives (the conformance run checks kubesem against the vectors).
func TestCronJobZoneStepVectorsUpstream(t *testing.T) {
	b, err := os.ReadFile(difftest.Repo("testdata", "cronjob", "zones_step.json"))
	if err != nil {
		t.Fatal(err)
	}
	var vs []struct {
		Name  string `json:"name"`
		Input struct {
			CronJob kcronjob.CronJob `json:"cronJob"`
			Now     time.Time        `json:"now"`
		} `json:"input"`
	}
	if err := json.Unmarshal(b, &vs); err != nil {
		t.Fatal(err)
	}
	for _, v := range vs {
		p, err := kcronjob.Step(&v.Input.CronJob, nil, v.Input.Now, kcronjob.Options{})
		if err != nil {
			t.Fatalf("%s: %v", v.Name, err)
		}
		want, _ := stepWant(&v.Input.CronJob, nil, v.Input.Now)
		got := planShape(p)
		for k, w := range want {
			if !reflect.DeepEqual(got[k], w) {
				t.Errorf("%s: %s = %#v; upstream %#v", v.Name, k, got[k], w)
			}
		}
	}
	if len(vs) < 5 {
		t.Fatalf("%d zone vectors; want one per zone class", len(vs))
	}
}

// zoneStepWant is stepWant with a watchdog: where upstream's sync does not
// finish within a minute (kubesem said it would), the test reports the
// case instead of hanging (the stuck goroutine is left behind).
func zoneStepWant(cj *kcronjob.CronJob, now time.Time) (map[string]any, bool) {
	done := make(chan map[string]any, 1)
	go func() {
		want, _ := stepWant(cj, nil, now)
		done <- want
	}()
	select {
	case want := <-done:
		return want, true
	case <-time.After(time.Minute):
		return nil, false
	}
}

// TestCronJobNeverEndsVectorsUpstream: each vector of
// testdata/cronjob/never.json, where kubesem answers ErrNeverEnds, makes
// upstream's mostRecentScheduleTime (or nextScheduleTimeDuration) call
// robfig/cron's Next more than zoneLimit times without finishing.
func TestCronJobNeverEndsVectorsUpstream(t *testing.T) {
	b, err := os.ReadFile(difftest.Repo("testdata", "cronjob", "never.json"))
	if err != nil {
		t.Fatal(err)
	}
	var vs []struct {
		Decision string `json:"decision"`
		Name     string `json:"name"`
		Input    struct {
			CronJob kcronjob.CronJob `json:"cronJob"`
			Now     time.Time        `json:"now"`
		} `json:"input"`
	}
	if err := json.Unmarshal(b, &vs); err != nil {
		t.Fatal(err)
	}
	for _, v := range vs {
		ucj := difftest.UpCronJob(&v.Input.CronJob)
		sched, err := upSchedule(ucj)
		if err != nil {
			t.Fatal(err)
		}
		endless := zoneRun(func() {
			counting := &zoneCounting{inner: sched, limit: zoneLimit, seen: map[int64]int{}}
			if v.Decision == "cronjob.RequeueAfter" {
				upNextScheduleTimeDuration(ucj, v.Input.Now, counting)
			} else {
				upMostRecentScheduleTime(ucj, v.Input.Now, counting, false)
			}
		})
		if !endless {
			t.Errorf("%s: upstream finishes", v.Name)
		}
	}
	if len(vs) < 3 {
		t.Fatalf("%d vectors", len(vs))
	}
}
