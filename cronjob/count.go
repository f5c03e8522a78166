package cronjob

import (
	"math/bits"
	"time"
)

// Count returns how many start times stepping [Schedule.Next] from after
// visits up to until, as the controller steps: each step from the one
// before, robfig/cron v3.0.1's quirks included (a start time its walk skips
// after an offset change, as in Australia/Lord_Howe, is not counted; one it
// repeats in a fall-back overlap counts twice; in an era whose offset is
// not whole minutes, local mean time before a zone's first change, the
// first step from a time the schedule does not select can pass over a
// selected minute), stopping where a step does not move forward
// (Pacific/Chatham; robfig/cron's zero time, when it finds nothing within
// five years, as for "0 0 29 2 *" from 2096-02-29, or at
// 0001-01-01T00:00:00Z itself) or never returns (Pacific/Apia around
// 2011-12-30). It is how many Jobs a controller that was down over
// (after, until] missed.
//
// It never steps the whole window: between changes of offset start times
// count with the schedule's bit sets (whole years and months from
// per-schedule tables, partial months with popcounts, partial days per
// hour and minute) on the wall clock; at each change the wall times it
// skips are left out and those it repeats counted twice, and where
// robfig/cron's walk does not step across a change as the wall clock
// (Australia/Lord_Howe's 30-minute change, America/Santiago's at midnight)
// its steps there are followed on a model of the zone with that one
// change, from where the walk stands just before it until it is back on
// the wall clock, or, for the schedules that provably cross it as the wall
// clock does, skipped in a few operations (crossing.go, crosswalk.go).
// Where it cannot (offsets that are not whole minutes, local mean time
// before a zone's first change; changes within three days of each other;
// a walk that strays from the change for longer than the model reaches;
// a window that starts, not on a start time, within a month after or two
// days before such a change) it takes robfig/cron's own steps from the
// last start time before the change until one lands past it on a start
// time the schedule selects. Once a zone's offsets follow its rule (after
// its last listed transition), they and the calendar repeat every 400
// years, so a longer window steps one such cycle and multiplies. So the
// work grows with the changes of offset in at most the listed transitions
// and two cycles (a few thousand steps, milliseconds, for any window from
// year 1 to 9999), not with the number of start times: over ten years in
// Lord Howe as in New York, a few operations per change, which it reads
// from the schedule's table of the zone's offsets from 1970 to 2037 (built
// by ParseSchedule; package time's own lookups elsewhere), and within that
// table a run of changes the schedule crosses as the wall clock does costs
// two look-ups of their summed corrections (changeSums). It returns 0
// when until is not after after.
func (s *Schedule) Count(after, until time.Time) int64 {
	return s.count(after, until, nil)
}

// count is Count, its work counted in m.
func (s *Schedule) count(after, until time.Time, m *meter) int64 {
	if s == nil || s.loc == nil || !until.After(after) {
		return 0
	}
	a, u := after.Unix(), until.Unix() // start times are whole seconds: a < x <= u
	if z := (time.Time{}).Unix(); a < z && z <= u {
		// robfig/cron answers "none" with the zero time, so stepping
		// ends at a start time at 0001-01-01T00:00:00Z too: step to just
		// before it, then once more.
		r := s.steps(a, z-1, m)
		if r.back || r.endless {
			return r.n
		}
		m.walk()
		t, ok := s.next(time.Unix(r.last, 0).UTC())
		if !ok || t.IsZero() || t.Unix() <= r.last || t.Unix() > u {
			return r.n
		}
		return r.n + 1 + s.count(t, until, m)
	}
	switch {
	case s.delay > 0:
		return floorDiv(u-a, int64(s.delay/time.Second))
	case s.never && !s.strays(a, u):
		return 0
	case s.never:
		// Robfig/cron's walk may stray into a month it does not test.
	case s.leapOnly:
		// Start times four or eight years apart: stepping ends at the
		// first eight-year gap (see wallRun).
	case s.fixed && s.fixedOff%60 == 0:
		m.count()
		return s.countLocal(a+s.fixedOff, u+s.fixedOff)
	case u-a > 2*cycle:
		// Long enough for steps to repeat whole 400-year cycles.
	default:
		n, ok, firstMove := s.zoneCount(a, u, m)
		if ok {
			return n
		}
		if firstMove {
			if n, ok := s.toStartTime(a, u, m); ok {
				return n
			}
		}
	}
	return s.steps(a, u, m).n
}

// strays reports whether robfig/cron's walk from a, for a schedule that
// selects no day, may return a time up to u instead of the zero time. It
// may only where a change of offset skips the midnight of a 1st of a month
// within the walk's reach (from the 1st of a's month to the end of the
// fifth year after a's) and before u: time.Date resolves that midnight to
// one side or the other,
// and the walk's month loop carries the wall time it lands on (the 28th or
// later at 23:00, say) into the selected month, whose day loop, corrected
// by the hour, then steps over the next 1st into a month it does not test
// (Atlantic/Madeira in 1918, where "0 0 31 2 *" answers March 31); or its
// day loop, landing before that midnight and corrected back, steps over
// the 1st itself. Every other walk tests only wall times at 00:00 of
// selected months, none of whose days match. It answers true when package
// time's bounds do not let it tell.
func (s *Schedule) strays(a, u int64) bool {
	if s.fixed {
		return false
	}
	y, _, _ := civil(floorDiv(a, secondsPerDay))
	// Past the walk's last year, whatever the offset, or past u.
	to := min(dayNumber(y+7, 1, 1), floorDiv(u, secondsPerDay)+2) * secondsPerDay
	x := a - resetReach
	h := 0 // zoneAt's hint
	for range 128 {
		_, _, e := s.zoneAt(x, &h)
		if e == noEnd || e >= to {
			return false
		}
		if e <= x {
			// Package time's rule-based bounds end at 00:00 UTC on
			// December 31 of a leap year; skip that UTC day.
			day := floorDiv(x, secondsPerDay) * secondsPerDay
			o1, _, _ := s.zoneAt(day-1, &h)
			if o2, _, _ := s.zoneAt(day+secondsPerDay, &h); o1 != o2 {
				return true // a change on that day: cannot tell
			}
			x = day + secondsPerDay
			continue
		}
		if p := s.zones.periods; h+1 < len(p) && p[h+1].start == e && p[h+1].off <= p[h].off {
			// The zone's table shows a change that skips nothing.
			x = e
			continue
		}
		// Offsets are within a day of UTC: only a change within two days
		// of the start of a UTC month can skip the midnight of a 1st.
		if _, _, dom := civil(floorDiv(e+2*secondsPerDay, secondsPerDay)); dom <= 4 {
			o1, _, _ := s.zoneAt(e-1, &h)
			o2, _, _ := s.zoneAt(e, &h)
			if o2 > o1 {
				lo, hi := e+o1, e+o2 // the wall times skipped
				day := floorDiv(lo+secondsPerDay-1, secondsPerDay)
				if _, _, dom := civil(day); dom == 1 && day*secondsPerDay < hi {
					return true
				}
			}
		}
		x = e
	}
	return true
}

// toStartTime is zoneCount from a window's start that is not a start
// time, where robfig/cron's first move from it may cross a change
// zoneCount does not follow: it takes robfig/cron's own steps from a
// until one lands on a start time the schedule selects, and counts on
// from there. ok is false when that takes more than a few steps, a step
// does not go forward or never returns, or zoneCount cannot go on.
func (s *Schedule) toStartTime(a, u int64, m *meter) (n int64, ok bool) {
	for x := a; n < 4; {
		m.walk()
		t, ok := s.next(time.Unix(x, 0).UTC())
		switch {
		case !ok || t.IsZero() || t.Unix() <= x:
			return 0, false
		case t.Unix() > u:
			return n, true
		}
		n, x = n+1, t.Unix()
		if s.selects(x) {
			k, ok, _ := s.zoneCount(x, u, m)
			return n + k, ok
		}
	}
	return 0, false
}

// countLocal counts the selected local seconds x with a < x <= b.
func (s *Schedule) countLocal(a, b int64) int64 {
	if b <= a {
		return 0
	}
	da, db := floorDiv(a, secondsPerDay), floorDiv(b, secondsPerDay)
	ta, tb := int(a-da*secondsPerDay), int(b-db*secondsPerDay)
	if da == db {
		if !s.dayMatches(da) {
			return 0
		}
		return s.upTo(tb) - s.upTo(ta)
	}
	var n int64
	if s.dayMatches(da) {
		n += s.perDay - s.upTo(ta)
	}
	if s.dayMatches(db) {
		n += s.upTo(tb)
	}
	return n + s.perDay*s.matchingDays(da+1, db-1)
}

// upTo counts the selected times of day at or before second tod of a
// selected day.
func (s *Schedule) upTo(tod int) int64 {
	h, m, sec := tod/3600, tod%3600/60, tod%60
	secs := int64(bits.OnesCount64(s.second &^ starBit))
	n := int64(bits.OnesCount64(s.hour&(1<<uint(h)-1))) * s.perHour
	if s.hour>>uint(h)&1 == 0 {
		return n
	}
	n += int64(bits.OnesCount64(s.minute&(1<<uint(m)-1))) * secs
	if s.minute>>uint(m)&1 == 0 {
		return n
	}
	return n + int64(bits.OnesCount64(s.second&(1<<uint(sec+1)-1)))
}

// dayMatches reports whether the schedule selects day number dn.
func (s *Schedule) dayMatches(dn int64) bool {
	if s.allDays {
		return true
	}
	return s.dayMatchesOn(dn, weekday(dn))
}

// matchingDays counts the selected days numbered first..last.
func (s *Schedule) matchingDays(first, last int64) int64 {
	if last < first {
		return 0
	}
	y1, m1, d1 := civil(first)
	y2, m2, d2 := civil(last)
	if y1 == y2 && m1 == m2 {
		return s.daysInMonth(y1, m1, d1, d2)
	}
	n := s.daysInMonth(y1, m1, d1, 31) + s.daysInMonth(y2, m2, 1, d2)
	if y1 == y2 {
		return n + s.months(y1, m1+1, m2-1)
	}
	n += s.months(y1, m1+1, 12) + s.months(y2, 1, m2-1)
	return n + s.years(y1+1, y2-1)
}

// daysInMonth counts the selected days from..to of month y-m.
func (s *Schedule) daysInMonth(y int64, m, from, to int) int64 {
	if s.month>>uint(m)&1 == 0 {
		return 0
	}
	n := monthDays(y, m)
	mask := s.dayMask(n, weekday(dayNumber(y, m, 1)))
	mask &= ^uint64(0) << uint(from)
	if to < 63 {
		mask &= uint64(1)<<uint(to+1) - 1
	}
	return int64(bits.OnesCount64(mask))
}

// months counts the selected days in whole months m1..m2 of year y.
func (s *Schedule) months(y int64, m1, m2 int) int64 {
	if m1 > m2 {
		return 0
	}
	leap := 0
	if isLeap(y) {
		leap = 1
	}
	cum := &s.cumDays[leap][weekday(dayNumber(y, 1, 1))]
	return int64(cum[m2]) - int64(cum[m1-1])
}

// years counts the selected days in whole years y1..y2.
func (s *Schedule) years(y1, y2 int64) int64 {
	if y2 < y1 {
		return 0
	}
	var n int64
	w := weekday(dayNumber(y1, 1, 1))
	if cycles := (y2 - y1 + 1) / 400; cycles > 0 {
		// Any 400 consecutive Gregorian years hold the same days, and
		// 146097 days are a whole number of weeks.
		n = cycles * s.yearRange(y1, y1+399, w)
		y1 += cycles * 400
	}
	return n + s.yearRange(y1, y2, w)
}

// yearRange sums the per-year table over y1..y2, the first starting on
// weekday w.
func (s *Schedule) yearRange(y1, y2 int64, w int) int64 {
	var n int64
	for y := y1; y <= y2; y++ {
		if isLeap(y) {
			n += s.yearCnt[1][w]
			w += 2
		} else {
			n += s.yearCnt[0][w]
			w++
		}
		if w >= 7 {
			w -= 7
		}
	}
	return n
}
