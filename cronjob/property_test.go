package cronjob_test

import (
	"errors"
	"reflect"
	"slices"
	"testing"
	"time"

	"pgregory.net/rapid"

	"github.com/kubesem/kubesem/cronjob"
	"github.com/kubesem/kubesem/field"
	"github.com/kubesem/kubesem/job"
	"github.com/kubesem/kubesem/meta"
)

// drawCronJob draws a CronJob from the property schedules and zones.
func drawCronJob(t *rapid.T) (*cronjob.CronJob, *cronjob.Schedule) {
	cj := &cronjob.CronJob{}
	cj.Name, cj.Namespace, cj.UID = "cj", "default", "uid"
	cj.Spec.Schedule = rapid.SampledFrom(propSchedules).Draw(t, "spec")
	zone := rapid.SampledFrom(propZones).Draw(t, "zone")
	cj.Spec.TimeZone = &zone
	cj.CreationTimestamp = drawTime(t, "created")
	if rapid.Bool().Draw(t, "hasLast") {
		l := cj.CreationTimestamp.Add(time.Duration(rapid.Int64Range(0, 1e6).Draw(t, "last")) * time.Second)
		cj.Status.LastScheduleTime = &l
	}
	if rapid.Bool().Draw(t, "hasDeadline") {
		d := rapid.Int64Range(0, 1e6).Draw(t, "deadline")
		cj.Spec.StartingDeadlineSeconds = &d
	}
	s, err := cronjob.ParseSchedule(cj.Spec.Schedule, cj.Spec.TimeZone, cronjob.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return cj, s
}

// checkCountMonotone: the exact count never decreases as now advances.
func checkCountMonotone(t *rapid.T) {
	cj, s := drawCronJob(t)
	after := cj.CreationTimestamp
	a := after.Add(time.Duration(rapid.Int64Range(0, 5e8).Draw(t, "a")) * time.Second)
	b := a.Add(time.Duration(rapid.Int64Range(0, 5e8).Draw(t, "b")) * time.Second)
	if ca, cb := s.Count(after, a), s.Count(after, b); ca > cb {
		t.Fatalf("Count(%v, %v) = %d > Count(%v, %v) = %d", after, a, ca, after, b, cb)
	}
}

func TestCountMonotone(t *testing.T) {
	t.Parallel()
	rapid.Check(t, checkCountMonotone)
}

// checkMostRecentNotAfterNow: the most recent start time is never after now.
func checkMostRecentNotAfterNow(t *rapid.T) {
	cj, s := drawCronJob(t)
	now := cj.CreationTimestamp.Add(time.Duration(rapid.Int64Range(-3600, 3e8).Draw(t, "now")) * time.Second)
	r, err := cronjob.MostRecent(cj, s, now, cronjob.Deadline(rapid.Bool().Draw(t, "withDeadline")))
	if err != nil {
		var fe *field.Error
		if !errors.As(err, &fe) {
			t.Fatalf("error %v is not a *field.Error", err)
		}
		return
	}
	if r.Time.After(now) {
		t.Fatalf("MostRecent = %v after now %v", r.Time, now)
	}
}

func TestMostRecentNotAfterNow(t *testing.T) {
	t.Parallel()
	rapid.Check(t, checkMostRecentNotAfterNow)
}

// checkStepOrderIndependent: Step gives the same plan for any order of Jobs and leaves its
// inputs alone.
func checkStepOrderIndependent(t *rapid.T) {
	cj, _ := drawCronJob(t)
	cj.Spec.ConcurrencyPolicy = rapid.SampledFrom([]cronjob.ConcurrencyPolicy{cronjob.Allow, cronjob.Forbid, cronjob.Replace}).Draw(t, "policy")
	var jobs []*job.Job
	for i := range rapid.IntRange(0, 4).Draw(t, "jobs") {
		j := &job.Job{ObjectMeta: meta.ObjectMeta{Name: "j" + string(rune('a'+i)), UID: "u" + string(rune('a'+i)), Namespace: "default"}}
		if rapid.Bool().Draw(t, "done") {
			j.Status.Conditions = []job.Condition{{Type: job.Complete, Status: meta.ConditionTrue}}
			ct := cj.CreationTimestamp.Add(time.Duration(rapid.IntRange(0, 3).Draw(t, "completed")) * time.Hour)
			j.Status.CompletionTime = &ct
		}
		if rapid.Bool().Draw(t, "listed") {
			cj.Status.Active = append(cj.Status.Active, cronjob.ObjectReference{Name: j.Name, UID: j.UID, Namespace: "default"})
		}
		jobs = append(jobs, j)
	}
	now := cj.CreationTimestamp.Add(time.Duration(rapid.Int64Range(0, 1e7).Draw(t, "now")) * time.Second)
	before := *cj
	before.Status.Active = append([]cronjob.ObjectReference(nil), cj.Status.Active...)
	p1, err1 := cronjob.Step(cj, jobs, now, cronjob.Options{})
	shuffled := slices.Clone(jobs)
	for i := len(shuffled) - 1; i > 0; i-- {
		k := rapid.IntRange(0, i).Draw(t, "swap")
		shuffled[i], shuffled[k] = shuffled[k], shuffled[i]
	}
	p2, err2 := cronjob.Step(cj, shuffled, now, cronjob.Options{})
	if !reflect.DeepEqual(p1, p2) || (err1 == nil) != (err2 == nil) {
		t.Fatalf("Step depends on the order of Jobs:\n%+v\n%+v", p1, p2)
	}
	if !reflect.DeepEqual(before.Status, cj.Status) {
		t.Fatalf("Step modified its input status")
	}
}

func TestStepOrderIndependent(t *testing.T) {
	t.Parallel()
	rapid.Check(t, checkStepOrderIndependent)
}
