package job_test

import (
	"testing"
	"time"

	"github.com/kubesem/kubesem/job"
	"github.com/kubesem/kubesem/meta"
	"github.com/kubesem/kubesem/podstatus"
)

func TestPodsForRemoval(t *testing.T) {
	t.Parallel()
	t0 := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	pod := func(name, node string, phase podstatus.Phase, created time.Duration) *podstatus.Pod {
		return &podstatus.Pod{ObjectMeta: meta.ObjectMeta{Name: name, UID: name, CreationTimestamp: t0.Add(created)},
			Spec: podstatus.Spec{NodeName: node}, Status: podstatus.Status{Phase: phase}}
	}
	// ActivePods order: unscheduled first, then Pending before Running, then newer first.
	active := []*podstatus.Pod{
		pod("old-running", "n", podstatus.Running, 0),
		pod("new-running", "n", podstatus.Running, time.Minute),
		pod("pending", "n", podstatus.Pending, 0),
		pod("unscheduled", "", podstatus.Pending, 0),
	}
	got := job.PodsForRemoval(&job.Job{}, active, 3)
	want := []string{"unscheduled", "pending", "new-running"}
	if len(got) != len(want) {
		t.Fatalf("PodsForRemoval = %d pods; want %v", len(got), want)
	}
	for i, r := range got {
		if r.Pod.Name != want[i] || r.Reason != job.ReasonTooManyActive {
			t.Errorf("PodsForRemoval[%d] = %s (%s); want %s (TooManyActive)", i, r.Pod.Name, r.Reason, want[i])
		}
	}
	// An Indexed job removes duplicates and invalid indexes first, whatever rmAtLeast.
	two := int32(2)
	indexed := &job.Job{Spec: job.Spec{Completions: &two, CompletionMode: ptr(job.Indexed)}}
	pods := indexedPods(0, 0, 5, -1)
	for i, p := range pods {
		p.Name, p.UID = string(rune('a'+i)), string(rune('a'+i))
		p.Status.Phase = podstatus.Running
		p.Spec.NodeName = "n"
	}
	rm := job.PodsForRemoval(indexed, pods, 0)
	reasons := map[string]job.Reason{}
	for _, r := range rm {
		reasons[r.Pod.Name] = r.Reason
	}
	if len(rm) != 3 || reasons["c"] != job.ReasonInvalidIndex || reasons["d"] != job.ReasonInvalidIndex ||
		(reasons["a"] != job.ReasonDuplicateIndex) == (reasons["b"] != job.ReasonDuplicateIndex) {
		t.Errorf("PodsForRemoval(indexed) = %v; want c, d invalid and one of a, b duplicate", reasons)
	}
}
