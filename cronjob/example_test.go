package cronjob_test

import (
	"fmt"
	"time"

	"github.com/kubesem/kubesem/cronjob"
)

// The seed's outage (000:L3478-3480): a CronJob running every minute from
// 08:30, with the controller down from 08:29 to 10:21.
func ExampleStep() {
	cj := &cronjob.CronJob{}
	cj.Name = "hello"
	cj.CreationTimestamp = time.Date(2024, 5, 20, 8, 29, 0, 0, time.UTC)
	cj.Spec.Schedule = "* * * * *"
	now := time.Date(2024, 5, 20, 10, 21, 0, 0, time.UTC)

	p, _ := cronjob.Step(cj, nil, now, cronjob.Options{})
	fmt.Println("v1.36.3:", p.Outcome, p.Job().Name, p.Missed, p.MissedCount)

	p, _ = cronjob.Step(cj, nil, now, cronjob.Options{RefuseTooManyMissed: true})
	fmt.Println("documented:", p.Outcome)

	deadline := int64(200)
	cj.Spec.StartingDeadlineSeconds = &deadline
	p, _ = cronjob.Step(cj, nil, now, cronjob.Options{RefuseTooManyMissed: true})
	fmt.Println("deadline 200s:", p.Outcome, p.ScheduledTime.Format("15:04"), p.Missed, p.MissedCount)
	// Output:
	// v1.36.3: Created hello-28603341 many 112
	// documented: TooManyMissed
	// deadline 200s: Created 10:21 few 4
}

// The seed's schedule example "0 0 13 * 5": every Friday and every 13th.
func ExampleSchedule_Next() {
	utc := "UTC"
	s, _ := cronjob.ParseSchedule("0 0 13 * 5", &utc, cronjob.Options{})
	t := time.Date(2024, 9, 1, 0, 0, 0, 0, time.UTC)
	for range 4 {
		t = s.Next(t)
		fmt.Println(t.Format("Mon Jan 2"))
	}
	// Output:
	// Fri Sep 6
	// Fri Sep 13
	// Fri Sep 20
	// Fri Sep 27
}

// Forbid delays a start time while a Job runs (09:10 starts at 09:15 when
// the 09:00 Job ends) and skips it when a later one is due first (09:20);
// an outage loses every start time but the latest (09:50, at 09:52).
func ExampleReplay() {
	cj := &cronjob.CronJob{}
	cj.Name = "report"
	cj.CreationTimestamp = time.Date(2024, 5, 20, 8, 55, 0, 0, time.UTC)
	cj.Spec.Schedule = "*/10 * * * *"
	cj.Spec.ConcurrencyPolicy = cronjob.Forbid
	outage := &cronjob.Window{Start: time.Date(2024, 5, 20, 9, 25, 0, 0, time.UTC), End: time.Date(2024, 5, 20, 9, 52, 0, 0, time.UTC)}
	slots, _ := cronjob.Replay(cj, cj.CreationTimestamp, cj.CreationTimestamp.Add(time.Hour), 15*time.Minute, outage, cronjob.Options{})
	for _, s := range slots {
		fmt.Println(s.Time.Format("15:04"), s.Outcome)
	}
	// Output:
	// 09:00 Started
	// 09:10 Started
	// 09:20 Skipped
	// 09:30 NotStarted
	// 09:40 NotStarted
	// 09:50 Started
}
