package job_test

import (
	"testing"
	"time"

	"github.com/kubesem/kubesem/job"
)

func TestBackoffDelay(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		n    int32
		opts job.Options
		want time.Duration
	}{
		{0, job.Options{}, 0},
		{1, job.Options{}, 10 * time.Second},
		{3, job.Options{}, 40 * time.Second},
		{6, job.Options{}, 320 * time.Second},
		{7, job.Options{}, 10 * time.Minute},
		{1 << 30, job.Options{}, 10 * time.Minute},
		{7, job.Options{BackoffCap: 6 * time.Minute}, 6 * time.Minute},
		{1, job.Options{BackoffCap: 5 * time.Second}, 10 * time.Second},
		{-3, job.Options{}, 10 * time.Second},
	} {
		if got := job.BackoffDelay(c.n, c.opts); got != c.want {
			t.Errorf("BackoffDelay(%d, %+v) = %v; want %v", c.n, c.opts, got, c.want)
		}
	}
}

func TestRemainingBackoff(t *testing.T) {
	t.Parallel()
	t0 := time.Date(2009, 11, 10, 23, 0, 0, 0, time.UTC)
	for _, c := range []struct {
		n    int32
		last *time.Time
		now  time.Time
		want time.Duration
	}{
		{0, &t0, t0, 0},
		{1, nil, t0, 0},
		{1, &t0, t0, 10 * time.Second},
		{1, &t0, t0.Add(4 * time.Second), 6 * time.Second},
		{1, &t0, t0.Add(10 * time.Second), 0},
		{2, &t0, t0.Add(-5 * time.Second), 25 * time.Second},
	} {
		if got := job.RemainingBackoff(c.n, c.last, c.now, job.Options{}); got != c.want {
			t.Errorf("RemainingBackoff(%d, %v, %v) = %v; want %v", c.n, c.last, c.now, got, c.want)
		}
	}
}
