package cronjob

import "time"

// clock reads a zone's wall clock the way package time does, remembering
// the last stretch package time reported one offset for, so that the walk
// (next.go) asks package time once per stretch instead of once per field
// it reads. After a zone's last listed transition package time computes
// every answer from the zone's rule, which costs about a microsecond, and
// a walk reads hundreds of fields.
//
// Its answers are package time's: fields are Unix seconds plus the offset
// package time gives for that instant, and date is time.Date's resolution
// of a wall reading (look the reading up as if it were UTC; when the
// instant that offset gives lies outside the stretch found, take the
// offset at that instant instead), on the bounds package time reports.
type clock struct {
	loc *time.Location
	// zones is loc's table (zonetable.go), or nil; hint its last index.
	zones *zoneTable
	hint  int
	// the stretch [start, end) of the last lookup, with its offset
	start, end, off int64
	ok              bool
}

// wall is a wall-clock reading.
type wall struct {
	year                                int64
	month, day, hour, min, sec, weekday int
}

// lookup returns package time's offset at Unix second x and the bounds of
// the stretch it reports around x (noStart and noEnd for none).
func (c *clock) lookup(x int64) (off, start, end int64) {
	if c.ok && c.start <= x && x < c.end {
		return c.off, c.start, c.end
	}
	z := c.zones
	if z == nil {
		z = &zoneTable{}
	}
	off, start, end = z.at(c.loc, x, &c.hint)
	// Package time's lookups for any instant in a stretch it reports
	// give that same stretch; a stretch that does not hold x (its
	// rule-based bounds can end before x) is not remembered.
	c.ok = start <= x && x < end
	c.start, c.end, c.off = start, end, off
	return off, start, end
}

// fields returns the wall-clock reading at Unix second x.
func (c *clock) fields(x int64) wall {
	off, _, _ := c.lookup(x)
	l := x + off
	days := floorDiv(l, secondsPerDay)
	sod := int(l - days*secondsPerDay)
	y, m, d := civil(days)
	return wall{year: y, month: m, day: d, hour: sod / 3600, min: sod % 3600 / 60, sec: sod % 60, weekday: weekday(days)}
}

// date returns the Unix second time.Date gives for the wall reading
// y-m-d h:mi:sec (the month from 1 to 13, the day from 1 to 32, the rest in
// range), nanoseconds zero.
func (c *clock) date(y int64, m, d, h, mi, sec int) int64 {
	if m > 12 {
		y, m = y+1, m-12
	}
	x := dayNumber(y, m, d)*secondsPerDay + int64(h*3600+mi*60+sec)
	off, start, end := c.lookup(x)
	if off != 0 {
		if utc := x - off; utc < start || utc >= end {
			off, _, _ = c.lookup(utc)
		}
		x -= off
	}
	return x
}
