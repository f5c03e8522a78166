package cronjob

import "math/bits"

// How robfig/cron's walk (next.go) crosses a change of offset, for the
// count (transitions.go). Stepping from a start time the schedule selects,
// the walk searches the wall clock field by field, and where the offset
// does not change that search is "canonical": its state at any moment
// depends only on the wall time it stands at. Looking at the wall time w
// just before the change, it stands
//
//   - in the month loop, on the 1st at 00:00, when w's month is not
//     selected;
//   - else in the day loop, at 00:00, when w's day is not;
//   - else in the hour loop, on the hour, when w's hour is not;
//   - else in the minute loop, on the minute (which it returns when the
//     minute is selected).
//
// It reaches that state from any earlier start time (no start time lies
// between it and the change), and from a window's start that is not a
// start time too (robfig/cron's first move truncates to the start of the
// minute, hour, day or month it tests; resetCrosses covers a first move
// that reaches back across a change). Its next move crosses the change:
// the minute and hour loops add elapsed time, the day and month loops ask
// the calendar (time.Date) for the next day or month at the same wall
// time, which for a wall time the change skips or repeats resolves to one
// side or the other. plainChange names the crossings after which the walk
// is canonical again at once, so that stepping visits exactly the
// instants whose wall time the schedule selects.

// plainMargin is how far other changes of offset must be from a change
// plainChange judges: the walks it reasons about stay within two days of
// it, and time.Date looks wall times up as if they were UTC, up to 14
// hours away.
const plainMargin = 3 * secondsPerDay

// plainChange reports whether stepping across a change of offset from o1
// to o2 at instant e (all whole minutes, no other change within
// plainMargin) visits exactly the instants whose wall time the schedule
// selects, because the change's skipped or repeated wall times lie
//
//  1. inside a day the schedule does not select, not touching its
//     midnights: the walk passes that day in the day loop (from its
//     midnight to the next, both unique wall times) or the month loop (from
//     one 1st to the next), and arrives canonical at 00:00 the day after;
//  2. where the walk is in the minute loop on both sides: the day and hour
//     of the wall time a minute before the change (on the old offset) and
//     of the change's own wall time (on the new offset) are selected, so
//     the walk reaches the minute before the change in the minute loop (or
//     returns it), adds a minute, and stands on the new offset's wall
//     clock in a selected hour, where the minute loop (or, from a returned
//     minute, a full test) is canonical. Not where the change repeats a
//     midnight, unless every hour of every day is selected: the walk's day
//     loop may reach that midnight by the calendar, which can answer its
//     second pass (CET in 1916, whose "0 0 * * 0" on Sunday 1 October
//     starts once);
//  3. at the start of a day, spring forward by 1 to 11 whole hours,
//     neither that day nor the day before selected, and the day not the
//     1st of a month unless every month is selected: the walk stands at
//     midnight of the day before, in the day loop (or on a 1st in the
//     month loop, whose next 1st lies beyond), and its next day is
//     midnight of the skipped day, which time.Date resolves to the change
//     or that many hours before it; the day loop's correction of the hour
//     moves it by those hours to the other (a wall time on the day before
//     or on the day itself, neither selected; on a 1st the walk tests the
//     month first, which passes), and its next day, corrected, is 00:00
//     the day after, canonical.
//
// In every case the walk meets no wall time a wall-clock search would not
// test, so the count is the wall clock's with the skipped wall times left
// out and the repeated ones counted twice. empty reports that those wall
// times hold no start time (cases 1 and 3), so that the count needs no
// correction at all.
func (s *Schedule) plainChange(o1 int64, c *zonePeriod) (plain, empty bool) {
	if c.flags&changeWhole == 0 {
		return false, false
	}
	if s.allHours {
		return true, false // 2: every hour of every day
	}
	e, o2 := c.start, c.off
	hi := e + max(o1, o2) // the wall times skipped or repeated are [lo, hi)
	d := c.day            // lo's
	inside := c.sod > 0 && hi <= (d+1)*secondsPerDay
	j := o2 - o1
	atMidnight := j > 0 && j%3600 == 0 && j <= 11*3600 && c.sod == 0
	if (inside || atMidnight) && !s.allDays {
		wd := int(c.wd)
		pwd := wd - 1 // the day before's
		if pwd < 0 {
			pwd = 6
		}
		if (s.dom|s.dow)&starBit != 0 && s.dow>>uint(wd)&1 == 0 && s.dow>>uint(pwd)&1 == 0 &&
			(inside || s.month&allMonths == allMonths) {
			// Neither day is selected, whatever their dates (and on a
			// 1st, the walk's test of the month passes).
			return true, true // 1 or 3
		}
		mo, dom := int(c.mo), int(c.dom)
		if !s.selectsDay(mo, dom, wd) {
			if inside {
				return true, true // 1
			}
			if dom != 1 && !s.selectsDay(mo, dom-1, pwd) {
				return true, true // 3
			}
			if dom == 1 && s.month&allMonths == allMonths && !s.dayMatches(d-1) {
				return true, true // 3, on a 1st
			}
		}
	}
	if (j > 0 || inside) && s.selectsHour(e+o1-60, c) && s.selectsHour(e+o2, c) {
		return true, false // 2
	}
	return false, false
}

// allMonths has the bits of the twelve months.
const allMonths = 0x1ffe

// selectsHour reports whether the schedule selects the day and hour of
// local second l, reading the calendar of c's day where l falls on it.
func (s *Schedule) selectsHour(l int64, c *zonePeriod) bool {
	day := floorDiv(l, secondsPerDay)
	if s.hour>>uint((l-day*secondsPerDay)/3600)&1 == 0 {
		return false
	}
	if day != c.day || s.allDays {
		return s.dayMatches(day)
	}
	if (s.dom|s.dow)&starBit != 0 && s.dow>>uint(c.wd)&1 == 0 {
		return false // as dayMatchesOn
	}
	return s.selectsDay(int(c.mo), int(c.dom), int(c.wd))
}

// selectsDay reports whether the schedule selects day dom of month mo
// that falls on weekday wd.
func (s *Schedule) selectsDay(mo, dom, wd int) bool {
	return s.month>>uint(mo)&1 != 0 && s.dayOf(wall{day: dom, weekday: wd})
}

// dayMatchesOn is dayMatches for day number dn, which falls on weekday wd:
// the calendar is read only when the weekday does not decide.
func (s *Schedule) dayMatchesOn(dn int64, wd int) bool {
	if s.allDays {
		return true
	}
	if (s.dom|s.dow)&starBit != 0 && s.dow>>uint(wd)&1 == 0 {
		return false // day of month and weekday must both match
	}
	_, mo, dom := civil(dn)
	return s.selectsDay(mo, dom, wd)
}

// wallCount counts the selected wall times in [lo, hi) (local seconds,
// whole minutes): by the minutes of the day before each within one day,
// else by countLocal.
func (s *Schedule) wallCount(lo, hi int64) int64 {
	d := floorDiv(lo, secondsPerDay)
	day := d * secondsPerDay
	if hi <= lo || hi > day+secondsPerDay || s.second != 1 || lo%60 != 0 || hi%60 != 0 {
		return s.countLocal(lo-1, hi-1)
	}
	if !s.dayMatches(d) {
		return 0
	}
	return s.minutesBefore(uint64(hi-day)/60) - s.minutesBefore(uint64(lo-day)/60)
}

// minutesBefore counts the selected minutes before minute m (0 to 1440) of
// a selected day, for a schedule whose only second is 0.
func (s *Schedule) minutesBefore(m uint64) int64 {
	h, mi := m/60, m%60
	n := int64(bits.OnesCount64(s.hour&(1<<h-1))) * s.perHour
	if s.hour>>h&1 != 0 {
		n += int64(bits.OnesCount64(s.minute & (1<<mi - 1)))
	}
	return n
}
