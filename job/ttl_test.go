package job_test

import (
	"errors"
	"testing"
	"time"

	"github.com/kubesem/kubesem/field"
	"github.com/kubesem/kubesem/job"
	"github.com/kubesem/kubesem/meta"
)

func TestTimeLeftAndNeedsCleanup(t *testing.T) {
	t.Parallel()
	fin := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	done := job.Status{Conditions: []job.Condition{{Type: job.Failed, Status: meta.ConditionTrue, LastTransitionTime: fin}}}
	ttl := int32(0)
	j := &job.Job{Spec: job.Spec{TTLSecondsAfterFinished: &ttl}, Status: done}
	if !j.NeedsCleanup() {
		t.Error("NeedsCleanup(finished, ttl 0) = false")
	}
	if (&job.Job{Spec: j.Spec}).NeedsCleanup() || (&job.Job{Status: done}).NeedsCleanup() {
		t.Error("NeedsCleanup without a finish or without a TTL = true")
	}
	left, err := job.TimeLeft(j, fin)
	if err != nil || !left.Expired || left.Remaining != 0 {
		t.Errorf("TimeLeft(ttl 0, at the finish) = %+v, %v; want expired now", left, err)
	}
	for _, c := range []struct {
		name string
		j    *job.Job
		path string
	}{
		{"no ttl", &job.Job{Status: done}, "spec.ttlSecondsAfterFinished"},
		{"not finished", &job.Job{Spec: j.Spec}, "status.conditions"},
	} {
		var fe *field.Error
		_, err := job.TimeLeft(c.j, fin)
		if !errors.As(err, &fe) || fe.Path != c.path || !errors.Is(err, field.ErrRequired) {
			t.Errorf("%s: TimeLeft error = %v; want Required at %s", c.name, err, c.path)
		}
	}
}
