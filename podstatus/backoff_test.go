package podstatus_test

import (
	"errors"
	"hash/fnv"
	"math"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/kubesem/kubesem/field"
	"github.com/kubesem/kubesem/podstatus"
)

func TestCrashLoopBounds(t *testing.T) {
	t.Parallel()
	s := time.Second
	tests := []struct {
		name         string
		o            podstatus.BackoffOptions
		initial, max time.Duration
	}{
		{"defaults", podstatus.BackoffOptions{}, 10 * s, 300 * s},
		{"reduced decay, max gate on, nothing configured: the configuration's 300s", podstatus.BackoffOptions{ReducedDecay: true}, 1 * s, 300 * s},
		{"reduced decay, max gate off", podstatus.BackoffOptions{ReducedDecay: true, DisableMaxGate: true}, 1 * s, 60 * s},
		{"max gate off", podstatus.BackoffOptions{DisableMaxGate: true}, 10 * s, 300 * s},
		{"configured 2s lowers the initial delay", podstatus.BackoffOptions{MaxContainerRestartPeriod: 2 * s}, 2 * s, 2 * s},
		{"configured 10s, the initial delay", podstatus.BackoffOptions{MaxContainerRestartPeriod: 10 * s}, 10 * s, 10 * s},
		{"configured 11s", podstatus.BackoffOptions{MaxContainerRestartPeriod: 11 * s}, 10 * s, 11 * s},
		{"configured 2s with reduced decay", podstatus.BackoffOptions{MaxContainerRestartPeriod: 2 * s, ReducedDecay: true}, 1 * s, 2 * s},
		{"configured 500ms with reduced decay", podstatus.BackoffOptions{MaxContainerRestartPeriod: 500 * time.Millisecond, ReducedDecay: true}, 500 * time.Millisecond, 500 * time.Millisecond},
		{"configured, max gate off: ignored", podstatus.BackoffOptions{MaxContainerRestartPeriod: 2 * s, DisableMaxGate: true}, 10 * s, 300 * s},
		{"configured negative: unset", podstatus.BackoffOptions{MaxContainerRestartPeriod: -s}, 10 * s, 300 * s},
	}
	for _, tc := range tests {
		if initial, max := podstatus.CrashLoopBounds(tc.o); initial != tc.initial || max != tc.max {
			t.Errorf("CrashLoopBounds(%s) = %v, %v; want %v, %v", tc.name, initial, max, tc.initial, tc.max)
		}
	}
}

func TestRestartBackoff(t *testing.T) {
	t.Parallel()
	fin := time.Date(2025, 1, 1, 12, 0, 0, 0, time.UTC)
	entry := func(d time.Duration, updated time.Time) *podstatus.BackoffEntry {
		return &podstatus.BackoffEntry{Delay: d, LastUpdate: updated}
	}
	reset := podstatus.CrashLoopBackOffReset
	tests := []struct {
		name      string
		entry     *podstatus.BackoffEntry
		now       time.Time
		o         podstatus.BackoffOptions
		inBackoff bool
		until     time.Time
		delay     time.Duration
	}{
		{"first exit: restart, initial delay", nil, fin, podstatus.BackoffOptions{}, false, time.Time{}, 10 * time.Second},
		{"first exit, reduced decay", nil, fin, podstatus.BackoffOptions{ReducedDecay: true}, false, time.Time{}, time.Second},
		{"a nanosecond before the delay ends: in backoff", entry(20*time.Second, fin), fin.Add(20*time.Second - time.Nanosecond), podstatus.BackoffOptions{}, true, fin.Add(20 * time.Second), 20 * time.Second},
		{"exactly when the delay ends: restart, doubled", entry(20*time.Second, fin), fin.Add(20 * time.Second), podstatus.BackoffOptions{}, false, time.Time{}, 40 * time.Second},
		{"doubling capped", entry(200*time.Second, fin), fin.Add(time.Hour), podstatus.BackoffOptions{}, false, time.Time{}, 300 * time.Second},
		{"at the cap", entry(300*time.Second, fin), fin.Add(time.Hour), podstatus.BackoffOptions{}, false, time.Time{}, 300 * time.Second},
		{"updated exactly the reset window before the exit: live", entry(40*time.Second, fin.Add(-reset)), fin.Add(time.Hour), podstatus.BackoffOptions{}, false, time.Time{}, 80 * time.Second},
		{"updated a nanosecond more before: starts over", entry(40*time.Second, fin.Add(-reset-time.Nanosecond)), fin.Add(time.Hour), podstatus.BackoffOptions{}, false, time.Time{}, 10 * time.Second},
		{"expired entry is not a backoff", entry(40*time.Second, fin.Add(-reset-time.Nanosecond)), fin, podstatus.BackoffOptions{}, false, time.Time{}, 10 * time.Second},
		{"configured cap near MaxInt64 never overflows", entry(math.MaxInt64/2+1, fin), fin.Add(time.Duration(math.MaxInt64 / 2)).Add(time.Duration(math.MaxInt64/2) + 1), podstatus.BackoffOptions{MaxContainerRestartPeriod: math.MaxInt64}, false, time.Time{}, math.MaxInt64},
	}
	for _, tc := range tests {
		d := podstatus.RestartBackoff(tc.entry, fin, tc.now, tc.o)
		if d.InBackoff != tc.inBackoff || !d.Until.Equal(tc.until) || d.Entry.Delay != tc.delay {
			t.Errorf("RestartBackoff(%s) = %+v; want in backoff %v until %v, delay %v", tc.name, d, tc.inBackoff, tc.until, tc.delay)
			continue
		}
		switch {
		case d.InBackoff && (d.Entry != *tc.entry):
			t.Errorf("RestartBackoff(%s) entry = %+v; want unchanged %+v", tc.name, d.Entry, *tc.entry)
		case !d.InBackoff && !d.Entry.LastUpdate.Equal(tc.now):
			t.Errorf("RestartBackoff(%s) last update = %v; want now %v", tc.name, d.Entry.LastUpdate, tc.now)
		}
	}
}

func TestCrashLoopDelays(t *testing.T) {
	t.Parallel()
	s := time.Second
	got, err := podstatus.CrashLoopDelays(7, podstatus.BackoffOptions{})
	if want := []time.Duration{10 * s, 20 * s, 40 * s, 80 * s, 160 * s, 300 * s, 300 * s}; err != nil || !slices.Equal(got, want) {
		t.Errorf("CrashLoopDelays(7) = %v, %v; want %v", got, err, want)
	}
	got, err = podstatus.CrashLoopDelays(3, podstatus.BackoffOptions{MaxContainerRestartPeriod: 15 * s})
	if want := []time.Duration{10 * s, 15 * s, 15 * s}; err != nil || !slices.Equal(got, want) {
		t.Errorf("CrashLoopDelays(3, max 15s) = %v, %v; want %v", got, err, want)
	}
	for _, n := range []int{0, -1, math.MinInt} {
		if got, err := podstatus.CrashLoopDelays(n, podstatus.BackoffOptions{}); err != nil || got == nil || len(got) != 0 {
			t.Errorf("CrashLoopDelays(%d) = %v, %v; want [], nil", n, got, err)
		}
	}
	got, err = podstatus.CrashLoopDelays(podstatus.MaxCrashLoopDelays, podstatus.BackoffOptions{})
	if err != nil || len(got) != podstatus.MaxCrashLoopDelays || got[len(got)-1] != 300*s {
		t.Errorf("CrashLoopDelays(MaxCrashLoopDelays) = %d delays ending %v, %v; want %d ending 5m", len(got), got[len(got)-1:], err, podstatus.MaxCrashLoopDelays)
	}
	for _, n := range []int{podstatus.MaxCrashLoopDelays + 1, 100_000_000, math.MaxInt32, math.MaxInt} {
		got, err := podstatus.CrashLoopDelays(n, podstatus.BackoffOptions{})
		var fe *field.Error
		if got != nil || !errors.As(err, &fe) || fe.Path != "n" || fe.Value != strconv.Itoa(n) || !errors.Is(err, field.ErrOverflow) {
			t.Errorf("CrashLoopDelays(%d) = %d delays, %v; want nil, Overflow at n", n, len(got), err)
		}
	}
}

func TestBackoffKey(t *testing.T) {
	t.Parallel()
	fnvHex := func(s string) string {
		h := fnv.New64a()
		h.Write([]byte(s))
		return strconv.FormatUint(h.Sum64(), 16)
	}
	p := &podstatus.Pod{}
	p.Name, p.Namespace, p.UID = "web-0", "default", "u-1"
	c := &podstatus.Container{Name: "app", Image: "nginx:1.27"}
	if got, want := podstatus.BackoffKey(p, c), fnvHex("web-0/default/u-1/app/nginx:1.27/"+podstatus.EmptyResources); got != want {
		t.Errorf("BackoffKey = %s; want %s", got, want)
	}
	c2 := *c
	c2.Image = "nginx:1.28"
	if podstatus.BackoffKey(p, c) == podstatus.BackoffKey(p, &c2) {
		t.Errorf("BackoffKey ignores the image; a new image starts a new backoff")
	}
	p2 := *p
	p2.UID = "u-2"
	if podstatus.BackoffKey(p, c) == podstatus.BackoffKey(&p2, c) {
		t.Errorf("BackoffKey ignores the pod UID")
	}
	if got, want := podstatus.BackoffKey(nil, nil), podstatus.BackoffKey(&podstatus.Pod{}, &podstatus.Container{}); got != want {
		t.Errorf("BackoffKey(nil, nil) = %s; want the key of empty names %s", got, want)
	}
}
