package job_test

import (
	"testing"
	"time"

	"github.com/kubesem/kubesem/job"
	"github.com/kubesem/kubesem/meta"
)

// TestStepBackoffHoldsCreation: after a failure the replacement waits for
// the pod failure backoff (10s after the first failure), then is created.
func TestStepBackoffHoldsCreation(t *testing.T) {
	t.Parallel()
	failedAt := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	j := &job.Job{ObjectMeta: meta.ObjectMeta{Name: "pi", Namespace: "default", UID: "j"},
		Status: job.Status{StartTime: &failedAt, Failed: 1}}
	prev := job.BackoffRecord{FailuresAfterLastSuccess: 1, LastFailureTime: &failedAt}
	p, err := job.Step(j, nil, prev, failedAt.Add(4*time.Second), job.Options{})
	if err != nil || p.Create.Count != 0 {
		t.Fatalf("Step(4s after the failure) creates %d, %v; want 0", p.Create.Count, err)
	}
	if r, ok := firstRequeue(p, job.ReasonPodFailureBackoff); !ok || r != 6*time.Second {
		t.Errorf("Step(4s after the failure) requeue = %v, %v; want 6s for PodFailureBackoff", r, ok)
	}
	p, _ = job.Step(j, nil, prev, failedAt.Add(10*time.Second), job.Options{})
	if p.Create.Count != 1 || p.Create.Reason != job.ReasonTooFewActive {
		t.Errorf("Step(10s after the failure) creates %d (%s); want 1 TooFewActive", p.Create.Count, p.Create.Reason)
	}
}

// TestStepBackoffRequeueFloor: a backoff with less than a second left is
// requeued after a second, the controller's batch period.
func TestStepBackoffRequeueFloor(t *testing.T) {
	t.Parallel()
	failedAt := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	j := &job.Job{ObjectMeta: meta.ObjectMeta{Name: "pi", Namespace: "default", UID: "j"},
		Status: job.Status{StartTime: &failedAt, Failed: 1}}
	prev := job.BackoffRecord{FailuresAfterLastSuccess: 1, LastFailureTime: &failedAt}
	p, err := job.Step(j, nil, prev, failedAt.Add(9*time.Second+700*time.Millisecond), job.Options{})
	if err != nil || p.Create.Count != 0 {
		t.Fatalf("Step(300ms before the backoff ends) creates %d, %v; want 0", p.Create.Count, err)
	}
	if r, ok := firstRequeue(p, job.ReasonPodFailureBackoff); !ok || r != time.Second {
		t.Errorf("Step(300ms before the backoff ends) requeue = %v, %v; want 1s for PodFailureBackoff", r, ok)
	}
}
