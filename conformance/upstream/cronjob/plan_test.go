package cronjob_test

import (
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/robfig/cron/v3"
	batchv1 "k8s.io/api/batch/v1"

	"github.com/kubesem/kubesem/conformance"
	"github.com/kubesem/kubesem/conformance/upstream/internal/difftest"
	kcronjob "github.com/kubesem/kubesem/cronjob"
	"github.com/kubesem/kubesem/job"
)

// planKeys are the top-level keys of kubesem's cronjob.Plan encoding,
// in its order (scheduledTime only when a start time was acted on).
var planKeys = []string{"outcome", "create", "delete", "status", "updateStatus", "events", "requeue", "scheduledTime", "missed", "estimate", "missedCount"}

// recordingSchedule is upstream's schedule, remembering each call of Next:
// mostRecentScheduleTime asks for t1 = Next(earliest), t2 = Next(t1) and
// then steps from its estimate, so the third argument shows the estimate
// upstream computed.
type recordingSchedule struct {
	inner         cron.Schedule
	args, results []time.Time
}

func (r *recordingSchedule) Next(t time.Time) time.Time {
	x := r.inner.Next(t)
	r.args, r.results = append(r.args, t), append(r.results, x)
	return x
}

// upStepCount is how many start times upstream's schedule visits stepping
// Next from after up to until, stopping where a step does not go forward
// (robfig/cron's zero time included): kubesem's Plan.missedCount.
func upStepCount(s cron.Schedule, after, until time.Time) int64 {
	var n int64
	for prev := after; ; n++ {
		t := s.Next(prev)
		if t.IsZero() || !t.After(prev) || t.After(until) {
			return n
		}
		prev = t
	}
}

// planWant runs upstream v1.36.3's sync (cleanupFinishedJobs, then
// syncCronJob, on client-go fakes) on the inputs and states every key of
// kubesem's cronjob.Plan from what upstream shows:
//
//   - create, delete, status, updateStatus, events and requeue are the
//     fake client's create and delete actions (the deletes
//     cleanupFinishedJobs makes first), the CronJob's status after the
//     sync, the update flags the two return, the fake recorder's events
//     (type and reason) and the requeue syncCronJob returns (its reason is
//     the outcome);
//   - missed, estimate, missedCount and scheduledTime are those of
//     upstream's mostRecentScheduleTime with the starting deadline, as
//     nextScheduleTime calls it, when the sync gets that far: its class,
//     the estimate shown by the argument it steps from (t1 + (n − 2)·Δ),
//     the number of start times its schedule visits stepping from the
//     earliest time to now (0 when it errs or now is before the first),
//     and the start time it returns when not after now;
//   - outcome is read off those facts, first match: deletionTimestamp set:
//     Deleting; event UnknownTimeZone: UnknownTimeZone; spec.suspend:
//     Suspended; event UnparseableSchedule: UnparseableSchedule; event
//     InvalidSchedule: InvalidSchedule; no start time due: NotDue; event
//     MissSchedule: TooLate; a create the sync fails on: AlreadyExists; a
//     create: Created; event JobAlreadyActive: Forbidden; otherwise (a due
//     start time the sync leaves alone): AlreadyProcessed.
//
// With refuse (kubesem's Options.RefuseTooManyMissed, no upstream
// counterpart) a create with missed "many" becomes TooManyMissed: no
// create and no SuccessfulCreate event, the status as given, no update,
// and the requeue upstream's nextScheduleTimeDuration gives on the
// CronJob as given. It is derived for inputs without Jobs only.
func planWant(cj *kcronjob.CronJob, jobs []*job.Job, now time.Time, refuse bool) (map[string]any, error) {
	_, out := stepWant(cj, jobs, now)
	events := []any{}
	has := func(typ, reason string) bool {
		return slices.Contains(out.events, typ+" "+reason) || slices.ContainsFunc(out.events, func(e string) bool { return strings.HasPrefix(e, typ+" "+reason+" ") })
	}
	type event struct {
		Type   string `json:"type"`
		Reason string `json:"reason"`
	}
	for _, e := range out.events {
		f := strings.Fields(e)
		events = append(events, event{f[0], f[1]})
	}
	ucj := difftest.UpCronJob(cj)
	var rec *recordingSchedule
	var earliest time.Time
	var recent *time.Time
	missed := 0
	var recentErr error
	sched, parseErr := upSchedule(ucj)
	reached := cj.DeletionTimestamp == nil && !has("Warning", "UnknownTimeZone") &&
		(cj.Spec.Suspend == nil || !*cj.Spec.Suspend) && !has("Warning", "UnparseableSchedule")
	if reached {
		if parseErr != nil {
			return nil, fmt.Errorf("the sync went past a schedule upstream cannot parse: %v", parseErr)
		}
		rec = &recordingSchedule{inner: sched}
		earliest, recent, missed, recentErr = upMostRecentScheduleTime(ucj, now, rec, true)
	}
	due := recent != nil && !recent.After(now)
	created := len(out.created) > 0
	var outcome string
	switch {
	case cj.DeletionTimestamp != nil:
		outcome = "Deleting"
	case has("Warning", "UnknownTimeZone"):
		outcome = "UnknownTimeZone"
	case cj.Spec.Suspend != nil && *cj.Spec.Suspend:
		outcome = "Suspended"
	case has("Warning", "UnparseableSchedule"):
		outcome = "UnparseableSchedule"
	case has("Warning", "InvalidSchedule"):
		outcome = "InvalidSchedule"
	case !due:
		outcome = "NotDue"
	case has("Warning", "MissSchedule"):
		outcome = "TooLate"
	case created && out.err != nil:
		outcome = "AlreadyExists"
	case created:
		outcome = "Created"
	case has("Normal", "JobAlreadyActive"):
		outcome = "Forbidden"
	default:
		outcome = "AlreadyProcessed"
	}
	create := map[string]any{"count": len(out.created)}
	if created {
		create["objects"] = []any{map[string]any{"metadata": map[string]any{
			"name": out.created[0], "annotations": map[string]any{"batch.kubernetes.io/cronjob-scheduled-timestamp": out.createdAnn[0]},
		}}}
	}
	deletes := []any{}
	for _, name := range out.deleted {
		deletes = append(deletes, map[string]any{"name": name})
	}
	active := []any{}
	for _, r := range out.status.Active {
		active = append(active, map[string]any{"name": r.Name})
	}
	status := map[string]any{"active": active, "lastScheduleTime": nil, "lastSuccessfulTime": nil}
	if t := out.status.LastScheduleTime; t != nil {
		status["lastScheduleTime"] = t.UTC().Format(time.RFC3339Nano)
	}
	if t := out.status.LastSuccessfulTime; t != nil {
		status["lastSuccessfulTime"] = t.UTC().Format(time.RFC3339Nano)
	}
	requeue := []any{}
	if out.requeue != nil {
		requeue = append(requeue, map[string]any{"after": out.requeue.String(), "reason": outcome})
	}
	updateStatus := out.updateStatus
	if refuse && created && missed == 2 {
		if len(jobs) > 0 || len(cj.Status.Active) > 0 {
			return nil, fmt.Errorf("the refusal is derived for CronJobs without Jobs only")
		}
		outcome = "TooManyMissed"
		create = map[string]any{"count": 0}
		events = slices.DeleteFunc(events, func(e any) bool { return e == event{"Normal", "SuccessfulCreate"} })
		status = map[string]any{"active": []any{}, "lastScheduleTime": nil, "lastSuccessfulTime": nil}
		if t := cj.Status.LastScheduleTime; t != nil {
			status["lastScheduleTime"] = t.UTC().Format(time.RFC3339Nano)
		}
		if t := cj.Status.LastSuccessfulTime; t != nil {
			status["lastSuccessfulTime"] = t.UTC().Format(time.RFC3339Nano)
		}
		updateStatus = false
		d := upNextScheduleTimeDuration(difftest.UpCronJob(cj), now, sched)
		requeue = []any{map[string]any{"after": d.String(), "reason": outcome}}
	}
	want := map[string]any{
		"outcome": outcome, "create": create, "delete": deletes, "status": status, "updateStatus": updateStatus,
		"events": events, "requeue": requeue, "missed": "none", "estimate": 0, "missedCount": 0,
	}
	if reached && recentErr == nil {
		want["missed"] = []string{"none", "few", "many"}[missed]
		t1, t2 := rec.results[0], rec.results[1]
		if len(rec.args) >= 3 {
			delta := int64(t2.Sub(t1).Round(time.Second) / time.Second)
			steps := int64(rec.args[2].Sub(t1) / time.Second)
			if delta < 1 || steps%delta != 0 {
				return nil, fmt.Errorf("upstream stepped from %v, not t1 %v plus whole intervals of %ds", rec.args[2], t1, delta)
			}
			want["estimate"] = steps/delta + 2
		}
		if !now.Before(t1) {
			want["missedCount"] = upStepCount(sched, earliest, now)
		}
		if due && outcome != "NotDue" {
			want["scheduledTime"] = recent.UTC().Format(time.RFC3339Nano)
		}
	}
	return want, nil
}

// stepVector is a cronjob.Step vector as stored.
type stepVector struct {
	Decision  string          `json:"decision"`
	Name      string          `json:"name"`
	Source    string          `json:"source"`
	Options   json.RawMessage `json:"options,omitempty"`
	Input     json.RawMessage `json:"input"`
	Want      json.RawMessage `json:"want,omitempty"`
	WantError json.RawMessage `json:"wantError,omitempty"`
}

// stepFiles are the files holding cronjob.Step vectors.
var stepFiles = []string{"step.json", "zones_step.json", "eras.json"}

// readCronStepVectors reads one file of testdata/cronjob.
func readCronStepVectors(t *testing.T, file string) []stepVector {
	b, err := os.ReadFile(difftest.Repo("testdata", "cronjob", file))
	if err != nil {
		t.Fatal(err)
	}
	var vs []stepVector
	if err := json.Unmarshal(b, &vs); err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	return vs
}

// vectorWant is planWant for a stored vector.
func vectorWant(v stepVector) (map[string]any, error) {
	var in struct {
		CronJob kcronjob.CronJob `json:"cronJob"`
		Jobs    []*job.Job       `json:"jobs"`
		Now     time.Time        `json:"now"`
	}
	if err := json.Unmarshal(v.Input, &in); err != nil {
		return nil, err
	}
	var opts kcronjob.Options
	if len(v.Options) > 0 {
		dec := json.NewDecoder(strings.NewReader(string(v.Options)))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&opts); err != nil {
			return nil, err
		}
		if opts.LocalTimeZone != "" || opts.WallClockNext {
			return nil, fmt.Errorf("options %s: planWant states v1.36.3 (and the refusal) only", v.Options)
		}
	}
	return planWant(&in.CronJob, in.Jobs, in.Now, opts.RefuseTooManyMissed)
}

// TestCronJobStepVectorsUpstream: every key of every cronjob.Step vector's
// want is what upstream shows for its input (planWant), under the
// conformance matcher: the wants, filled or written by hand, are
// upstream's. Step's Plan.Writes and Events on the vector's input are
// also checked against upstream's requests and events (compareWrites).
//
// The vectors of testdata/cronjob/check-*.json (the decisions along a
// model-checker counterexample, written by kubesem check --vectors with
// want {}) are checked the same way, and kubesem's answer
// (conformance.Kubesem) must match their want. A want {} states nothing:
// it fails, save with KUBESEM_WRITE_VECTORS=1, which fills it in a
// check-*.json file with upstream's answer (planWant), never kubesem's.
func TestCronJobStepVectorsUpstream(t *testing.T) {
	write := os.Getenv(difftest.WriteVectorsEnv) == "1"
	files := slices.Clone(stepFiles)
	checks := map[string]bool{}
	for _, f := range difftest.CheckFiles(t, "cronjob") {
		files = append(files, filepath.Base(f))
		checks[filepath.Base(f)] = true
	}
	n, nc := 0, 0
	for _, file := range files {
		fills := map[string]map[string]any{} // vector → key → value
		for _, v := range readCronStepVectors(t, file) {
			if v.Decision != "cronjob.Step" || len(v.Want) == 0 {
				continue
			}
			empty := difftest.EmptyWant(v.Want)
			if empty && !(write && checks[file]) {
				t.Errorf("%s %q: want {} states nothing; fill it from upstream: KUBESEM_WRITE_VECTORS=1 go -C conformance/upstream test -run TestCronJobStepVectorsUpstream ./cronjob/", file, v.Name)
				continue
			}
			want, err := vectorWant(v)
			if err != nil {
				t.Errorf("%s %q: %v", file, v.Name, err)
				continue
			}
			up, err := json.Marshal(want)
			if err != nil {
				t.Fatal(err)
			}
			if empty {
				fills[v.Name] = want
				v.Want = up
			}
			if ok, why := conformance.Match(v.Want, up); !ok {
				t.Errorf("%s %q: the want is not upstream's: %s\n upstream %s", file, v.Name, why, up)
			}
			if err := compareWrites(v); err != nil {
				t.Errorf("%s %q: %v", file, v.Name, err)
			}
			if checks[file] {
				got, err := conformance.Kubesem().Decide(v.Decision, v.Options, v.Input)
				if err != nil {
					t.Errorf("%s %q: kubesem: %v", file, v.Name, err)
				} else if ok, why := conformance.Match(v.Want, got); !ok {
					t.Errorf("%s %q: kubesem differs from v1.36.3: %s\nwant:    %s\nkubesem: %s", file, v.Name, why, difftest.CompactJSON(v.Want), got)
				}
				nc++
			}
			n++
		}
		if len(fills) > 0 && !t.Failed() {
			difftest.WriteFills(t, difftest.Repo("testdata", "cronjob", file), "cronjob.Step", fills, planKeys, nil, "TestCronJobStepVectorsUpstream")
		}
	}
	t.Logf("%d cronjob.Step vectors replayed through upstream, %d of them from check-*.json", n, nc)
	if n-nc < 80 {
		t.Fatalf("%d vectors", n-nc)
	}
}

// TestFillCronJobStepWants adds to every cronjob.Step vector's want the
// Plan keys it leaves out, with upstream's values (planWant), when
// KUBESEM_FILL_CRONJOB_STEP=1; keys already there are kept (and checked by
// TestCronJobStepVectorsUpstream).
func TestFillCronJobStepWants(t *testing.T) {
	if os.Getenv("KUBESEM_FILL_CRONJOB_STEP") == "" {
		t.Skip("set KUBESEM_FILL_CRONJOB_STEP=1 to fill the cronjob.Step wants")
	}
	for _, file := range stepFiles {
		vs := readCronStepVectors(t, file)
		for i, v := range vs {
			if v.Decision != "cronjob.Step" || len(v.Want) == 0 {
				continue
			}
			want, err := vectorWant(v)
			if err != nil {
				t.Fatalf("%s %q: %v", file, v.Name, err)
			}
			var have map[string]json.RawMessage
			if err := json.Unmarshal(v.Want, &have); err != nil {
				t.Fatal(err)
			}
			for k, x := range want {
				if _, ok := have[k]; !ok {
					b, err := json.Marshal(x)
					if err != nil {
						t.Fatal(err)
					}
					have[k] = b
				}
			}
			vs[i].Want = orderedPlan(have)
		}
		writeCronVectors(t, file, vs)
	}
}

// orderedPlan encodes a want with the Plan's keys in the Plan's order.
func orderedPlan(keys map[string]json.RawMessage) json.RawMessage {
	var b strings.Builder
	b.WriteByte('{')
	first := true
	for _, k := range planKeys {
		x, ok := keys[k]
		if !ok {
			continue
		}
		if !first {
			b.WriteByte(',')
		}
		first = false
		kb, _ := json.Marshal(k)
		b.Write(kb)
		b.WriteByte(':')
		b.Write(x)
	}
	for k := range keys {
		if !slices.Contains(planKeys, k) {
			panic("want key " + k + " is not a Plan key")
		}
	}
	b.WriteByte('}')
	return json.RawMessage(b.String())
}

// writeCronVectors writes vectors to testdata/cronjob the way the
// generator does (one-space indentation, a final newline).
func writeCronVectors(t *testing.T, file string, vs any) {
	data, err := json.MarshalIndent(vs, "", " ")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(difftest.Repo("testdata", "cronjob", file), append(data, '\n'), 0o644); err != nil {
		t.Fatal(err)
	}
}

// compareWrites runs cronjob.Step on a stored vector's input and
// options and compares its Plan's Writes (verb, resource, subresource,
// name, a delete's propagation policy, in order) with the write requests
// upstream's sync sent to the fake clientset (upstreamSync.writes), and
// its Events (type and reason, in order) with the fake recorder's, and the
// Job it creates with the one upstream's create carried
// (compareCreated). A
// vector with Options.RefuseTooManyMissed (no upstream counterpart) is
// not compared.
func compareWrites(v stepVector) error {
	var in struct {
		CronJob kcronjob.CronJob `json:"cronJob"`
		Jobs    []*job.Job       `json:"jobs"`
		Now     time.Time        `json:"now"`
	}
	if err := json.Unmarshal(v.Input, &in); err != nil {
		return err
	}
	var opts kcronjob.Options
	if len(v.Options) > 0 {
		if err := json.Unmarshal(v.Options, &opts); err != nil {
			return err
		}
	}
	if opts.RefuseTooManyMissed {
		return nil
	}
	p, err := kcronjob.Step(&in.CronJob, in.Jobs, in.Now, opts)
	if err != nil {
		return fmt.Errorf("Step: %v", err)
	}
	got, err := writeKeys(p, &in.CronJob, in.Jobs)
	if err != nil {
		return err
	}
	_, out := stepWant(&in.CronJob, in.Jobs, in.Now)
	if !slices.Equal(got, out.writes) {
		return fmt.Errorf("Writes %q\nupstream sent %q", got, out.writes)
	}
	if err := compareCreated(p, out.jobs); err != nil {
		return err
	}
	var ge, ue []string
	for _, e := range p.Events {
		ge = append(ge, string(e.Type)+" "+string(e.Reason))
	}
	for _, e := range out.events {
		f := strings.Fields(e)
		ue = append(ue, f[0]+" "+f[1])
	}
	if !slices.Equal(ge, ue) {
		return fmt.Errorf("Events %q\nupstream recorded %q", ge, ue)
	}
	return nil
}

// writeKeys renders Plan.Writes(cj, jobs) as upstreamSync.writes
// renders upstream's requests.
func writeKeys(p kcronjob.Plan, cj *kcronjob.CronJob, jobs []*job.Job) ([]string, error) {
	ws, err := p.Writes(cj, jobs)
	if err != nil {
		return nil, fmt.Errorf("Writes: %v", err)
	}
	var out []string
	for _, w := range ws {
		r := w.Resource
		if w.Subresource != "" {
			r += "/" + w.Subresource
		}
		k := string(w.Verb) + " " + r + " " + w.Name
		if w.Verb == "delete" {
			k += " propagation=" + w.PropagationPolicy
		}
		out = append(out, k)
	}
	return out, nil
}

// compareCreated compares the Job Plan.Writes creates with the one
// upstream's create request carried: name, labels, annotations,
// creationTimestamp, the controller reference (apiVersion, kind, name,
// uid, controller, blockOwnerDeletion) and the spec's parallelism,
// completions and suspend. The namespace is not compared: upstream leaves
// it to the request's path, kubesem's Job carries the CronJob's.
func compareCreated(p kcronjob.Plan, up []*batchv1.Job) error {
	var got []*job.Job
	if j := p.Job(); j != nil {
		got = append(got, j)
	}
	if len(got) != len(up) {
		return fmt.Errorf("Writes creates %d Jobs, upstream %d", len(got), len(up))
	}
	for i, u := range up {
		g := got[i]
		eq := func(a, b *int32) bool { return (a == nil) == (b == nil) && (a == nil || *a == *b) }
		if g.Name != u.Name || !maps.Equal(g.Labels, u.Labels) && len(g.Labels)+len(u.Labels) > 0 ||
			!maps.Equal(g.Annotations, u.Annotations) || !g.CreationTimestamp.Equal(u.CreationTimestamp.Time) ||
			!eq(g.Spec.Parallelism, u.Spec.Parallelism) || !eq(g.Spec.Completions, u.Spec.Completions) ||
			(g.Spec.Suspend == nil) != (u.Spec.Suspend == nil) {
			return fmt.Errorf("created Job: Writes %+v %+v\nupstream %+v %+v", g.ObjectMeta, g.Spec, u.ObjectMeta, u.Spec)
		}
		if len(g.OwnerReferences) != 1 || len(u.OwnerReferences) != 1 {
			return fmt.Errorf("created Job owners: Writes %+v, upstream %+v", g.OwnerReferences, u.OwnerReferences)
		}
		go_, uo := g.OwnerReferences[0], u.OwnerReferences[0]
		if go_.APIVersion != uo.APIVersion || go_.Kind != uo.Kind || go_.Name != uo.Name || go_.UID != string(uo.UID) ||
			!go_.IsController() || uo.Controller == nil || !*uo.Controller ||
			go_.BlockOwnerDeletion == nil || uo.BlockOwnerDeletion == nil || *go_.BlockOwnerDeletion != *uo.BlockOwnerDeletion {
			return fmt.Errorf("created Job owner: Writes %+v, upstream %+v", go_, uo)
		}
	}
	return nil
}
