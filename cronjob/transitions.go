package cronjob

import (
	"math/bits"
	"time"
)

// The fast form of the stepping count (steps, periods.go) for windows whose changes of
// offset robfig/cron all steps as the wall clock (benignChange). Summing
// each offset period's wall-clock count telescopes: the window counts once
// on wall-clock time from after's offset to until's, and each change of
// offset then removes the whole hours its gap skips or adds back those its
// overlap repeats. So a window costs one zone lookup pair per change
// instead of a calendar count per period. Where the walk meets something
// it cannot show stepping agrees with (a change robfig/cron does not
// step as the wall clock, within a week of a day on which package time's
// period bounds go wrong, offsets that are not whole minutes, long runs of
// bounds that change nothing), it gives up and Count steps.

// zoneSpan bounds the Unix seconds zoneCount accepts, far from overflow.
const zoneSpan = 1 << 50

// glitchMargin is how far a change of offset must be from a day on which
// package time reports period bounds that end before the instant asked
// about (stepping then sees changes of offset that change nothing).
const glitchMargin = 7 * secondsPerDay

// zoneCount returns steps(a, u).n, or ok false when it cannot show it has
// the same answer.
func (s *Schedule) zoneCount(a, u int64, m *meter) (n int64, ok bool) {
	if a < -zoneSpan || u > zoneSpan {
		return 0, false
	}
	x := a + 1 // the instant last looked up
	tl := time.Unix(x, 0).In(s.loc)
	_, o := tl.Zone()
	st, en := tl.ZoneBounds()
	if (!st.IsZero() && st.Unix() > a) || o%60 != 0 || s.resetCrosses(a) {
		// A period starts at a+1 (stepping from a sees another offset),
		// robfig/cron's first move from a truncates the instant, not the
		// wall time, to the minute (an offset that is not whole minutes),
		// or that move crosses a change.
		return 0, false
	}
	m.count()
	off := int64(o)
	start := a + off // the window on wall-clock time starts after start
	var fix int64    // corrections at the changes so far
	const none = -zoneSpan * 4
	last, glitch := int64(none), int64(none)
	run := 0 // period bounds since the last change that change nothing
	for !en.IsZero() {
		m.count()
		e := en.Unix()
		if e <= x {
			// Package time's rule-based bounds end at 00:00 UTC on
			// December 31 of a leap year; skip that UTC day.
			day := floorDiv(x, secondsPerDay) * secondsPerDay
			if off%60 != 0 || day-last < glitchMargin {
				return 0, false
			}
			x = day + secondsPerDay
			tn := time.Unix(x, 0).In(s.loc)
			_, o2 := tn.Zone()
			_, en = tn.ZoneBounds()
			if int64(o2) != off || (!en.IsZero() && en.Unix()-x < glitchMargin) {
				return 0, false
			}
			glitch, run = x, 3
			continue
		}
		if e > u {
			break
		}
		tn := time.Unix(e, 0).In(s.loc)
		_, o2i := tn.Zone()
		_, en = tn.ZoneBounds()
		x = e
		o2 := int64(o2i)
		if o2 == off {
			if run++; run >= 4 {
				return 0, false // stepping would see a change here
			}
			continue
		}
		run = 0
		day, sod, span, benign := benignAt(e, off, o2)
		if !benign || e-glitch < glitchMargin {
			// Stepping takes robfig/cron's own step across a change it
			// does not step as the wall clock.
			return 0, false
		}
		// The whole hours from wall-clock second sod of day are skipped
		// (o2 > off) or seen twice (o2 < off).
		switch {
		case o2 > off:
			fix -= s.wholeHours(day, sod, span)
		case start <= e-1+o2:
			fix += s.wholeHours(day, sod, span)
		default:
			// The window starts inside the repeated hours: count their
			// first pass from its start, the wall clock from the second.
			fix += s.countLocal(start, e-1+off)
			start = e - 1 + o2
		}
		last, off = e, o2
	}
	return s.countLocal(start, u+off) + fix, true
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
