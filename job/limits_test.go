package job_test

import (
	"testing"
	"time"

	"github.com/kubesem/kubesem/job"
	"github.com/kubesem/kubesem/meta"
	"github.com/kubesem/kubesem/podstatus"
)

func TestWantActiveTable(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name                          string
		parallelism, completions      *int32
		succeeded, active, wantActive int32
	}{
		{"parallelism bounds the remaining completions", ptr[int32](3), ptr[int32](5), 1, 0, 3},
		{"the remaining completions bound parallelism", ptr[int32](3), ptr[int32](5), 4, 0, 1},
		{"no completions, no success yet: parallelism", ptr[int32](2), nil, 0, 0, 2},
		{"no completions, a success: keep the active pods", ptr[int32](2), nil, 1, 1, 1},
		{"unset parallelism is 1", nil, ptr[int32](5), 0, 0, 1},
	} {
		j := &job.Job{Spec: job.Spec{Parallelism: c.parallelism, Completions: c.completions}}
		if got := job.WantActive(j, c.succeeded, c.active); got != c.wantActive {
			t.Errorf("%s: WantActive = %d; want %d", c.name, got, c.wantActive)
		}
	}
}

func TestPastActiveDeadline(t *testing.T) {
	t.Parallel()
	start := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	j := &job.Job{Spec: job.Spec{ActiveDeadlineSeconds: ptr[int64](10)}, Status: job.Status{StartTime: &start}}
	if job.PastActiveDeadline(j, start.Add(9*time.Second)) {
		t.Error("PastActiveDeadline(9s of 10s) = true")
	}
	if !job.PastActiveDeadline(j, start.Add(10*time.Second)) {
		t.Error("PastActiveDeadline(10s of 10s) = false; the deadline is inclusive")
	}
	if job.PastActiveDeadline(&job.Job{Spec: j.Spec}, start.Add(time.Hour)) {
		t.Error("PastActiveDeadline without startTime = true")
	}
}

func TestIsPodFailed(t *testing.T) {
	t.Parallel()
	now := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	failed := &podstatus.Pod{Status: podstatus.Status{Phase: podstatus.Failed}}
	deleting := &podstatus.Pod{ObjectMeta: meta.ObjectMeta{DeletionTimestamp: &now}, Status: podstatus.Status{Phase: podstatus.Running}}
	running := &podstatus.Pod{Status: podstatus.Status{Phase: podstatus.Running}}
	plain := &job.Job{}
	onlyFailed := &job.Job{Spec: job.Spec{PodFailurePolicy: &job.PodFailurePolicy{}}}
	for _, c := range []struct {
		name string
		j    *job.Job
		p    *podstatus.Pod
		want bool
	}{
		{"a Failed pod", plain, failed, true},
		{"a deleted running pod counts as failed", plain, deleting, true},
		{"a running pod", plain, running, false},
		{"a deleted running pod, only failed pods replaced", onlyFailed, deleting, false},
	} {
		if got := job.IsPodFailed(c.j, c.p); got != c.want {
			t.Errorf("%s: IsPodFailed = %v; want %v", c.name, got, c.want)
		}
	}
	if !onlyFailed.ReplacesOnlyFailed() || plain.ReplacesOnlyFailed() {
		t.Error("ReplacesOnlyFailed: want true with a pod failure policy, false without")
	}
}
