package cronjob_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/robfig/cron/v3"
	batchv1 "k8s.io/api/batch/v1"

	"github.com/kubesem/kubesem/conformance/upstream/internal/difftest"
	kcronjob "github.com/kubesem/kubesem/cronjob"
	"github.com/kubesem/kubesem/job"
	"github.com/kubesem/kubesem/meta"
)

// vec is one conformance vector as written to testdata/cronjob.
type vec struct {
	Decision  string         `json:"decision"`
	Name      string         `json:"name"`
	Source    string         `json:"source"`
	Options   map[string]any `json:"options,omitempty"`
	Input     map[string]any `json:"input"`
	Want      any            `json:"want,omitempty"`
	WantError map[string]any `json:"wantError,omitempty"`
}

// TestGenerateCronJobVectors computes testdata/cronjob's step, schedule,
// recent, jobs and eras files and fails when a file differs from what is
// checked in; KUBESEM_GEN_CRONJOB=1 writes them instead. Inputs come from
// the seeds, upstream's test tables and the issues cited; every expected
// value comes from upstream v1.36.3 itself (its controller, its unexported
// helpers through linkname, robfig/cron), never from kubesem.
func TestGenerateCronJobVectors(t *testing.T) {
	gen := os.Getenv("KUBESEM_GEN_CRONJOB") != ""
	dir := difftest.Repo("testdata", "cronjob")
	write := func(file string, vs []vec) {
		data, err := json.MarshalIndent(vs, "", " ")
		if err != nil {
			t.Fatal(err)
		}
		data = append(data, '\n')
		path := filepath.Join(dir, file)
		if gen {
			if err := os.WriteFile(path, data, 0o644); err != nil {
				t.Fatal(err)
			}
			return
		}
		have, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(have, data) {
			t.Errorf("testdata/cronjob/%s differs from what upstream computes; regenerate with KUBESEM_GEN_CRONJOB=1 and review the diff", file)
		}
	}
	write("step.json", append(syncTableVectors(t), seedStepVectors(t)...))
	write("schedule.json", scheduleVectors(t))
	write("recent.json", recentVectors(t))
	write("jobs.json", jobsVectors(t))
	write("eras.json", erasVectors(t))
}

const syncSource = "upstream:pkg/controller/cronjob/cronjob_controllerv2_test.go TestControllerV2SyncCronJob/"

// syncInputs builds a row's CronJob and Jobs the way the upstream test does.
func syncInputs(tc syncCase) (*kcronjob.CronJob, []*job.Job) {
	cj := &kcronjob.CronJob{}
	cj.Name, cj.Namespace, cj.UID = "mycronjob", "snazzycats", "1a2b3c"
	cj.CreationTimestamp = justBeforeTheHour()
	cj.Spec.Schedule = tc.schedule
	cj.Spec.ConcurrencyPolicy = kcronjob.ConcurrencyPolicy(tc.concurrencyPolicy)
	suspend := tc.suspend
	cj.Spec.Suspend = &suspend
	cj.Spec.TimeZone = tc.timeZone
	cj.Spec.SuccessfulJobsHistoryLimit = tc.successfulJobsHistoryLimit
	cj.Spec.JobTemplate.Labels = map[string]string{"a": "b"}
	cj.Spec.JobTemplate.Annotations = map[string]string{"x": "y"}
	if tc.deadline != noDead {
		d := tc.deadline
		cj.Spec.StartingDeadlineSeconds = &d
	}
	if !tc.ranPreviously {
		if !tc.cronjobCreationTime.IsZero() {
			cj.CreationTimestamp = tc.cronjobCreationTime
		}
		return cj, nil
	}
	cj.CreationTimestamp = justBeforeThePriorHour()
	if !tc.cronjobCreationTime.IsZero() {
		cj.CreationTimestamp = tc.cronjobCreationTime
	}
	last := justAfterThePriorHour()
	if !tc.lastScheduleTime.IsZero() {
		last = tc.lastScheduleTime
	}
	cj.Status.LastScheduleTime = &last
	yes := true
	j := &job.Job{ObjectMeta: meta.ObjectMeta{
		Name: "mycronjob-" + itoa(tc.jobCreationTime.Unix()/60), Namespace: cj.Namespace, UID: "1234",
		CreationTimestamp: tc.jobCreationTime,
		OwnerReferences:   []meta.OwnerReference{{APIVersion: "batch/v1", Kind: "CronJob", Name: cj.Name, UID: cj.UID, Controller: &yes}},
	}}
	if tc.jobPresentInCJActiveStatus {
		cj.Status.Active = []kcronjob.ObjectReference{{Kind: "Job", Namespace: j.Namespace, Name: j.Name, UID: j.UID, APIVersion: "batch/v1"}}
	}
	if !tc.stillActive {
		done := tc.jobCreationTime.Add(10 * time.Second)
		j.Status.CompletionTime = &done
		j.Status.Conditions = []job.Condition{{Type: job.Complete, Status: meta.ConditionTrue}}
	}
	return cj, []*job.Job{j}
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

// stepWant runs upstream's sync on the inputs and returns the want.
func stepWant(cj *kcronjob.CronJob, jobs []*job.Job, now time.Time) (map[string]any, upstreamSync) {
	var ujobs []*batchv1.Job
	for _, j := range jobs {
		ujobs = append(ujobs, difftest.UpJob(j))
	}
	out := runUpstreamSync(difftest.UpCronJob(cj), ujobs, now)
	var create any
	if len(out.created) > 0 {
		create = map[string]any{"name": out.created[0], "scheduledTimestamp": out.createdAnn[0]}
	}
	active := []string{}
	for _, r := range out.status.Active {
		active = append(active, r.Name)
	}
	events := []string{}
	for _, e := range out.events {
		f := strings.Fields(e)
		events = append(events, f[0]+" "+f[1])
	}
	deleted := append([]string{}, out.deleted...)
	want := map[string]any{
		"create": create, "delete": deleted, "active": active, "updateStatus": out.updateStatus,
		"requeue": out.requeue != nil, "events": events,
		"lastScheduleTime": nil, "lastSuccessfulTime": nil,
	}
	if out.requeue != nil {
		want["requeueAfter"] = out.requeue.String()
	}
	if t := out.status.LastScheduleTime; t != nil {
		want["lastScheduleTime"] = t.UTC().Format(time.RFC3339Nano)
	}
	if t := out.status.LastSuccessfulTime; t != nil {
		want["lastSuccessfulTime"] = t.UTC().Format(time.RFC3339Nano)
	}
	return want, out
}

// stepPlanWant is the whole-Plan want of a cronjob.Step vector: planWant,
// its keys in the Plan's order.
func stepPlanWant(t *testing.T, cj *kcronjob.CronJob, jobs []*job.Job, now time.Time, refuse bool) json.RawMessage {
	want, err := planWant(cj, jobs, now, refuse)
	if err != nil {
		t.Fatal(err)
	}
	keys := map[string]json.RawMessage{}
	for k, v := range want {
		b, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		keys[k] = b
	}
	return orderedPlan(keys)
}

func stepInput(cj *kcronjob.CronJob, jobs []*job.Job, now time.Time) map[string]any {
	in := map[string]any{"cronJob": cj, "now": now}
	if len(jobs) > 0 {
		in["jobs"] = jobs
	}
	return in
}

func syncTableVectors(t *testing.T) []vec {
	var vs []vec
	for _, tc := range syncCases {
		if strings.Contains(tc.name, "not present in cronjob active list") || strings.Contains(tc.name, "namespace is terminating") {
			continue // these rows make the Job create call fail
		}
		cj, jobs := syncInputs(tc)
		_, out := stepWant(cj, jobs, tc.now)
		// The harness must reproduce the table's own expectations.
		if got := len(out.created) > 0; got != tc.expectCreate {
			t.Errorf("%s: upstream created=%v; table says %v", tc.name, got, tc.expectCreate)
		}
		if tc.expectRequeueAfter && (out.requeue == nil || *out.requeue != tc.expectedRequeueDuration) {
			t.Errorf("%s: upstream requeue=%v; table says %v", tc.name, out.requeue, tc.expectedRequeueDuration)
		}
		if len(out.status.Active) != tc.expectActive && tc.expectUpdateStatus {
			t.Logf("%s: upstream active=%d; table says %d", tc.name, len(out.status.Active), tc.expectActive)
		}
		vs = append(vs, vec{Decision: "cronjob.Step", Name: "sync/" + tc.name, Source: syncSource + tc.name,
			Input: stepInput(cj, jobs, tc.now), Want: stepPlanWant(t, cj, jobs, tc.now, false)})
	}
	return vs
}

// outageCronJob is the seed's CronJob: every minute from 08:30, created
// just before, with the controller down from 08:29 to 10:21.
func outageCronJob(deadline *int64) *kcronjob.CronJob {
	cj := &kcronjob.CronJob{}
	cj.Name, cj.Namespace, cj.UID = "hello", "default", "cj-uid"
	cj.CreationTimestamp = rfc("2024-05-20T08:29:00Z")
	cj.Spec.Schedule = "* * * * *"
	cj.Spec.StartingDeadlineSeconds = deadline
	return cj
}

func seedStepVectors(t *testing.T) []vec {
	const seed = "seed:000 CronJob limitations (000:L3478-3480)"
	sds := int64(200)
	var vs []vec
	for _, c := range []struct {
		name   string
		cj     *kcronjob.CronJob
		now    string
		refuse bool
		src    string
	}{
		{"seed/outage 08:29-10:21 no deadline, v1.36.3 starts 10:21", outageCronJob(nil), "2024-05-20T10:21:00Z", false, seed},
		{"seed/outage 08:29-10:21 no deadline, documented refusal", outageCronJob(nil), "2024-05-20T10:21:00Z", true, seed},
		{"seed/outage 08:29-10:21 deadline 200s starts 10:21", outageCronJob(&sds), "2024-05-20T10:21:00Z", false, seed},
		{"seed/outage 08:29-10:21 deadline 200s with refusal still starts", outageCronJob(&sds), "2024-05-20T10:21:00Z", true, seed},
		{"seed/outage deadline 200s, first sync 10:21:30", outageCronJob(&sds), "2024-05-20T10:21:30Z", false, seed},
		{"seed/outage 100 missed is not too many", outageCronJob(nil), "2024-05-20T10:09:00Z", true, seed},
		{"seed/outage 101 missed is too many", outageCronJob(nil), "2024-05-20T10:10:00Z", true, seed},
		{"issue/42649 hourly job a year late still starts in v1.36.3", func() *kcronjob.CronJob {
			c := outageCronJob(nil)
			c.Spec.Schedule = "0 * * * *"
			return c
		}(), "2025-05-20T10:21:00Z", false, "issue:kubernetes/kubernetes#42649"},
	} {
		v := vec{Decision: "cronjob.Step", Name: c.name, Source: c.src, Input: stepInput(c.cj, nil, rfc(c.now)), Want: stepPlanWant(t, c.cj, nil, rfc(c.now), c.refuse)}
		if c.refuse {
			// Options.RefuseTooManyMissed reproduces the seed: with more
			// than 100 missed, no Job (planWant states the refusal).
			v.Options = map[string]any{"refuseTooManyMissed": true}
		}
		vs = append(vs, v)
	}
	// kubernetes/kubernetes#57853: Forbid with a deadline; the running Job
	// blocks every start time and they are missed, not queued.
	forbid := outageCronJob(&sds)
	forbid.Spec.Schedule = "*/5 * * * *"
	forbid.Spec.ConcurrencyPolicy = kcronjob.Forbid
	last := rfc("2024-05-20T09:00:00Z")
	forbid.Status.LastScheduleTime = &last
	running := &job.Job{ObjectMeta: meta.ObjectMeta{Name: "hello-28606080", Namespace: "default", UID: "j1", CreationTimestamp: last}}
	forbid.Status.Active = []kcronjob.ObjectReference{{Kind: "Job", Namespace: "default", Name: running.Name, UID: "j1", APIVersion: "batch/v1"}}
	for _, now := range []string{"2024-05-20T09:05:10Z", "2024-05-20T09:20:00Z"} {
		vs = append(vs, vec{Decision: "cronjob.Step", Name: "issue/57853 forbid with deadline at " + now, Source: "issue:kubernetes/kubernetes#57853",
			Input: stepInput(forbid, []*job.Job{running}, rfc(now)), Want: stepPlanWant(t, forbid, []*job.Job{running}, rfc(now), false)})
	}
	// kubernetes/kubernetes#57853 as reported: a Forbid CronJob's schedule is
	// edited from "30 11 * * 5" to "0 11 * * 5" on Thursday 2018-01-04 at
	// 23:49 UTC. Whether a Job starts at once depends on lastScheduleTime:
	// after the previous Friday's run nothing is due; if that run was missed,
	// the new schedule's Friday 11:00 counts as missed and starts at once
	// (what the reporter saw), unless startingDeadlineSeconds makes it too late.
	edited := func(last string, deadline *int64) *kcronjob.CronJob {
		c := outageCronJob(deadline)
		c.CreationTimestamp = rfc("2017-11-01T00:00:00Z")
		c.Spec.Schedule = "0 11 * * 5"
		c.Spec.ConcurrencyPolicy = kcronjob.Forbid
		l := rfc(last)
		c.Status.LastScheduleTime = &l
		return c
	}
	for _, c := range []struct {
		name string
		cj   *kcronjob.CronJob
	}{
		{"issue/57853 edited schedule after last Friday's run starts nothing", edited("2017-12-29T11:30:00Z", nil)},
		{"issue/57853 edited schedule with a missed Friday starts at once", edited("2017-12-22T11:30:00Z", nil)},
		{"issue/57853 edited schedule with a missed Friday and a deadline starts nothing", edited("2017-12-22T11:30:00Z", &sds)},
	} {
		now := rfc("2018-01-04T23:49:00Z")
		vs = append(vs, vec{Decision: "cronjob.Step", Name: c.name, Source: "issue:kubernetes/kubernetes#57853",
			Input: stepInput(c.cj, nil, now), Want: stepPlanWant(t, c.cj, nil, now, false)})
	}
	// kubernetes/kubernetes#39608 (PR): after missing several start times
	// only the most recent one is started.
	few := outageCronJob(nil)
	few.Spec.Schedule = "*/10 * * * *"
	few.Status.LastScheduleTime = &last
	vs = append(vs, vec{Decision: "cronjob.Step", Name: "pr/39608 only the latest missed start runs", Source: "issue:kubernetes/kubernetes#39608",
		Input: stepInput(few, nil, rfc("2024-05-20T09:47:00Z")), Want: stepPlanWant(t, few, nil, rfc("2024-05-20T09:47:00Z"), false)})
	// The start time's Job name is already taken (a Job of this CronJob
	// missing from status.active, as after a lost status write): the create
	// fails with AlreadyExists and v1.36.3 reads the Job back with an empty
	// namespace, fails, and ends the sync in an error: it never adopts it.
	taken := outageCronJob(nil)
	taken.Spec.Schedule = "*/5 * * * *"
	taken.Status.LastScheduleTime = &last
	leftover := &job.Job{ObjectMeta: meta.ObjectMeta{Name: "hello-28603265", Namespace: "default", UID: "j0", CreationTimestamp: rfc("2024-05-20T09:05:00Z")}}
	for _, now := range []string{"2024-05-20T09:05:10Z"} {
		if _, out := stepWant(taken, []*job.Job{leftover}, rfc(now)); out.err == nil {
			t.Fatalf("name taken: upstream sync did not fail: %+v", out)
		}
		vs = append(vs, vec{Decision: "cronjob.Step", Name: "sync/start time's Job name already taken", Source: "upstream:pkg/controller/cronjob/cronjob_controllerv2.go syncCronJob, AlreadyExists path (v1.36.3; run through the controller by TestGenerateCronJobVectors)",
			Input: stepInput(taken, []*job.Job{leftover}, rfc(now)), Want: stepPlanWant(t, taken, []*job.Job{leftover}, rfc(now), false)})
	}
	return vs
}

func hasEvent(events []string, reason string) bool {
	for _, e := range events {
		if strings.Contains(e, " "+reason+" ") {
			return true
		}
	}
	return false
}

// robfigNext is upstream's schedule on a zone.
func robfigNext(spec string, tz *string, after time.Time) time.Time {
	if tz != nil {
		spec = "TZ=" + *tz + " " + spec
	}
	s, err := cron.ParseStandard(spec)
	if err != nil {
		panic(err)
	}
	return s.Next(after)
}

func robfigCount(spec string, tz *string, after, until time.Time) int64 {
	var n int64
	for x := robfigNext(spec, tz, after); !x.IsZero() && !x.After(until); x = robfigNext(spec, tz, x) {
		n++
	}
	return n
}

func nullTime(t time.Time) any {
	if t.IsZero() {
		return nil
	}
	return t.UTC().Format(time.RFC3339Nano)
}

func scheduleVectors(t *testing.T) []vec {
	utc := "UTC"
	ny := "America/New_York"
	var vs []vec
	next := func(name, src, spec string, tz *string, after string) {
		in := map[string]any{"schedule": spec, "after": rfc(after)}
		if tz != nil {
			in["timeZone"] = *tz
		}
		vs = append(vs, vec{Decision: "cronjob.Next", Name: name, Source: src, Input: in,
			Want: map[string]any{"next": nullTime(robfigNext(spec, tz, rfc(after)))}})
	}
	count := func(name, src, spec string, tz *string, after, until string) {
		in := map[string]any{"schedule": spec, "after": rfc(after), "until": rfc(until)}
		if tz != nil {
			in["timeZone"] = *tz
		}
		vs = append(vs, vec{Decision: "cronjob.Count", Name: name, Source: src, Input: in,
			Want: map[string]any{"count": robfigCount(spec, tz, rfc(after), rfc(until))}})
	}
	const macros = "seed:000 CronJob schedule syntax macros table (000:L3440-3446)"
	for _, m := range []struct{ macro, equiv string }{
		{"@yearly", "0 0 1 1 *"}, {"@annually", "0 0 1 1 *"}, {"@monthly", "0 0 1 * *"},
		{"@weekly", "0 0 * * 0"}, {"@daily", "0 0 * * *"}, {"@midnight", "0 0 * * *"}, {"@hourly", "0 * * * *"},
	} {
		next("macro/"+m.macro, macros, m.macro, &utc, "2024-05-20T10:21:00Z")
		next("macro/"+m.macro+" equivalent "+m.equiv, macros, m.equiv, &utc, "2024-05-20T10:21:00Z")
	}
	const fri13 = "seed:000 CronJob schedule syntax (000:L3448) 0 0 13 * 5"
	next("seed/0 0 13 * 5 next friday before the 13th", fri13, "0 0 13 * 5", &utc, "2024-09-01T00:00:00Z")
	next("seed/0 0 13 * 5 the 13th after a friday", fri13, "0 0 13 * 5", &utc, "2024-09-06T00:00:00Z")
	next("seed/0 0 13 * 5 friday after the 13th", fri13, "0 0 13 * 5", &utc, "2024-09-13T00:00:00Z")
	count("seed/0 0 13 * 5 in 2024", fri13, "0 0 13 * 5", &utc, "2023-12-31T23:59:59Z", "2024-12-31T23:59:59Z")
	const dst = "upstream:robfig/cron v3.0.1 spec.go SpecSchedule.Next (DST, as v1.36.3 uses it)"
	next("dst/spring forward 02:30 is skipped that day", dst, "30 2 * * *", &ny, "2024-03-09T08:00:00Z")
	next("dst/spring forward hourly jumps 01:00 to 03:00", dst, "0 * * * *", &ny, "2024-03-10T06:00:00Z")
	next("dst/fall back 01:30 first", dst, "30 1 * * *", &ny, "2024-11-03T04:00:00Z")
	next("dst/fall back 01:30 again an hour later", dst, "30 1 * * *", &ny, "2024-11-03T05:30:00Z")
	count("dst/fall back day runs 01:30 twice", dst, "30 1 * * *", &ny, "2024-11-02T12:00:00Z", "2024-11-03T12:00:00Z")
	count("dst/spring forward day has no 02:30", dst, "30 2 * * *", &ny, "2024-03-09T12:00:00Z", "2024-03-10T12:00:00Z")
	count("dst/every 30 minutes over the fall-back day", dst, "*/30 * * * *", &ny, "2024-11-03T04:00:00Z", "2024-11-04T05:00:00Z")
	const outage = "seed:000 CronJob limitations (000:L3478)"
	count("seed/outage 08:30-10:21 every minute", outage, "* * * * *", &utc, "2024-05-20T08:29:00Z", "2024-05-20T10:21:00Z")
	count("count/a year of 30 6-16/4 * * 1-5", "issue:kubernetes/kubernetes#118706", "30 6-16/4 * * 1-5", &utc, "2023-05-20T08:29:00Z", "2024-05-20T10:21:00Z")
	count("count/0 0 31 2 * never fires", "upstream:pkg/controller/cronjob/utils_test.go TestMostRecentScheduleTime/rogue cronjob", "0 0 31 2 *", &utc, "2016-05-19T10:00:00Z", "2026-05-19T10:00:00Z")
	// Parse errors.
	bad := "bad timezone"
	for _, e := range []struct {
		name, spec string
		tz         *string
		field      string
	}{
		{"parse/obvious error", "obvious error schedule", nil, "schedule"},
		{"parse/TZ= with no space would panic robfig", "TZ=0", nil, "schedule"},
		{"parse/six fields", "0 * * * * *", nil, "schedule"},
		{"parse/unknown timeZone", "0 * * * *", &bad, "timeZone"},
	} {
		in := map[string]any{"schedule": e.spec, "after": rfc("2024-05-20T10:21:00Z")}
		if e.tz != nil {
			in["timeZone"] = *e.tz
		}
		vs = append(vs, vec{Decision: "cronjob.Next", Name: e.name, Source: "upstream:pkg/util/parsers/parsers.go ParseCronScheduleWithPanicRecovery",
			Input: in, WantError: map[string]any{"field": e.field, "kind": "Invalid"}})
	}
	next("parse/@every 90m", "upstream:robfig/cron v3.0.1 constantdelay.go", "@every 1h30m", nil, "2024-05-20T10:21:00.5Z")
	next("parse/TZ prefix in the schedule picks its zone", "upstream:pkg/controller/cronjob/cronjob_controllerv2.go formatSchedule", "TZ=America/New_York 0 9 * * *", nil, "2024-05-20T10:21:00Z")
	return vs
}

func recentVectors(t *testing.T) []vec {
	var vs []vec
	top := rfc("2016-05-19T10:00:00Z")
	at := func(d time.Duration) time.Time { return top.Add(d) }
	tp := func(x time.Time) *time.Time { return &x }
	mk := func(sched string, created time.Time, last *time.Time, sds *int64) *kcronjob.CronJob {
		c := &kcronjob.CronJob{}
		c.Name, c.Namespace = "mycronjob", "default"
		c.CreationTimestamp = created
		c.Spec.Schedule = sched
		c.Spec.StartingDeadlineSeconds = sds
		c.Status.LastScheduleTime = last
		return c
	}
	oneMin, tenSec := int64(60), int64(10)
	missedNames := map[int]string{0: "none", 1: "few", 2: "many"}
	const src = "upstream:pkg/controller/cronjob/utils_test.go TestMostRecentScheduleTime/"
	for _, c := range []struct {
		name  string
		cj    *kcronjob.CronJob
		sds   bool
		now   time.Time
		label string
	}{
		{"now before next schedule", mk("0 * * * *", top, nil, nil), false, at(30 * time.Second), src},
		{"now just after next schedule", mk("0 * * * *", top, nil, nil), false, at(61 * time.Minute), src},
		{"missed 5 schedules", mk("0 * * * *", at(10*time.Second), nil, nil), false, at(301 * time.Minute), src},
		{"complex schedule", mk("30 6-16/4 * * 1-5", top, tp(at(30*time.Minute)), nil), false, at(24*time.Hour + 31*time.Minute), src},
		{"another complex schedule", mk("30 10,11,12 * * 1-5", top, tp(at(30*time.Minute)), nil), false, at(30*time.Hour + 30*time.Minute), src},
		{"complex schedule with longer diff between executions", mk("30 6-16/4 * * 1-5", top, tp(at(30*time.Minute)), nil), false, at(96*time.Hour + 31*time.Minute), src},
		{"complex schedule with shorter diff between executions", mk("30 6-16/4 * * 1-5", top, nil, nil), false, at(24*time.Hour + 31*time.Minute), src},
		{"@every schedule", mk("@every 1h", at(-59*time.Minute), tp(at(time.Minute)), &tenSec), false, at(7 * 24 * time.Hour), src},
		{"rogue cronjob", mk("59 23 31 2 *", at(10*time.Second), nil, nil), false, at(time.Hour), src},
		{"earliestTime being CreationTimestamp and LastScheduleTime", mk("0 * * * *", top, tp(top), nil), false, at(30 * time.Second), src},
		{"earliestTime being LastScheduleTime", mk("*/5 * * * *", top, tp(at(30*time.Minute)), nil), false, at(31 * time.Minute), src},
		{"earliestTime being LastScheduleTime (within StartingDeadlineSeconds)", mk("*/5 * * * *", top, tp(at(30*time.Minute)), &oneMin), false, at(31 * time.Minute), src},
		{"earliestTime being LastScheduleTime (outside StartingDeadlineSeconds)", mk("*/5 * * * *", top, tp(at(30*time.Minute)), &oneMin), true, at(32 * time.Minute), src},
		{"seed outage no deadline", outageCronJob(nil), true, rfc("2024-05-20T10:21:00Z"), "seed:000 CronJob limitations (000:L3478)"},
		{"seed outage deadline 200", outageCronJob(func() *int64 { x := int64(200); return &x }()), true, rfc("2024-05-20T10:21:00Z"), "seed:000 CronJob limitations (000:L3480)"},
		{"issue 118706 weekend overshoot", mk("30 6-16/4 * * 1-5", rfc("2023-06-16T16:30:00Z"), tp(rfc("2023-06-16T14:30:00Z")), nil), true, rfc("2023-06-19T06:31:00Z"), "issue:kubernetes/kubernetes#118706"},
	} {
		name := c.name
		source := c.label
		if strings.HasSuffix(source, "/") {
			source += name
		} else {
			name = "recent/" + name
		}
		ucj := difftest.UpCronJob(c.cj)
		sched, err := upSchedule(ucj)
		if err != nil {
			t.Fatal(err)
		}
		earliest, recent, missed, err := upMostRecentScheduleTime(ucj, c.now, sched, c.sds)
		in := map[string]any{"cronJob": c.cj, "now": c.now, "withDeadline": c.sds}
		v := vec{Decision: "cronjob.MostRecent", Name: name, Source: source, Input: in}
		if err != nil {
			v.WantError = map[string]any{"field": "cronJob.spec.schedule", "kind": "Invalid"}
		} else {
			var r time.Time
			if recent != nil {
				r = *recent
			}
			want := map[string]any{"earliest": nullTime(earliest), "mostRecent": nullTime(r), "missed": missedNames[missed]}
			if !c.now.Before(sched.Next(earliest)) {
				want["count"] = robfigCount(c.cj.Spec.Schedule, nil, earliest, c.now)
			}
			v.Want = want
		}
		vs = append(vs, v)
	}
	// TestNextScheduleTimeDuration.
	const dsrc = "upstream:pkg/controller/cronjob/utils_test.go TestNextScheduleTimeDuration/"
	for _, c := range []struct {
		name string
		cj   *kcronjob.CronJob
		now  time.Time
	}{
		{"complex schedule skipping weekend", mk("30 6-16/4 * * 1-5", top, tp(at(30*time.Minute)), nil), at(24*time.Hour + 31*time.Minute)},
		{"another complex schedule skipping weekend", mk("30 10,11,12 * * 1-5", top, tp(at(30*time.Minute)), nil), at(30*time.Hour + 30*time.Minute)},
		{"once a week cronjob, missed two runs", mk("0 12 * * 4", top, tp(at(2*time.Hour)), nil), at(19*24*time.Hour + 1*time.Hour + 30*time.Minute)},
		{"no previous run of a cronjob", mk("0 12 * * 5", top, nil, nil), at(6 * time.Hour)},
	} {
		ucj := difftest.UpCronJob(c.cj)
		sched, _ := upSchedule(ucj)
		d := upNextScheduleTimeDuration(ucj, c.now, sched)
		vs = append(vs, vec{Decision: "cronjob.RequeueAfter", Name: "requeue/" + c.name, Source: dsrc + c.name,
			Input: map[string]any{"cronJob": c.cj, "now": c.now}, Want: map[string]any{"requeueAfter": d.String()}})
	}
	// TestNextScheduleTime: hourly "0 * * * ?", T1 the top of the hour.
	const nsrc = "upstream:pkg/controller/cronjob/utils_test.go TestNextScheduleTime/"
	t1, t2 := top, at(time.Hour)
	twoHours := int64(2 * 60 * 60)
	for _, c := range []struct {
		name string
		cj   *kcronjob.CronJob
		now  time.Time
	}{
		{"case 1 no start times needed yet", mk("0 * * * ?", t1.Add(-10*time.Minute), nil, nil), t1.Add(-7 * time.Minute)},
		{"case 2 one needed", mk("0 * * * ?", t1.Add(-10*time.Minute), nil, nil), t1.Add(2 * time.Second)},
		{"case 3 known last, none needed", mk("0 * * * ?", t1.Add(-10*time.Minute), tp(t1), nil), t1.Add(2 * time.Minute)},
		{"case 4 known last, one needed", mk("0 * * * ?", t1.Add(-10*time.Minute), tp(t1), nil), t2.Add(5 * time.Minute)},
		{"case 5 two needed", mk("0 * * * ?", t1.Add(-2*time.Hour), tp(t1.Add(-time.Hour)), nil), t2.Add(5 * time.Minute)},
		{"case 6 way ahead, no deadline", mk("0 * * * ?", t1.Add(-2*time.Hour), tp(t1.Add(-time.Hour)), nil), t2.Add(10 * 24 * time.Hour)},
		{"case 7 way ahead, short deadline", mk("0 * * * ?", t1.Add(-2*time.Hour), tp(t1.Add(-time.Hour)), &twoHours), t2.Add(10 * 24 * time.Hour)},
		{"case 8 rogue schedule errors", mk("59 23 31 2 *", t1.Add(10*time.Second), nil, nil), t2},
	} {
		ucj := difftest.UpCronJob(c.cj)
		sched, _ := upSchedule(ucj)
		_, recent, missed, err := upMostRecentScheduleTime(ucj, c.now, sched, true)
		v := vec{Decision: "cronjob.ScheduledTime", Name: "scheduled/" + c.name, Source: nsrc + c.name,
			Input: map[string]any{"cronJob": c.cj, "now": c.now}}
		if err != nil {
			v.WantError = map[string]any{"field": "cronJob.spec.schedule", "kind": "Invalid"}
		} else {
			var r time.Time
			if recent != nil && !recent.After(c.now) {
				r = *recent
			}
			v.Want = map[string]any{"scheduledTime": nullTime(r), "missed": missedNames[missed]}
		}
		vs = append(vs, v)
	}
	return vs
}

func jobsVectors(t *testing.T) []vec {
	var vs []vec
	top := rfc("2016-05-19T10:00:00Z")
	rome, utc := "Europe/Rome", "UTC"
	const tsrc = "upstream:pkg/controller/cronjob/utils_test.go TestGetJobFromTemplate2/"
	for _, c := range []struct {
		name string
		tz   *string
		ann  map[string]string
	}{
		{"UTC timezone and one annotation", &utc, map[string]string{"x": "y"}},
		{"nil timezone and one annotation", nil, map[string]string{"x": "y"}},
		{"correct timezone and multiple annotation", &rome, map[string]string{"x": "y", "z": "x"}},
	} {
		cj := &kcronjob.CronJob{}
		cj.Name, cj.Namespace, cj.UID = "mycronjob", "snazzycats", "1a2b3c"
		cj.Spec.Schedule = "* * * * ?"
		cj.Spec.TimeZone = c.tz
		cj.Spec.JobTemplate.Labels = map[string]string{"a": "b"}
		cj.Spec.JobTemplate.Annotations = c.ann
		loc := time.UTC
		if c.tz != nil {
			loc, _ = time.LoadLocation(*c.tz)
		}
		ann := map[string]string{}
		for k, v := range c.ann {
			ann[k] = v
		}
		ann[batchv1.CronJobScheduledTimestampAnnotation] = top.In(loc).Format(time.RFC3339)
		vs = append(vs, vec{Decision: "cronjob.JobFromTemplate", Name: "template/" + c.name, Source: tsrc + c.name,
			Input: map[string]any{"cronJob": cj, "scheduled": top},
			Want: map[string]any{"metadata": map[string]any{
				"name": "mycronjob-" + itoa(top.Unix()/60), "namespace": "snazzycats", "labels": map[string]string{"a": "b"},
				"annotations": ann, "creationTimestamp": top.Format(time.RFC3339),
				"ownerReferences": []map[string]any{{"apiVersion": "batch/v1", "kind": "CronJob", "name": "mycronjob", "uid": "1a2b3c", "controller": true}},
			}}})
	}
	// TestByJobStartTime.
	now, later := time.Date(2018, 1, 1, 2, 3, 4, 5, time.UTC), time.Date(2019, 1, 1, 2, 3, 4, 5, time.UTC)
	j := func(name string, start *time.Time) map[string]any {
		m := map[string]any{"metadata": map[string]any{"name": name}, "spec": map[string]any{"template": map[string]any{"metadata": map[string]any{}, "spec": map[string]any{}}}}
		if start != nil {
			m["status"] = map[string]any{"startTime": start}
		}
		return m
	}
	const bsrc = "upstream:pkg/controller/cronjob/utils_test.go TestByJobStartTime/"
	for _, c := range []struct {
		name     string
		in       []map[string]any
		expected []string
	}{
		{"both have nil start times", []map[string]any{j("b", nil), j("a", nil)}, []string{"a", "b"}},
		{"only the first has a nil start time", []map[string]any{j("a", nil), j("b", &now)}, []string{"b", "a"}},
		{"only the second has a nil start time", []map[string]any{j("a", &now), j("b", nil)}, []string{"a", "b"}},
		{"both have non-nil, equal start time", []map[string]any{j("b", &now), j("a", &now)}, []string{"a", "b"}},
		{"both have non-nil, different start time", []map[string]any{j("a", &later), j("b", &now)}, []string{"b", "a"}},
	} {
		vs = append(vs, vec{Decision: "cronjob.ByStartTime", Name: "sort/" + c.name, Source: bsrc + c.name,
			Input: map[string]any{"jobs": c.in}, Want: map[string]any{"names": c.expected}})
	}
	// Job names and the 52-character limit.
	vs = append(vs, vec{Decision: "cronjob.JobName", Name: "name/minutes since epoch", Source: "upstream:pkg/controller/cronjob/cronjob_controllerv2.go getJobName",
		Input: map[string]any{"name": "hello", "scheduled": rfc("2024-05-20T10:21:00Z")}, Want: map[string]any{"name": "hello-" + itoa(rfc("2024-05-20T10:21:00Z").Unix()/60)}})
	const nsrc = "seed:000 CronJob (000:L3396) 52-character name limit"
	for _, c := range []struct {
		name string
		n    int
		ok   bool
	}{{"validate/52-character name accepted", 52, true}, {"validate/53-character name rejected", 53, false}} {
		cj := map[string]any{"metadata": map[string]any{"name": strings.Repeat("a", c.n)}, "spec": map[string]any{"schedule": "*/1 * * * *", "jobTemplate": map[string]any{"metadata": map[string]any{}, "spec": map[string]any{"template": map[string]any{"metadata": map[string]any{}, "spec": map[string]any{}}}}}}
		v := vec{Decision: "cronjob.Validate", Name: c.name, Source: nsrc, Input: map[string]any{"cronJob": cj}}
		if c.ok {
			v.Want = map[string]any{"valid": true}
		} else {
			v.WantError = map[string]any{"field": "cronJob.metadata.name", "kind": "Invalid"}
		}
		vs = append(vs, v)
	}
	tzSpec := func(schedule string, tz *string) map[string]any {
		spec := map[string]any{"schedule": schedule, "jobTemplate": map[string]any{"metadata": map[string]any{}, "spec": map[string]any{"template": map[string]any{"metadata": map[string]any{}, "spec": map[string]any{}}}}}
		if tz != nil {
			spec["timeZone"] = *tz
		}
		return map[string]any{"metadata": map[string]any{"name": "cj"}, "spec": spec}
	}
	const vsrc = "upstream:pkg/apis/batch/validation/validation.go validateScheduleFormat"
	vs = append(vs,
		vec{Decision: "cronjob.Validate", Name: "validate/TZ= in schedule rejected on create", Source: vsrc, Input: map[string]any{"cronJob": tzSpec("TZ=UTC 0 * * * *", nil)}, WantError: map[string]any{"field": "cronJob.spec.schedule", "kind": "Invalid"}},
		vec{Decision: "cronjob.Validate", Name: "validate/TZ= kept on update of a TZ schedule", Source: vsrc, Input: map[string]any{"cronJob": tzSpec("TZ=UTC 0 1 * * *", nil), "old": tzSpec("TZ=UTC 0 * * * *", nil)}, Want: map[string]any{"valid": true}},
		vec{Decision: "cronjob.Validate", Name: "validate/TZ= and timeZone rejected on update", Source: vsrc, Input: map[string]any{"cronJob": tzSpec("TZ=UTC 0 1 * * *", &utc), "old": tzSpec("TZ=UTC 0 * * * *", nil)}, WantError: map[string]any{"field": "cronJob.spec.schedule", "kind": "Invalid"}},
		vec{Decision: "cronjob.Validate", Name: "validate/timeZone Local rejected", Source: "upstream:pkg/apis/batch/validation/validation.go validateTimeZone", Input: map[string]any{"cronJob": tzSpec("0 * * * *", difftest.Ptr("Local"))}, WantError: map[string]any{"field": "cronJob.spec.timeZone", "kind": "Invalid"}},
		vec{Decision: "cronjob.Validate", Name: "validate/timeZone America/New_York accepted", Source: "upstream:pkg/apis/batch/validation/validation.go validateTimeZone", Input: map[string]any{"cronJob": tzSpec("0 * * * *", &rome)}, Want: map[string]any{"valid": true}},
	)
	return vs
}
