package cronjob

import (
	"fmt"
	"time"
)

// Next returns the first start time after t, in t's location, or the zero
// time when there is none within five years of t (robfig/cron's search
// limit; schedules such as "0 0 31 2 *" never fire). An "@every d" schedule
// returns t truncated to the second plus d.
//
// Start times are wall-clock readings in the schedule's zone. In a zone
// whose offset ever changes, Next is robfig/cron v3.0.1 SpecSchedule.Next,
// as v1.36.3 uses it, quirks included: a wall time skipped by a
// spring-forward gap does not fire that day, one repeated by a fall-back
// fires twice, and after a change that is not a whole hour or falls at
// midnight its walk can skip a day (Australia/Lord_Howe) or answer a time
// before t (Pacific/Chatham). In fixed-offset zones, and with
// Options.WallClockNext, Next reads the wall clock directly from the
// schedule's bit sets (the same answers in fixed-offset zones, and no
// walk quirks with WallClockNext).
//
// Source: robfig/cron v3.0.1 spec.go SpecSchedule.Next,
// constantdelay.go ConstantDelaySchedule.Next.
func (s *Schedule) Next(t time.Time) time.Time {
	r, _ := s.next(t)
	return r
}

// TryNext is [Schedule.Next] that says when robfig/cron's walk never ends:
// in Pacific/Apia and Pacific/Fakaofo, whose clocks skipped 2011-12-30,
// a walk that has to step over the skipped day asks the calendar for its
// midnight, gets an instant it has already visited, and asks again
// forever. v1.36.3's controller hangs there; Next answers the zero time
// and TryNext an error wrapping [ErrNeverEnds].
//
// Source: robfig/cron v3.0.1 spec.go SpecSchedule.Next.
func (s *Schedule) TryNext(t time.Time) (time.Time, error) {
	r, ok := s.next(t)
	if !ok {
		return time.Time{}, fmt.Errorf("robfig/cron's walk for the start after %s in %s: %w", t.Format(time.RFC3339), s.loc, ErrNeverEnds)
	}
	return r, nil
}

// next is Next; ok is false where robfig/cron's walk never ends.
func (s *Schedule) next(t time.Time) (time.Time, bool) {
	if s == nil || s.loc == nil {
		return time.Time{}, true
	}
	if s.delay > 0 {
		return t.Add(s.delay - time.Duration(t.Nanosecond())), true
	}
	if !s.fixed && !s.wallClock {
		// v1.36.3: robfig/cron's own walk, quirks after offset changes
		// included, in every zone whose offset ever changes.
		return s.walk(t)
	}
	limit := t.Unix() + 6*366*secondsPerDay
	loc := t.Location()
	for {
		off, end, bounded := s.fixedOff, int64(0), false
		if !s.fixed {
			off, end = s.period(t.Unix())
			bounded = end != 0
		}
		if off%60 != 0 {
			return s.walk(t)
		}
		r, ok := s.nextLocal(t.Unix() + 1 + off)
		switch {
		case ok && (!bounded || r-off < end):
			return time.Unix(r-off, 0).In(loc), true
		case !bounded:
			return time.Time{}, true
		case !s.wallClock:
			// The search crosses an offset change: robfig/cron's walk.
			return s.walk(t)
		case end > limit:
			return time.Time{}, true
		}
		// Wall clock: go on in the next offset period.
		t = time.Unix(end-1, 0)
	}
}

// walk searches the way robfig/cron v3.0.1's SpecSchedule.Next does, on
// the calendar of the schedule's zone: from the next whole second, advance
// the month until it is selected, then the day (from midnight, pulling a
// time an offset change moved off midnight back to it), the hour, the
// minute and the second, each by the calendar or by elapsed time as
// robfig/cron does; wrapping a field (into January, the 1st, hour 0,
// minute 0, second 0) starts over from the month; the first move zeroes
// the smaller fields; beyond the fifth year after the start there is no
// time. These steps are what make robfig/cron's answers differ from the
// wall clock after some offset changes. ok is false when the walk cannot
// end: stepping a day comes back to the same instant (the skipped-day
// walk), or it takes more than walkBudget steps (a walk that ends needs
// far fewer: a schedule that never fires takes about 2,300).
func (s *Schedule) walk(t time.Time) (time.Time, bool) {
	orig := t.Location()
	c := clock{loc: s.loc, zones: &s.zones}
	if c.loc == time.Local {
		c.loc, c.zones = orig, nil
	}
	u := t.Unix() + 1 // the next whole second
	fresh := true     // no field moved yet: the first move zeroes the smaller ones
	limit := c.fields(u).year + 5
	budget := walkBudget
again:
	f := c.fields(u)
	if f.year > limit {
		return time.Time{}, true
	}
	for s.month>>uint(f.month)&1 == 0 {
		if budget--; budget < 0 {
			return time.Time{}, false
		}
		if fresh {
			fresh = false
			u = c.date(f.year, f.month, 1, 0, 0, 0)
			f = c.fields(u)
		}
		u = c.date(f.year, f.month+1, f.day, f.hour, f.min, f.sec) // AddDate(0, 1, 0)
		if f = c.fields(u); f.month == 1 {
			goto again
		}
	}
	for !s.dayOf(f) {
		if budget--; budget < 0 {
			return time.Time{}, false
		}
		if fresh {
			fresh = false
			u = c.date(f.year, f.month, f.day, 0, 0, 0)
			f = c.fields(u)
		}
		prev := u
		u = c.date(f.year, f.month, f.day+1, f.hour, f.min, f.sec) // AddDate(0, 0, 1)
		if h := int64(c.fields(u).hour); h > 12 {
			u += (24 - h) * 3600
		} else if h != 0 {
			u -= h * 3600
		}
		if u == prev {
			// The day after is this instant again (a skipped day's
			// midnight resolves to the one before): the walk repeats
			// this step for ever.
			return time.Time{}, false
		}
		if f = c.fields(u); f.day == 1 {
			goto again
		}
	}
	for s.hour>>uint(f.hour)&1 == 0 {
		if budget--; budget < 0 {
			return time.Time{}, false
		}
		if fresh {
			fresh = false
			u = c.date(f.year, f.month, f.day, f.hour, 0, 0)
		}
		u += 3600
		if f = c.fields(u); f.hour == 0 {
			goto again
		}
	}
	for s.minute>>uint(f.min)&1 == 0 {
		if budget--; budget < 0 {
			return time.Time{}, false
		}
		if fresh {
			fresh = false
			u = floorDiv(u, 60) * 60 // Truncate(time.Minute): the instant, not the wall time
		}
		u += 60
		if f = c.fields(u); f.min == 0 {
			goto again
		}
	}
	for s.second>>uint(f.sec)&1 == 0 {
		if budget--; budget < 0 {
			return time.Time{}, false
		}
		fresh = false // Truncate(time.Second) moves no whole second
		u++
		if f = c.fields(u); f.sec == 0 {
			goto again
		}
	}
	return time.Unix(u, 0).In(orig), true
}

// dayOf reports whether robfig/cron takes f's day: day of month and
// weekday must both match when either field is "*", else either.
func (s *Schedule) dayOf(f wall) bool {
	dom := s.dom>>uint(f.day)&1 != 0
	dow := s.dow>>uint(f.weekday)&1 != 0
	if (s.dom|s.dow)&starBit != 0 {
		return dom && dow
	}
	return dom || dow
}

// walkBudget bounds walk's steps (see walk).
const walkBudget = 1 << 16

// nextLocal returns the first local second at or after l that the schedule
// selects, searching the way robfig/cron does with a fixed offset; ok is
// false when that time lies beyond the year five years after l's.
func (s *Schedule) nextLocal(l int64) (r int64, ok bool) {
	days := floorDiv(l, secondsPerDay)
	sod := int(l - days*secondsPerDay)
	y, m, d := civil(days)
	h, mi, sec := sod/3600, sod%3600/60, sod%60
	limit := y + 5
	for y <= limit {
		if s.month>>uint(m)&1 == 0 {
			nm := nextBit(s.month&0x1ffe, m+1)
			if nm < 0 {
				y, nm = y+1, nextBit(s.month&0x1ffe, 1)
				if nm < 0 {
					return 0, false
				}
			}
			m, d, h, mi, sec = nm, 1, 0, 0, 0
			continue
		}
		n := monthDays(y, m)
		dn := dayNumber(y, m, 1)
		nd := nextBit(s.dayMask(n, weekday(dn)), d)
		if nd < 0 {
			y, m, d, h, mi, sec = nextMonth(y, m)
			continue
		}
		if nd != d {
			d, h, mi, sec = nd, 0, 0, 0
		}
		nh := nextBit(s.hour&0xffffff, h)
		if nh < 0 {
			y, m, d, h, mi, sec = nextDay(y, m, d, n)
			continue
		}
		if nh != h {
			h, mi, sec = nh, 0, 0
		}
		nmi := nextBit(s.minute&(1<<60-1), mi)
		if nmi < 0 {
			h, mi, sec = h+1, 0, 0
			if h == 24 {
				y, m, d, h, mi, sec = nextDay(y, m, d, n)
			}
			continue
		}
		if nmi != mi {
			mi, sec = nmi, 0
		}
		ns := nextBit(s.second&(1<<60-1), sec)
		if ns < 0 {
			mi, sec = mi+1, 0
			if mi == 60 {
				h, mi = h+1, 0
				if h == 24 {
					y, m, d, h, mi, sec = nextDay(y, m, d, n)
				}
			}
			continue
		}
		return (dn+int64(d-1))*secondsPerDay + int64(h*3600+mi*60+ns), true
	}
	return 0, false
}

// nextMonth returns midnight on the first of the month after y-m.
func nextMonth(y int64, m int) (int64, int, int, int, int, int) {
	if m == 12 {
		return y + 1, 1, 1, 0, 0, 0
	}
	return y, m + 1, 1, 0, 0, 0
}

// nextDay returns midnight of the day after y-m-d in a month of n days.
func nextDay(y int64, m, d, n int) (int64, int, int, int, int, int) {
	if d == n {
		return nextMonth(y, m)
	}
	return y, m, d + 1, 0, 0, 0
}
