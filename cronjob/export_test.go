package cronjob

import "time"

// PeriodCount exposes the period-by-period count that Count must equal.
func (s *Schedule) PeriodCount(after, until time.Time) int64 {
	if s == nil || s.loc == nil || !until.After(after) {
		return 0
	}
	a, u := after.Unix(), until.Unix()
	if s.delay > 0 || s.fixed {
		return s.Count(after, until)
	}
	return s.periodCount(a, u)
}

// BenignAgrees reports whether benignAt and benignChange agree on a change
// of offset from o1 to o2 at instant t.
func BenignAgrees(t, o1, o2 int64) bool {
	_, _, _, ok := benignAt(t, o1, o2)
	return ok == benignChange(t, o1, o2)
}
