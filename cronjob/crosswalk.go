package cronjob

import "math/bits"

// crossSteps follows robfig/cron's walk across one change of offset
// (crossing.go) where plainChange cannot vouch for it, on a model of the
// zone that has only that change: its own walk (next.go), step by step,
// with the clock's and time.Date's answers computed from the two offsets,
// and runs of steps that cannot meet the change taken at once. It starts
// where the canonical walk stands just before the change, takes the steps
// robfig/cron takes, new walks from the start times they return
// included, and stops at the first test the walk makes, at or after the
// change, from which it is canonical again. Up to that point it counts the
// start times robfig/cron returns and those of the wall clock, and
// returns the difference: what the count on the wall clock (with the
// change's skipped wall times left out and its repeated ones counted
// twice) misses.

// crossModel is a zone with one change of offset, from o1 to o2 at
// instant e; the walk may visit instants in [lo, hi), where no other
// change lies within a day.
type crossModel struct {
	e, o1, o2, lo, hi int64
}

func (c *crossModel) off(x int64) int64 {
	if x < c.e {
		return c.o1
	}
	return c.o2
}

// fields returns the wall-clock reading at instant x.
func (c *crossModel) fields(x int64) wall {
	l := x + c.off(x)
	days := floorDiv(l, secondsPerDay)
	sod := int(l - days*secondsPerDay)
	y, m, d := civil(days)
	return wall{year: y, month: m, day: d, hour: sod / 3600, min: sod % 3600 / 60, sec: sod % 60, weekday: weekday(days)}
}

// date is time.Date's answer for the wall reading y-m-d h:mi:sec (month up
// to 13, day past the month's end) on the model, as clock.date.
func (c *crossModel) date(y int64, m, d, h, mi, sec int) int64 {
	if m > 12 {
		y, m = y+1, m-12
	}
	x := dayNumber(y, m, d)*secondsPerDay + int64(h*3600+mi*60+sec)
	if off := c.off(x); off != 0 {
		if utc := x - off; (utc < c.e) != (x < c.e) {
			off = c.off(utc) // outside the stretch package time found for x
		}
		x -= off
	}
	return x
}

// walk phases: the test the walk is about to make.
const (
	phWrap = iota
	phMonth
	phDay
	phHour
	phMinute
)

// crossBudget bounds the steps crossSteps takes before it gives up.
const crossBudget = 400

// crossSteps returns how many more start times robfig/cron's steps visit
// up to u than the instants whose wall time the schedule selects, across
// a change of offset from o1 to o2 at e that steps from a start time reach
// canonically, no other change lying in [lo−day, hi+day), in a window that
// starts at a. It compares them from the change on, or, where the change
// repeats a midnight, from that midnight's first pass: the walk's day and
// month loops ask time.Date for midnights, which may answer the second
// pass, so the walk may cross there. ok is false where it cannot tell:
// offsets or the change not in whole minutes, a change of 12 hours or more
// (a skipped or repeated day, whose walk can cross a wall time twice), a
// second field other than "0", a window that starts after the comparison
// does, or a walk that leaves [lo, hi), takes more than crossBudget steps,
// reaches past the year it searches to, returns a time at or before the
// one before it or before the comparison starts, or never ends.
func (s *Schedule) crossSteps(e, o1, o2, lo, hi, a, u int64) (delta int64, ok bool) {
	if o1%60 != 0 || o2%60 != 0 || e%60 != 0 || s.second != 1 || max(o2-o1, o1-o2) >= 12*3600 {
		return 0, false
	}
	c := crossModel{e: e, o1: o1, o2: o2, lo: lo, hi: hi}
	from := e + o1 // the first wall time (on o1's clock) the walk may reach on o2's
	if m := floorDiv(e+o2+secondsPerDay-1, secondsPerDay) * secondsPerDay; m < from {
		from = m // a repeated midnight
	}
	t0 := from - o1 // where the comparison starts
	if t0 <= a {
		return 0, false
	}
	// Where the canonical walk stands just before t0 (see crossing.go),
	// with the first limit it may see on the year: its walk began at the
	// last start time, less than two years before.
	w := c.fields(t0 - 1)
	ph, x := phMinute, t0-60
	switch {
	case s.month>>uint(w.month)&1 == 0:
		ph, x = phMonth, dayNumber(w.year, w.month, 1)*secondsPerDay-o1
	case !s.dayOf(w):
		ph, x = phDay, dayNumber(w.year, w.month, w.day)*secondsPerDay-o1
	case s.hour>>uint(w.hour)&1 == 0:
		ph, x = phHour, dayNumber(w.year, w.month, w.day)*secondsPerDay+int64(w.hour*3600)-o1
	case s.minute>>uint(w.min)&1 != 0:
		// The minute before t0 is a start time: the walk from it tests
		// the whole reading at t0.
		ph, x = phWrap, t0
	}
	limit := w.year + 3
	// wall counts the instants in [t0, end] whose wall time is selected.
	wall := func(end int64) int64 {
		if end < t0 {
			return 0
		}
		n := s.countLocal(from-1, min(end, e-1)+o1)
		if end >= e {
			n += s.countLocal(e-1+o2, end+o2)
		}
		return n
	}
	var visited int64 // robfig/cron's start times from t0 up to u
	emitted := false  // the walk returned a start time
	last := t0 - 1
	budget := crossBudget
	fresh := false
	for {
		r, canon, ok := s.crossWalk(&c, ph, x, fresh, limit, &budget)
		if !ok {
			return 0, false
		}
		if canon {
			if !emitted {
				// The walk that crossed the change, begun at a start
				// time before it, goes on from r to the wall clock's
				// next start time, unless the change it meets next
				// sends it astray again, year after year, until it
				// gives up (America/Asuncion's October 1 midnights in
				// the 1980s, "@yearly"): it must get there first.
				if n, ok := s.nextLocal(r + o2); !ok || n-o2 >= hi {
					return 0, false
				}
			}
			// Canonical from r on: the start times in [t0, r) are the
			// ones to compare.
			return visited - wall(min(r-1, u)), true
		}
		if r <= last {
			return 0, false
		}
		emitted = true
		if r > u {
			// The window ends before r: what follows does not count.
			return visited - wall(u), true
		}
		visited++
		// The next walk, from r: fresh, from the next second.
		last, ph, x, fresh = r, phWrap, r+1, true
		limit = c.fields(r+1).year + 5
	}
}

// crossWalk takes robfig/cron's walk on c from phase ph at instant x
// (fresh: no field moved yet; limit: the last year it searches). It
// returns the time the walk returns, or (canon) a test at or after the
// change from which the walk is canonical; ok is false where crossSteps
// cannot tell (see there).
func (s *Schedule) crossWalk(c *crossModel, ph int, x int64, fresh bool, limit int64, budget *int) (r int64, canon, ok bool) {
	f := c.fields(x) // the reading at x, read again whenever x moves
	for {
		if *budget--; *budget < 0 || x < c.lo || x >= c.hi {
			return 0, false, false
		}
		if x >= c.e && s.canonical(ph, f) {
			return x, true, true
		}
		switch ph {
		case phWrap:
			if f.year > limit {
				// robfig/cron answers the zero time (or, on the first
				// walk, whose start is not known, may not).
				return 0, false, false
			}
			ph = phMonth
		case phMonth:
			if s.month>>uint(f.month)&1 != 0 {
				ph = phDay
				continue
			}
			if fresh {
				fresh = false
				x = c.date(f.year, f.month, 1, 0, 0, 0)
				f = c.fields(x)
			}
			x = c.date(f.year, f.month+1, f.day, f.hour, f.min, f.sec)
			if f = c.fields(x); f.month == 1 {
				ph = phWrap
			}
		case phDay:
			if s.dayOf(f) {
				ph = phHour
				continue
			}
			if fresh {
				fresh = false
				x = c.date(f.year, f.month, f.day, 0, 0, 0)
				f = c.fields(x)
			}
			if k, ok := s.dayRun(c, x, f); ok {
				// Whole days on, far from the change.
				x += int64(k) * secondsPerDay
			} else {
				prev := x
				x = c.date(f.year, f.month, f.day+1, f.hour, f.min, f.sec)
				if h := int64(c.fields(x).hour); h > 12 {
					x += (24 - h) * 3600
				} else if h != 0 {
					x -= h * 3600
				}
				if x == prev {
					return 0, false, false // the skipped-day walk: never ends
				}
			}
			if f = c.fields(x); f.day == 1 {
				ph = phWrap
			}
		case phHour:
			if s.hour>>uint(f.hour)&1 != 0 {
				ph = phMinute
				continue
			}
			if fresh {
				fresh = false
				x = c.date(f.year, f.month, f.day, f.hour, 0, 0)
				f = c.fields(x)
			}
			// Hours on: to the next selected hour or to hour 0.
			k := 24 - f.hour
			if n := nextBit(s.hour&(1<<24-1), f.hour+1); n >= 0 {
				k = n - f.hour
			}
			x = c.run(x, 3600, k)
			if f = c.fields(x); f.hour == 0 {
				ph = phWrap
			}
		case phMinute:
			if s.minute>>uint(f.min)&1 != 0 {
				if f.sec == 0 { // the second field is "0"
					return x, false, true
				}
				// On to the next minute (robfig/cron's second loop).
				x += int64(60 - f.sec)
				f = c.fields(x)
				fresh, ph = false, phWrap
				continue
			}
			if fresh {
				fresh = false
				x = floorDiv(x, 60) * 60
				f = c.fields(x)
			}
			k := 60 - f.min
			if n := nextBit(s.minute&(1<<60-1), f.min+1); n >= 0 {
				k = n - f.min
			}
			x = c.run(x, 60, k)
			if f = c.fields(x); f.min == 0 {
				ph = phWrap
			}
		}
	}
}

// run returns where k steps of d seconds from x lead, or the first of
// them at or after the change if they cross it (the walk tests that one
// before going on).
func (c *crossModel) run(x, d int64, k int) int64 {
	if to := x + d*int64(k); x >= c.e || to < c.e {
		return to
	}
	return x + (c.e-x+d-1)/d*d
}

// dayRun returns how many of the day loop's steps from x, in hour 0
// (reading f) of a day not selected, it takes before a selected day or the
// 1st of the next month, when all of them stay at least two days from the
// change (each then adds a day); ok is false otherwise (the walk then
// steps one day).
func (s *Schedule) dayRun(c *crossModel, x int64, f wall) (k int, ok bool) {
	if f.hour != 0 {
		return 0, false // the first step moves the hour to 0
	}
	n := monthDays(f.year, f.month)
	first := (f.weekday - (f.day-1)%7 + 7) % 7
	mask := s.dayMask(n, first) >> uint(f.day+1) << uint(f.day+1)
	k = n + 1 - f.day // to the 1st of the next month
	if mask != 0 {
		k = bits.TrailingZeros64(mask) - f.day
	}
	to := x + int64(k)*secondsPerDay
	if x >= c.e+2*secondsPerDay || to <= c.e-2*secondsPerDay {
		return k, true
	}
	return 0, false
}

// canonical reports whether the walk, about to make test ph at reading f,
// goes on as it does from a start time: it stands at the start of the
// unit it tests (a 1st at 00:00 for the month, 00:00 for the day, on the
// hour for the hour), and the tests it will not repeat pass.
func (s *Schedule) canonical(ph int, f wall) bool {
	month := s.month>>uint(f.month)&1 != 0
	switch ph {
	case phWrap:
		switch {
		case !month:
			return f.day == 1 && f.hour == 0 && f.min == 0 && f.sec == 0
		case !s.dayOf(f):
			return f.hour == 0 && f.min == 0 && f.sec == 0
		case s.hour>>uint(f.hour)&1 == 0:
			return f.min == 0 && f.sec == 0
		}
		return f.sec == 0
	case phMonth:
		return f.day == 1 && f.hour == 0 && f.min == 0 && f.sec == 0
	case phDay:
		return month && f.hour == 0 && f.min == 0 && f.sec == 0
	case phHour:
		return month && s.dayOf(f) && f.min == 0 && f.sec == 0
	}
	return month && s.dayOf(f) && s.hour>>uint(f.hour)&1 != 0 && f.sec == 0
}
