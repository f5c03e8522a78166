package cronjob_test

import (
	"testing"
	"time"

	"github.com/kubesem/kubesem/cronjob"
)

// TestReplay: an every-minute CronJob over five minutes with one-minute Jobs
// starts every start time; under Forbid with three-minute Jobs it skips
// the start times that find a Job running.
func TestReplay(t *testing.T) {
	t.Parallel()
	from := time.Date(2026, 1, 1, 8, 0, 0, 0, time.UTC)
	cj, _ := everyMinute(from)
	slots, err := cronjob.Replay(cj, from, from.Add(5*time.Minute), 30*time.Second, nil, cronjob.Options{})
	if err != nil || len(slots) != 5 {
		t.Fatalf("Replay = %d slots, %v; want 5", len(slots), err)
	}
	for _, s := range slots {
		if s.Outcome != cronjob.Started {
			t.Errorf("slot %v = %v; want Started", s.Time, s.Outcome)
		}
	}
	cj.Spec.ConcurrencyPolicy = cronjob.Forbid
	slots, _ = cronjob.Replay(cj, from, from.Add(5*time.Minute), 150*time.Second, nil, cronjob.Options{})
	skipped := 0
	for _, s := range slots {
		if s.Outcome == cronjob.Skipped {
			skipped++
		}
	}
	if skipped == 0 {
		t.Errorf("Replay(Forbid, 150s Jobs) skipped nothing: %+v", slots)
	}
}
