package cronjob

import (
	"errors"
	"fmt"
	"math"
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
//     were missed (kubernetes/kubernetes#118706).
//
// Count is exact whatever the estimate says. WithDeadline includes
// startingDeadlineSeconds in Earliest, as the controller does when it
// decides; the requeue delay ([RequeueAfter]) leaves it out.
//
// Source: upstream pkg/controller/cronjob/utils.go mostRecentScheduleTime
// (v1.36.3).
func MostRecent(cj *CronJob, s *Schedule, now time.Time, deadline Deadline) (Recent, error) {
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
	t1, ok1 := s.next(r.Earliest)
	t2, ok2 := s.next(t1)
	if !ok1 || !ok2 {
		return Recent{Earliest: r.Earliest}, neverEnds(cj)
	}
	if now.Before(t1) {
		return r, nil
	}
	r.Count = s.Count(r.Earliest, now)
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
	last, ok := s.lastUpTo(from, now)
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
// from from, or the zero time when the first step is already after now. ok
// is false when the stepping cycles (a start time comes back) before
// passing now: upstream's loop then never ends.
func (s *Schedule) lastUpTo(from, now time.Time) (last time.Time, ok bool) {
	t, ok := s.next(from)
	if !ok {
		return time.Time{}, false
	}
	if s.delay > 0 && !t.After(now) {
		// Every step adds the interval: jump to the last one.
		k := int64(now.Sub(t) / s.delay)
		t = t.Add(time.Duration(k) * s.delay)
	}
	// Next is a function of its argument alone, so the walk cycles exactly
	// when a time repeats; a repeat needs a step that does not go forward,
	// so only times reached by such steps are remembered.
	var seen map[int64]bool
	prev := t
	for steps := 0; !t.After(now); steps++ {
		last = t
		if steps >= maxSteps {
			return last, false
		}
		if t, ok = s.next(t); !ok {
			return time.Time{}, false
		}
		if !t.After(prev) {
			if seen == nil {
				seen = map[int64]bool{}
			}
			key := t.UnixNano()
			if t.IsZero() {
				key = math.MinInt64
			}
			if seen[key] {
				return time.Time{}, false
			}
			seen[key] = true
		}
		prev = t
	}
	return last, true
}

// maxSteps bounds the stepping in lastUpTo: a walk that long without
// passing now is reported as never ending (no real schedule needs it: the
// estimate starts the walk one interval before now).
const maxSteps = 1 << 20

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
