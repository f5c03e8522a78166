package cronjob

import (
	"testing"

	"pgregory.net/rapid"
)

// TestWallCount: wallCount's count of the minutes of a day by their
// places in the hour and minute sets is countLocal's.
func TestWallCount(t *testing.T) {
	t.Parallel()
	rapid.Check(t, func(t *rapid.T) {
		s, err := ParseSchedule(drawSpec(t), nil, Options{})
		if err != nil {
			t.Fatal(err)
		}
		d := rapid.Int64Range(-800_000, 3_200_000).Draw(t, "day")
		m0 := rapid.Int64Range(0, 1440).Draw(t, "from")
		m1 := rapid.Int64Range(m0, 1440).Draw(t, "to")
		lo, hi := d*secondsPerDay+60*m0, d*secondsPerDay+60*m1
		if got, want := s.wallCount(lo, hi), s.countLocal(lo-1, hi-1); got != want {
			t.Fatalf("wallCount(%d, %d) = %d, countLocal %d", lo, hi, got, want)
		}
	})
}
