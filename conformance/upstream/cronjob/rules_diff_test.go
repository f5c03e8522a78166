package cronjob_test

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
	"unsafe"

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes/fake"
	"k8s.io/client-go/tools/record"
	"k8s.io/kubernetes/pkg/api/legacyscheme"
	_ "k8s.io/kubernetes/pkg/apis/batch/install"
	"k8s.io/kubernetes/pkg/controller/cronjob"
	"pgregory.net/rapid"

	"github.com/kubesem/kubesem/conformance/upstream/internal/difftest"
)

// cronjob.ExcessHistory against v1.36.3's cleanupFinishedJobs (with
// removeOldestJobs), and cronjob.IsTooLate against syncCronJob's tooLate
// check, each on a ControllerV2 built by the public NewControllerV2 (its
// Job control, recorder and clock replaced, ruleUp). The CronJob upstream sees is the one kubesem is given,
// defaulted as the API server defaults batch/v1 (so the history limits a
// CronJob leaves out are upstream's own defaults).

//go:linkname ruleCleanup k8s.io/kubernetes/pkg/controller/cronjob.(*ControllerV2).cleanupFinishedJobs
func ruleCleanup(jm *cronjob.ControllerV2, ctx context.Context, cj *batchv1.CronJob, js []*batchv1.Job) bool

//go:linkname ruleSync k8s.io/kubernetes/pkg/controller/cronjob.(*ControllerV2).syncCronJob
func ruleSync(jm *cronjob.ControllerV2, ctx context.Context, cj *batchv1.CronJob, jobs []*batchv1.Job) (*time.Duration, bool, error)

// ruleUp is one ControllerV2, built by NewControllerV2 over an empty
// fake clientset, whose Job control, recorder and clock each run replaces:
// its Job control records what the run creates and deletes (a Get finds
// nothing), its recorder the events.
type ruleUp struct {
	jm  *cronjob.ControllerV2
	jc  *ruleJobControl
	rec *record.FakeRecorder
}

type ruleJobControl struct{ created, deleted []*batchv1.Job }

func (c *ruleJobControl) GetJob(namespace, name string) (*batchv1.Job, error) {
	return nil, apierrors.NewNotFound(batchv1.Resource("jobs"), name)
}

func (c *ruleJobControl) CreateJob(namespace string, job *batchv1.Job) (*batchv1.Job, error) {
	c.created = append(c.created, job.DeepCopy())
	return job, nil
}

func (c *ruleJobControl) DeleteJob(namespace, name string) error {
	c.deleted = append(c.deleted, &batchv1.Job{ObjectMeta: metav1.ObjectMeta{Namespace: namespace, Name: name}})
	return nil
}

func newRuleUp(tb interface {
	difftest.Fataler
	difftest.Cleaner
}) *ruleUp {
	client := fake.NewClientset()
	factory := informers.NewSharedInformerFactory(client, 0)
	jm, err := cronjob.NewControllerV2(difftest.Ctx, factory.Batch().V1().Jobs(), factory.Batch().V1().CronJobs(), client)
	if err != nil {
		tb.Fatalf("NewControllerV2: %v", err)
	}
	difftest.StopOn(tb, jm)
	return &ruleUp{jm: jm}
}

// reset readies u for a run at now.
func (u *ruleUp) reset(now time.Time) {
	u.jc = &ruleJobControl{}
	u.rec = record.NewFakeRecorder(100)
	ruleSetField(u.jm, "now", func() time.Time { return now })
	ruleSetField(u.jm, "recorder", record.EventRecorder(u.rec))
	ruleSetField(u.jm, "jobControl", u.jc)
}

func ruleSetField(jm *cronjob.ControllerV2, name string, value any) {
	f := reflect.ValueOf(jm).Elem().FieldByName(name)
	reflect.NewAt(f.Type(), unsafe.Pointer(f.UnsafeAddr())).Elem().Set(reflect.ValueOf(value))
}

// ruleStored returns v as the API server stores it: defaulted as
// batch/v1 and read back from JSON.
func ruleStored[T runtime.Object](tb difftest.Fataler, v T) T {
	c := v.DeepCopyObject().(T)
	legacyscheme.Scheme.Default(c)
	out := reflect.New(reflect.TypeOf(c).Elem()).Interface().(T)
	if err := json.Unmarshal(difftest.JSON(tb, c), out); err != nil {
		tb.Fatalf("decode %T: %v", out, err)
	}
	return out
}

func ruleJob(name string) *batchv1.CronJob {
	return &batchv1.CronJob{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "default", UID: "cj-uid"},
		Spec: batchv1.CronJobSpec{Schedule: "* * * * *", JobTemplate: batchv1.JobTemplateSpec{
			Spec: batchv1.JobSpec{Template: corev1.PodTemplateSpec{Spec: corev1.PodSpec{
				RestartPolicy: corev1.RestartPolicyNever, Containers: []corev1.Container{{Name: "c", Image: "busybox"}}}}}}},
	}
}

// ---------------------------------------------------------------------
// cronjob.ExcessHistory

var ruleT0 = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

// history returns the Jobs v1.36.3's cleanupFinishedJobs deletes, in the
// order it deletes them.
func (u *ruleUp) history(cj *batchv1.CronJob, jobs []*batchv1.Job) []string {
	u.reset(ruleT0)
	in := make([]*batchv1.Job, len(jobs))
	for i, j := range jobs {
		in[i] = j.DeepCopy()
	}
	ruleCleanup(u.jm, difftest.Ctx, cj.DeepCopy(), in)
	deleted := []string{}
	for _, j := range u.jc.deleted {
		deleted = append(deleted, j.Name)
	}
	return deleted
}

// ruleDrawJobs draws up to 10 Jobs of the CronJob: each with up to three
// conditions (Complete, Failed, FailureTarget, SuccessCriteriaMet,
// Suspended; True, False, Unknown; both finished types in either order),
// a startTime that is absent or one of a few instants (so that ties are
// common), in any order.
func ruleDrawJobs(t *rapid.T) []*batchv1.Job {
	var jobs []*batchv1.Job
	n := rapid.IntRange(0, 10).Draw(t, "jobs")
	for _, i := range rapid.Permutation(func() []int {
		p := make([]int, n)
		for i := range p {
			p[i] = i
		}
		return p
	}()).Draw(t, "order") {
		j := &batchv1.Job{ObjectMeta: metav1.ObjectMeta{Name: "j" + strconv.Itoa(i), Namespace: "default", UID: types.UID("j" + strconv.Itoa(i) + "-uid")},
			Spec: batchv1.JobSpec{Template: corev1.PodTemplateSpec{Spec: corev1.PodSpec{RestartPolicy: corev1.RestartPolicyNever,
				Containers: []corev1.Container{{Name: "c", Image: "busybox"}}}}}}
		if k := rapid.IntRange(0, 5).Draw(t, "start"); k > 0 {
			s := metav1.NewTime(ruleT0.Add(time.Duration(k-1) * time.Hour))
			if k == 5 {
				s = metav1.NewTime(ruleT0.Add(time.Duration(rapid.IntRange(0, 10000).Draw(t, "startS")) * time.Second))
			}
			j.Status.StartTime = &s
		}
		for range rapid.SampledFrom([]int{0, 1, 1, 1, 2, 3}).Draw(t, "conds") {
			typ := rapid.SampledFrom([]batchv1.JobConditionType{batchv1.JobComplete, batchv1.JobComplete, batchv1.JobComplete, batchv1.JobFailed, batchv1.JobFailed,
				batchv1.JobFailureTarget, batchv1.JobSuccessCriteriaMet, batchv1.JobSuspended}).Draw(t, "type")
			st := rapid.SampledFrom([]corev1.ConditionStatus{corev1.ConditionTrue, corev1.ConditionTrue, corev1.ConditionTrue, corev1.ConditionFalse, corev1.ConditionUnknown}).Draw(t, "status")
			j.Status.Conditions = append(j.Status.Conditions, batchv1.JobCondition{Type: typ, Status: st})
		}
		jobs = append(jobs, j)
	}
	return jobs
}

func ruleDrawLimit(t *rapid.T, label string) *int32 {
	if rapid.IntRange(0, 3).Draw(t, label+"Set") == 0 {
		return nil
	}
	return difftest.Ptr(rapid.OneOf(rapid.SampledFrom([]int32{0, 0, 1, 1, 2, 3, math.MaxInt32}), rapid.Int32Range(0, 12)).Draw(t, label))
}

type ruleDeleteOut struct {
	Delete []string `json:"delete"`
}

// TestCronJobExcessHistoryDifferential: cronjob.ExcessHistory against the
// Jobs v1.36.3's cleanupFinishedJobs deletes, in order: history limits
// absent (upstream's batch/v1 defaults), 0, 1, 2, 3, small or the int32
// maximum, over Jobs drawn by ruleDrawJobs. kubesem is given the CronJob
// as submitted (limits left out stay out) and the Jobs as stored. Then
// every cronjob.ExcessHistory vector is replayed through
// cleanupFinishedJobs: its want must be the deletions upstream makes.
func TestCronJobExcessHistoryDifferential(t *testing.T) {
	up := newRuleUp(t)
	counts := map[string]int{}
	rapid.Check(t, func(t *rapid.T) {
		cj := ruleJob("hello")
		cj.Spec.SuccessfulJobsHistoryLimit = ruleDrawLimit(t, "ok")
		cj.Spec.FailedJobsHistoryLimit = ruleDrawLimit(t, "failed")
		jobs := ruleDrawJobs(t)
		stored := make([]*batchv1.Job, len(jobs))
		for i, j := range jobs {
			stored[i] = ruleStored(t, j)
		}
		want := up.history(ruleStored(t, cj), stored)
		var got ruleDeleteOut
		if e := difftest.Decide(t, "cronjob.ExcessHistory", nil, map[string]any{"cronJob": cj, "jobs": stored}, &got); e != nil {
			t.Fatalf("kubesem input error %+v", e)
		}
		if got.Delete == nil || !slices.Equal(got.Delete, want) {
			t.Fatalf("kubesem deletes %q, upstream %q", got.Delete, want)
		}
		counts[fmt.Sprintf("%d deleted", min(len(want), 3))]++
	})
	difftest.Count(t, counts)

	n := 0
	for _, v := range difftest.Vectors(t, "cronjob", "cronjob.ExcessHistory") {
		var in struct {
			CronJob *batchv1.CronJob `json:"cronJob"`
			Jobs    []*batchv1.Job   `json:"jobs"`
		}
		if err := json.Unmarshal(v.Input, &in); err != nil {
			t.Fatalf("%q: %v", v.Name, err)
		}
		jobs := make([]*batchv1.Job, len(in.Jobs))
		for i, j := range in.Jobs {
			jobs[i] = ruleStored(t, j)
		}
		want := difftest.JSON(t, ruleDeleteOut{up.history(ruleStored(t, in.CronJob), jobs)})
		if !difftest.SameJSON(v.Want, want) {
			t.Errorf("%q: want %s, upstream %s", v.Name, v.Want, want)
		}
		n++
	}
	t.Logf("%d cronjob.ExcessHistory vectors replayed through cleanupFinishedJobs", n)
}

// ---------------------------------------------------------------------
// cronjob.IsTooLate

// tooLate runs v1.36.3's syncCronJob on cj (no Jobs) at now and reports
// the scheduled time it reached its tooLate check with and what the check
// said: too late when it recorded MissSchedule (whose message names the
// scheduled time), not too late when it went on to create the Job (whose
// scheduled-timestamp annotation names it). reached is false when the
// sync stopped before the check (no unmet schedule time).
func (u *ruleUp) tooLate(tb difftest.Fataler, cj *batchv1.CronJob, now time.Time) (scheduled time.Time, tooLate, reached bool) {
	u.reset(now)
	if _, _, err := ruleSync(u.jm, difftest.Ctx, cj.DeepCopy(), nil); err != nil {
		tb.Fatalf("syncCronJob: %v", err)
	}
	close(u.rec.Events)
	for e := range u.rec.Events {
		if msg, ok := strings.CutPrefix(e, "Warning MissSchedule Missed scheduled time to start a job: "); ok {
			s, err := time.Parse(time.RFC1123Z, msg)
			if err != nil {
				tb.Fatalf("MissSchedule %q: %v", msg, err)
			}
			return s, true, true
		}
	}
	for _, j := range u.jc.created {
		s, err := time.Parse(time.RFC3339, j.Annotations[batchv1.CronJobScheduledTimestampAnnotation])
		if err != nil {
			tb.Fatalf("created Job annotation: %v", err)
		}
		return s, false, true
	}
	return time.Time{}, false, false
}

// ruleInstants are the instants a sync's now is drawn around: a plain
// one and the offset changes of the zones drawn (America/New_York,
// Europe/London, Australia/Lord_Howe with its 30-minute shift).
var ruleInstants = []time.Time{
	time.Date(2026, 1, 1, 10, 21, 0, 0, time.UTC),
	time.Date(2026, 3, 8, 7, 0, 0, 0, time.UTC),    // New York, spring forward
	time.Date(2026, 11, 1, 6, 0, 0, 0, time.UTC),   // New York, fall back
	time.Date(2026, 3, 29, 1, 0, 0, 0, time.UTC),   // London, spring forward
	time.Date(2026, 10, 25, 1, 0, 0, 0, time.UTC),  // London, fall back
	time.Date(2026, 4, 4, 15, 0, 0, 0, time.UTC),   // Lord Howe, back 30 min
	time.Date(2026, 10, 3, 15, 30, 0, 0, time.UTC), // Lord Howe, forward 30 min
}

// ruleDrawTooLate draws a CronJob and a now for the sync: schedules
// every minute, every five, hourly, daily at 01:30, 02:00 or 01:00 local,
// @every 90s and @hourly; a time zone of those with offset changes or
// none; startingDeadlineSeconds absent, 0, 1, 59–61, an hour, a day, at
// and past the point where seconds overflow a Duration, the int64 maximum;
// lastScheduleTime and creationTimestamp from a second to a hundred days
// before now; now near an offset change, in whole seconds, minutes or with
// nanoseconds. One state in two has a schedule of every minute and now just
// inside the starting deadline of one of its fire times (a nanosecond to a
// minute before fire + startingDeadlineSeconds).
func ruleDrawTooLate(t *rapid.T) (*batchv1.CronJob, time.Time) {
	cj := ruleJob("hello")
	cj.Spec.Schedule = rapid.SampledFrom([]string{"* * * * *", "*/5 * * * *", "0 * * * *", "30 1 * * *", "0 2 * * *", "0 1 * * *",
		"15,45 * * * *", "@every 90s", "@hourly"}).Draw(t, "schedule")
	if tz := rapid.SampledFrom([]string{"", "", "UTC", "America/New_York", "Europe/London", "Australia/Lord_Howe"}).Draw(t, "tz"); tz != "" {
		cj.Spec.TimeZone = &tz
	}
	if rapid.IntRange(0, 4).Draw(t, "sdsSet") > 0 {
		cj.Spec.StartingDeadlineSeconds = difftest.Ptr(rapid.OneOf(
			rapid.SampledFrom([]int64{0, 1, 59, 60, 61, 200, 3600, 3599, 86400, 9223372036, 9223372037, 18446744073, math.MaxInt64}),
			rapid.Int64Range(0, 7200)).Draw(t, "sds"))
	}
	now := rapid.SampledFrom(ruleInstants).Draw(t, "instant")
	if rapid.Bool().Draw(t, "atDeadline") {
		// Just inside the starting deadline of a fire time of every minute:
		// now = fire + startingDeadlineSeconds − δ, last scheduled a minute
		// before the fire time.
		cj.Spec.Schedule, cj.Spec.TimeZone = "* * * * *", nil
		sds := rapid.OneOf(rapid.SampledFrom([]int64{0, 1, 59, 60, 61, 200, 3600}), rapid.Int64Range(0, 86400)).Draw(t, "deadlineSDS")
		cj.Spec.StartingDeadlineSeconds = &sds
		fire := now.Add(time.Duration(rapid.IntRange(-120, 120).Draw(t, "fireMin")) * time.Minute)
		delta := rapid.SampledFrom([]time.Duration{time.Nanosecond, time.Microsecond, time.Millisecond, 999 * time.Millisecond, time.Second,
			time.Second + time.Nanosecond, 59 * time.Second}).Draw(t, "delta")
		now = fire.Add(time.Duration(sds)*time.Second - delta)
		last := metav1.NewTime(fire.Add(-time.Minute))
		cj.CreationTimestamp, cj.Status.LastScheduleTime = last, &last
		return cj, now
	}
	switch rapid.IntRange(0, 2).Draw(t, "nowKind") {
	case 0:
		now = now.Add(time.Duration(rapid.IntRange(-180, 180).Draw(t, "nowMin")) * time.Minute)
	case 1:
		now = now.Add(time.Duration(rapid.IntRange(-10800, 10800).Draw(t, "nowS")) * time.Second)
	default:
		now = now.Add(time.Duration(rapid.Int64Range(-3*int64(time.Hour), 3*int64(time.Hour)).Draw(t, "nowNs")))
	}
	back := rapid.SampledFrom([]time.Duration{time.Second, time.Minute, 61 * time.Second, 5 * time.Minute, time.Hour, 90 * time.Minute,
		2 * time.Hour, 3 * time.Hour, 25 * time.Hour, 100 * 24 * time.Hour}).Draw(t, "back")
	created := now.Add(-back).Truncate(time.Second)
	cj.CreationTimestamp = metav1.NewTime(created)
	if rapid.Bool().Draw(t, "lastSet") {
		l := metav1.NewTime(now.Add(-rapid.SampledFrom([]time.Duration{time.Second, time.Minute, 5 * time.Minute, time.Hour, 2 * time.Hour, 25 * time.Hour}).Draw(t, "last")).Truncate(time.Second))
		if l.Before(&cj.CreationTimestamp) {
			l = cj.CreationTimestamp
		}
		cj.Status.LastScheduleTime = &l
	}
	return cj, now
}

type ruleTooLateOut struct {
	TooLate bool `json:"tooLate"`
}

// TestCronJobIsTooLateDifferential: cronjob.IsTooLate against
// syncCronJob's tooLate check. The check is inline in syncCronJob, so the
// sync runs on a drawn CronJob (ruleDrawTooLate) and, when it reaches the
// check, the scheduled time it checked and its verdict are read back
// (rdCronTooLateUp); kubesem is asked about that CronJob, scheduled time
// and now. Upstream reaches the check only for a schedule time after now −
// startingDeadlineSeconds (mostRecentScheduleTime starts there), so on
// these states its verdict is mostly "not too late"; the states where it
// is too late are counted. Then the cronjob.IsTooLate vectors whose
// scheduled time upstream can reach are replayed: the CronJob's schedule
// becomes one that fires once a year at the vector's scheduled time,
// last scheduled a second before it.
func TestCronJobIsTooLateDifferential(t *testing.T) {
	up := newRuleUp(t)
	counts := map[string]int{}
	rapid.Check(t, func(t *rapid.T) {
		cj, now := ruleDrawTooLate(t)
		scheduled, want, reached := up.tooLate(t, ruleStored(t, cj), now)
		if !reached {
			counts["upstream stops before the check"]++
			return
		}
		var got ruleTooLateOut
		if e := difftest.Decide(t, "cronjob.IsTooLate", nil, map[string]any{"cronJob": cj, "scheduled": scheduled, "now": now}, &got); e != nil {
			t.Fatalf("kubesem input error %+v", e)
		}
		if got.TooLate != want {
			t.Fatalf("scheduled %s, now %s, startingDeadlineSeconds %s: kubesem tooLate %v, upstream %v",
				scheduled.Format(time.RFC3339Nano), now.Format(time.RFC3339Nano), difftest.JSON(t, cj.Spec.StartingDeadlineSeconds), got.TooLate, want)
		}
		counts[fmt.Sprintf("checked, tooLate %v", want)]++
	})
	difftest.Count(t, counts)

	n, skipped := 0, 0
	for _, v := range difftest.Vectors(t, "cronjob", "cronjob.IsTooLate") {
		var in struct {
			CronJob   *batchv1.CronJob `json:"cronJob"`
			Scheduled time.Time        `json:"scheduled"`
			Now       time.Time        `json:"now"`
		}
		if err := json.Unmarshal(v.Input, &in); err != nil {
			t.Fatalf("%q: %v", v.Name, err)
		}
		cj := in.CronJob.DeepCopy()
		s := in.Scheduled.UTC()
		cj.Spec.Schedule = fmt.Sprintf("%d %d %d %d *", s.Minute(), s.Hour(), s.Day(), int(s.Month()))
		cj.Spec.TimeZone = difftest.Ptr("UTC")
		last := metav1.NewTime(s.Add(-time.Second))
		cj.CreationTimestamp, cj.Status.LastScheduleTime = last, &last
		scheduled, tooLate, reached := up.tooLate(t, ruleStored(t, cj), in.Now)
		if !reached || !scheduled.Equal(in.Scheduled) {
			skipped++
			t.Logf("%q: not replayable: upstream's sync at %s never checks %s (reached %v at %s)", v.Name, in.Now.Format(time.RFC3339Nano),
				in.Scheduled.Format(time.RFC3339), reached, scheduled.Format(time.RFC3339))
			continue
		}
		want := difftest.JSON(t, ruleTooLateOut{tooLate})
		if !difftest.SameJSON(v.Want, want) {
			t.Errorf("%q: want %s, upstream %s", v.Name, v.Want, want)
		}
		n++
	}
	if n == 0 {
		t.Errorf("no cronjob.IsTooLate vector replayed")
	}
	t.Logf("%d cronjob.IsTooLate vectors replayed through syncCronJob, %d not replayable", n, skipped)
}
