package cronjob

import (
	"fmt"
	"math/bits"
	"strings"
	"time"

	"github.com/robfig/cron/v3"

	"github.com/kubesem/kubesem/field"
)

// Schedule is a parsed spec.schedule in its time zone: either a cron
// expression (five fields or a macro such as @daily) or an "@every <duration>"
// interval. Build one with [ParseSchedule]; the zero value never fires.
type Schedule struct {
	second, minute, hour, dom, month, dow uint64 // robfig/cron bit sets
	delay                                 time.Duration
	loc                                   *time.Location

	fixed    bool // loc has one offset for all time
	fixedOff int64
	// wallClock: Options.WallClockNext (Next steps wall-clock time in
	// zones with offset changes instead of robfig/cron's walk).
	wallClock bool
	perDay    int64            // start times on a matching day
	perHour   int64            // start times in a selected hour
	dowFirst  [7]uint64        // days 1..37 on the weekdays of dow, by weekday of the 1st
	monthCnt  [4][7]int64      // matching days in a month of 28+i days starting on weekday w
	yearCnt   [2][7]int64      // matching days in a (leap) year starting on weekday w
	cumDays   [2][7][13]uint16 // matching days in months 1..m of a (leap) year starting on weekday w
	never     bool             // no day ever matches: the schedule never fires
	leapOnly  bool             // only February 29 matches (start times 4 or 8 years apart)
	allDays   bool             // every day matches
	allHours  bool             // every hour of every day matches
	zones     zoneTable        // loc's periods of one offset from 1970 (zonetable.go)
}

// ParseSchedule parses spec.schedule the way the v1.36.3 CronJob controller
// does: a schedule containing "TZ" is parsed as written (a leading "TZ=zone "
// or "CRON_TZ=zone " picks its zone; spec.timeZone is then ignored and the
// controller warns UnsupportedSchedule); otherwise spec.timeZone, when set,
// is prefixed as "TZ=<zone> ", which also trims blanks around the rest;
// without either, the schedule runs in Options.LocalTimeZone. The grammar is
// robfig/cron v3.0.1's ParseStandard: five fields (minute, hour, day of
// month, month, day of week) with names, ranges, steps, "*" and "?", the
// macros @yearly, @annually, @monthly, @weekly, @daily, @midnight and
// @hourly, and "@every <duration>".
//
// It returns a *field.Error wrapping field.ErrInvalid: at spec.timeZone when
// timeZone names no zone, at spec.schedule when the schedule does not parse
// (including inputs on which robfig/cron would panic, such as "TZ=UTC").
//
// Source: upstream pkg/controller/cronjob/cronjob_controllerv2.go
// formatSchedule, pkg/util/parsers/parsers.go
// ParseCronScheduleWithPanicRecovery (v1.36.3); robfig/cron v3.0.1 parser.go.
func ParseSchedule(schedule string, timeZone *string, opts Options) (*Schedule, error) {
	loc, err := localZone(opts)
	if err != nil {
		return nil, err
	}
	spec := schedule
	var known *knownZone
	if timeZone != nil {
		tz, err := loadZone(*timeZone, opts)
		if err != nil {
			return nil, field.At(err, "spec.timeZone")
		}
		if !strings.Contains(schedule, "TZ") {
			spec = "TZ=" + *timeZone + " " + schedule
			known = &knownZone{name: *timeZone, loc: tz}
		}
	}
	s, err := parseSpec(spec, loc, known, opts)
	if err != nil {
		return nil, field.New("spec.schedule", schedule, fmt.Errorf("%w: %v", field.ErrInvalid, err))
	}
	s.wallClock = opts.WallClockNext
	return s, nil
}

// knownZone is a zone loadZone has loaded already.
type knownZone struct {
	name string
	loc  *time.Location
}

// parseSpec parses a robfig/cron standard spec, resolving a TZ= or CRON_TZ=
// prefix through loadZone instead of letting robfig/cron load it (or to
// known, when it names that zone: loading a zone reads and decodes its
// file).
func parseSpec(spec string, loc *time.Location, known *knownZone, opts Options) (s *Schedule, err error) {
	if spec == "" {
		return nil, fmt.Errorf("empty spec string")
	}
	if strings.HasPrefix(spec, "TZ=") || strings.HasPrefix(spec, "CRON_TZ=") {
		sp := strings.Index(spec, " ")
		eq := strings.Index(spec, "=")
		if sp < eq+1 {
			return nil, fmt.Errorf("invalid schedule format: no space after time zone")
		}
		if name := spec[eq+1 : sp]; known != nil && name == known.name {
			loc = known.loc
		} else if loc, err = loadZone(name, opts); err != nil {
			return nil, fmt.Errorf("provided bad location %s", name)
		}
		spec = strings.TrimSpace(spec[sp:])
		if strings.HasPrefix(spec, "TZ=") || strings.HasPrefix(spec, "CRON_TZ=") {
			return nil, fmt.Errorf("time zone given twice")
		}
	}
	defer func() {
		if r := recover(); r != nil {
			s, err = nil, fmt.Errorf("invalid schedule format: %v", r)
		}
	}()
	parsed, err := cron.ParseStandard(spec)
	if err != nil {
		return nil, err
	}
	s = &Schedule{loc: loc}
	switch p := parsed.(type) {
	case *cron.SpecSchedule:
		s.second, s.minute, s.hour, s.dom, s.month, s.dow = p.Second, p.Minute, p.Hour, p.Dom, p.Month, p.Dow
	case cron.ConstantDelaySchedule:
		s.delay = p.Delay
	default:
		return nil, fmt.Errorf("unsupported schedule type %T", parsed)
	}
	s.prepare()
	return s, nil
}

// prepare fills the tables Next and Count use.
func (s *Schedule) prepare() {
	if start, end := time.Unix(0, 0).In(s.loc).ZoneBounds(); start.IsZero() && end.IsZero() {
		_, off := time.Unix(0, 0).In(s.loc).Zone()
		s.fixed, s.fixedOff = true, int64(off)
	}
	if s.delay > 0 {
		return
	}
	if !s.fixed {
		s.zones = newZoneTable(s.loc)
	}
	s.perHour = int64(bits.OnesCount64(s.minute&^starBit)) * int64(bits.OnesCount64(s.second&^starBit))
	s.perDay = int64(bits.OnesCount64(s.hour&^starBit)) * s.perHour
	for w := 0; w < 7; w++ {
		var m uint64
		for k := s.dow & 0x7f; k != 0; k &= k - 1 {
			wd := bits.TrailingZeros64(k)
			m |= weeklyFrom1 << ((wd - w + 7) % 7)
		}
		s.dowFirst[w] = m
	}
	for n := 28; n <= 31; n++ {
		for w := 0; w < 7; w++ {
			s.monthCnt[n-28][w] = int64(bits.OnesCount64(s.dayMask(n, w)))
		}
	}
	for leap := 0; leap < 2; leap++ {
		for w := 0; w < 7; w++ {
			y := int64(2001) // any common year
			if leap == 1 {
				y = 2004
			}
			var total int64
			wm := w
			for m := 1; m <= 12; m++ {
				n := monthDays(y, m)
				if s.month>>uint(m)&1 != 0 {
					total += s.monthCnt[n-28][wm]
				}
				s.cumDays[leap][w][m] = uint16(total)
				wm = (wm + n) % 7
			}
			s.yearCnt[leap][w] = total
		}
	}
	s.never, s.allDays = true, true
	for w := 0; w < 7; w++ {
		s.never = s.never && s.yearCnt[0][w] == 0 && s.yearCnt[1][w] == 0
		s.allDays = s.allDays && s.yearCnt[0][w] == 365 && s.yearCnt[1][w] == 366
	}
	s.allHours = s.allDays && s.hour&(1<<24-1) == 1<<24-1
	s.leapOnly = !s.never
	for w := 0; w < 7; w++ {
		s.leapOnly = s.leapOnly && s.yearCnt[0][w] == 0
	}
	s.zones.sums = s.changeSums()
}

// Location returns the time zone the schedule runs in.
func (s *Schedule) Location() *time.Location {
	if s == nil || s.loc == nil {
		return time.UTC
	}
	return s.loc
}

// Interval returns the interval of an "@every" schedule, or 0 for a cron
// expression.
func (s *Schedule) Interval() time.Duration {
	if s == nil {
		return 0
	}
	return s.delay
}
