package job_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
	_ "unsafe" // go:linkname

	batch "k8s.io/api/batch/v1"
	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	utilfeature "k8s.io/apiserver/pkg/util/feature"
	featuregatetesting "k8s.io/component-base/featuregate/testing"
	"k8s.io/klog/v2"
	batchv1defaults "k8s.io/kubernetes/pkg/apis/batch/v1"
	"k8s.io/kubernetes/pkg/controller"
	jobcontroller "k8s.io/kubernetes/pkg/controller/job"
	jobutil "k8s.io/kubernetes/pkg/controller/job/util"
	"k8s.io/kubernetes/pkg/features"

	"github.com/kubesem/kubesem"
	"github.com/kubesem/kubesem/conformance"
	"github.com/kubesem/kubesem/conformance/upstream/internal/difftest"
	"github.com/kubesem/kubesem/job"
	"github.com/kubesem/kubesem/podstatus"
)

//go:linkname upManagedByExternal k8s.io/kubernetes/pkg/controller/job.managedByExternalController
func upManagedByExternal(*batch.Job) *string

// vectorInput is a job.Step vector's input, decoded into upstream types.
type vectorInput struct {
	Job     batch.Job `json:"job"`
	Pods    []*v1.Pod `json:"pods"`
	Now     time.Time `json:"now"`
	Backoff *struct {
		FailuresAfterLastSuccess int32      `json:"failuresAfterLastSuccess"`
		LastFailureTime          *time.Time `json:"lastFailureTime"`
	} `json:"memory"`
}

// vectorOptions is a job.Step vector's options (testdata/job/README.md).
type vectorOptions struct {
	BackoffCap             string `json:"backoffCap"`
	BackoffBase            string `json:"backoffBase"`
	KeepStartTimeOnSuspend bool   `json:"keepStartTimeOnSuspend"`
}

// configureUpstream sets upstream up as a vector's options describe it,
// for the rest of the (sub)test: backoffCap and backoffBase are upstream's
// MaxJobPodFailureBackOff and DefaultJobPodFailureBackOff (variables its
// own tests set), keepStartTimeOnSuspend is the
// MutableSchedulingDirectivesForSuspendedJobs gate turned off.
func configureUpstream(t *testing.T, raw json.RawMessage) {
	if len(raw) == 0 {
		return
	}
	var o vectorOptions
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&o); err != nil {
		t.Fatalf("options: %v", err)
	}
	set := func(v *time.Duration, s string) {
		if s == "" {
			return
		}
		d, err := time.ParseDuration(s)
		if err != nil {
			t.Fatalf("options: %v", err)
		}
		old := *v
		*v = d
		t.Cleanup(func() { *v = old })
	}
	set(&jobcontroller.MaxJobPodFailureBackOff, o.BackoffCap)
	set(&jobcontroller.DefaultJobPodFailureBackOff, o.BackoffBase)
	if o.KeepStartTimeOnSuspend {
		featuregatetesting.SetFeatureGateDuringTest(t, utilfeature.DefaultFeatureGate, features.MutableSchedulingDirectivesForSuspendedJobs, false)
	}
}

// planKeys returns the top-level keys of job.Plan's JSON, in order.
func planKeys(t *testing.T) []string {
	b, err := json.Marshal(job.Plan{})
	if err != nil {
		t.Fatal(err)
	}
	kv, err := orderedObject(b)
	if err != nil {
		t.Fatal(err)
	}
	var keys []string
	for _, e := range kv {
		keys = append(keys, e.key)
	}
	return keys
}

// TestJobStepVectorsUpstream replays every job.Step vector with a want
// through one upstream v1.36.3 syncJob (default feature gates, or the
// vector's options set as configureUpstream says) and matches the want,
// which must state every key of job.Plan, against what upstream did
// (planFromUpstream). Lists whose order upstream leaves open (its
// deletions and finalizer patches run concurrently) are rendered in the
// order planFromUpstream documents.
func TestJobStepVectorsUpstream(t *testing.T) {
	vs, err := conformance.Load(kubesem.Vectors())
	if err != nil {
		t.Fatal(err)
	}
	keys := planKeys(t)
	n := 0
	for _, v := range vs {
		if v.Decision != "job.Step" || v.Want == nil {
			continue
		}
		n++
		t.Run(v.Name, func(t *testing.T) {
			configureUpstream(t, v.Options)
			var in vectorInput
			if err := json.Unmarshal(v.Input, &in); err != nil {
				t.Fatalf("input: %v", err)
			}
			var want map[string]any
			if err := json.Unmarshal(v.Want, &want); err != nil {
				t.Fatal(err)
			}
			for _, k := range keys {
				if _, ok := want[k]; !ok {
					t.Errorf("want does not state %q (KUBESEM_WRITE_VECTORS=1 go test -run TestJobStepVectorsWrite fills it from upstream)", k)
				}
			}
			got, res := replayUpstreamRes(t, &in)
			if err := vectorWrites(v.Input, v.Options, res); err != nil {
				t.Errorf("%s: %v", v.Source, err)
			}
			wb, _ := json.Marshal(want)
			gb, _ := json.Marshal(got)
			if ok, why := conformance.Match(wb, gb); !ok {
				t.Errorf("%s: upstream differs: %s\nupstream: %s", v.Source, why, gb)
			}
		})
	}
	if n == 0 {
		t.Fatal("no job.Step vectors")
	}
	t.Logf("%d job.Step vectors replayed against upstream", n)
}

// replayUpstream runs one upstream syncJob on the vector's state and
// renders what it did as a job.Plan (planFromUpstream).
func replayUpstream(t *testing.T, in *vectorInput) map[string]any {
	t.Helper()
	out, _ := replayUpstreamRes(t, in)
	return out
}

// replayUpstreamRes is replayUpstream also returning what upstream
// did.
func replayUpstreamRes(t *testing.T, in *vectorInput) (map[string]any, syncResult) {
	t.Helper()
	j := in.Job.DeepCopy()
	batchv1defaults.SetObjectDefaults_Job(j)
	if j.Namespace == "" {
		j.Namespace = "default"
	}
	if j.UID == "" {
		j.UID = types.UID(j.Name + "-uid")
	}
	j.Spec.Selector = &metav1.LabelSelector{MatchLabels: map[string]string{"job-vector": j.Name}}
	j.Spec.Template.Labels = map[string]string{"job-vector": j.Name}
	var pods []*v1.Pod
	for _, p := range in.Pods {
		p = p.DeepCopy()
		if p.Namespace == "" {
			p.Namespace = j.Namespace
		}
		p.Labels = map[string]string{"job-vector": j.Name}
		p.OwnerReferences = []metav1.OwnerReference{*metav1.NewControllerRef(j, batch.SchemeGroupVersion.WithKind("Job"))}
		pods = append(pods, p)
	}
	sync := syncInput{job: j, pods: pods, now: in.Now}
	if b := in.Backoff; b != nil {
		sync.backoff = &backoffRecord{failuresAfterLastSuccess: b.FailuresAfterLastSuccess, lastFailureTime: b.LastFailureTime}
	}
	res := syncUpstream(t, sync)
	if res.err != nil {
		t.Errorf("upstream syncJob: %v", res.err)
	}
	out, err := planFromUpstream(j, pods, res)
	if err != nil {
		t.Error(err)
	}
	return out, res
}

// vectorWrites runs job.Step on a vector's input and options and checks
// its Plan's Writes and Events against what upstream did on the same input
// (compareWrites), with the job's namespace and UID defaulted as
// replayUpstream defaults them for upstream.
func vectorWrites(input, options json.RawMessage, res syncResult) error {
	var in struct {
		Job     job.Job            `json:"job"`
		Pods    []*podstatus.Pod   `json:"pods"`
		Now     time.Time          `json:"now"`
		Backoff *job.BackoffRecord `json:"memory"`
	}
	if err := json.Unmarshal(input, &in); err != nil {
		return err
	}
	var opts job.Options
	if len(options) > 0 {
		var o vectorOptions
		if err := json.Unmarshal(options, &o); err != nil {
			return err
		}
		opts.KeepStartTimeOnSuspend = o.KeepStartTimeOnSuspend
		for _, d := range []struct {
			to *time.Duration
			s  string
		}{{&opts.BackoffCap, o.BackoffCap}, {&opts.BackoffBase, o.BackoffBase}} {
			if d.s != "" {
				x, err := time.ParseDuration(d.s)
				if err != nil {
					return err
				}
				*d.to = x
			}
		}
	}
	var prev job.BackoffRecord
	if in.Backoff != nil {
		prev = *in.Backoff
	}
	p, err := job.Step(&in.Job, in.Pods, prev, in.Now, opts)
	if err != nil {
		return fmt.Errorf("Step: %v", err)
	}
	kj := in.Job
	if kj.Namespace == "" {
		kj.Namespace = "default"
	}
	if kj.UID == "" {
		kj.UID = kj.Name + "-uid"
	}
	return compareWrites(&kj, in.Pods, p, res, true)
}

// planFromUpstream renders one upstream sync as a job.Plan's JSON, every
// key from what upstream did or from upstream's own predicates:
//
//   - outcome: ManagedExternally when upstream's managedByExternalController
//     names another controller, AlreadyFinished when util.IsJobFinished
//     holds (upstream then stops; it must have made no call and, finished,
//     dropped its backoff record), Synced otherwise;
//   - create: the pods created (count, reason TooFewActive when any: manageJob
//     creates only to reach the wanted active count), Indexed pods by index;
//   - delete: the pods deleted, each with the reason of the upstream path that
//     deleted it: JobFinishing when deleteActivePods did (a terminal
//     condition), JobSuspended when manageJob did for a suspended job,
//     otherwise InvalidIndex or DuplicateIndex for the pods upstream's
//     appendDuplicatedIndexPodsForRemoval picks (no index or one at or past
//     completions; a repeated index), TooManyActive for the rest. Order: the
//     active pods by name, then UID for JobFinishing; for manageJob, the
//     order upstream's activePodsForRemoval gives those pods listed by name,
//     then UID;
//   - removeFinalizers: the UIDs of the pods patched by
//     removeTrackingFinalizerFromPods, by completion index (Indexed jobs),
//     then name; podPatches: every finalizer patch upstream sent;
//   - status, updateStatus: the last status upstream wrote, and whether it
//     wrote one (the job's status when not);
//   - requeue: each AddAfter on the work queue, in order: ActiveDeadline when
//     syncJob itself queued it, IndexFailureBackoff or PodFailureBackoff when
//     manageJob did (by upstream's hasBackoffLimitPerIndex);
//   - flushStatus: the status upstream's flushUncountedAndRemoveFinalizers
//     wrote before removing finalizers (null when it wrote none); a status
//     write other than that one (first) and a final one is an error;
//   - events: the events the fake recorder got, as eventsFromUpstream
//     renders them;
//   - memory: upstream's backoff record for the job after the sync (zero
//     when it holds none).
//
// A call that none of these accounts for is an error.
func planFromUpstream(j *batch.Job, pods []*v1.Pod, res syncResult) (map[string]any, error) {
	var errs []string
	bad := func(format string, args ...any) { errs = append(errs, fmt.Sprintf(format, args...)) }
	byName := map[string]*v1.Pod{}
	for _, p := range pods {
		byName[p.Name] = p
	}
	sorted := slices.Clone(pods)
	slices.SortFunc(sorted, func(a, b *v1.Pod) int {
		return cmpOr(strings.Compare(a.Name, b.Name), strings.Compare(string(a.UID), string(b.UID)))
	})

	outcome := string(job.ReasonSynced)
	switch {
	case upManagedByExternal(j) != nil:
		outcome = string(job.ReasonManagedExternally)
	case jobutil.IsJobFinished(j):
		outcome = string(job.ReasonAlreadyFinished)
		if res.backoff != nil {
			bad("outcome %s: upstream kept a backoff record", outcome)
		}
	}
	if outcome != string(job.ReasonSynced) && (len(res.creations)+len(res.deleted)+len(res.patched)+len(res.queued)+len(res.events) > 0 || res.updated) {
		bad("outcome %s: upstream acted (%d creations, %d deletions, %d patches, %d requeues, status written %v)",
			outcome, len(res.creations), len(res.deleted), len(res.patched), len(res.queued), res.updated)
	}

	create := map[string]any{"count": len(res.creations)}
	if len(res.creations) > 0 {
		create["reason"] = string(job.ReasonTooFewActive)
	}
	var objects []map[string]any
	for _, tpl := range res.creations {
		ix, ok := tpl.Annotations[batch.JobCompletionIndexAnnotation]
		if !ok {
			continue
		}
		m := map[string]any{"generateName": tpl.GenerateName, "hostname": tpl.Spec.Hostname}
		m["index"], _ = strconv.Atoi(ix)
		for k, a := range map[string]string{"indexFailureCount": batch.JobIndexFailureCountAnnotation, "indexIgnoredFailureCount": batch.JobIndexIgnoredFailureCountAnnotation} {
			if v, ok := tpl.Annotations[a]; ok {
				m[k], _ = strconv.Atoi(v)
			}
		}
		objects = append(objects, m)
	}
	slices.SortFunc(objects, func(a, b map[string]any) int { return a["index"].(int) - b["index"].(int) })
	if len(objects) > 0 {
		create["objects"] = objects
	}

	active := controller.FilterActivePods(klog.Background(), sorted)
	deleted := map[string]call{}
	for _, d := range res.deleted {
		deleted[d.name] = d
	}
	finishing := slices.Clone(active)
	managed := upActivePodsForRemoval(j, slices.Clone(active), len(active))
	invalid := map[string]bool{}
	if upIsIndexed(j) {
		rm, _ := upDuplicatedIndexPods(nil, nil, slices.Clone(active), int(*j.Spec.Completions))
		for _, p := range rm {
			invalid[p.Name] = true
		}
	}
	del := []map[string]any{}
	for _, path := range []struct {
		fn    string
		order []*v1.Pod
	}{{"deleteActivePods", finishing}, {"deleteJobPods", managed}} {
		for _, p := range path.order {
			d, ok := deleted[p.Name]
			if !ok || !d.issuedBy(path.fn) {
				continue
			}
			delete(deleted, p.Name)
			reason := job.ReasonFinishing
			if path.fn == "deleteJobPods" {
				switch ix := upCompletionIndex(p.Annotations); {
				case j.Spec.Suspend != nil && *j.Spec.Suspend:
					reason = job.ReasonSuspended
				case invalid[p.Name] && (ix < 0 || ix >= int(*j.Spec.Completions)):
					reason = job.ReasonInvalidIndex
				case invalid[p.Name]:
					reason = job.ReasonDuplicateIndex
				default:
					reason = job.ReasonTooManyActive
				}
			}
			del = append(del, map[string]any{"name": p.Name, "uid": string(p.UID), "reason": string(reason)})
		}
	}
	for name, d := range deleted {
		bad("deletion of %s by %v: no path accounts for it", name, d.by)
	}

	var released []*v1.Pod
	for _, c := range res.patched {
		switch {
		case c.issuedBy("removeTrackingFinalizerFromPods"):
			if p := byName[c.name]; p != nil {
				released = append(released, p)
			} else {
				bad("finalizer patch of unknown pod %s", c.name)
			}
		case c.issuedBy("deleteJobPods"):
		default:
			bad("patch of %s by %v: no path accounts for it", c.name, c.by)
		}
	}
	indexed := upIsIndexed(j)
	slices.SortFunc(released, func(a, b *v1.Pod) int {
		if indexed {
			if c := upCompletionIndex(a.Annotations) - upCompletionIndex(b.Annotations); c != 0 {
				return c
			}
		}
		return cmpOr(strings.Compare(a.Name, b.Name), strings.Compare(string(a.UID), string(b.UID)))
	})
	rmFin := []string{}
	for _, p := range released {
		rmFin = append(rmFin, string(p.UID))
	}

	requeue := []map[string]any{}
	for _, c := range res.queued {
		var reason job.Reason
		switch {
		case c.verb != "AddAfter":
			bad("work queue %s by %v: no path accounts for it", c.verb, c.by)
		case c.issuedBy("manageJob") && upHasBackoffLimitPerIndex(j):
			reason = job.ReasonIndexFailureBackoff
		case c.issuedBy("manageJob"):
			reason = job.ReasonPodFailureBackoff
		case len(c.by) > 0 && c.by[0] == "syncJob":
			reason = job.ReasonActiveDeadline
		default:
			bad("work queue AddAfter by %v: no path accounts for it", c.by)
		}
		requeue = append(requeue, map[string]any{"after": c.after.String(), "reason": string(reason)})
	}

	backoff := map[string]any{"failuresAfterLastSuccess": 0, "lastFailureTime": nil}
	if r := res.backoff; r != nil {
		backoff["failuresAfterLastSuccess"] = r.failuresAfterLastSuccess
		if r.lastFailureTime != nil {
			backoff["lastFailureTime"] = r.lastFailureTime.UTC().Format(time.RFC3339Nano)
		}
	}

	var flush any
	if n := len(res.flushes); n > 2 || (n == 2 && (!res.flushes[0] || res.flushes[1])) {
		bad("%d status writes, made before finalizer removal: %v; want at most that one, first, and a final one", n, res.flushes)
	}
	if len(res.flushes) > 0 && res.flushes[0] {
		flush = statusOut(uncountedInPodOrder(res.statuses[0], j.Status, sorted, upIsIndexed(j)))
	}

	events, err := eventsFromUpstream(res.events, del)
	if err != nil {
		bad("%v", err)
	}

	out := map[string]any{
		"outcome":          outcome,
		"create":           create,
		"delete":           del,
		"removeFinalizers": rmFin,
		"podPatches":       len(res.patched),
		"flushStatus":      flush,
		"status":           statusOut(uncountedInPodOrder(res.status, j.Status, sorted, upIsIndexed(j))),
		"updateStatus":     res.updated,
		"events":           events,
		"requeue":          requeue,
		"memory":           backoff,
	}
	if len(errs) > 0 {
		return out, fmt.Errorf("upstream sync not rendered: %s", strings.Join(errs, "; "))
	}
	return out, nil
}

// uncountedInPodOrder returns st with the UIDs its
// uncountedTerminatedPods gained over the job's status before the sync
// (before) put in kubesem's pod order: sorted (by name, then UID), and by
// completion index first for an Indexed job. Upstream appends them in its
// informer's order, which is arbitrary; the UIDs already listed before the
// sync keep their place, first.
func uncountedInPodOrder(st batch.JobStatus, before batch.JobStatus, sorted []*v1.Pod, indexed bool) batch.JobStatus {
	u := st.UncountedTerminatedPods
	if u == nil {
		return st
	}
	order := slices.Clone(sorted)
	if indexed {
		slices.SortStableFunc(order, func(a, b *v1.Pod) int {
			return upCompletionIndex(a.Annotations) - upCompletionIndex(b.Annotations)
		})
	}
	rank := map[types.UID]int{}
	for i, p := range order {
		if _, ok := rank[p.UID]; !ok {
			rank[p.UID] = i
		}
	}
	old := map[types.UID]bool{}
	if b := before.UncountedTerminatedPods; b != nil {
		for _, x := range append(slices.Clone(b.Succeeded), b.Failed...) {
			old[x] = true
		}
	}
	key := func(x types.UID) int {
		if old[x] {
			return -1
		}
		return rank[x]
	}
	sortNew := func(l []types.UID) []types.UID {
		l = slices.Clone(l)
		slices.SortStableFunc(l, func(a, b types.UID) int { return key(a) - key(b) })
		return l
	}
	out := st
	out.UncountedTerminatedPods = &batch.UncountedTerminatedPods{Succeeded: sortNew(u.Succeeded), Failed: sortNew(u.Failed)}
	return out
}

func cmpOr(cs ...int) int {
	for _, c := range cs {
		if c != 0 {
			return c
		}
	}
	return 0
}

// statusOut renders an upstream Job status as job.Status's JSON: absent
// optional fields are null.
func statusOut(s batch.JobStatus) map[string]any {
	tm := func(t *metav1.Time) any {
		if t == nil || t.IsZero() {
			return nil
		}
		return t.UTC().Format(time.RFC3339Nano)
	}
	str := func(s string) any {
		if s == "" {
			return nil
		}
		return s
	}
	conds := []map[string]any{}
	for _, c := range s.Conditions {
		conds = append(conds, map[string]any{"type": string(c.Type), "status": string(c.Status), "reason": str(c.Reason),
			"message": str(c.Message), "lastTransitionTime": tm(&c.LastTransitionTime), "lastProbeTime": tm(&c.LastProbeTime)})
	}
	var unc any
	if u := s.UncountedTerminatedPods; u != nil {
		m := map[string][]string{"succeeded": {}, "failed": {}}
		for _, x := range u.Succeeded {
			m["succeeded"] = append(m["succeeded"], string(x))
		}
		for _, x := range u.Failed {
			m["failed"] = append(m["failed"], string(x))
		}
		unc = m
	}
	out := map[string]any{"conditions": conds, "startTime": tm(s.StartTime), "completionTime": tm(s.CompletionTime),
		"active": s.Active, "succeeded": s.Succeeded, "failed": s.Failed, "completedIndexes": s.CompletedIndexes,
		"uncountedTerminatedPods": unc, "ready": nil, "terminating": nil, "failedIndexes": nil}
	if s.Ready != nil {
		out["ready"] = *s.Ready
	}
	if s.Terminating != nil {
		out["terminating"] = *s.Terminating
	}
	if s.FailedIndexes != nil {
		out["failedIndexes"] = *s.FailedIndexes
	}
	return out
}

// planRenamed maps the keys job.Plan once had to the ones it has now.
var planRenamed = map[string]string{"backoff": "memory"}

// TestJobStepVectorsWrite fills, with KUBESEM_WRITE_VECTORS=1, the keys of
// job.Plan that a job.Step vector's want leaves out, from upstream's sync
// as TestJobStepVectorsUpstream renders it (planFromUpstream), and
// rewrites testdata/job/*.json in place: keys a want states are kept as
// written (TestJobStepVectorsUpstream checks them), a key job.Plan renamed
// (planRenamed) is moved to its new name with its value, the want's keys
// are put in job.Plan's order. Nothing else in the files changes.
func TestJobStepVectorsWrite(t *testing.T) {
	if os.Getenv("KUBESEM_WRITE_VECTORS") != "1" {
		t.Skip("set KUBESEM_WRITE_VECTORS=1 to rewrite testdata/job from upstream")
	}
	keys := planKeys(t)
	files, err := filepath.Glob(difftest.Repo("testdata/job/*.json"))
	if err != nil || len(files) == 0 {
		t.Fatalf("testdata/job: %v", err)
	}
	filled := 0
	for _, f := range files {
		raw, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var list []json.RawMessage
		if err := json.Unmarshal(raw, &list); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		changed := false
		for i, item := range list {
			kv, err := orderedObject(item)
			if err != nil {
				t.Fatalf("%s[%d]: %v", f, i, err)
			}
			var head struct {
				Decision string          `json:"decision"`
				Name     string          `json:"name"`
				Input    json.RawMessage `json:"input"`
				Options  json.RawMessage `json:"options"`
				Want     json.RawMessage `json:"want"`
			}
			if err := json.Unmarshal(item, &head); err != nil {
				t.Fatal(err)
			}
			if head.Decision != "job.Step" || head.Want == nil {
				continue
			}
			want, err := orderedObject(head.Want)
			if err != nil {
				t.Fatalf("%s: %s: want: %v", f, head.Name, err)
			}
			have := map[string]json.RawMessage{}
			for _, e := range want {
				have[e.key] = e.value
			}
			// Keys job.Plan renamed keep their stated value under the new
			// name (TestJobStepVectorsUpstream checks it).
			renamed := false
			for old, cur := range planRenamed {
				if v, ok := have[old]; ok {
					if _, ok := have[cur]; !ok {
						have[cur] = v
					}
					delete(have, old)
					want = slices.DeleteFunc(want, func(e keyValue) bool { return e.key == old })
					renamed = true
				}
			}
			var missing []string
			for _, k := range keys {
				if _, ok := have[k]; !ok {
					missing = append(missing, k)
				}
			}
			if len(missing) == 0 && !renamed {
				continue
			}
			var got map[string]any
			if len(missing) == 0 {
				got = map[string]any{}
			} else {
				t.Run(head.Name, func(t *testing.T) {
					configureUpstream(t, head.Options)
					var in vectorInput
					if err := json.Unmarshal(head.Input, &in); err != nil {
						t.Fatalf("input: %v", err)
					}
					got = replayUpstream(t, &in)
				})
			}
			if got == nil {
				continue
			}
			openDeleteEvents(have["delete"], got)
			var out []keyValue
			for _, k := range keys {
				v, ok := have[k]
				if !ok {
					if v, err = marshal(got[k]); err != nil {
						t.Fatal(err)
					}
					filled++
				}
				out = append(out, keyValue{k, v})
			}
			for _, e := range want { // keys job.Plan does not have stay, last
				if !slices.Contains(keys, e.key) {
					out = append(out, e)
				}
			}
			for k := range kv {
				if kv[k].key == "want" {
					kv[k].value = encodeObject(out)
				}
			}
			list[i] = encodeObject(kv)
			changed = true
		}
		if !changed {
			continue
		}
		var buf bytes.Buffer
		buf.WriteByte('[')
		for i, item := range list {
			if i > 0 {
				buf.WriteByte(',')
			}
			buf.Write(item)
		}
		buf.WriteByte(']')
		var compact, pretty bytes.Buffer
		if err := json.Compact(&compact, buf.Bytes()); err != nil {
			t.Fatal(err)
		}
		if err := json.Indent(&pretty, compact.Bytes(), "", " "); err != nil {
			t.Fatal(err)
		}
		pretty.WriteByte('\n')
		if err := os.WriteFile(f, pretty.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Logf("filled %d keys from upstream", filled)
}

// openDeleteEvents drops the object and message of the SuccessfulDelete
// events in got (upstream's Plan as planFromUpstream renders it) when
// the want's delete list (wantDelete) leaves the deleted pods open, that
// is, has an entry without a name: upstream picks among equally ranked
// pods in its informer's order, so the pods its events name vary from run
// to run.
func openDeleteEvents(wantDelete json.RawMessage, got map[string]any) {
	var del []map[string]any
	if json.Unmarshal(wantDelete, &del) != nil || !slices.ContainsFunc(del, func(d map[string]any) bool { return d["name"] == nil }) {
		return
	}
	events, _ := got["events"].([]map[string]any)
	for _, e := range events {
		if e["reason"] == string(job.ReasonSuccessfulDelete) {
			delete(e, "object")
			delete(e, "message")
		}
	}
}

type keyValue struct {
	key   string
	value json.RawMessage
}

// orderedObject reads a JSON object keeping its keys' order.
func orderedObject(raw []byte) ([]keyValue, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return nil, fmt.Errorf("not an object: %v", err)
	}
	var out []keyValue
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, err
		}
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, err
		}
		out = append(out, keyValue{tok.(string), v})
	}
	return out, nil
}

func encodeObject(kv []keyValue) json.RawMessage {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, e := range kv {
		if i > 0 {
			b.WriteByte(',')
		}
		k, _ := json.Marshal(e.key)
		b.Write(k)
		b.WriteByte(':')
		b.Write(e.value)
	}
	b.WriteByte('}')
	return b.Bytes()
}

func marshal(v any) (json.RawMessage, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSpace(b.Bytes()), nil
}
