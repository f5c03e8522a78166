package cronjob

import (
	"time"

	"github.com/robfig/cron/v3"
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
	if s == nil || s.loc == nil {
		return time.Time{}
	}
	if s.delay > 0 {
		return t.Add(s.delay - time.Duration(t.Nanosecond()))
	}
	if !s.fixed && !s.wallClock {
		// v1.36.3: robfig/cron's own walk, quirks after offset changes
		// included, in every zone whose offset ever changes.
		return s.robfigNext(t)
	}
	off, end, bounded := s.fixedOff, int64(0), false
	if !s.fixed {
		off, end = s.period(t.Unix())
		bounded = end != 0
	}
	if off%60 == 0 {
		start := t.Unix() + 1
		r, ok := s.nextLocal(start + off)
		switch {
		case !ok && !bounded:
			return time.Time{}
		case ok && (!bounded || r-off < end):
			return time.Unix(r-off, 0).In(t.Location())
		}
	}
	return s.robfigNext(t)
}

// robfigNext asks robfig/cron itself, for the searches that cross a change
// of UTC offset or run in a zone whose offset is not whole minutes.
func (s *Schedule) robfigNext(t time.Time) time.Time {
	spec := cron.SpecSchedule{
		Second: s.second, Minute: s.minute, Hour: s.hour,
		Dom: s.dom, Month: s.month, Dow: s.dow, Location: s.loc,
	}
	return spec.Next(t)
}

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
