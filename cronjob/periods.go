package cronjob

import "time"

// Stepping: the definition of [Schedule.Count] and of upstream's loop in
// mostRecentScheduleTime (t = Next(t) until t passes now), computed without
// taking every step. Between the changes of a zone's offset, stepping from
// a start time the schedule selects visits every selected wall-clock time
// in order, so a stretch of any length counts arithmetically (countLocal)
// and ends on its last selected time (lastLocalAfter). Only around a
// change robfig/cron does not step as the wall clock (see benignChange), at
// the first step from a time the schedule does not select, and at the
// first step in an era whose offset is not a whole number of minutes
// (local mean time: robfig/cron truncates instants to the minute, not wall
// times, and can pass over a selected minute there) is robfig/cron's own
// step taken. So the work grows with the changes of offset between the two
// instants (a few hundred since the 1880s in most zones), not with the
// start times or the years before a zone's first change; transitions.go
// is a faster count where every change is benign.

// run is where a stretch of steps from a start point ended.
type run struct {
	n    int64 // forward steps that landed at or before the bound
	last int64 // Unix second of the last of them; the start point when n is 0
	// back: the step after them does not go forward; next is its result,
	// the zero time when robfig/cron found no time within five years.
	back bool
	next time.Time
	// endless: the step after them is a robfig/cron walk that never ends.
	endless bool
}

// meter counts the work a computation does, for tests that bound it; nil
// counts nothing.
type meter struct {
	walks    int64 // robfig/cron steps taken one by one
	stretch  int64 // stretches counted arithmetically
	restarts int64 // runs started after a step that did not go forward
}

func (m *meter) walk() {
	if m != nil {
		m.walks++
	}
}

func (m *meter) restart() {
	if m != nil {
		m.restarts++
	}
}

func (m *meter) count() {
	if m != nil {
		m.stretch++
	}
}

// steps takes the steps t = Next(t) from Unix second x while each goes
// forward and lands at or before u, and says where and why it stopped.
func (s *Schedule) steps(x, u int64, m *meter) run {
	r := run{last: x}
	if s.delay > 0 {
		// Every step adds the interval, a whole number of seconds.
		d := int64(s.delay / time.Second)
		if u > x {
			r.n = floorDiv(u-x, d)
			r.last = x + r.n*d
		}
		return r
	}
	if u-x > 2*cycle && !s.never {
		if r, ok := s.cycles(x, u, m); ok {
			return r
		}
	}
	return s.walkRun(x, u, m)
}

// cycle is 400 Gregorian years in seconds: a whole number of weeks, after
// which the calendar, and a zone's offset changes once they follow its
// rule rather than its list of transitions, repeat.
const cycle = 146097 * secondsPerDay

// cycles is steps over a window of more than two cycles that reaches into
// a zone's rule-based era: from a start time v stepping reaches in that
// era, stepping is the same from v + cycle shifted by a cycle, so when it
// visits v + cycle the steps of one cycle repeat. It steps (walkRun) up to
// v, over one cycle from v (split at the remainder of u − v), and
// multiplies; ok is false when the window does not qualify or stepping
// from v does not come back to v + cycle (the caller then steps on).
func (s *Schedule) cycles(x, u int64, m *meter) (run, bool) {
	rule, ok := s.ruleEra()
	if !ok {
		return run{}, false
	}
	// Stepping from v must see only the rule-based era: robfig/cron's
	// first move reaches back to the start of a month.
	base := max(x, rule+2*resetReach)
	if u-base <= 2*cycle {
		return run{}, false
	}
	r := s.walkRun(x, base+2*366*secondsPerDay, m)
	v := r.last
	if r.back || r.endless || r.n == 0 || v < rule+2*resetReach {
		return run{}, false
	}
	k, rem := (u-v)/cycle, (u-v)%cycle
	r1 := s.walkRun(v, v+rem, m)
	if r1.back || r1.endless {
		return join(r, r1), true // stepping ends within the window
	}
	r2 := s.walkRun(r1.last, v+cycle, m)
	if r2.back || r2.endless {
		return join(r, join(r1, r2)), true
	}
	if r2.last != v+cycle {
		return run{}, false
	}
	// (v, v+k·cycle] holds k cycles of r1.n + r2.n steps, and from
	// v + k·cycle the steps of r1 follow, shifted.
	r.n += k*(r1.n+r2.n) + r1.n
	r.last = r1.last + k*cycle
	return r, true
}

// join returns the run a, then b from where a ended.
func join(a, b run) run {
	b.n += a.n
	if b.n == a.n {
		b.last = a.last
	}
	return b
}

// ruleEra returns an instant from which the zone's offsets follow its rule
// (package time's lookups use the zone's TZ string, not its list of
// transitions) with daylight saving: the last of the first four
// consecutive 1 January 00:00 UTC, from 1900 to 2500, at which package time
// starts a period without a change of offset, the year split it makes only
// in that era (a listed transition exactly at such an instant four years
// running does not occur). ok is false when there is none (the zone keeps
// one offset after its last transition, so stepping needs no cycles).
func (s *Schedule) ruleEra() (int64, bool) {
	run := 0
	for y := int64(1900); y <= 2500; y++ {
		at := dayNumber(y, 1, 1) * secondsPerDay
		t := time.Unix(at, 0).In(s.loc)
		st, _ := t.ZoneBounds()
		_, o1 := t.Zone()
		_, o0 := time.Unix(at-1, 0).In(s.loc).Zone()
		if st.IsZero() || st.Unix() != at || o0 != o1 {
			run = 0
			continue
		}
		if run++; run == 4 {
			return at, true
		}
	}
	return 0, false
}

// walkRun is steps without cycles.
//
// Where the run ends because the next selected wall-clock time lies past u,
// robfig/cron's own step from where it stands decides how it ends: past u,
// or, where that step meets a change robfig/cron does not step as the
// wall clock, back (in local mean time around 1912 in Africa/Bamako,
// "0 0 29 2 *" from 1911-12-29 answers the zero time) or not at all. (A
// step that lands at or before u instead continues the run, though the
// arithmetic leaves no start time there.)
func (s *Schedule) walkRun(x, u int64, m *meter) run {
	r := run{last: x}
	for {
		decided := s.walkRunOnce(&r, r.last, u, m)
		if decided || r.back || r.endless {
			return r
		}
		m.walk()
		t, ok := s.next(time.Unix(r.last, 0).UTC())
		switch {
		case !ok:
			r.endless = true
			return r
		case t.IsZero() || t.Unix() <= r.last:
			r.back, r.next = true, t
			return r
		case t.Unix() > u:
			return r
		}
		r.n, r.last = r.n+1, t.Unix()
	}
}

// walkRunOnce adds to r the steps from x up to u; decided reports that
// the run's end was found by robfig/cron's own step (else the arithmetic
// found no further start time up to u).
func (s *Schedule) walkRunOnce(r *run, x, u int64, m *meter) (decided bool) {
	if s.never {
		// Steps answer the zero time or never end, except where the walk
		// strays into a month it does not test (see strays): robfig/cron's
		// own steps.
		for {
			m.walk()
			t, ok := s.next(time.Unix(x, 0).UTC())
			switch {
			case !ok:
				r.endless = true
				return true
			case t.IsZero() || t.Unix() <= x:
				r.back, r.next = true, t
				return true
			case t.Unix() > u:
				return true
			}
			r.n, r.last, x = r.n+1, t.Unix(), t.Unix()
		}
	}
	genuine := false // x is a time the schedule selects
	// step takes robfig/cron's own step from x; false when the run ends.
	step := func() bool {
		m.walk()
		t, ok := s.next(time.Unix(x, 0).UTC())
		switch {
		case !ok:
			r.endless = true
			return false
		case t.IsZero() || t.Unix() <= x:
			r.back, r.next = true, t
			return false
		case t.Unix() > u:
			decided = true
			return false
		}
		r.n, r.last, x = r.n+1, t.Unix(), t.Unix()
		return true
	}
	for {
		off, end := s.period(x + 1)
		if !genuine && (off%60 != 0 || s.resetCrosses(x)) {
			// Offsets that are not whole minutes, or a first move from x
			// (back to the start of its hour, day or month) that can
			// cross a change robfig/cron does not step as the wall clock.
			if !step() {
				return decided
			}
			genuine = s.selects(x)
			continue
		}
		if end == 0 {
			s.wallRun(r, x, u, off, genuine, m)
			return decided
		}
		o2, _ := s.period(end)
		if benignChange(end, off, o2) {
			// Stepping crosses as the wall clock does: go on from the
			// period's last second.
			if u < end {
				s.wallRun(r, x, u, off, genuine, m)
				return decided
			}
			if !s.wallRun(r, x, end-1, off, genuine, m) {
				return decided
			}
			x, genuine = end-1, false
			continue
		}
		// Count on the wall clock up to the last start time whose step
		// cannot meet the change, then take robfig/cron's own steps until
		// one lands past the change on a start time the schedule selects,
		// from which the walk is on the wall clock again.
		cut := safeCut(end, off, o2)
		if u <= cut {
			s.wallRun(r, x, u, off, genuine, m)
			return decided
		}
		if cut > x {
			n := r.n
			if !s.wallRun(r, x, cut, off, genuine, m) {
				return decided
			}
			if r.n > n {
				x, genuine = r.last, true
			}
		}
		for {
			if !step() {
				return decided
			}
			if x >= end && s.selects(x) {
				genuine = true
				break
			}
		}
	}
}

// wallRun adds to r the steps from x up to u within one offset period of
// offset off, where stepping is on the wall clock: x is a start time the
// schedule selects (genuine), or the offset is whole minutes and
// robfig/cron's first move from x meets no change. It reports whether
// stepping goes on past u (false: a step found no time within robfig/cron's
// five years, recorded in r).
func (s *Schedule) wallRun(r *run, x, u, off int64, genuine bool, m *meter) bool {
	m.count()
	l, h := x+off, u+off
	if s.leapOnly {
		// Start times only on February 29: from the last one on the 29th
		// before a century year that is not a leap year, the next is
		// eight years on, beyond robfig/cron's five, so Next answers the
		// zero time. A first step from a time the schedule does not
		// select looks five years on from there.
		if !genuine {
			f, ok := s.nextLocal(l + 1)
			if !ok {
				r.back, r.next = true, time.Time{}
				return false
			}
			if f > h {
				return true
			}
			r.n, r.last, l = r.n+1, f-off, f
		}
		if dead, ok := s.deadEnd(l); ok && dead <= h {
			r.n += s.countLocal(l, dead)
			r.last = dead - off
			r.back, r.next = true, time.Time{}
			return false
		}
	}
	if n := s.countLocal(l, h); n > 0 {
		r.n += n
		last, _ := s.lastLocalAfter(l, h)
		r.last = last - off
	}
	return true
}

// deadEnd returns the last selected local second of the first February 29
// at or after local second l (l itself included) whose year is followed
// by a century year that is not a leap year.
func (s *Schedule) deadEnd(l int64) (int64, bool) {
	tod, ok := s.lastTime(secondsPerDay - 1)
	if !ok {
		return 0, false
	}
	y, _, _ := civil(floorDiv(l, secondsPerDay))
	y += (96 - y%100 + 100) % 100 // the next year ending in 96
	for {
		if (y+4)%400 != 0 {
			if x := dayNumber(y, 2, 29)*secondsPerDay + int64(tod); x >= l {
				return x, true
			}
		}
		y += 100
	}
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
// package time splits at a year boundary without a change are joined, and
// so are the days on which its rule-based bounds (after a zone's last
// listed transition) end before the instant asked about: in that case the
// year's last change is behind and its UTC year ends at the next 00:00 UTC
// (package time gives 365 days for the year's length, a day short in a leap
// year), so the offset holds until then.
func (s *Schedule) period(x int64) (off, end int64) {
	if s.fixed {
		return s.fixedOff, 0
	}
	h := 0 // zoneAt's hint
	off, _, e := s.zoneAt(x, &h)
	at := x
	for i := 0; i < 8; i++ {
		if e == noEnd {
			return off, 0
		}
		if end = e; end <= at {
			end = (floorDiv(at, secondsPerDay) + 1) * secondsPerDay
		}
		var o int64
		if o, _, e = s.zoneAt(end, &h); o != off {
			return off, end
		}
		at = end
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
	h := 0
	return s.resetCrossesAt(a, &h)
}

// resetCrossesAt is resetCrosses with zoneAt's hint.
func (s *Schedule) resetCrossesAt(a int64, hint *int) bool {
	if s.fixed {
		return false
	}
	o, st, end := s.zoneAt(a+1, hint)
	if end != noEnd && end-a <= 2*secondsPerDay {
		if o2, _, _ := s.zoneAt(end, hint); o != o2 && !benignChange(end, o, o2) {
			return true
		}
	}
	for i := 0; i < 4; i++ { // bounds that change nothing are passed over
		if st == noStart || a+1-st > resetReach {
			return false
		}
		o1, st1, _ := s.zoneAt(st-1, hint)
		if o1 != o {
			return !benignChange(st, o1, o)
		}
		o, st = o1, st1
	}
	return true // cannot tell: take the step
}

// resetReach is the farthest robfig/cron's first move goes back: to the
// first of a month, from its last second.
const resetReach = 32 * secondsPerDay

// selects reports whether the schedule selects instant x's wall time.
func (s *Schedule) selects(x int64) bool {
	h := 0
	return s.selectsAt(x, &h)
}

// selectsAt is selects with zoneAt's hint.
func (s *Schedule) selectsAt(x int64, hint *int) bool {
	o, _, _ := s.zoneAt(x, hint)
	l := x + o
	day := floorDiv(l, secondsPerDay)
	sod := l - day*secondsPerDay
	return s.dayMatches(day) && s.hour>>uint(sod/3600)&1 != 0 &&
		s.minute>>uint(sod%3600/60)&1 != 0 && s.second>>uint(sod%60)&1 != 0
}
