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
		c := s.zones.changeAt(e, off, o2, h)
		if c == nil {
			nc := newChange(e, off, o2)
			c = &nc
		}
		switch {
		case c.flags&changeBenign != 0:
			// The hour from wall-clock second c.sod of c.day is skipped
			// (o2 > off) or seen twice (o2 < off).
			switch {
			case o2 > off:
				fix -= s.wholeHours(c.day, int64(c.sod), 3600)
			case start <= e-1+o2:
				fix += s.wholeHours(c.day, int64(c.sod), 3600)
			default:
				// The window starts inside the repeated hours: count
				// their first pass from its start, the wall clock from
				// the second.
				fix += s.countLocal(start, e-1+off)
				start = e - 1 + o2
			}
		case e-prev >= plainMargin && (en == noEnd || en-e >= plainMargin):
			plain, empty := s.plainChange(off, c)
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
		if p := s.zones.periods; h >= 0 && h < len(p) && p[h].start == e {
			// The changes that follow, summed (changeSums).
			if j, d := s.zones.skipChanges(h, start, u, glitch); j > 0 {
				m.count()
				fix += d
				h = j - 1
				x = p[h].start
				last, prev, off = x, x, p[h].off
				en = s.zones.end
				if j < len(p) {
					en = p[j].start
				}
			}
		}
	}
	return s.countLocal(start, u+off) + fix, true, false
}

// newChange returns the period that a change of offset from o1 to o2 at
// instant e starts, with the change's calendar (see zonePeriod).
func newChange(e, o1, o2 int64) zonePeriod {
	lo := e + min(o1, o2)
	day := floorDiv(lo, secondsPerDay)
	sod := lo - day*secondsPerDay
	_, mo, dom := civil(day)
	p := zonePeriod{start: e, off: o2, day: day, sod: int32(sod), wd: int8(weekday(day)), mo: int8(mo), dom: int8(dom)}
	if e%60 == 0 && o1%60 == 0 && o2%60 == 0 {
		p.flags |= changeWhole
	}
	// One hour on the hour (lo is, exactly when e+o1 is, as the change
	// is whole hours) between 01:00 and 23:00 of one day.
	if o1%60 == 0 && o2%60 == 0 && max(o2-o1, o1-o2) == 3600 && sod%3600 == 0 && sod >= 3600 && sod+3600 <= 23*3600 {
		p.flags |= changeBenign
	}
	return p
}

// changeAt returns the zone table's period i when it starts with a change
// from o1 to o2 at e, else nil.
func (z *zoneTable) changeAt(e, o1, o2 int64, i int) *zonePeriod {
	if p := z.periods; i > 0 && i < len(p) && p[i].start == e && p[i].off == o2 && p[i-1].off == o1 {
		return &p[i]
	}
	return nil
}

// benignAt is benignChange(t, o1, o2), also returning where the skipped
// or repeated stretch starts on wall-clock time (day number and second of
// day) and how long it is.
func benignAt(t, o1, o2 int64) (day, sod, span int64, ok bool) {
	c := newChange(t, o1, o2)
	return c.day, int64(c.sod), max(o2-o1, o1-o2), c.flags&changeBenign != 0
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

// changeSum is what zoneCount adds at the change that starts table period
// i when it reaches that change straight from the one before, without
// looking at it: pre, the corrections of the changes before i that it can
// take so (a prefix sum), and next, the first such change from i on that
// it cannot (the table's length when none).
type changeSum struct {
	pre  int64
	next int32
}

// changeSums returns the schedule's changeSums over its zone table, or nil
// when no change can be summed. Change i (i >= 1) can be when zoneCount's
// loop, arriving from change i-1 with the window's start more than two
// days before it, takes it without giving up and without reading the
// window: the offset changes, and the change is benign, or plain for the
// schedule at least plainMargin from the changes on either side. Its
// correction is then the one the loop makes there.
func (s *Schedule) changeSums() []changeSum {
	p := s.zones.periods
	n := len(p)
	if n < 3 {
		return nil
	}
	sums := make([]changeSum, n+1)
	some := false
	var pre int64
	for i := range p {
		sums[i] = changeSum{pre: pre, next: int32(i)} // next: i until shown summable
		if i == 0 {
			continue
		}
		if d, ok := s.changeFix(i); ok {
			pre += d
			sums[i].next, some = -1, true
		}
	}
	if !some {
		return nil
	}
	sums[n] = changeSum{pre: pre, next: int32(n)}
	for i := n - 1; i >= 0; i-- {
		if sums[i].next < 0 {
			sums[i].next = sums[i+1].next
		}
	}
	return sums
}

// changeFix is the correction zoneCount's loop makes at the change that
// starts table period i (i >= 1) when it arrives there from change i-1
// with the window's start before the wall times the change repeats, and ok
// when the loop takes that change without reading the window or giving
// up.
func (s *Schedule) changeFix(i int) (d int64, ok bool) {
	p := s.zones.periods
	c := &p[i]
	e, off, o2, prev := c.start, p[i-1].off, c.off, p[i-1].start
	en := s.zones.end
	if i+1 < len(p) {
		en = p[i+1].start
	}
	switch {
	case o2 == off:
		return 0, false
	case c.flags&changeBenign != 0:
		h := s.wholeHours(c.day, int64(c.sod), 3600)
		if o2 > off {
			return -h, true
		}
		return h, true
	case e-prev >= plainMargin && en-e >= plainMargin:
		plain, empty := s.plainChange(off, c)
		switch {
		case !plain:
			return 0, false
		case empty:
			return 0, true
		}
		lo, hi := e+min(off, o2), e+max(off, o2)
		if o2 > off {
			return -s.wallCount(lo, hi), true
		}
		return s.wallCount(lo, hi), true
	}
	return 0, false
}

// skipChanges returns the table index j after the changes zoneCount's loop
// may sum (see changeSums) once it has taken the change at the start of
// table period h, with the window's wall-clock start start, its end u and
// the last glitch day glitch; and their corrections. j is 0 when fewer
// than two follow.
func (z *zoneTable) skipChanges(h int, start, u, glitch int64) (j int, d int64) {
	p, sums := z.periods, z.sums
	k := h + 1
	if sums == nil || k >= len(p) || int(sums[k].next) < k+2 {
		return 0, 0
	}
	if e := p[k].start; e > u || start >= e-2*secondsPerDay || e-glitch < glitchMargin {
		return 0, 0
	}
	// The changes k..j-1: summable, and none after u.
	lo, hi := k+1, int(sums[k].next) // p[lo-1].start <= u
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if p[m].start <= u {
			lo = m + 1
		} else {
			hi = m
		}
	}
	if lo < k+2 {
		return 0, 0
	}
	return lo, sums[lo].pre - sums[k].pre
}
