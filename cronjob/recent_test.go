package cronjob_test

import (
	"testing"
	"time"

	"github.com/kubesem/kubesem/cronjob"
	"github.com/kubesem/kubesem/meta"
)

func everyMinute(created time.Time) (*cronjob.CronJob, *cronjob.Schedule) {
	cj := &cronjob.CronJob{ObjectMeta: meta.ObjectMeta{Name: "hello", Namespace: "default", UID: "cj", CreationTimestamp: created}}
	cj.Spec.Schedule = "* * * * *"
	s, err := cronjob.ParseSchedule(cj.Spec.Schedule, nil, cronjob.Options{})
	if err != nil {
		panic(err)
	}
	return cj, s
}

func TestMostRecent(t *testing.T) {
	t.Parallel()
	created := time.Date(2026, 1, 1, 8, 0, 0, 0, time.UTC)
	cj, s := everyMinute(created)
	for _, c := range []struct {
		name   string
		now    time.Time
		want   time.Time
		missed cronjob.Missed
	}{
		{"before the first start time", created.Add(30 * time.Second), time.Time{}, cronjob.MissedNone},
		{"at the first start time", created.Add(time.Minute), created.Add(time.Minute), cronjob.MissedNone},
		{"three start times due", created.Add(3*time.Minute + 10*time.Second), created.Add(3 * time.Minute), cronjob.MissedFew},
		{"more than 100 due", created.Add(3 * time.Hour), created.Add(3 * time.Hour), cronjob.MissedMany},
	} {
		r, err := cronjob.MostRecent(cj, s, c.now, cronjob.WithDeadline)
		if err != nil || !r.Time.Equal(c.want) || r.Missed != c.missed {
			t.Errorf("%s: MostRecent = %v %v, %v; want %v %v", c.name, r.Time, r.Missed, err, c.want, c.missed)
		}
	}
}

// TestMostRecentDeadline: the deadline raises Earliest only WithDeadline.
func TestMostRecentDeadline(t *testing.T) {
	t.Parallel()
	created := time.Date(2026, 1, 1, 8, 0, 0, 0, time.UTC)
	cj, s := everyMinute(created)
	cj.Spec.StartingDeadlineSeconds = new(int64)
	*cj.Spec.StartingDeadlineSeconds = 200
	now := created.Add(time.Hour)
	with, _ := cronjob.MostRecent(cj, s, now, cronjob.WithDeadline)
	without, _ := cronjob.MostRecent(cj, s, now, cronjob.IgnoreDeadline)
	if !with.Earliest.Equal(now.Add(-200*time.Second)) || !without.Earliest.Equal(created) || with.Count != 4 || without.Count != 60 {
		t.Errorf("MostRecent earliest/count with deadline %v/%d, without %v/%d; want now-200s/4, creation/60",
			with.Earliest, with.Count, without.Earliest, without.Count)
	}
}

func TestRequeueAfter(t *testing.T) {
	t.Parallel()
	created := time.Date(2026, 1, 1, 8, 0, 0, 0, time.UTC)
	cj, s := everyMinute(created)
	// The next start time is 08:01; upstream adds 100ms.
	if got, _ := cronjob.RequeueAfter(cj, s, created.Add(20*time.Second)); got != 40*time.Second+100*time.Millisecond {
		t.Errorf("RequeueAfter = %v; want 40.1s", got)
	}
}

func TestIsTooLate(t *testing.T) {
	t.Parallel()
	created := time.Date(2026, 1, 1, 8, 0, 0, 0, time.UTC)
	cj, _ := everyMinute(created)
	if cronjob.IsTooLate(cj, created, created.Add(time.Hour)) {
		t.Error("IsTooLate without a deadline = true")
	}
	d := int64(10)
	cj.Spec.StartingDeadlineSeconds = &d
	if cronjob.IsTooLate(cj, created, created.Add(10*time.Second)) || !cronjob.IsTooLate(cj, created, created.Add(10*time.Second+1)) {
		t.Error("IsTooLate: want false at the deadline and true just past it")
	}
}
