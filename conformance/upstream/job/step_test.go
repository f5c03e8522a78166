package job_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"
	"unsafe"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	batch "k8s.io/api/batch/v1"
	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	jobcontroller "k8s.io/kubernetes/pkg/controller/job"
	"pgregory.net/rapid"

	"github.com/kubesem/kubesem/conformance"
	"github.com/kubesem/kubesem/field"
	"github.com/kubesem/kubesem/job"
	"github.com/kubesem/kubesem/k8s"
	"github.com/kubesem/kubesem/meta"
	"github.com/kubesem/kubesem/podstatus"
)

// setField sets an unexported field of the upstream controller, as the
// upstream unit tests do from inside the package.
func setField(c *jobcontroller.Controller, name string, v any) {
	f := reflect.ValueOf(c).Elem().FieldByName(name)
	reflect.NewAt(f.Type(), unsafe.Pointer(f.UnsafeAddr())).Elem().Set(reflect.ValueOf(v))
}

func getField(c *jobcontroller.Controller, name string) reflect.Value {
	f := reflect.ValueOf(c).Elem().FieldByName(name)
	return reflect.NewAt(f.Type(), unsafe.Pointer(f.UnsafeAddr())).Elem()
}

// genStepState draws a job and its pods for a Step differential.
func genStepState(t *rapid.T, now time.Time) (*job.Job, []*podstatus.Pod) {
	j := drawJob(t)
	j.Spec.Template.Spec.RestartPolicy = podstatus.RestartNever
	j.Spec.BackoffLimit = ptr(wide32(t, "stepBackoffLimit", 0, 8))
	if j.Spec.CompletionMode == nil && j.Spec.Completions != nil && rapid.IntRange(0, 9).Draw(t, "wideCompletions") == 0 {
		j.Spec.Completions = ptr(rapid.SampledFrom([]int32{math.MaxInt32 - 1, math.MaxInt32}).Draw(t, "completionsWide"))
	}
	if rapid.IntRange(0, 4).Draw(t, "suspend") == 0 {
		j.Spec.Suspend = ptr(true)
	}
	if rapid.IntRange(0, 3).Draw(t, "ads") == 0 {
		j.Spec.ActiveDeadlineSeconds = ptr(int64(rapid.IntRange(1, 60).Draw(t, "adsS")))
		if rapid.IntRange(0, 4).Draw(t, "adsWide") == 0 {
			// Beyond time.Duration's range in seconds: 1s * s wraps.
			j.Spec.ActiveDeadlineSeconds = ptr(rapid.SampledFrom([]int64{9223372036, 9223372037, 18446744073, math.MaxInt64}).Draw(t, "adsWideS"))
		}
	}
	if j.Spec.CompletionMode != nil && rapid.IntRange(0, 2).Draw(t, "perIndex") == 0 {
		j.Spec.BackoffLimitPerIndex = ptr(int32(rapid.IntRange(0, 2).Draw(t, "bli")))
		if rapid.Bool().Draw(t, "mfi") {
			j.Spec.MaxFailedIndexes = ptr(int32(rapid.IntRange(0, 2).Draw(t, "mfiN")))
		}
	}
	if j.Spec.CompletionMode != nil && rapid.IntRange(0, 3).Draw(t, "sp") == 0 {
		j.Spec.SuccessPolicy = &job.SuccessPolicy{Rules: []job.SuccessPolicyRule{{SucceededIndexes: ptr(rapid.SampledFrom([]string{"0", "0-1", "1,3"}).Draw(t, "spIdx"))}}}
	}
	if rapid.IntRange(0, 5).Draw(t, "pfpFail") == 0 {
		if j.Spec.PodFailurePolicy == nil {
			j.Spec.PodFailurePolicy = &job.PodFailurePolicy{}
		}
		j.Spec.PodFailurePolicy.Rules = append(j.Spec.PodFailurePolicy.Rules, job.PodFailurePolicyRule{Action: job.ActionFailJob,
			OnExitCodes: &job.OnExitCodesRequirement{Operator: job.OpIn, Values: []int32{3}}})
		if j.Spec.CompletionMode != nil && j.Spec.BackoffLimitPerIndex != nil {
			j.Spec.PodFailurePolicy.Rules = append(j.Spec.PodFailurePolicy.Rules, job.PodFailurePolicyRule{Action: job.ActionFailIndex,
				OnExitCodes: &job.OnExitCodesRequirement{Operator: job.OpIn, Values: []int32{2}}})
		}
	}
	st := &j.Status
	if rapid.Bool().Draw(t, "started") {
		st.StartTime = ptr(now.Add(-time.Duration(rapid.IntRange(0, 90).Draw(t, "age")) * time.Second))
	}
	st.Failed = wide32(t, "failed", 0, 3)
	if j.Spec.CompletionMode == nil {
		st.Succeeded = wide32(t, "succeeded", 0, 3)
	} else {
		st.CompletedIndexes = rapid.SampledFrom([]string{"", "0", "1", "0-2", "1,3", "4"}).Draw(t, "ci")
		if j.Spec.BackoffLimitPerIndex != nil && rapid.Bool().Draw(t, "hasFI") {
			st.FailedIndexes = ptr(rapid.SampledFrom([]string{"", "2", "0,1"}).Draw(t, "fi"))
		}
	}
	if c := j.Spec.Completions; c != nil && *c > 0 && rapid.IntRange(0, 3).Draw(t, "reachCompletions") == 0 {
		// Every completion already counted: the active pods are deleted
		// (manageJob) and the job meets its completions in the same sync.
		if j.Spec.CompletionMode == nil {
			st.Succeeded = *c
		} else {
			st.CompletedIndexes = job.Indexes{{First: 0, Last: int(*c) - 1}}.String()
		}
	}
	st.Active = int32(rapid.IntRange(0, 3).Draw(t, "statusActive"))
	if rapid.Bool().Draw(t, "hasReady") {
		st.Ready = ptr(int32(rapid.IntRange(0, 2).Draw(t, "statusReady")))
	}
	if rapid.Bool().Draw(t, "hasTerm") {
		st.Terminating = ptr(int32(rapid.IntRange(0, 2).Draw(t, "statusTerm")))
	}
	switch rapid.IntRange(0, 9).Draw(t, "cond") {
	case 0:
		st.Conditions = []job.Condition{{Type: job.Suspended, Status: meta.ConditionTrue, Reason: "JobSuspended", Message: "Job suspended", LastTransitionTime: now.Add(-time.Minute)}}
	case 1:
		st.Conditions = []job.Condition{{Type: job.FailureTarget, Status: meta.ConditionTrue, Reason: "BackoffLimitExceeded", Message: "m", LastTransitionTime: now.Add(-time.Minute)}}
	case 2:
		st.Conditions = []job.Condition{{Type: job.SuccessCriteriaMet, Status: meta.ConditionTrue, Reason: "CompletionsReached", Message: "m", LastTransitionTime: now.Add(-time.Minute)}}
	}
	var pods []*podstatus.Pod
	for i := rapid.IntRange(0, 7).Draw(t, "pods"); i > 0; i-- {
		p := drawPod(t, i)
		p.CreationTimestamp = now.Add(-time.Duration(100+i) * time.Second)
		for k := range p.Status.Conditions {
			p.Status.Conditions[k].LastTransitionTime = now.Add(-time.Duration(10*i+k) * time.Second)
		}
		for k := range p.Status.ContainerStatuses {
			if tm := p.Status.ContainerStatuses[k].State.Terminated; tm != nil && !tm.FinishedAt.IsZero() {
				tm.FinishedAt = now.Add(-time.Duration(rapid.IntRange(0, 30).Draw(t, "ago")) * time.Second)
				if rapid.IntRange(0, 19).Draw(t, "finishFar") == 0 {
					tm.FinishedAt = rapid.SampledFrom([]time.Time{farPast, farFuture}).Draw(t, "finishFarAt")
				}
			}
		}
		p.OwnerReferences = []meta.OwnerReference{{APIVersion: "batch/v1", Kind: "Job", Name: j.Name, UID: j.UID, Controller: ptr(true)}}
		pods = append(pods, p)
	}
	if rapid.IntRange(0, 3).Draw(t, "uncounted") == 0 && len(pods) > 0 {
		st.UncountedTerminatedPods = &job.UncountedTerminatedPods{}
		for _, p := range pods {
			if p.Status.Phase == podstatus.Succeeded && rapid.Bool().Draw(t, "uncS") {
				st.UncountedTerminatedPods.Succeeded = append(st.UncountedTerminatedPods.Succeeded, p.UID)
			} else if p.Status.Phase == podstatus.Failed && rapid.Bool().Draw(t, "uncF") {
				st.UncountedTerminatedPods.Failed = append(st.UncountedTerminatedPods.Failed, p.UID)
			}
		}
	}
	return j, pods
}

func v1StepPod(p *podstatus.Pod, j *batch.Job) *v1.Pod {
	out := v1Pod(p)
	out.Labels = map[string]string{"job": j.Name}
	out.OwnerReferences = []metav1.OwnerReference{*metav1.NewControllerRef(j, batch.SchemeGroupVersion.WithKind("Job"))}
	return out
}

// runUpstreamRecover runs one upstream sync (syncUpstream) and
// returns the value of a panic in upstream's sync, if any.
func runUpstreamRecover(t *rapid.T, in syncInput) (syncResult, any) {
	return recoverSync(func() syncResult { return syncUpstream(t, in) })
}

// recoverSync runs sync and returns the value it panicked with when
// upstream's pods-finished metric is decremented; other panics go on.
func recoverSync(sync func() syncResult) (res syncResult, panicked any) {
	defer func() {
		if r := recover(); r != nil {
			if !strings.Contains(fmt.Sprint(r), "counter cannot decrease") {
				panic(r) // rapid's own failures, and anything unexpected
			}
			panicked = r
		}
	}()
	return sync(), nil
}

// TestJobStepDifferential compares Step with one upstream syncJob, given
// the controller's backoff record from a previous sync: the pods created
// (count, indexes, the pods the adapter builds), the written status
// (counters, index strings, conditions, times), and every other key of the
// Plan as planFromUpstream reads it from upstream (outcome, deletions and
// their reasons, released pods, finalizer patches, updateStatus, requeues,
// the backoff record after the sync). It logs how many states deleted a pod
// that the same sync released (the pod patched twice).
func TestJobStepDifferential(t *testing.T) {
	var states, twice atomic.Int64
	defer func() {
		t.Logf("%d states, %d with a pod deleted and released in the same sync", states.Load(), twice.Load())
	}()
	rapid.Check(t, func(t *rapid.T) {
		now := time.Date(2024, 1, 1, 0, 10, 0, 0, time.UTC)
		j, pods := genStepState(t, now)
		prev := genBackoff(t, now)
		if err := job.Validate(j, pods); err != nil {
			t.Skip("invalid", err)
		}
		uj := v1Job(j)
		uj.Spec.Selector = &metav1.LabelSelector{MatchLabels: map[string]string{"job": j.Name}}
		uj.Spec.Template.Labels = map[string]string{"job": j.Name}
		// Containers only shape the pods created (JOB_COMPLETION_INDEX);
		// the sync's decisions do not read them.
		for i := range rapid.IntRange(0, 2).Draw(t, "containers") {
			c := v1.Container{Name: "c" + strconv.Itoa(i), Image: "img"}
			if rapid.Bool().Draw(t, "presetIndexEnv") {
				c.Env = []v1.EnvVar{{Name: "JOB_COMPLETION_INDEX", Value: "x"}}
			}
			uj.Spec.Template.Spec.Containers = append(uj.Spec.Template.Spec.Containers, c)
		}
		if rapid.Bool().Draw(t, "initContainer") {
			uj.Spec.Template.Spec.InitContainers = []v1.Container{{Name: "init", Image: "img"}}
		}
		var up []*v1.Pod
		for _, p := range pods {
			up = append(up, v1StepPod(p, uj))
		}
		plan, err := job.Step(j, pods, prev, now, job.Options{})
		in := syncInput{job: uj, pods: up, now: now, backoff: &backoffRecord{failuresAfterLastSuccess: prev.FailuresAfterLastSuccess, lastFailureTime: prev.LastFailureTime}}
		res, panicked := runUpstreamRecover(t, in)
		if !compareSync(t, uj, up, j, pods, plan, err, res, panicked) {
			return
		}
		states.Add(1)
		released := map[string]bool{}
		for _, u := range plan.RemoveFinalizers {
			released[u] = true
		}
		for _, d := range plan.Delete {
			if released[d.UID] && d.Reason != job.ReasonFinishing {
				twice.Add(1)
				break
			}
		}
	})
}

// compareSync compares Step's answer (plan, err) for the state upstream
// synced (uj, up) with what upstream did in that sync (res, or the value it
// panicked with): the pods created (count, indexes, the pods the adapter
// builds), the written statuses (compareStatus: Status, FlushStatus),
// Plan.Writes on kj and kp and Plan.Events against the requests and
// events upstream sent (compareWrites), and every other key of the
// Plan as planFromUpstream reads it from upstream. It returns false when
// upstream panicked (and Step refused the state, as it must): there is
// nothing more to compare.
func compareSync(t *rapid.T, uj *batch.Job, up []*v1.Pod, kj *job.Job, kp []*podstatus.Pod, plan job.Plan, err error, res syncResult, panicked any) bool {
	if panicked != nil {
		// v1.36.3 panics when status.succeeded wraps (a Prometheus
		// counter cannot decrease); Step must say so, not answer.
		var fe *field.Error
		if !errors.As(err, &fe) || fe.Path != "status.succeeded" || !errors.Is(err, field.ErrOverflow) {
			t.Fatalf("upstream panics (%v); Step answers %v", panicked, err)
		}
		return false
	}
	if err != nil {
		t.Fatalf("Step: %v", err)
	}
	var created int32
	var gotIx, wantIx []string
	created = plan.Create.Count
	for _, np := range plan.Create.Objects {
		gotIx = append(gotIx, strconv.Itoa(np.Index))
	}
	for _, tpl := range res.creations {
		if ix, ok := tpl.Annotations[job.CompletionIndexAnnotation]; ok {
			wantIx = append(wantIx, ix)
		}
	}
	slices.Sort(wantIx)
	slices.Sort(gotIx)
	if int(created) != len(res.creations) || !slices.Equal(gotIx, wantIx) {
		t.Fatalf("Step creates %d %v; upstream %d %v", created, gotIx, len(res.creations), wantIx)
	}
	// The pods the adapter builds for the plan are the templates
	// upstream hands to CreatePodsWithGenerateName (labels,
	// annotations, finalizers, spec), matched by completion index.
	made, err := k8s.JobPods(uj, plan)
	if err != nil {
		t.Fatalf("JobPods: %v", err)
	}
	key := func(m metav1.ObjectMeta) string { return m.Annotations[job.CompletionIndexAnnotation] }
	byIx := map[string]*v1.PodTemplateSpec{}
	for _, tpl := range res.creations {
		byIx[key(tpl.ObjectMeta)] = tpl
	}
	for _, pod := range made {
		tpl := byIx[key(pod.ObjectMeta)]
		if tpl == nil {
			t.Fatalf("JobPods makes index %q, upstream creates none", key(pod.ObjectMeta))
		}
		got := v1.PodTemplateSpec{ObjectMeta: metav1.ObjectMeta{Labels: pod.Labels, Annotations: pod.Annotations, Finalizers: pod.Finalizers}, Spec: pod.Spec}
		want := v1.PodTemplateSpec{ObjectMeta: metav1.ObjectMeta{Labels: tpl.Labels, Annotations: tpl.Annotations, Finalizers: tpl.Finalizers}, Spec: tpl.Spec}
		if diff := cmp.Diff(want, got, cmpopts.EquateEmpty()); diff != "" {
			t.Fatalf("JobPods pod differs from upstream's template (-upstream +kubesem):\n%s", diff)
		}
	}
	if res.err != nil {
		t.Fatalf("upstream syncJob: %v", res.err)
	}
	compareStatus(t, plan.Status, res.status)
	if (plan.FlushStatus != nil) != (len(res.flushes) > 0 && res.flushes[0]) {
		t.Fatalf("Step flushStatus %v; upstream's status writes before finalizer removal: %v", plan.FlushStatus != nil, res.flushes)
	}
	if plan.FlushStatus != nil {
		compareStatus(t, *plan.FlushStatus, res.statuses[0])
	}
	if err := compareWrites(kj, kp, plan, res, false); err != nil {
		t.Fatal(err)
	}
	want, err := planFromUpstream(uj, up, res)
	if err != nil {
		t.Fatal(err)
	}
	var got map[string]any
	if b, err := json.Marshal(plan); err != nil {
		t.Fatal(err)
	} else if err := json.Unmarshal(b, &got); err != nil {
		t.Fatal(err)
	}
	// Statuses and events are compared above (a FailJob message may name
	// any of the matching pods); deletions and releases as sets (upstream
	// orders equally ranked pods as its unstable sort leaves them).
	for _, m := range []map[string]any{want, got} {
		delete(m, "status")
		delete(m, "flushStatus")
		delete(m, "events")
		sortList(m, "delete", func(v any) string { return v.(map[string]any)["name"].(string) })
		sortList(m, "removeFinalizers", func(v any) string { return v.(string) })
	}
	wb, _ := json.Marshal(want)
	gb, _ := json.Marshal(got)
	if ok, why := conformance.Match(wb, gb); !ok {
		t.Fatalf("Step differs from upstream: %s\nStep:     %s\nupstream: %s", why, gb, wb)
	}
	return true
}

// sortList sorts the list at m[key] by the string key of its elements.
func sortList(m map[string]any, key string, by func(any) string) {
	if l, ok := m[key].([]any); ok {
		slices.SortFunc(l, func(a, b any) int { return strings.Compare(by(a), by(b)) })
	}
	if l, ok := m[key].([]map[string]any); ok {
		slices.SortFunc(l, func(a, b map[string]any) int { return strings.Compare(by(a), by(b)) })
	}
	if l, ok := m[key].([]string); ok {
		slices.Sort(l)
	}
}

// genBackoff draws the controller's backoff record for the job from a
// previous sync: none, or failures since the last success with the time of
// the last one (upstream dereferences it whenever the count is above 0).
func genBackoff(t *rapid.T, now time.Time) job.BackoffRecord {
	switch rapid.IntRange(0, 2).Draw(t, "prevBackoff") {
	case 0:
		return job.BackoffRecord{}
	case 1:
		last := now.Add(-time.Duration(rapid.IntRange(0, 700).Draw(t, "prevLastFailureAgo")) * time.Second)
		return job.BackoffRecord{FailuresAfterLastSuccess: int32(rapid.IntRange(1, 8).Draw(t, "prevFailures")), LastFailureTime: &last}
	}
	return job.BackoffRecord{FailuresAfterLastSuccess: 0}
}

func compareStatus(t *rapid.T, got job.Status, want batch.JobStatus) {
	eq := func(a, b *int32) bool { return (a == nil) == (b == nil) && (a == nil || *a == *b) }
	fi := func(s *string) string {
		if s == nil {
			return "<nil>"
		}
		return *s
	}
	if got.Active != want.Active || got.Succeeded != want.Succeeded || got.Failed != want.Failed || !eq(got.Ready, want.Ready) ||
		!eq(got.Terminating, want.Terminating) || got.CompletedIndexes != want.CompletedIndexes || fi(got.FailedIndexes) != fi(want.FailedIndexes) ||
		(got.StartTime == nil) != (want.StartTime == nil) || (got.CompletionTime == nil) != (want.CompletionTime == nil) {
		t.Fatalf("Step status = %+v\nupstream %+v", got, want)
	}
	if got.StartTime != nil && !got.StartTime.Equal(want.StartTime.Time) {
		t.Fatalf("Step startTime = %v; upstream %v", got.StartTime, want.StartTime)
	}
	if len(got.Conditions) != len(want.Conditions) {
		t.Fatalf("Step conditions = %+v\nupstream %+v", got.Conditions, want.Conditions)
	}
	for i, c := range want.Conditions {
		g := got.Conditions[i]
		// With several pods matching a FailJob rule, upstream's message names
		// whichever comes first in its informer's (map-ordered) list.
		sameMsg := g.Message == c.Message || (c.Reason == job.ConditionReasonPodFailurePolicy && g.Message != "")
		if string(g.Type) != string(c.Type) || string(g.Status) != string(c.Status) || g.Reason != c.Reason || !sameMsg ||
			!g.LastTransitionTime.Equal(c.LastTransitionTime.Time) {
			t.Fatalf("Step condition %d = %+v; upstream %+v", i, g, c)
		}
	}
	// Upstream lists uncounted pods in its informer's order; compare the
	// UIDs as sets.
	uncounted := func(s, f []string) [2][]string {
		return [2][]string{slices.Sorted(slices.Values(s)), slices.Sorted(slices.Values(f))}
	}
	var gu, wu [2][]string
	if u := got.UncountedTerminatedPods; u != nil {
		gu = uncounted(u.Succeeded, u.Failed)
	}
	if u := want.UncountedTerminatedPods; u != nil {
		var s, f []string
		for _, x := range u.Succeeded {
			s = append(s, string(x))
		}
		for _, x := range u.Failed {
			f = append(f, string(x))
		}
		wu = uncounted(s, f)
	}
	if !slices.Equal(gu[0], wu[0]) || !slices.Equal(gu[1], wu[1]) {
		t.Fatalf("Step uncounted = %+v; upstream %+v", got.UncountedTerminatedPods, want.UncountedTerminatedPods)
	}
}
