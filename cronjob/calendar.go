package cronjob

import "math/bits"

// Civil-calendar arithmetic on "local seconds": seconds since 1970-01-01
// 00:00:00 of a wall clock, so that a fixed UTC offset turns an instant into
// a wall-clock reading by one addition. Everything here is proleptic
// Gregorian, like package time.

const secondsPerDay = 86400

// floorDiv returns ⌊a/b⌋ for b > 0.
func floorDiv(a, b int64) int64 {
	q := a / b // toward zero: one too many when a < 0 is not a multiple
	if q*b > a {
		q--
	}
	return q
}

// civil returns the year, month (1–12) and day (1–31) of the day numbered
// days since 1970-01-01. Within about 32,800 years before and 2.9 million
// years after 1970 it takes Neri and Schneider's form (2022, "Euclidean affine
// functions and their application to calendar algorithms"): a few 32-bit
// multiplications and shifts on the day count from a 1 March, shifted by
// whole 400-year cycles to be positive; elsewhere civilWide.
func civil(days int64) (y int64, m, d int) {
	const cycles = 82 // 400-year cycles added to make the count positive
	const shift = 719468 + cycles*146097
	if days < -shift || days >= 1<<30-shift {
		return civilWide(days)
	}
	n := 4*uint32(days+shift) + 3
	century, ofCentury := n/146097, n%146097/4 // day 0: 1 March of the century's first year
	p := 2939745 * uint64(4*ofCentury+3)       // 2939745/2³² ≈ 4/1461: years of 365.25 days
	year := 100*century + uint32(p>>32)
	doy := uint32(p) / 2939745 / 4 // day of the year from 1 March
	md := 2141*doy + 197913        // months of 30.6 days, as 2141/2¹⁶
	mo, day := md>>16, (md&0xffff)/2141
	if doy >= 306 { // January or February: the next calendar year
		year, mo = year+1, mo-12
	}
	return int64(year) - 400*cycles, int(mo), int(day) + 1
}

// civilWide is civil for any day number (Hinnant's days-to-civil).
func civilWide(days int64) (y int64, m, d int) {
	z := days + 719468
	era := floorDiv(z, 146097)
	doe := z - era*146097
	yoe := (doe - doe/1460 + doe/36524 - doe/146096) / 365
	y = yoe + era*400
	doy := doe - (365*yoe + yoe/4 - yoe/100)
	mp := (5*doy + 2) / 153
	d = int(doy - (153*mp+2)/5 + 1)
	if mp < 10 {
		m = int(mp + 3)
	} else {
		m = int(mp - 9)
	}
	if m <= 2 {
		y++
	}
	return y, m, d
}

// dayNumber returns the day number (days since 1970-01-01) of y-m-d, for a
// valid month 1–12 and any day (days past the month's end roll over).
func dayNumber(y int64, m, d int) int64 {
	if m <= 2 {
		y--
	}
	era := floorDiv(y, 400)
	yoe := y - era*400
	mp := int64(m + 9)
	if m > 2 {
		mp = int64(m - 3)
	}
	doy := (153*mp+2)/5 + int64(d) - 1
	doe := yoe*365 + yoe/4 - yoe/100 + doy
	return era*146097 + doe - 719468
}

// isLeap reports whether y is a Gregorian leap year.
func isLeap(y int64) bool { return y&3 == 0 && (y%100 != 0 || y%400 == 0) }

// monthDays returns the number of days in month m of year y.
func monthDays(y int64, m int) int {
	switch m {
	case 2:
		if isLeap(y) {
			return 29
		}
		return 28
	case 4, 6, 9, 11:
		return 30
	}
	return 31
}

// weekday returns the weekday (0 = Sunday) of a day number.
func weekday(days int64) int {
	// 1970-01-01 was a Thursday. Shifted by a multiple of 7 to be
	// positive, the remainder is one multiplication.
	const shift = 7 << 58
	if -shift < days && days < shift {
		return int(uint64(days+shift+4) % 7)
	}
	return int((days%7 + 7 + 4) % 7)
}

// dayMask returns, as bits 1..n, the days of a month with n days whose
// first day falls on weekday w that the schedule's day-of-month and
// day-of-week fields select: both must match when either field was written
// with a star, otherwise either may.
func (s *Schedule) dayMask(n, w int) uint64 {
	monthMask := uint64(1)<<(n+1) - 2 // bits 1..n
	dowDays := s.dowFirst[w]
	dom := s.dom &^ starBit
	if s.dom&starBit != 0 || s.dow&starBit != 0 {
		return dom & dowDays & monthMask
	}
	return (dom | dowDays) & monthMask
}

// weeklyFrom1 has bits 1, 8, 15, 22, 29 and 36 set: one weekday of a month.
const weeklyFrom1 = 1<<1 | 1<<8 | 1<<15 | 1<<22 | 1<<29 | 1<<36

// starBit marks a field written with "*" or "?" (robfig/cron's convention).
const starBit = 1 << 63

// nextBit returns the lowest set bit of mask at or above i, or -1.
func nextBit(mask uint64, i int) int {
	if i > 63 {
		return -1
	}
	m := mask >> uint(i) << uint(i)
	if m == 0 {
		return -1
	}
	return bits.TrailingZeros64(m)
}

// prevBit returns the highest set bit of mask at or below i, or -1.
func prevBit(mask uint64, i int) int {
	if i < 0 {
		return -1
	}
	if i < 63 {
		mask &= uint64(1)<<uint(i+1) - 1
	}
	if mask == 0 {
		return -1
	}
	return 63 - bits.LeadingZeros64(mask)
}
