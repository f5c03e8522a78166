package job_test

import (
	"errors"
	"testing"

	"github.com/kubesem/kubesem/field"
	"github.com/kubesem/kubesem/job"
	"github.com/kubesem/kubesem/podstatus"
)

func TestValidate(t *testing.T) {
	t.Parallel()
	indexed := job.Indexed
	bad := job.CompletionMode("Sometimes")
	for _, c := range []struct {
		name string
		j    *job.Job
		pods []*podstatus.Pod
		path string
		err  error
	}{
		{"negative parallelism", &job.Job{Spec: job.Spec{Parallelism: ptr[int32](-1)}}, nil, "spec.parallelism", field.ErrNegative},
		{"zero activeDeadlineSeconds", &job.Job{Spec: job.Spec{ActiveDeadlineSeconds: ptr[int64](0)}}, nil, "spec.activeDeadlineSeconds", field.ErrInvalid},
		{"unknown completion mode", &job.Job{Spec: job.Spec{CompletionMode: &bad}}, nil, "spec.completionMode", field.ErrUnsupported},
		{"Indexed without completions", &job.Job{Spec: job.Spec{CompletionMode: &indexed}}, nil, "spec.completions", field.ErrRequired},
		{"a pod without UID", &job.Job{}, []*podstatus.Pod{{}}, "pods[0].metadata.uid", field.ErrRequired},
	} {
		err := job.Validate(c.j, c.pods)
		var fe *field.Error
		if !errors.As(err, &fe) || fe.Path != c.path || !errors.Is(err, c.err) {
			t.Errorf("%s: Validate = %v; want %v at %s", c.name, err, c.err, c.path)
		}
	}
	if err := job.Validate(&job.Job{Spec: job.Spec{Parallelism: ptr[int32](0)}}, nil); err != nil {
		t.Errorf("Validate(parallelism 0) = %v; want nil", err)
	}
}
