package cronjob

import "time"

// The stepping count: the definition of [Schedule.Count] in zones whose
// offset changes, which zoneCount (transitions.go) computes faster where
// every change in the window is one robfig/cron steps as the wall clock.

// periodCount counts the start times in (a, u] (Unix seconds) that stepping
// Next from a visits, stopping where a step does not move forward: within
// an offset period on wall-clock time, and across each change of offset
// robfig/cron does not step as the wall clock (see benignChange) by taking
// robfig/cron's own step from the last start time before the change. Once
// a step lands in a period, the following steps are on that period's wall
// clock again until its end, so the cost grows with the changes in the
// window, not with the start times.
func (s *Schedule) periodCount(a, u int64) int64 {
	var n int64
	x := a           // where stepping stands: a, or the last start time counted
	genuine := false // x is a start time the schedule selects
	for x < u {
		off, end := s.period(x + 1)
		if off%60 != 0 || (!genuine && s.resetCrosses(x)) {
			// Offsets that are not whole minutes (local mean time,
			// before about 1900: robfig/cron truncates instants, not
			// wall times), or a first move from x (back to the start of
			// its hour, day or month) that can cross a change robfig/cron
			// does not step as the wall clock: take robfig/cron's step.
			t, ok := s.next(time.Unix(x, 0).UTC())
			if !ok || t.IsZero() || t.Unix() <= x || t.Unix() > u {
				return n
			}
			n, x = n+1, t.Unix()
			genuine = s.selects(x)
			continue
		}
		if end == 0 {
			return n + s.countLocal(x+off, u+off)
		}
		o2, _ := s.period(end)
		if benignChange(end, off, o2) {
			// Stepping crosses as the wall clock does: go on from the
			// period's last second.
			if u < end {
				return n + s.countLocal(x+off, u+off)
			}
			n += s.countLocal(x+off, end-1+off)
			x, genuine = end-1, false
			continue
		}
		// Count on the wall clock up to the last start time whose step
		// cannot meet the change, then take robfig/cron's own steps until
		// one lands past the change on a start time the schedule selects,
		// from which the walk is on the wall clock again.
		cut := safeCut(end, off, o2)
		if u <= cut {
			return n + s.countLocal(x+off, u+off)
		}
		if cut > x {
			n += s.countLocal(x+off, cut+off)
			if l, ok := s.lastLocalAfter(x+off, cut+off); ok {
				x = l - off
			}
		}
		for {
			t, ok := s.next(time.Unix(x, 0).UTC())
			if !ok || t.IsZero() || t.Unix() <= x || t.Unix() > u {
				return n
			}
			n, x = n+1, t.Unix()
			if x >= end && s.selects(x) {
				genuine = true
				break
			}
		}
	}
	return n
}

// safeCut returns the last instant before a change of offset from o1 to o2
// at e such that a robfig/cron step from a start time that lands at or
// before it cannot meet the change: e-1, or just before the local midnight
// when the skipped or repeated wall times touch one (package time then
// resolves that midnight to either side of the change, and robfig/cron
// asks for it when its walk enters the day).
func safeCut(e, o1, o2 int64) int64 {
	lo, hi := e+min(o1, o2), e+max(o1, o2) // the wall times that change
	day := floorDiv(hi, secondsPerDay) * secondsPerDay
	if day >= lo {
		// A midnight in [lo, hi]: its first instant, on o1's clock.
		return min(e, day-o1) - 1
	}
	return e - 1
}

// period returns the UTC offset in force at Unix second x and the first
// second after x at which it changes, or 0 when it never does. Periods that
// package time splits at a year boundary without a change are joined.
func (s *Schedule) period(x int64) (off, end int64) {
	tl := time.Unix(x, 0).In(s.loc)
	_, o := tl.Zone()
	off = int64(o)
	for i := 0; i < 4; i++ {
		_, e := tl.ZoneBounds()
		if e.IsZero() {
			return off, 0
		}
		end = e.Unix()
		if end <= tl.Unix() {
			end = tl.Unix() + 1 // time's bounds can end at the instant asked about
		}
		tl = time.Unix(end, 0).In(s.loc)
		if _, o := tl.Zone(); int64(o) != off {
			return off, end
		}
	}
	return off, end
}

// benignChange reports whether a change of UTC offset from o1 to o2 at
// instant t leaves robfig/cron's stepping equal to "every instant whose wall
// time matches": whole-minute offsets, a change of one hour starting on the
// hour, and a skipped or repeated stretch between 01:00 and 23:00 of one day.
// (Not two hours, as Antarctica/Troll's: package time resolves a repeated
// wall time to its later instant east of UTC, so robfig/cron's move back
// to the start of an hour can jump from the first pass over the whole
// second pass of the hour before.)
func benignChange(t, o1, o2 int64) bool {
	d := o2 - o1
	if o1%60 != 0 || o2%60 != 0 || (d != 3600 && d != -3600) || (t+o1)%3600 != 0 {
		return false
	}
	lo, hi := t+min(o1, o2), t+max(o1, o2)
	day := floorDiv(lo, secondsPerDay)
	return lo-day*secondsPerDay >= 3600 && hi-day*secondsPerDay <= 23*3600
}

// lastLocalAfter returns the last selected local second x with lo < x <= hi,
// however far apart: the day of hi up to its second, else the latest
// selected time of day on the last selected day before it, found a month
// at a time.
func (s *Schedule) lastLocalAfter(lo, hi int64) (int64, bool) {
	if hi <= lo {
		return 0, false
	}
	day := floorDiv(hi, secondsPerDay)
	if s.dayMatches(day) {
		if tod, ok := s.lastTime(int(hi - day*secondsPerDay)); ok {
			x := day*secondsPerDay + int64(tod)
			return x, x > lo
		}
	}
	tod, ok := s.lastTime(secondsPerDay - 1)
	if !ok {
		return 0, false
	}
	first := floorDiv(lo, secondsPerDay)
	y, m, d := civil(day - 1)
	for {
		start := dayNumber(y, m, 1)
		if start+int64(d)-1 < first {
			return 0, false
		}
		if s.month>>uint(m)&1 != 0 {
			mask := s.dayMask(monthDays(y, m), weekday(start))
			if b := prevBit(mask, d); b >= 1 {
				x := (start+int64(b-1))*secondsPerDay + int64(tod)
				return x, x > lo
			}
		}
		if m == 1 {
			y, m = y-1, 12
		} else {
			m--
		}
		d = monthDays(y, m)
	}
}

// resetCrosses reports whether robfig/cron's first move from a, which is
// not a start time (back to the start of its hour, day or month, then
// forward), can meet a change of offset it does not step as the wall
// clock: one less than a month before a, or within two days after it.
func (s *Schedule) resetCrosses(a int64) bool {
	if s.fixed {
		return false
	}
	tl := time.Unix(a+1, 0).In(s.loc)
	if _, end := tl.ZoneBounds(); !end.IsZero() && end.Unix()-a <= 2*secondsPerDay {
		_, o1 := tl.Zone()
		_, o2 := end.Zone()
		if o1 != o2 && !benignChange(end.Unix(), int64(o1), int64(o2)) {
			return true
		}
	}
	for i := 0; i < 4; i++ { // bounds that change nothing are passed over
		st, _ := tl.ZoneBounds()
		if st.IsZero() || a+1-st.Unix() > resetReach {
			return false
		}
		before := time.Unix(st.Unix()-1, 0).In(s.loc)
		_, o1 := before.Zone()
		_, o2 := tl.Zone()
		if o1 != o2 {
			return !benignChange(st.Unix(), int64(o1), int64(o2))
		}
		tl = before
	}
	return true // cannot tell: take the step
}

// resetReach is the farthest robfig/cron's first move goes back: to the
// first of a month, from its last second.
const resetReach = 32 * secondsPerDay

// selects reports whether the schedule selects instant x's wall time.
func (s *Schedule) selects(x int64) bool {
	_, o := time.Unix(x, 0).In(s.loc).Zone()
	l := x + int64(o)
	day := floorDiv(l, secondsPerDay)
	sod := l - day*secondsPerDay
	return s.dayMatches(day) && s.hour>>uint(sod/3600)&1 != 0 &&
		s.minute>>uint(sod%3600/60)&1 != 0 && s.second>>uint(sod%60)&1 != 0
}
