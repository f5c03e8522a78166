package job_test

import (
	"strings"
	"testing"

	"github.com/kubesem/kubesem/job"
	"github.com/kubesem/kubesem/podstatus"
)

func TestCompletionIndex(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		value string
		want  int
	}{{"3", 3}, {"0", 0}, {"-1", -1}, {"x", -1}, {"", -1}} {
		p := &podstatus.Pod{}
		p.Annotations = map[string]string{job.CompletionIndexAnnotation: c.value}
		if got := job.CompletionIndex(p); got != c.want {
			t.Errorf("CompletionIndex(%q) = %d; want %d", c.value, got, c.want)
		}
	}
	if got := job.CompletionIndex(&podstatus.Pod{}); got != -1 {
		t.Errorf("CompletionIndex(no annotation) = %d; want -1", got)
	}
}

func TestGenerateNameWithIndex(t *testing.T) {
	t.Parallel()
	if got := job.GenerateNameWithIndex("pi", 7); got != "pi-7-" {
		t.Errorf("GenerateNameWithIndex(pi, 7) = %q; want pi-7-", got)
	}
	long := strings.Repeat("a", 80)
	if got := job.GenerateNameWithIndex(long, 12); len(got) != 58 || !strings.HasSuffix(got, "-12-") {
		t.Errorf("GenerateNameWithIndex(80 chars, 12) = %q (%d); want 58 characters ending -12-", got, len(got))
	}
}

func TestSucceededIndexes(t *testing.T) {
	t.Parallel()
	three := int32(3)
	j := &job.Job{Spec: job.Spec{Completions: &three, CompletionMode: ptr(job.Indexed)}, Status: job.Status{CompletedIndexes: "0"}}
	pods := indexedPods(2, 1, 5)
	for i, p := range pods {
		p.UID = string(rune('a' + i))
		p.Finalizers = []string{job.TrackingFinalizer}
		p.Status.Phase = podstatus.Succeeded
	}
	pods[1].Status.Phase = podstatus.Running
	prev, now := job.SucceededIndexes(j, pods)
	if prev.String() != "0" || now.String() != "0,2" {
		t.Errorf("SucceededIndexes = %q, %q; want 0, 0,2 (index 1 still running, 5 out of range)", prev, now)
	}
}
