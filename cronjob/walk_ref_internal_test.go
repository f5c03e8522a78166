package cronjob

import "time"

// walkRef is the walk as it was written on package time's calendar
// (time.Date, AddDate, Truncate, the field methods), the form robfig/cron
// v3.0.1's SpecSchedule.Next itself takes: walk, on clock, must agree with
// it everywhere.
func (s *Schedule) walkRef(t time.Time) (time.Time, bool) {
	orig := t.Location()
	loc := s.loc
	if loc == time.Local {
		loc = orig
	} else {
		t = t.In(loc)
	}
	t = t.Add(time.Second - time.Duration(t.Nanosecond()))
	fresh := true // no field moved yet: the first move zeroes the smaller ones
	limit := t.Year() + 5
	budget := walkBudget
again:
	if t.Year() > limit {
		return time.Time{}, true
	}
	for s.month>>uint(t.Month())&1 == 0 {
		if budget--; budget < 0 {
			return time.Time{}, false
		}
		if fresh {
			fresh = false
			t = time.Date(t.Year(), t.Month(), 1, 0, 0, 0, 0, loc)
		}
		t = t.AddDate(0, 1, 0)
		if t.Month() == time.January {
			goto again
		}
	}
	for !s.walkDay(t) {
		if budget--; budget < 0 {
			return time.Time{}, false
		}
		if fresh {
			fresh = false
			t = time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, loc)
		}
		prev := t
		t = t.AddDate(0, 0, 1)
		if h := t.Hour(); h > 12 {
			t = t.Add(time.Duration(24-h) * time.Hour)
		} else if h != 0 {
			t = t.Add(-time.Duration(h) * time.Hour)
		}
		if t.Equal(prev) {
			// The day after is this instant again (a skipped day's
			// midnight resolves to the one before): the walk repeats
			// this step for ever.
			return time.Time{}, false
		}
		if t.Day() == 1 {
			goto again
		}
	}
	for s.hour>>uint(t.Hour())&1 == 0 {
		if budget--; budget < 0 {
			return time.Time{}, false
		}
		if fresh {
			fresh = false
			t = time.Date(t.Year(), t.Month(), t.Day(), t.Hour(), 0, 0, 0, loc)
		}
		t = t.Add(time.Hour)
		if t.Hour() == 0 {
			goto again
		}
	}
	for s.minute>>uint(t.Minute())&1 == 0 {
		if budget--; budget < 0 {
			return time.Time{}, false
		}
		if fresh {
			fresh = false
			t = t.Truncate(time.Minute)
		}
		t = t.Add(time.Minute)
		if t.Minute() == 0 {
			goto again
		}
	}
	for s.second>>uint(t.Second())&1 == 0 {
		if budget--; budget < 0 {
			return time.Time{}, false
		}
		if fresh {
			fresh = false
			t = t.Truncate(time.Second)
		}
		t = t.Add(time.Second)
		if t.Second() == 0 {
			goto again
		}
	}
	return t.In(orig), true
}

// walkDay reports whether robfig/cron takes t's day: day of month and
// weekday must both match when either field is "*", else either.
func (s *Schedule) walkDay(t time.Time) bool {
	dom := s.dom>>uint(t.Day())&1 != 0
	dow := s.dow>>uint(t.Weekday())&1 != 0
	if (s.dom|s.dow)&starBit != 0 {
		return dom && dow
	}
	return dom || dow
}
