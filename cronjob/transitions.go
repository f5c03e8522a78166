package cronjob

import "math/bits"

// The fast form of the stepping count (steps, periods.go). Summing each
// offset period's wall-clock count telescopes: the window counts once on
// wall-clock time from after's offset to until's, and each change of
// offset then removes the wall times its gap skips or adds back those its
// overlap repeats. That is the count wherever robfig/cron steps across a
// change as the wall clock does: a one-hour change on the hour between
// 01:00 and 23:00 (benignChange), or any other change where plainChange
// shows it for the schedule; elsewhere crossSteps adds what robfig/cron's
// own walk across the change does differently. So a window costs one
// look at the zone per change (zoneAt: the schedule's table, else a pair
// of package time's lookups) instead of a calendar count per period. Where the
// walk meets something it cannot show stepping agrees with (a change
// crossSteps cannot follow, within a week of a day on which package time's
// period bounds go wrong, offsets that are not whole minutes, long runs of
// bounds that change nothing), it gives up and Count steps.

// zoneSpan bounds the Unix seconds zoneCount accepts, far from overflow.
const zoneSpan = 1 << 50

// crossReach is how far from a change crossSteps follows robfig/cron's
// walk.
const crossReach = 400 * secondsPerDay

// glitchMargin is how far a change of offset must be from a day on which
// package time reports period bounds that end before the instant asked
// about (stepping then sees changes of offset that change nothing).
const glitchMargin = 7 * secondsPerDay

// zoneCount returns steps(a, u).n, or ok false when it cannot show it has
// the same answer; firstMove reports that it could not because of
// robfig/cron's first move from a, which is not a start time (stepping
// from the start time that move finds may do).
func (s *Schedule) zoneCount(a, u int64, m *meter) (n int64, ok, firstMove bool) {
	if a < -zoneSpan || u > zoneSpan {
		return 0, false, false
	}
	x := a + 1 // the instant last looked up
	h := 0     // zoneAt's hint
	off, st, en := s.zoneAt(x, &h)
	if (st != noStart && st > a) || off%60 != 0 {
		// A period starts at a+1 (stepping from a sees another offset),
		// or robfig/cron's first move from a truncates the instant, not
		// the wall time, to the minute (an offset that is not whole
		// minutes).
		return 0, false, false
	}
	if s.resetCrossesAt(a, &h) && !s.selectsAt(a, &h) {
		// That move crosses a change. (From a start time the schedule
		// selects, the first move only adds seconds.)
		return 0, false, true
	}
	m.count()
	start := a + off // the window on wall-clock time starts after start
	var fix int64    // corrections at the changes so far
	const none = -zoneSpan * 4
	last, glitch := int64(none), int64(none)
	prev := int64(none) // the last change of offset before x, or a bound at or before it
	if st != noStart {
		prev = st
	}
	run := 0 // period bounds since the last change that change nothing
	for en != noEnd {
		m.count()
		e := en
		if e <= x {
			// Package time's rule-based bounds end at 00:00 UTC on
			// December 31 of a leap year; skip that UTC day.
			day := floorDiv(x, secondsPerDay) * secondsPerDay
			if off%60 != 0 || day-last < glitchMargin {
				return 0, false, false
			}
			x = day + secondsPerDay
			var o2 int64
			o2, _, en = s.zoneAt(x, &h)
			if o2 != off || (en != noEnd && en-x < glitchMargin) {
				return 0, false, false
			}
			glitch, run = x, 3
			continue
		}
		if e-secondsPerDay > u {
			break
		}
		var o2 int64
		o2, _, en = s.zoneAt(e, &h)
		x = e
		if e > u {
			// A change after the window reaches into it only where it
			// repeats a midnight the walk may ask the calendar for
			// before the change (see crossSteps).
			if mid := floorDiv(e+o2+secondsPerDay-1, secondsPerDay) * secondsPerDay; o2 < off && !s.allHours && mid < e+off && mid-off <= u {
				if e-prev < plainMargin || (en != noEnd && en-e < plainMargin) || e-glitch < glitchMargin {
					return 0, false, false
				}
				lo, hi := max(prev, e-crossReach)+secondsPerDay, e+crossReach
				if en != noEnd {
					hi = min(hi, en-secondsPerDay)
				}
				d, ok := s.crossSteps(e, off, o2, lo, hi, a, u)
				if !ok {
					return 0, false, false
				}
				m.walk()
				fix += d
			}
			break
		}
		if o2 == off {
			if run++; run >= 4 {
				return 0, false, false // stepping would see a change here
			}
			continue
		}
		run = 0
		if e-glitch < glitchMargin {
			return 0, false, false
		}
		day, sod, span, benign := benignAt(e, off, o2)
		switch {
		case benign:
			// The whole hours from wall-clock second sod of day are
			// skipped (o2 > off) or seen twice (o2 < off).
			switch {
			case o2 > off:
				fix -= s.wholeHours(day, sod, span)
			case start <= e-1+o2:
				fix += s.wholeHours(day, sod, span)
			default:
				// The window starts inside the repeated hours: count
				// their first pass from its start, the wall clock from
				// the second.
				fix += s.countLocal(start, e-1+off)
				start = e - 1 + o2
			}
		case e-prev >= plainMargin && (en == noEnd || en-e >= plainMargin):
			plain, empty := s.plainChange(e, off, o2)
			if !plain {
				// Follow robfig/cron's walk across the change, between
				// the days next to the changes before and after it.
				lo, hi := max(prev, e-crossReach)+secondsPerDay, e+crossReach
				if en != noEnd {
					hi = min(hi, en-secondsPerDay)
				}
				d, ok := s.crossSteps(e, off, o2, lo, hi, a, u)
				if !ok {
					return 0, false, false
				}
				m.walk()
				fix += d
			}
			if empty {
				break
			}
			// Stepping visits the instants whose wall time the schedule
			// selects: the skipped wall times (o2 > off) do not count,
			// the repeated ones (o2 < off) count twice.
			lo, hi := e+min(off, o2), e+max(off, o2)
			switch {
			case o2 > off:
				fix -= s.wallCount(lo, hi)
			case start < lo:
				fix += s.wallCount(lo, hi)
			default:
				fix += s.countLocal(start, hi-1)
				start = lo - 1
			}
		default:
			// Stepping takes robfig/cron's own step across a change it
			// does not step as the wall clock.
			return 0, false, false
		}
		last, prev, off = e, e, o2
	}
	return s.countLocal(start, u+off) + fix, true, false
}

// benignAt is benignChange(t, o1, o2), also returning where the skipped
// or repeated stretch starts on wall-clock time (day number and second of
// day) and how long it is.
func benignAt(t, o1, o2 int64) (day, sod, span int64, ok bool) {
	span = max(o2-o1, o1-o2)
	if o1%60 != 0 || o2%60 != 0 || span != 3600 {
		return 0, 0, span, false
	}
	lo := t + min(o1, o2) // on the hour exactly when t+o1 is, as span is whole hours
	day = floorDiv(lo, secondsPerDay)
	sod = lo - day*secondsPerDay
	return day, sod, span, sod%3600 == 0 && sod >= 3600 && sod+span <= 23*3600
}

// wholeHours counts the start times in the whole hours from second sod of
// day number day for span seconds, within that day.
func (s *Schedule) wholeHours(day, sod, span int64) int64 {
	sel := s.hour >> uint(sod/3600) & (uint64(1)<<uint(span/3600) - 1)
	if sel == 0 || !s.dayMatches(day) {
		return 0
	}
	return int64(bits.OnesCount64(sel)) * s.perHour
}

// lastTime returns the last selected time of day at or before second tod.
func (s *Schedule) lastTime(tod int) (int, bool) {
	h, m, sec := tod/3600, tod%3600/60, tod%60
	hours, mins, secs := s.hour&(1<<24-1), s.minute&(1<<60-1), s.second&(1<<60-1)
	if hours>>uint(h)&1 != 0 {
		if mins>>uint(m)&1 != 0 {
			if ls := prevBit(secs, sec); ls >= 0 {
				return h*3600 + m*60 + ls, true
			}
		}
		if lm := prevBit(mins, m-1); lm >= 0 {
			if ls := prevBit(secs, 59); ls >= 0 {
				return h*3600 + lm*60 + ls, true
			}
		}
	}
	lh, lm, ls := prevBit(hours, h-1), prevBit(mins, 59), prevBit(secs, 59)
	if lh < 0 || lm < 0 || ls < 0 {
		return 0, false
	}
	return lh*3600 + lm*60 + ls, true
}
