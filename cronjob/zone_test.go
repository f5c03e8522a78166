package cronjob_test

import (
	"testing"
	"time"

	"github.com/kubesem/kubesem/cronjob"
)

// TestZones: spec.timeZone "" and "UTC" are UTC; "Local" and a schedule
// without a zone are the controller manager's zone, Options.LocalTimeZone.
func TestZones(t *testing.T) {
	t.Parallel()
	after := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	tokyo := cronjob.Options{LocalTimeZone: "Asia/Tokyo"}
	empty, utc, local := "", "UTC", "Local"
	for _, c := range []struct {
		name string
		zone *string
		opts cronjob.Options
		want time.Time
	}{
		{"no zone, UTC controller", nil, cronjob.Options{}, time.Date(2026, 1, 1, 3, 0, 0, 0, time.UTC)},
		{"no zone, Tokyo controller", nil, tokyo, time.Date(2026, 1, 1, 18, 0, 0, 0, time.UTC)},
		{"empty zone", &empty, tokyo, time.Date(2026, 1, 1, 3, 0, 0, 0, time.UTC)},
		{"UTC", &utc, tokyo, time.Date(2026, 1, 1, 3, 0, 0, 0, time.UTC)},
		{"Local", &local, tokyo, time.Date(2026, 1, 1, 18, 0, 0, 0, time.UTC)},
	} {
		s, err := cronjob.ParseSchedule("0 3 * * *", c.zone, c.opts)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if got := s.Next(after); !got.Equal(c.want) {
			t.Errorf("%s: Next = %v; want %v", c.name, got, c.want)
		}
	}
}
