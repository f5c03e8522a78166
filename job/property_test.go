package job_test

import (
	"errors"
	"reflect"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/kubesem/kubesem/field"
	"github.com/kubesem/kubesem/job"
	"github.com/kubesem/kubesem/meta"
	"github.com/kubesem/kubesem/podstatus"
	"pgregory.net/rapid"
)

func ptr[T any](v T) *T { return &v }

func genIndexes(t *rapid.T, completions int) job.Indexes {
	var x job.Indexes
	next := 0
	for n := rapid.IntRange(0, 6).Draw(t, "n"); n > 0 && next < completions; n-- {
		first := next + rapid.IntRange(0, 5).Draw(t, "gap")
		if first >= completions {
			break
		}
		last := min(first+rapid.IntRange(0, 5).Draw(t, "len"), completions-1)
		x = append(x, job.Interval{First: first, Last: last})
		next = last + 2
	}
	return x
}

// checkIndexesRoundTrip: parse(format(x)) == x for well-formed intervals.
func checkIndexesRoundTrip(t *rapid.T) {
	c := rapid.IntRange(1, 60).Draw(t, "completions")
	x := genIndexes(t, c)
	got := job.ParseIndexes(x.String(), c)
	if len(x) == 0 && len(got) == 0 {
		return
	}
	if !reflect.DeepEqual(got, x) {
		t.Fatalf("ParseIndexes(%q, %d) = %v; want %v", x.String(), c, got, x)
	}
}

func TestIndexesRoundTrip(t *testing.T) { t.Parallel(); rapid.Check(t, checkIndexesRoundTrip) }

// checkBackoffMonotone: with a cap at or above the base, the delay is
// monotone in failures and never above the cap.
func checkBackoffMonotone(t *rapid.T) {
	n := rapid.Int32Range(1, 1<<30).Draw(t, "n")
	limit := time.Duration(rapid.Int64Range(int64(job.BackoffBase), int64(time.Hour)).Draw(t, "cap"))
	opts := job.Options{BackoffCap: limit}
	a, b := job.BackoffDelay(n, opts), job.BackoffDelay(n+1, opts)
	if b < a {
		t.Fatalf("BackoffDelay(%d) = %v > BackoffDelay(%d) = %v", n, a, n+1, b)
	}
	effective := limit
	if effective <= 0 {
		effective = job.DefaultBackoffCap
	}
	if b > max(effective, job.BackoffBase) {
		t.Fatalf("BackoffDelay(%d) = %v above cap %v", n+1, b, effective)
	}
}

func TestBackoffMonotone(t *testing.T) { t.Parallel(); rapid.Check(t, checkBackoffMonotone) }

// checkWantActive: wantActive <= parallelism and <= remaining completions.
func checkWantActive(t *rapid.T) {
	j := &job.Job{}
	if rapid.Bool().Draw(t, "hasP") {
		j.Spec.Parallelism = ptr(rapid.Int32Range(0, 1<<31-1).Draw(t, "p"))
	}
	if rapid.Bool().Draw(t, "hasC") {
		j.Spec.Completions = ptr(rapid.Int32Range(0, 1<<31-1).Draw(t, "c"))
	}
	succ := rapid.Int32Range(0, 1<<31-1).Draw(t, "succeeded")
	active := rapid.Int32Range(0, 1<<31-1).Draw(t, "active")
	w := job.WantActive(j, succ, active)
	p := int32(1)
	if j.Spec.Parallelism != nil {
		p = *j.Spec.Parallelism
	}
	if w < 0 || (w > p && !(j.Spec.Completions == nil && succ > 0)) {
		t.Fatalf("WantActive = %d; parallelism %d", w, p)
	}
	if c := j.Spec.Completions; c != nil && int64(w) > max(int64(*c)-int64(succ), 0) {
		t.Fatalf("WantActive = %d; remaining %d", w, int64(*c)-int64(succ))
	}
}

func TestWantActive(t *testing.T) { t.Parallel(); rapid.Check(t, checkWantActive) }

func genPod(t *rapid.T, i int) *podstatus.Pod {
	p := &podstatus.Pod{ObjectMeta: meta.ObjectMeta{Name: "p" + strconv.Itoa(i), UID: "u" + strconv.Itoa(i)}}
	p.Status.Phase = rapid.SampledFrom([]podstatus.Phase{"", podstatus.Pending, podstatus.Running, podstatus.Succeeded, podstatus.Failed, podstatus.Unknown}).Draw(t, "phase")
	if rapid.Bool().Draw(t, "fin") {
		p.Finalizers = []string{job.TrackingFinalizer}
	}
	if rapid.Bool().Draw(t, "idx") {
		p.Annotations = map[string]string{job.CompletionIndexAnnotation: rapid.SampledFrom([]string{"0", "1", "2", "7", "-1", "x", "2147483647"}).Draw(t, "ix")}
	}
	if rapid.Bool().Draw(t, "deleting") {
		d := time.Unix(rapid.Int64Range(0, 1000).Draw(t, "del"), 0)
		p.DeletionTimestamp = &d
	}
	if rapid.Bool().Draw(t, "exit") {
		p.Status.ContainerStatuses = []podstatus.ContainerStatus{{Name: "main", RestartCount: rapid.Int32Range(0, 3).Draw(t, "rc"),
			State: podstatus.ContainerState{Terminated: &podstatus.StateTerminated{ExitCode: rapid.Int32Range(0, 3).Draw(t, "code"), FinishedAt: time.Unix(rapid.Int64Range(0, 1000).Draw(t, "fa"), 0)}}}}
	}
	if rapid.Bool().Draw(t, "ready") {
		p.Status.Conditions = []podstatus.Condition{{Type: podstatus.Ready, Status: meta.ConditionTrue}}
	}
	return p
}

func genJob(t *rapid.T) *job.Job {
	j := &job.Job{ObjectMeta: meta.ObjectMeta{Name: "j"}}
	opt := func(label string, hi int32) *int32 {
		if rapid.Bool().Draw(t, "has"+label) {
			return ptr(rapid.Int32Range(-1, hi).Draw(t, label))
		}
		return nil
	}
	j.Spec.Parallelism = opt("parallelism", 1<<31-1)
	j.Spec.Completions = opt("completions", 1<<31-1)
	j.Spec.BackoffLimit = opt("backoffLimit", 8)
	if rapid.Bool().Draw(t, "indexed") {
		j.Spec.CompletionMode = ptr(job.Indexed)
		if rapid.Bool().Draw(t, "perIndex") {
			j.Spec.BackoffLimitPerIndex = opt("bli", 3)
		}
	}
	j.Spec.Suspend = ptr(rapid.Bool().Draw(t, "suspend"))
	if rapid.Bool().Draw(t, "pfp") {
		j.Spec.PodFailurePolicy = &job.PodFailurePolicy{Rules: []job.PodFailurePolicyRule{{Action: job.ActionFailJob, OnExitCodes: &job.OnExitCodesRequirement{Operator: job.OpIn, Values: []int32{2}}}}}
	}
	if rapid.Bool().Draw(t, "ads") {
		j.Spec.ActiveDeadlineSeconds = ptr(rapid.Int64Range(-1, 1<<40).Draw(t, "adsv"))
	}
	j.Status.Failed = rapid.Int32Range(0, 10).Draw(t, "failed")
	j.Status.CompletedIndexes = rapid.SampledFrom([]string{"", "0", "0-2", "1,3", "x,1"}).Draw(t, "ci")
	return j
}

// checkStep: Step never panics, does not depend on the order of pods,
// returns only *field.Error, and never creates or deletes more than 500 pods.
func checkStep(t *rapid.T) {
	j := genJob(t)
	var pods []*podstatus.Pod
	for i := rapid.IntRange(0, 8).Draw(t, "pods"); i > 0; i-- {
		pods = append(pods, genPod(t, i))
	}
	now := time.Unix(rapid.Int64Range(0, 2000).Draw(t, "now"), 0)
	p1, err1 := job.Step(j, pods, job.BackoffRecord{}, now, job.Options{})
	shuffled := slices.Clone(pods)
	for i := len(shuffled) - 1; i > 0; i-- {
		k := rapid.IntRange(0, i).Draw(t, "swap")
		shuffled[i], shuffled[k] = shuffled[k], shuffled[i]
	}
	p2, err2 := job.Step(j, shuffled, job.BackoffRecord{}, now, job.Options{})
	if err1 != nil {
		var fe *field.Error
		if !errors.As(err1, &fe) {
			t.Fatalf("Step error %v is not a *field.Error", err1)
		}
		return
	}
	if err2 != nil || !reflect.DeepEqual(p1, p2) {
		t.Fatalf("Step depends on the order of pods (%v):\n%s", err2, cmp.Diff(p1, p2))
	}
	if p1.Create.Count < 0 || p1.Create.Count > 500 {
		t.Fatalf("Step created %d pods", p1.Create.Count)
	}
	if p1.Create.Count > 0 && len(p1.Delete) > 0 {
		t.Fatalf("Step both creates and deletes")
	}
}

func TestStep(t *testing.T) { t.Parallel(); rapid.Check(t, checkStep) }
