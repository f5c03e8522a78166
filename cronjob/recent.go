package cronjob

import (
	"errors"
	"fmt"
	"time"

	"github.com/kubesem/kubesem/field"
)

// Missed classifies how many start times v1.36.3 believes were missed.
type Missed int

// Missed classes.
const (
	MissedNone Missed = iota // at most the most recent start time is due
	MissedFew                // 1 to 100 by upstream's estimate
	MissedMany               // more than 100 by upstream's estimate
)

// String returns "none", "few" or "many".
// MarshalJSON encodes m as its name: "none", "few" or "many".
func (m Missed) MarshalJSON() ([]byte, error) { return []byte(`"` + m.String() + `"`), nil }

func (m Missed) String() string {
	switch m {
	case MissedFew:
		return "few"
	case MissedMany:
		return "many"
	}
	return "none"
}

// TooManyMissedThreshold is the estimate above which a CronJob has missed
// "many" start times.
const TooManyMissedThreshold = 100

// ErrNoInterval is wrapped by the error [MostRecent] returns when the two
// first start times after the earliest time are less than a second apart
// (upstream's answer for schedules that never fire, such as "0 0 31 2 *").
var ErrNoInterval = errors.New("time difference between two schedules is less than 1 second")

// ErrNeverEnds is wrapped by the error [Schedule.TryNext], [MostRecent],
// [RequeueAfter] and [Step] return where v1.36.3's controller never
// finishes: either one robfig/cron Next call never returns (Pacific/Apia
// and Pacific/Fakaofo around the day they skipped, 2011-12-30), or
// stepping from the estimate with Next comes back to a start time it has
// already visited (Next answering a time before its argument, as after
// Pacific/Chatham's 02:45 offset change, or the zero time of a schedule
// that does not fire within five years) without passing now, so upstream's
// loop runs forever and the sync never returns. There is no upstream
// answer to mirror; kubesem says so instead of answering.
var ErrNeverEnds = errors.New("v1.36.3's controller never finishes this sync: robfig/cron's walk or the stepping from the estimate never ends")

// Recent is [MostRecent]'s answer.
type Recent struct {
	// Earliest is where the search starts: lastScheduleTime, else the
	// creation time, raised to now − startingDeadlineSeconds when that is
	// later and the deadline is included.
	Earliest time.Time
	// Time is the most recent start time at or before now, zero when none.
	Time time.Time
	// Missed is upstream's class for the estimated number of missed times.
	Missed Missed
	// Estimate is upstream's estimate: ⌊(now − t1)/(t2 − t1)⌋ + 1, with t1
	// and t2 the first two start times after Earliest; 0 when now < t2.
	Estimate int64
	// Count is the exact number of start times in (Earliest, now].
	Count int64
}

// Deadline says whether [MostRecent] raises Earliest to now −
// startingDeadlineSeconds.
type Deadline bool

// Deadline modes.
const (
	IgnoreDeadline Deadline = false // the requeue delay's view ([RequeueAfter])
	WithDeadline   Deadline = true  // the controller's view when it decides
)

// MostRecent returns the latest start time at or before now that the
// CronJob has not yet run, with upstream's missed-schedule class, exactly
// as v1.36.3 computes it. With t1 the first start time after Earliest and
// t2 the one after it:
//
//   - now < t1: no start time, MissedNone;
//   - now < t2: t1, still MissedNone although t1 was missed;
//   - otherwise Δ = t2 − t1 rounded to whole seconds (an error wrapping
//     ErrNoInterval when Δ < 1 s), the estimate n = ⌊(now − t1)/Δ⌋ + 1
//     (MissedMany when n > 100, else MissedFew), and the answer is the last
//     start time at or before now found stepping from t1 + (n−2)·Δ. For
//     irregular schedules (say "30 6-16/4 * * 1-5") that starting point
//     can overshoot, and then there is no answer even though start times
//     were missed (kubernetes/kubernetes#118706). now − t1 is a
//     time.Duration, which saturates at about 292 years, so after a longer
//     gap (a CronJob without creationTimestamp reads as created in year 1)
//     the estimate is that of 292 years and the stepping starts about 292
//     years after t1: v1.36.3 steps every start time from there, kubesem
//     answers the same without the steps.
//
// Count is exact whatever the estimate says. WithDeadline includes
// startingDeadlineSeconds in Earliest, as the controller does when it
// decides; the requeue delay ([RequeueAfter]) leaves it out.
//
// Source: upstream pkg/controller/cronjob/utils.go mostRecentScheduleTime
// (v1.36.3).
func MostRecent(cj *CronJob, s *Schedule, now time.Time, deadline Deadline) (Recent, error) {
	return mostRecent(cj, s, now, deadline, nil)
}

// mostRecent is MostRecent, its work counted in m.
func mostRecent(cj *CronJob, s *Schedule, now time.Time, deadline Deadline, m *meter) (Recent, error) {
	var r Recent
	if cj == nil || s == nil {
		return r, field.New("", "", field.ErrRequired)
	}
	r.Earliest = cj.CreationTimestamp
	if cj.Status.LastScheduleTime != nil {
		r.Earliest = *cj.Status.LastScheduleTime
	}
	if deadline == WithDeadline && cj.Spec.StartingDeadlineSeconds != nil {
		if d := now.Add(-time.Second * time.Duration(*cj.Spec.StartingDeadlineSeconds)); d.After(r.Earliest) {
			r.Earliest = d
		}
	}
	m.walk()
	t1, ok1 := s.next(r.Earliest)
	m.walk()
	t2, ok2 := s.next(t1)
	if !ok1 || !ok2 {
		return Recent{Earliest: r.Earliest}, neverEnds(cj)
	}
	if now.Before(t1) {
		return r, nil
	}
	r.Count = s.count(r.Earliest, now, m)
	if now.Before(t2) {
		r.Time = t1
		return r, nil
	}
	delta := int64(t2.Sub(t1).Round(time.Second).Seconds())
	if delta < 1 {
		return Recent{Earliest: r.Earliest}, field.New("spec.schedule", cj.Spec.Schedule, fmt.Errorf("%w: %w", field.ErrInvalid, ErrNoInterval))
	}
	r.Estimate = int64(now.Sub(t1).Seconds())/delta + 1
	from := t1.Add(time.Duration((r.Estimate-1-1)*delta) * time.Second)
	last, ok := s.lastUpTo(from, now, m)
	if !ok {
		return Recent{Earliest: r.Earliest}, neverEnds(cj)
	}
	r.Time = last
	if r.Estimate > TooManyMissedThreshold {
		r.Missed = MissedMany
	} else if r.Estimate > 0 {
		r.Missed = MissedFew
	}
	return r, nil
}

// neverEnds is the error for a CronJob whose sync v1.36.3 never finishes.
func neverEnds(cj *CronJob) error {
	return field.New("spec.schedule", cj.Spec.Schedule, fmt.Errorf("%w: %w", field.ErrUnsupported, ErrNeverEnds))
}

// lastUpTo returns the last start time at or before now when stepping Next
// from from, as upstream's loop does (t = Next(from); while t is not after
// now: last = t, t = Next(t)), or the zero time when the first step is
// already after now. ok is false when the stepping cycles (a start time
// comes back) before passing now: upstream's loop then never ends.
//
// Over more than two 400-year cycles reaching into the zone's rule-based
// era (see cycles) it follows the loop to a start time v in that era and
// over one cycle from v; when the loop comes back to v + cycle it repeats,
// shifted, every cycle, and the answer is the one for now less the whole
// cycles, shifted back.
func (s *Schedule) lastUpTo(from, now time.Time, m *meter) (time.Time, bool) {
	x, u := from.Unix(), now.Unix() // start times are whole seconds
	last, some, ok := int64(0), false, true
	if s.delay == 0 && u-x > 2*cycle {
		if rule, isRule := s.ruleEra(); isRule && u-max(x, rule+2*resetReach) > 2*cycle {
			last, some, ok = s.visitCycles(x, u, rule+2*resetReach, m)
		} else {
			last, some, ok = s.visit(x, u, m)
		}
	} else {
		last, some, ok = s.visit(x, u, m)
	}
	if !ok {
		return time.Time{}, false
	}
	if !some {
		return time.Time{}, true
	}
	return time.Unix(last, 0).In(from.Location()), true
}

// visitCycles is visit over a window of more than two cycles from at least
// two cycles before u to u, rule-based after start.
func (s *Schedule) visitCycles(x, u, start int64, m *meter) (last int64, some, ok bool) {
	base := max(x, start)
	last, some, ok = s.visit(x, base+2*366*secondsPerDay, m)
	if !ok || !some || last < start {
		return s.visit(x, u, m)
	}
	v := last
	k, rem := (u-v)/cycle, (u-v)%cycle
	lr, someR, okR := s.visit(v, v+rem, m)
	lc, someC, okC := s.visit(v, v+cycle, m)
	if !okR || !okC || !someC || lc != v+cycle {
		return s.visit(x, u, m)
	}
	// The loop from v reaches v + cycle and repeats from there shifted
	// by a cycle, every value of a cycle at or before its end.
	if !someR {
		return v + k*cycle, true, true
	}
	return lr + k*cycle, true, true
}

// visit is upstream's loop from Unix second x up to u: the last value it
// reaches at or before u (some false when the first step passes u); ok is
// false when the loop comes back to a value it reached, so never ends.
//
// Stretches between steps that do not go forward are taken by steps; a
// step that does not go forward is taken like any other (the zero time
// robfig/cron answers when it finds nothing is an instant,
// 0001-01-01T00:00:00Z, stepped from like any other). Next is a function of
// its argument alone and a cycle needs a step that does not go forward, so
// remembering those steps' results finds every cycle.
func (s *Schedule) visit(x, u int64, m *meter) (last int64, some, ok bool) {
	var seen map[int64]bool
	for {
		r := s.steps(x, u, m)
		if r.endless {
			return 0, false, false
		}
		if r.n > 0 {
			last, some = r.last, true
		}
		if !r.back || r.next.Unix() > u {
			return last, some, true
		}
		// The step goes back (or to the zero time): the loop reaches its
		// result and steps on from there.
		m.restart()
		y := r.next.Unix()
		if seen == nil {
			seen = map[int64]bool{}
		}
		if seen[y] {
			return 0, false, false
		}
		seen[y] = true
		last, some, x = y, true, y
	}
}

// ScheduledTime returns the start time the controller acts on now: the
// most recent unmet start time with the starting deadline included, or the
// zero time when none is due, with the missed class (the controller warns
// TooManyMissedTimes when it is MissedMany and a time is due). The error is
// MostRecent's.
//
// Source: upstream pkg/controller/cronjob/utils.go nextScheduleTime (v1.36.3).
func ScheduledTime(cj *CronJob, s *Schedule, now time.Time) (Recent, error) {
	r, err := MostRecent(cj, s, now, WithDeadline)
	if r.Time.IsZero() || r.Time.After(now) {
		r.Time = time.Time{}
	}
	return r, err
}

// RequeueDelta is added to every requeue delay to absorb clock skew.
const RequeueDelta = 100 * time.Millisecond

// RequeueAfter returns how long the controller waits before looking at the
// CronJob again: until the start time after the most recent one (without
// the starting deadline), plus 100 ms. When MostRecent finds no time it
// counts from Earliest if nothing was missed, else from now; when
// MostRecent fails it counts from now, except where upstream never
// finishes (an error wrapping [ErrNeverEnds]). The result can be negative
// when the schedule never fires (Next returns the zero time).
//
// Source: upstream pkg/controller/cronjob/utils.go nextScheduleTimeDuration
// (v1.36.3).
func RequeueAfter(cj *CronJob, s *Schedule, now time.Time) (time.Duration, error) {
	r, err := MostRecent(cj, s, now, IgnoreDeadline)
	if errors.Is(err, ErrNeverEnds) {
		return 0, err
	}
	from := r.Time
	switch {
	case err != nil:
		from = now
	case from.IsZero() && r.Missed == MissedNone:
		from = r.Earliest
	case from.IsZero():
		from = now
	}
	next, ok := s.next(from)
	if !ok {
		return 0, neverEnds(cj)
	}
	return next.Add(RequeueDelta).Sub(now), nil
}

// IsTooLate reports whether a start time is past the starting deadline:
// scheduled + startingDeadlineSeconds < now, strictly. Without a deadline it
// is never too late.
//
// Source: upstream pkg/controller/cronjob/cronjob_controllerv2.go
// syncCronJob (v1.36.3).
func IsTooLate(cj *CronJob, scheduled, now time.Time) bool {
	if cj == nil || cj.Spec.StartingDeadlineSeconds == nil {
		return false
	}
	return scheduled.Add(time.Second * time.Duration(*cj.Spec.StartingDeadlineSeconds)).Before(now)
}
