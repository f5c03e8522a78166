package cronjob

import (
	"math"
	"time"
)

// zoneTable lists the periods of one offset that package time reports for
// a zone from 1970 until 2037 or the start of its rule-based era (after
// the zone's last listed transition, where package time computes each
// answer from the zone's rule and splits periods at 1 January 00:00 UTC):
// period i runs from periods[i].start to periods[i+1].start (the last to
// end). Package time's lookup of any instant within a listed period
// reports that period and offset (it searches the transitions for the
// last one at or before the instant), so the table answers as package
// time does. With each change's calendar (zonePeriod), it lets a count
// that crosses twenty changes of offset read them from the schedule
// instead of asking package time twice per change and the calendar once
// (which was most of a ten-year count). ParseSchedule builds it once per
// schedule that runs in a zone with changes: two lookups per period, about
// 140 periods and 4.5 kB for a zone with daylight saving since 1970, and
// 16 bytes a period more for the schedule's sums of corrections.
type zoneTable struct {
	periods []zonePeriod
	end     int64 // the end of the last period
	// sums are the schedule's corrections at the table's changes
	// (changeSums), nil when it has none to sum.
	sums []changeSum
}

// zonePeriod is a period of one offset, from start, and (but for a
// table's first) the change of offset that starts it: the day on which
// the first wall time that change skips or repeats, start plus the
// smaller offset, falls (day number, weekday, month, day of the month),
// that wall time's second of the day, and flags.
type zonePeriod struct {
	start, off int64
	day        int64
	sod        int32
	wd, mo     int8
	dom, flags int8
}

// zonePeriod flags.
const (
	changeWhole  = 1 << iota // the change and both offsets are whole minutes
	changeBenign             // benignChange
)

// Sentinels for a period without a start or an end (package time's zero
// times from ZoneBounds).
const (
	noStart = math.MinInt64
	noEnd   = math.MaxInt64
)

// zoneTableMax bounds a table's periods: a zone changes offset at most a
// few times a year.
const zoneTableMax = 1024

// zoneTableUntil is 2037-01-01 00:00 UTC: no period starting at or after it
// goes into a table. The zone files most systems ship list transitions up
// to 2037, after which package time computes each lookup from the zone's
// rule, at a microsecond a lookup: the table stops before.
const zoneTableUntil = 2114380800

// newZoneTable returns loc's table (empty when loc has no change from
// 1970 on).
func newZoneTable(loc *time.Location) zoneTable {
	st, en := time.Unix(0, 0).In(loc).ZoneBounds()
	var x int64
	switch {
	case !st.IsZero():
		x = st.Unix()
	case !en.IsZero():
		x = en.Unix()
	default:
		return zoneTable{}
	}
	// About two changes a year: one allocation for most zones.
	z := zoneTable{periods: make([]zonePeriod, 0, 2*(2040-1970))}
	for len(z.periods) < zoneTableMax && x < zoneTableUntil {
		t := time.Unix(x, 0).In(loc)
		_, o := t.Zone()
		st, en := t.ZoneBounds()
		if st.IsZero() || st.Unix() != x || en.IsZero() || en.Unix() <= x {
			// Not a period of its own from x (package time's rule-based
			// bounds can end before the instant asked about), or the
			// last.
			break
		}
		if n := len(z.periods); n > 0 && int64(o) == z.periods[n-1].off && x%secondsPerDay == 0 {
			if _, m, d := civil(x / secondsPerDay); m == 1 && d == 1 {
				break // the rule-based era
			}
		}
		p := zonePeriod{start: x, off: int64(o)}
		if n := len(z.periods); n > 0 {
			p = newChange(x, z.periods[n-1].off, p.off)
		}
		z.periods = append(z.periods, p)
		x = en.Unix()
	}
	if len(z.periods) == 0 {
		return zoneTable{}
	}
	z.end = x
	return z
}

// zoneAt returns package time's offset at Unix second x and the bounds of
// the period it reports around x (noStart and noEnd for none), from the
// schedule's table where it covers x. *hint is the table index of the
// last answer (any value at first): looking up the next period costs
// two comparisons.
func (s *Schedule) zoneAt(x int64, hint *int) (off, start, end int64) {
	return s.zones.at(s.loc, x, hint)
}

// at is zoneAt in loc, whose table z is.
func (z *zoneTable) at(loc *time.Location, x int64, hint *int) (off, start, end int64) {
	p := z.periods
	if n := len(p); n > 0 && p[0].start <= x && x < z.end {
		// The period i with p[i].start <= x < its end.
		i := *hint
		switch {
		case i >= 0 && i < n && p[i].start <= x && (i+1 == n || x < p[i+1].start):
		case i >= 0 && i+1 < n && p[i+1].start <= x && (i+2 == n || x < p[i+2].start):
			i++
		default:
			lo, hi := 0, n // p[lo].start <= x < p[hi].start (or the end)
			for hi-lo > 1 {
				m := int(uint(lo+hi) >> 1)
				if x < p[m].start {
					hi = m
				} else {
					lo = m
				}
			}
			i = lo
		}
		*hint = i
		end = z.end
		if i+1 < n {
			end = p[i+1].start
		}
		return p[i].off, p[i].start, end
	}
	t := time.Unix(x, 0).In(loc)
	_, o := t.Zone()
	st, en := t.ZoneBounds()
	off, start, end = int64(o), noStart, noEnd
	if !st.IsZero() {
		start = st.Unix()
	}
	if !en.IsZero() {
		end = en.Unix()
	}
	return off, start, end
}
