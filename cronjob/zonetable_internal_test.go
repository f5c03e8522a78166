package cronjob

import (
	"testing"
	"time"

	"pgregory.net/rapid"
)

// tableZones are zones whose tables TestZoneTable checks: daylight saving
// north and south, 30-minute and midnight changes, negative daylight
// saving, a skipped day, many changes a year, bounds that change nothing.
var tableZones = []string{
	"America/New_York", "Europe/Berlin", "Australia/Sydney", "Australia/Lord_Howe", "America/Santiago",
	"Asia/Tehran", "Pacific/Chatham", "Pacific/Apia", "Europe/Dublin", "Africa/Casablanca",
	"America/Asuncion", "Europe/Moscow", "Antarctica/Troll", "America/Sao_Paulo", "Asia/Kolkata",
}

// TestZoneTable: zoneAt answers what package time's lookups do, at every
// bound of a zone's table, the seconds next to them, and random instants
// from 1900 to 2100, whatever the hint; the table's changes are
// newChange's.
func TestZoneTable(t *testing.T) {
	t.Parallel()
	for _, name := range tableZones {
		loc, err := time.LoadLocation(name)
		if err != nil {
			t.Fatal(err)
		}
		s := &Schedule{loc: loc}
		s.prepare()
		bare := &Schedule{loc: loc} // no table: package time's answers
		check := func(t interface{ Fatalf(string, ...any) }, x int64, hint *int) {
			var h int
			o1, s1, e1 := s.zoneAt(x, hint)
			o2, s2, e2 := bare.zoneAt(x, &h)
			if o1 != o2 || s1 != s2 || e1 != e2 {
				t.Fatalf("%s at %d (%s): table %d [%d, %d), package time %d [%d, %d)",
					name, x, time.Unix(x, 0).UTC().Format(time.RFC3339), o1, s1, e1, o2, s2, e2)
			}
		}
		var b []int64
		for _, p := range s.zones.periods {
			b = append(b, p.start)
		}
		if len(b) > 0 {
			b = append(b, s.zones.end)
		}
		if name != "Asia/Kolkata" && len(b) < 2 {
			t.Fatalf("%s: no table", name)
		}
		for i := 1; i < len(s.zones.periods); i++ {
			p, q := s.zones.periods[i-1], s.zones.periods[i]
			if got, want := s.zones.changeAt(q.start, p.off, q.off, i), newChange(q.start, p.off, q.off); got == nil || *got != want {
				t.Fatalf("%s: the table's change at %d is %+v, want %+v", name, q.start, got, want)
			}
		}
		hint := 0
		for i, x := range b {
			for _, d := range []int64{-1, 0, 1} {
				check(t, x+d, &hint)
			}
			if i+1 < len(b) {
				check(t, x+(b[i+1]-x)/2, &hint)
			}
		}
		lo, hi := time.Date(1900, 1, 1, 0, 0, 0, 0, time.UTC).Unix(), time.Date(2100, 1, 1, 0, 0, 0, 0, time.UTC).Unix()
		rapid.Check(t, func(rt *rapid.T) {
			hint := rapid.IntRange(-1, len(b)+1).Draw(rt, "hint")
			check(rt, rapid.Int64Range(lo, hi).Draw(rt, "x"), &hint)
		})
	}
}
