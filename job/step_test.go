package job_test

import (
	"testing"
	"time"

	"github.com/kubesem/kubesem/job"
	"github.com/kubesem/kubesem/meta"
	"github.com/kubesem/kubesem/podstatus"
)

func TestStepOutcomes(t *testing.T) {
	t.Parallel()
	now := time.Date(2024, 1, 1, 0, 10, 0, 0, time.UTC)
	other := "example.com/other"
	managed := &job.Job{Spec: job.Spec{ManagedBy: &other}}
	if p, err := job.Step(managed, nil, job.BackoffRecord{}, now, job.Options{}); err != nil || p.Outcome != job.ReasonManagedExternally || p.Create.Count != 0 {
		t.Errorf("Step(managed elsewhere) = %s, create %d, %v; want ManagedExternally, nothing", p.Outcome, p.Create.Count, err)
	}
	done := &job.Job{Status: job.Status{Conditions: []job.Condition{{Type: job.Complete, Status: meta.ConditionTrue}}}}
	if p, _ := job.Step(done, nil, job.BackoffRecord{}, now, job.Options{}); p.Outcome != job.ReasonAlreadyFinished || p.UpdateStatus {
		t.Errorf("Step(finished) = %s, updateStatus %v; want AlreadyFinished, no write", p.Outcome, p.UpdateStatus)
	}
}

// TestStepActiveDeadline: before the deadline the controller creates the
// pod and requeues at the deadline; past it, the job gets FailureTarget
// (DeadlineExceeded) and its active pod is deleted.
func TestStepActiveDeadline(t *testing.T) {
	t.Parallel()
	start := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	j := &job.Job{ObjectMeta: meta.ObjectMeta{Name: "pi", Namespace: "default", UID: "j"},
		Spec:   job.Spec{ActiveDeadlineSeconds: ptr[int64](60)},
		Status: job.Status{StartTime: &start}}
	p, err := job.Step(j, nil, job.BackoffRecord{}, start.Add(20*time.Second), job.Options{})
	if err != nil || p.Outcome != job.ReasonSynced || p.Create.Count != 1 {
		t.Fatalf("Step(before the deadline) = %+v, %v; want one pod created", p, err)
	}
	if r, ok := firstRequeue(p, job.ReasonActiveDeadline); !ok || r != 40*time.Second {
		t.Errorf("Step(before the deadline) requeue = %v, %v; want 40s for ActiveDeadline", r, ok)
	}
	running := &podstatus.Pod{ObjectMeta: meta.ObjectMeta{Name: "pi-1", Namespace: "default", UID: "p1", Finalizers: []string{job.TrackingFinalizer}},
		Status: podstatus.Status{Phase: podstatus.Running}}
	p, _ = job.Step(j, []*podstatus.Pod{running}, job.BackoffRecord{}, start.Add(60*time.Second), job.Options{})
	c, ok := meta.Conditions(p.Status.Conditions).Find(job.FailureTarget)
	if !ok || c.Reason != job.ConditionReasonDeadlineExceeded || len(p.Delete) != 1 || !p.UpdateStatus {
		t.Errorf("Step(at the deadline) = conditions %v, delete %v; want FailureTarget DeadlineExceeded and p1 deleted", p.Status.Conditions, p.Delete)
	}
}

func firstRequeue(p job.Plan, reason job.Reason) (time.Duration, bool) {
	for _, r := range p.Requeue {
		if r.Reason == reason {
			return r.After, true
		}
	}
	return 0, false
}

// TestStepPodPatches: a pod deleted to manage the pod count is patched
// before its deletion, and once more when the same sync releases it because
// the job meets its completions; a pod deleted because the job finishes is
// only released.
func TestStepPodPatches(t *testing.T) {
	t.Parallel()
	start := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	now := start.Add(time.Minute)
	pod := func(name string, phase podstatus.Phase, fin bool) *podstatus.Pod {
		p := &podstatus.Pod{ObjectMeta: meta.ObjectMeta{Name: name, Namespace: "default", UID: name}, Status: podstatus.Status{Phase: phase}}
		if fin {
			p.Finalizers = []string{job.TrackingFinalizer}
		}
		return p
	}
	mk := func(spec job.Spec, succeeded int32) *job.Job {
		return &job.Job{ObjectMeta: meta.ObjectMeta{Name: "pi", Namespace: "default", UID: "j"}, Spec: spec,
			Status: job.Status{StartTime: &start, Succeeded: succeeded, Active: 1}}
	}
	two := ptr[int32](2)
	cases := []struct {
		name        string
		j           *job.Job
		pods        []*podstatus.Pod
		del, rm, pp int
	}{
		// completions reached with a pod still running: deleted (patch),
		// then released with the job's SuccessCriteriaMet (patch again).
		{"too many active, completing", mk(job.Spec{Completions: two, Parallelism: two}, 2),
			[]*podstatus.Pod{pod("a", podstatus.Running, true)}, 1, 1, 2},
		// the same pod without the finalizer: neither patch.
		{"too many active, completing, no finalizer", mk(job.Spec{Completions: two, Parallelism: two}, 2),
			[]*podstatus.Pod{pod("a", podstatus.Running, false)}, 1, 0, 0},
		// suspended, not complete: one patch before the deletion.
		{"suspend", mk(job.Spec{Completions: two, Parallelism: two, Suspend: ptr(true)}, 0),
			[]*podstatus.Pod{pod("a", podstatus.Running, true)}, 1, 0, 1},
		// suspended with completions met: deleted and released.
		{"suspend, completing", mk(job.Spec{Completions: two, Parallelism: two, Suspend: ptr(true)}, 2),
			[]*podstatus.Pod{pod("a", podstatus.Running, true)}, 1, 1, 2},
		// past the deadline: deleted without a patch, released once.
		{"deadline", mk(job.Spec{ActiveDeadlineSeconds: ptr[int64](30)}, 0),
			[]*podstatus.Pod{pod("a", podstatus.Running, true)}, 1, 1, 1},
	}
	for _, c := range cases {
		p, err := job.Step(c.j, c.pods, job.BackoffRecord{}, now, job.Options{})
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if len(p.Delete) != c.del || len(p.RemoveFinalizers) != c.rm || p.PodPatches != c.pp {
			t.Errorf("%s: delete %d, removeFinalizers %d, podPatches %d; want %d, %d, %d", c.name,
				len(p.Delete), len(p.RemoveFinalizers), p.PodPatches, c.del, c.rm, c.pp)
		}
	}
}

// TestStepBackoffStoredWithFirstWrite: the backoff record after a sync is
// the updated one only when the sync writes the status before releasing
// finalizers; a failure ignored by the pod failure policy in a sync that
// writes nothing else leaves the previous record.
func TestStepBackoffStoredWithFirstWrite(t *testing.T) {
	t.Parallel()
	start := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	failed := &podstatus.Pod{ObjectMeta: meta.ObjectMeta{Name: "a", Namespace: "default", UID: "a", Finalizers: []string{job.TrackingFinalizer}},
		Status: podstatus.Status{Phase: podstatus.Failed, Conditions: []podstatus.Condition{{Type: "DisruptionTarget", Status: meta.ConditionTrue}}}}
	running := &podstatus.Pod{ObjectMeta: meta.ObjectMeta{Name: "b", Namespace: "default", UID: "b", Finalizers: []string{job.TrackingFinalizer}},
		Status: podstatus.Status{Phase: podstatus.Running}}
	zero := int32(0)
	mk := func(policy *job.PodFailurePolicy) *job.Job {
		return &job.Job{ObjectMeta: meta.ObjectMeta{Name: "pi", Namespace: "default", UID: "j"},
			Spec:   job.Spec{Completions: ptr[int32](4), Parallelism: ptr[int32](2), PodFailurePolicy: policy},
			Status: job.Status{StartTime: &start, Active: 2, Ready: &zero, Terminating: &zero}}
	}
	ignore := &job.PodFailurePolicy{Rules: []job.PodFailurePolicyRule{{Action: job.ActionIgnore,
		OnPodConditions: []job.OnPodConditionsRequirement{{Type: "DisruptionTarget"}}}}}
	prev := job.BackoffRecord{FailuresAfterLastSuccess: 2}
	p, err := job.Step(mk(ignore), []*podstatus.Pod{failed, running}, prev, start.Add(time.Minute), job.Options{})
	if err != nil || p.UpdateStatus || p.Memory.FailuresAfterLastSuccess != 2 {
		t.Errorf("ignored failure: updateStatus %v, backoff %+v, %v; want no write and the previous record", p.UpdateStatus, p.Memory, err)
	}
	p, err = job.Step(mk(nil), []*podstatus.Pod{failed, running}, prev, start.Add(time.Minute), job.Options{})
	if err != nil || !p.UpdateStatus || p.Memory.FailuresAfterLastSuccess != 3 {
		t.Errorf("counted failure: updateStatus %v, backoff %+v, %v; want a write and the failure remembered", p.UpdateStatus, p.Memory, err)
	}
}
