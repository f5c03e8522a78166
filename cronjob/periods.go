package cronjob

import "time"

// The period-by-period count: the definition of [Schedule.Count] that
// zoneCount (transitions.go) computes faster, and the path Count takes where
// zoneCount cannot show it gets the same answer.

// periodCount counts start times in (a, b] (Unix seconds) one UTC-offset
// period at a time, on wall-clock time, and near each change of offset that
// robfig/cron's stepping does not follow exactly (see benignChange) replaces
// that arithmetic by stepping Next for two days either side of the change.
func (s *Schedule) periodCount(a, u int64) int64 {
	var total int64
	fixFrom := a // stepping corrections already cover (a, fixFrom]
	for lo := a; lo < u; {
		off, end := s.period(lo + 1)
		hi := u
		if end != 0 && end-1 < hi {
			hi = end - 1
		} else {
			end = 0
		}
		total += s.countLocal(lo+off, hi+off)
		lo = hi
		if end == 0 {
			continue
		}
		next, _ := s.period(end)
		if benignChange(end, off, next) {
			continue
		}
		// Near a change robfig/cron's stepping departs from "every
		// instant whose wall time matches"; count that stretch by
		// stepping instead.
		w0, w1 := max(a, end-stepReach, fixFrom), min(u, end+stepReach)
		if w1 > w0 {
			total += s.stepCount(w0, w1) - s.arithCount(w0, w1)
			fixFrom = w1
		}
	}
	return total
}

// stepReach is how far either side of a change of offset periodCount
// counts by stepping Next.
const stepReach = 2 * secondsPerDay

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
// time matches": whole-minute offsets, a whole-hour change starting on the
// hour, and a skipped or repeated stretch between 01:00 and 23:00 of one day.
func benignChange(t, o1, o2 int64) bool {
	d := o2 - o1
	if o1%60 != 0 || o2%60 != 0 || d%3600 != 0 || (t+o1)%3600 != 0 {
		return false
	}
	lo, hi := t+min(o1, o2), t+max(o1, o2)
	day := floorDiv(lo, secondsPerDay)
	return lo-day*secondsPerDay >= 3600 && hi-day*secondsPerDay <= 23*3600
}

// stepCount counts start times in (a, b] (Unix seconds) by stepping Next.
func (s *Schedule) stepCount(a, b int64) int64 {
	var n int64
	until := time.Unix(b, 0)
	prev := time.Unix(a, 0)
	for t := s.Next(prev); !t.IsZero() && t.After(prev) && !t.After(until) && n < maxSteps; t = s.Next(t) {
		n, prev = n+1, t
	}
	return n
}

// arithCount counts (a, b] (Unix seconds) the way periodCount's arithmetic
// does, period by period.
func (s *Schedule) arithCount(a, b int64) int64 {
	var total int64
	for lo := a; lo < b; {
		off, end := s.period(lo + 1)
		hi := b
		if end != 0 && end-1 < hi {
			hi = end - 1
		}
		total += s.countLocal(lo+off, hi+off)
		lo = hi
	}
	return total
}
