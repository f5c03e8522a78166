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
