package cronjob_test

import (
	"errors"
	"testing"
	"time"

	"github.com/kubesem/kubesem/cronjob"
	"github.com/kubesem/kubesem/field"
)

func TestParseSchedule(t *testing.T) {
	t.Parallel()
	tokyo := "Asia/Tokyo"
	bad := "Mars/Olympus"
	for _, c := range []struct {
		name, spec string
		zone       *string
		path       string
	}{
		{"standard five fields", "0 3 * * *", nil, ""},
		{"a descriptor", "@hourly", nil, ""},
		{"every", "@every 90s", nil, ""},
		{"with a zone", "0 3 * * *", &tokyo, ""},
		{"six fields are not standard", "0 0 3 * * *", nil, "spec.schedule"},
		{"garbage", "every day", nil, "spec.schedule"},
		{"TZ= alone, where robfig panics", "TZ=UTC", nil, "spec.schedule"},
		{"an unknown zone", "0 3 * * *", &bad, "spec.timeZone"},
	} {
		s, err := cronjob.ParseSchedule(c.spec, c.zone, cronjob.Options{})
		var fe *field.Error
		switch {
		case c.path == "" && (err != nil || s == nil):
			t.Errorf("%s: ParseSchedule(%q) = %v", c.name, c.spec, err)
		case c.path != "" && (!errors.As(err, &fe) || fe.Path != c.path || !errors.Is(err, field.ErrInvalid)):
			t.Errorf("%s: ParseSchedule(%q) error = %v; want Invalid at %s", c.name, c.spec, err, c.path)
		}
	}
	tz := "Asia/Tokyo"
	s, _ := cronjob.ParseSchedule("0 3 * * *", &tz, cronjob.Options{})
	after := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC) // 09:00 in Tokyo
	if got, want := s.Next(after), time.Date(2026, 1, 1, 18, 0, 0, 0, time.UTC); !got.Equal(want) {
		t.Errorf("Next(03:00 Tokyo after 09:00 Tokyo) = %v; want %v", got, want)
	}
}
