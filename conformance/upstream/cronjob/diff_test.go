package cronjob_test

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	batchv1 "k8s.io/api/batch/v1"
	"pgregory.net/rapid"

	"github.com/kubesem/kubesem/conformance/upstream/internal/difftest"
	kcronjob "github.com/kubesem/kubesem/cronjob"
	"github.com/kubesem/kubesem/job"
	"github.com/kubesem/kubesem/meta"
	"github.com/kubesem/kubesem/plan"
)

var diffZones = []string{"UTC", "America/New_York", "Europe/Berlin", "Asia/Kolkata", "Asia/Tokyo", "Australia/Sydney"}

// drawCronField draws one cron field between lo and hi.
func drawCronField(t *rapid.T, label string, lo, hi int) string {
	a := rapid.IntRange(lo, hi).Draw(t, label+"a")
	b := rapid.IntRange(a, hi).Draw(t, label+"b")
	switch rapid.IntRange(0, 5).Draw(t, label) {
	case 0:
		return "*"
	case 1:
		return fmt.Sprintf("*/%d", rapid.IntRange(1, hi-lo+1).Draw(t, label+"step"))
	case 2:
		return fmt.Sprint(a)
	case 3:
		return fmt.Sprintf("%d-%d", a, b)
	case 4:
		return fmt.Sprintf("%d-%d/%d", a, b, rapid.IntRange(1, 5).Draw(t, label+"rstep"))
	}
	return fmt.Sprintf("%d,%d", a, b)
}

// drawSchedule draws a standard schedule that fires at least every few
// years (day of month at most 28), a macro, or an @every interval.
func drawSchedule(t *rapid.T) string {
	switch rapid.IntRange(0, 9).Draw(t, "kind") {
	case 0:
		return rapid.SampledFrom([]string{"@hourly", "@daily", "@weekly", "@monthly", "@yearly", "30 6-16/4 * * 1-5", "30 10,11,12 * * 1-5", "0 0 13 * 5"}).Draw(t, "macro")
	case 1:
		return rapid.SampledFrom([]string{"@every 1h", "@every 90s", "@every 7m30s", "@every 25h"}).Draw(t, "every")
	}
	return strings.Join([]string{
		drawCronField(t, "min", 0, 59), drawCronField(t, "hour", 0, 23), drawCronField(t, "dom", 1, 28),
		drawCronField(t, "month", 1, 12), drawCronField(t, "dow", 0, 6),
	}, " ")
}

var diffBase = time.Date(2021, 3, 1, 0, 0, 0, 0, time.UTC)

func drawInstant(t *rapid.T, label string, from time.Time, maxSpan time.Duration) time.Time {
	span := rapid.SampledFrom([]time.Duration{time.Minute, time.Hour, 24 * time.Hour, 40 * 24 * time.Hour, 366 * 24 * time.Hour, maxSpan}).Draw(t, label+"span")
	d := rapid.Int64Range(0, int64(span/time.Second)).Draw(t, label)
	ns := rapid.SampledFrom([]int64{0, 0, 1, 500_000_000}).Draw(t, label+"ns")
	return from.Add(time.Duration(d)*time.Second + time.Duration(ns))
}

// drawCronJob draws a CronJob's scheduling fields and times.
func drawCronJob(t *rapid.T) (*kcronjob.CronJob, time.Time) {
	cj := &kcronjob.CronJob{}
	cj.Name, cj.Namespace, cj.UID = "cj", "default", "cj-uid"
	cj.Spec.Schedule = drawSchedule(t)
	zone := rapid.SampledFrom(diffZones).Draw(t, "zone")
	cj.Spec.TimeZone = &zone
	cj.CreationTimestamp = drawInstant(t, "created", diffBase, 3*366*24*time.Hour)
	if rapid.Bool().Draw(t, "hasLast") {
		last := drawInstant(t, "last", cj.CreationTimestamp, 366*24*time.Hour)
		cj.Status.LastScheduleTime = &last
	}
	if rapid.Bool().Draw(t, "hasDeadline") {
		d := rapid.SampledFrom([]int64{0, 1, 10, 59, 60, 200, 3600, 86400, 1 << 40}).Draw(t, "deadline")
		cj.Spec.StartingDeadlineSeconds = &d
	}
	from := cj.CreationTimestamp
	if cj.Status.LastScheduleTime != nil {
		from = *cj.Status.LastScheduleTime
	}
	now := drawInstant(t, "now", from.Add(-time.Hour), 10*366*24*time.Hour)
	return cj, now
}

// checkMostRecentDifferential compares MostRecent and RequeueAfter with
// upstream's mostRecentScheduleTime and nextScheduleTimeDuration.
func checkMostRecentDifferential(t *rapid.T) {
	cj, now := drawCronJob(t)
	withDeadline := rapid.Bool().Draw(t, "withDeadline")
	ucj := difftest.UpCronJob(cj)
	sched, err := upSchedule(ucj)
	if err != nil {
		t.Fatalf("upstream cannot parse %q: %v", cj.Spec.Schedule, err)
	}
	s, err := kcronjob.ParseSchedule(cj.Spec.Schedule, cj.Spec.TimeZone, kcronjob.Options{})
	if err != nil {
		t.Fatalf("ParseSchedule(%q) = %v", cj.Spec.Schedule, err)
	}
	earliest, recent, missed, uerr := upMostRecentScheduleTime(ucj, now, sched, withDeadline)
	r, err := kcronjob.MostRecent(cj, s, now, kcronjob.Deadline(withDeadline))
	if (err != nil) != (uerr != nil) {
		t.Fatalf("MostRecent error = %v; upstream %v", err, uerr)
	}
	if !r.Earliest.Equal(earliest) {
		t.Fatalf("earliest = %v; upstream %v", r.Earliest, earliest)
	}
	var want time.Time
	if recent != nil {
		want = *recent
	}
	if !r.Time.Equal(want) || int(r.Missed) != missed {
		t.Fatalf("MostRecent = %v, %v; upstream %v, %d", r.Time, r.Missed, want, missed)
	}
	if got, _ := kcronjob.RequeueAfter(cj, s, now); got != *upNextScheduleTimeDuration(ucj, now, sched) {
		want := *upNextScheduleTimeDuration(ucj, now, sched)
		t.Fatalf("RequeueAfter = %v; upstream %v", got, want)
	}
}

func TestCronJobMostRecentDifferential(t *testing.T) {
	rapid.Check(t, checkMostRecentDifferential)
}

// checkStepDifferential compares Step with upstream's cleanup + sync on a
// ControllerV2 over a fake clientset.
func checkStepDifferential(t *rapid.T) {
	cj, now := drawCronJob(t)
	if rapid.IntRange(0, 9).Draw(t, "badSchedule") == 0 {
		cj.Spec.Schedule = rapid.SampledFrom([]string{"obvious error", "TZ=UTC 0 * * * *", "59 23 31 2 *", "TZ=0"}).Draw(t, "bad")
	}
	cj.Spec.ConcurrencyPolicy = rapid.SampledFrom([]kcronjob.ConcurrencyPolicy{"", kcronjob.Allow, kcronjob.Forbid, kcronjob.Replace}).Draw(t, "policy")
	if rapid.IntRange(0, 9).Draw(t, "suspendRoll") == 0 {
		yes := true
		cj.Spec.Suspend = &yes
	}
	if rapid.Bool().Draw(t, "limits") {
		a, b := int32(rapid.IntRange(0, 3).Draw(t, "okLimit")), int32(rapid.IntRange(0, 2).Draw(t, "failLimit"))
		cj.Spec.SuccessfulJobsHistoryLimit, cj.Spec.FailedJobsHistoryLimit = &a, &b
	}
	yes := true
	var jobs []*job.Job
	used := map[string]bool{}
	n := rapid.IntRange(0, 4).Draw(t, "jobs")
	for i := 0; i < n; i++ {
		created := drawInstant(t, "jobCreated", diffBase, 366*24*time.Hour)
		j := &job.Job{ObjectMeta: meta.ObjectMeta{
			Name: kcronjob.JobName(cj.Name, created.Truncate(time.Minute)), Namespace: cj.Namespace,
			UID: fmt.Sprintf("j%d", i), CreationTimestamp: created,
			OwnerReferences: []meta.OwnerReference{{APIVersion: "batch/v1", Kind: "CronJob", Name: cj.Name, UID: cj.UID, Controller: &yes}},
		}}
		if used[j.Name] {
			continue // the API server holds one Job per name
		}
		used[j.Name] = true
		if rapid.Bool().Draw(t, "started") {
			st := created.Add(time.Duration(rapid.IntRange(0, 3).Draw(t, "startDelay")) * time.Second)
			j.Status.StartTime = &st
		}
		switch rapid.IntRange(0, 2).Draw(t, "state") {
		case 1:
			ct := created.Add(time.Duration(rapid.IntRange(1, 3600).Draw(t, "runtime")) * time.Second)
			j.Status.CompletionTime = &ct
			j.Status.Conditions = []job.Condition{{Type: job.Complete, Status: meta.ConditionTrue}}
		case 2:
			j.Status.Conditions = []job.Condition{{Type: job.Failed, Status: meta.ConditionTrue}}
		}
		if rapid.Bool().Draw(t, "listed") {
			cj.Status.Active = append(cj.Status.Active, kcronjob.ObjectReference{Kind: "Job", Namespace: j.Namespace, Name: j.Name, UID: j.UID, APIVersion: "batch/v1"})
		}
		if rapid.IntRange(0, 4).Draw(t, "gone") == 0 {
			continue // listed in status but deleted
		}
		jobs = append(jobs, j)
	}
	if rapid.IntRange(0, 19).Draw(t, "deleting") == 0 {
		d := now
		cj.DeletionTimestamp = &d
	}
	want, out := stepWant(cj, jobs, now)
	p, err := kcronjob.Step(cj, jobs, now, kcronjob.Options{})
	if err != nil {
		t.Fatalf("Step: %v", err)
	}
	got := planShape(p)
	for k, w := range want {
		if !reflect.DeepEqual(got[k], w) {
			t.Fatalf("Step %s = %#v; upstream %#v\n got %v\nwant %v", k, got[k], w, got, want)
		}
	}
	ws, err := writeKeys(p, cj, jobs)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(ws, out.writes) {
		t.Fatalf("Writes %q\nupstream sent %q", ws, out.writes)
	}
	if err := compareCreated(p, out.jobs); err != nil {
		t.Fatal(err)
	}
}

// planShape mirrors stepWant's shape for a kubesem Plan.
func planShape(p kcronjob.Plan) map[string]any {
	var create any
	if j := p.Job(); j != nil {
		create = map[string]any{"name": j.Name, "scheduledTimestamp": j.Annotations[kcronjob.ScheduledTimestampAnnotation]}
	}
	deleted, active, events := []string{}, []string{}, []string{}
	for _, d := range p.Delete {
		deleted = append(deleted, d.Name)
	}
	for _, r := range p.Status.Active {
		active = append(active, r.Name)
	}
	for _, e := range p.Events {
		events = append(events, string(e.Type)+" "+string(e.Reason))
	}
	out := map[string]any{"create": create, "delete": deleted, "active": active, "updateStatus": p.UpdateStatus,
		"requeue": len(p.Requeue) > 0, "events": events, "lastScheduleTime": nil, "lastSuccessfulTime": nil}
	if r, ok := plan.First(p.Requeue); ok {
		out["requeueAfter"] = r.After.String()
	}
	if t := p.Status.LastScheduleTime; t != nil {
		out["lastScheduleTime"] = t.UTC().Format(time.RFC3339Nano)
	}
	if t := p.Status.LastSuccessfulTime; t != nil {
		out["lastSuccessfulTime"] = t.UTC().Format(time.RFC3339Nano)
	}
	return out
}

func TestCronJobStepDifferential(t *testing.T) {
	rapid.Check(t, checkStepDifferential)
}

var _ = batchv1.AllowConcurrent
