package job_test

import (
	"testing"
	"time"

	"github.com/kubesem/kubesem/job"
	"github.com/kubesem/kubesem/meta"
	"github.com/kubesem/kubesem/podstatus"
)

// TestStepTracksFinishedPods: a succeeded pod still carrying the tracking
// finalizer is counted in status.succeeded and released in the same sync.
func TestStepTracksFinishedPods(t *testing.T) {
	t.Parallel()
	start := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	five := int32(5)
	j := &job.Job{ObjectMeta: meta.ObjectMeta{Name: "pi", Namespace: "default", UID: "j"},
		Spec: job.Spec{Completions: &five}, Status: job.Status{StartTime: &start, Active: 1}}
	done := &podstatus.Pod{ObjectMeta: meta.ObjectMeta{Name: "pi-1", Namespace: "default", UID: "p1", Finalizers: []string{job.TrackingFinalizer}},
		Status: podstatus.Status{Phase: podstatus.Succeeded}}
	p, err := job.Step(j, []*podstatus.Pod{done}, job.BackoffRecord{}, start.Add(time.Minute), job.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if p.Status.Succeeded != 1 || len(p.RemoveFinalizers) != 1 || p.RemoveFinalizers[0] != "p1" || p.PodPatches != 1 || !p.UpdateStatus {
		t.Errorf("Step = succeeded %d, removeFinalizers %v, podPatches %d, updateStatus %v; want 1, [p1], 1, true",
			p.Status.Succeeded, p.RemoveFinalizers, p.PodPatches, p.UpdateStatus)
	}
}
