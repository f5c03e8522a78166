package cronjob

import "time"

// PeriodCount is a count Count must equal, computed another way: period by
// period for zones that change their offset, and by stepping Next (slow:
// keep such windows short, see SteppedCount) for @every schedules and
// fixed-offset zones, where Count has no periods.
func (s *Schedule) PeriodCount(after, until time.Time) int64 {
	if s == nil || s.loc == nil || !until.After(after) {
		return 0
	}
	if s.SteppedCount() {
		n := int64(0)
		for t := s.Next(after); !t.IsZero() && !t.After(until); t = s.Next(t) {
			n++
		}
		return n
	}
	return s.steps(after.Unix(), until.Unix(), nil).n
}

// SteppedCount reports whether PeriodCount steps Next.
func (s *Schedule) SteppedCount() bool { return s.delay > 0 || s.fixed }

// BenignAgrees reports whether benignAt and benignChange agree on a change
// of offset from o1 to o2 at instant t.
func BenignAgrees(t, o1, o2 int64) bool {
	_, _, _, ok := benignAt(t, o1, o2)
	return ok == benignChange(t, o1, o2)
}
