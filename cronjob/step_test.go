package cronjob_test

import (
	"testing"
	"time"

	"github.com/kubesem/kubesem/cronjob"
	"github.com/kubesem/kubesem/job"
	"github.com/kubesem/kubesem/meta"
)

func TestStepOutcomes(t *testing.T) {
	t.Parallel()
	created := time.Date(2026, 1, 1, 8, 0, 0, 0, time.UTC)
	now := created.Add(90 * time.Second) // the 08:01 start time is due
	running := &job.Job{ObjectMeta: meta.ObjectMeta{Name: "hello-old", Namespace: "default", UID: "old"}}
	yes := true
	for _, c := range []struct {
		name    string
		edit    func(*cronjob.CronJob)
		jobs    []*job.Job
		outcome cronjob.Reason
		create  int32
		deletes int
	}{
		{"due: a Job is created", func(*cronjob.CronJob) {}, nil, cronjob.ReasonCreated, 1, 0},
		{"suspended", func(cj *cronjob.CronJob) { cj.Spec.Suspend = &yes }, nil, cronjob.ReasonSuspended, 0, 0},
		{"being deleted", func(cj *cronjob.CronJob) { cj.DeletionTimestamp = &created }, nil, cronjob.ReasonDeleting, 0, 0},
		{"Forbid with an active Job", func(cj *cronjob.CronJob) {
			cj.Spec.ConcurrencyPolicy = cronjob.Forbid
			cj.Status.Active = []cronjob.ObjectReference{{Name: "hello-old", Namespace: "default", UID: "old"}}
		}, []*job.Job{running}, cronjob.ReasonForbidden, 0, 0},
		{"Replace with an active Job", func(cj *cronjob.CronJob) {
			cj.Spec.ConcurrencyPolicy = cronjob.Replace
			cj.Status.Active = []cronjob.ObjectReference{{Name: "hello-old", Namespace: "default", UID: "old"}}
		}, []*job.Job{running}, cronjob.ReasonCreated, 1, 1},
	} {
		cj, _ := everyMinute(created)
		c.edit(cj)
		p, err := cronjob.Step(cj, c.jobs, now, cronjob.Options{})
		if err != nil || p.Outcome != c.outcome || p.Create.Count != c.create || len(p.Delete) != c.deletes {
			t.Errorf("%s: Step = %s, create %d, delete %d, %v; want %s, %d, %d", c.name, p.Outcome, p.Create.Count, len(p.Delete), err, c.outcome, c.create, c.deletes)
		}
	}
}
