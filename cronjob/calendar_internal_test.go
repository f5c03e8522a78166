package cronjob

import (
	"testing"

	"pgregory.net/rapid"
)

// TestCivilMatchesWide: civil's 32-bit form answers what Hinnant's does,
// over its whole range and at both of its ends.
func TestCivilMatchesWide(t *testing.T) {
	t.Parallel()
	const shift = 719468 + 82*146097
	check := func(t interface{ Fatalf(string, ...any) }, dn int64) {
		y1, m1, d1 := civil(dn)
		y2, m2, d2 := civilWide(dn)
		if y1 != y2 || m1 != m2 || d1 != d2 {
			t.Fatalf("civil(%d) = %d-%d-%d; civilWide %d-%d-%d", dn, y1, m1, d1, y2, m2, d2)
		}
		if back := dayNumber(y1, m1, d1); back != dn {
			t.Fatalf("dayNumber(civil(%d)) = %d", dn, back)
		}
	}
	for _, edge := range []int64{-shift, 1<<30 - shift} {
		for dn := edge - 800; dn < edge+800; dn++ {
			check(t, dn)
		}
	}
	for dn := int64(-800_000); dn < 3_200_000; dn++ { // years -220 to 10731, every day
		check(t, dn)
	}
	rapid.Check(t, func(t *rapid.T) {
		check(t, rapid.Int64Range(-1<<40, 1<<40).Draw(t, "day"))
	})
}

// TestWeekday: weekday's unsigned form answers what a floored remainder
// does, across its range, at its ends and beyond them.
func TestWeekday(t *testing.T) {
	t.Parallel()
	want := func(dn int64) int { return int(((dn % 7) + 7 + 4) % 7) }
	const shift = 7 << 58
	for _, base := range []int64{-shift, 0, shift, -1<<63 + 20, 1<<63 - 1 - 20} {
		for dn := base - 20; dn < base+20; dn++ {
			if got := weekday(dn); got != want(dn) {
				t.Fatalf("weekday(%d) = %d, want %d", dn, got, want(dn))
			}
		}
	}
	if weekday(0) != 4 || weekday(dayNumber(2024, 5, 20)) != 1 {
		t.Fatalf("1970-01-01 is a Thursday, 2024-05-20 a Monday")
	}
	rapid.Check(t, func(t *rapid.T) {
		dn := rapid.Int64().Draw(t, "day")
		if got := weekday(dn); got != want(dn) {
			t.Fatalf("weekday(%d) = %d, want %d", dn, got, want(dn))
		}
	})
}
