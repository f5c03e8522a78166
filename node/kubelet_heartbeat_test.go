package node

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

func TestStatusUpdate(t *testing.T) {
	t.Parallel()
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	f := time.Minute
	for _, c := range []struct {
		name            string
		change          StatusChange
		last            time.Time
		delay, freq     time.Duration
		now             time.Time
		patch, newDelay bool
	}{
		{"before the period", StatusUnchanged, t0, 0, f, t0.Add(f - 1), false, false},
		{"at the period", StatusUnchanged, t0, 0, f, t0.Add(f), true, false},
		{"negative delay", StatusUnchanged, t0, -10 * time.Second, f, t0.Add(50 * time.Second), true, false},
		{"positive delay", StatusUnchanged, t0, 10 * time.Second, f, t0.Add(69 * time.Second), false, false},
		{"changed", StatusChanged, t0, 0, f, t0, true, true},
		{"never reported", StatusUnchanged, time.Time{}, 0, f, t0, true, true},
		{"default frequency", StatusUnchanged, t0, 0, 0, t0.Add(DefaultNodeStatusReportFrequency - 1), false, false},
		{"default frequency reached", StatusUnchanged, t0, 0, 0, t0.Add(DefaultNodeStatusReportFrequency), true, false},
	} {
		got := StatusUpdate(c.change, c.last, c.delay, c.freq, c.now)
		require.Equal(t, StatusReport{Patch: c.patch, NewDelay: c.newDelay}, got, c.name)
	}
}

func TestStatusReportFrequency(t *testing.T) {
	t.Parallel()
	if got := StatusReportFrequency(0, 0); got != 5*time.Minute {
		t.Errorf("defaults: %v", got)
	}
	if got := StatusReportFrequency(4*time.Second, 0); got != 4*time.Second {
		t.Errorf("update frequency only: %v", got)
	}
	if got := StatusReportFrequency(4*time.Second, time.Minute); got != time.Minute {
		t.Errorf("both: %v", got)
	}
	if got := StatusReportFrequency(0, time.Minute); got != time.Minute {
		t.Errorf("report only: %v", got)
	}
}

func TestLeaseRenewal(t *testing.T) {
	t.Parallel()
	if got := LeaseRenewInterval(40 * time.Second); got != 10*time.Second {
		t.Errorf("40s: %v", got)
	}
	if got := LeaseRenewInterval(-time.Second); got != 10*time.Second {
		t.Errorf("negative: %v", got)
	}
	if got := LeaseRenewInterval(time.Second); got != 250*time.Millisecond {
		t.Errorf("1s: %v", got)
	}
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	if got := NextLeaseRenewal(t0, 0); !got.Equal(t0.Add(10 * time.Second)) {
		t.Errorf("next: %v", got)
	}
	if LeaseRetryBackoff(-1) != 0 || LeaseRetryBackoff(1) != 200*time.Millisecond || LeaseRetryBackoff(6) != 6400*time.Millisecond || LeaseRetryBackoff(7) != LeaseRetryMaxBackoff || LeaseRetryBackoff(1000) != LeaseRetryMaxBackoff {
		t.Error("backoff")
	}
}

func TestLeaseRetryBackoff(t *testing.T) {
	t.Parallel()
	want := []time.Duration{0, 200 * time.Millisecond, 400 * time.Millisecond, 800 * time.Millisecond, 1600 * time.Millisecond, 3200 * time.Millisecond, 6400 * time.Millisecond, 7 * time.Second, 7 * time.Second}
	for i, w := range want {
		if got := LeaseRetryBackoff(i); got != w {
			t.Errorf("%d: %v", i, got)
		}
	}
	if LeaseRenewInterval(0) != 10*time.Second {
		t.Error("renew")
	}
}
