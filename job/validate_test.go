package job_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/kubesem/kubesem/field"
	"github.com/kubesem/kubesem/job"
)

func vptr[T any](v T) *T { return &v }

// TestValidateParity checks classes the v1.36.3 API accepts or rejects after
// v1 defaulting (upstream pkg/apis/batch/validation validateJobSpec,
// ValidateJob; pkg/apis/batch/v1 SetDefaults_Job), as found by the
// validation differential in conformance/upstream.
func TestValidateParity(t *testing.T) {
	t.Parallel()
	indexed := vptr(job.Indexed)
	for _, c := range []struct {
		name string
		edit func(s *job.Spec, j *job.Job)
		path string
		err  error
	}{
		{"valid", func(*job.Spec, *job.Job) {}, "", nil},
		{"activeDeadlineSeconds 0 is accepted", func(s *job.Spec, _ *job.Job) { s.ActiveDeadlineSeconds = vptr(int64(0)) }, "", nil},
		{"Indexed without completions or parallelism defaults completions to 1", func(s *job.Spec, _ *job.Job) { s.CompletionMode = indexed }, "", nil},
		{"Indexed with parallelism but no completions", func(s *job.Spec, _ *job.Job) {
			s.CompletionMode, s.Parallelism = indexed, vptr(int32(2))
		}, "spec.completions", field.ErrRequired},
		{"maxFailedIndexes without backoffLimitPerIndex", func(s *job.Spec, _ *job.Job) {
			s.CompletionMode, s.Completions, s.MaxFailedIndexes = indexed, vptr(int32(3)), vptr(int32(1))
		}, "spec.backoffLimitPerIndex", field.ErrRequired},
		{"maxFailedIndexes above completions", func(s *job.Spec, _ *job.Job) {
			s.CompletionMode, s.Completions, s.BackoffLimitPerIndex, s.MaxFailedIndexes = indexed, vptr(int32(3)), vptr(int32(1)), vptr(int32(4))
		}, "spec.maxFailedIndexes", field.ErrInvalid},
		{"Indexed parallelism above 100000", func(s *job.Spec, _ *job.Job) {
			s.CompletionMode, s.Completions, s.Parallelism = indexed, vptr(int32(3)), vptr(int32(100_001))
		}, "spec.parallelism", field.ErrInvalid},
		{"Indexed pod hostname longer than 63", func(s *job.Spec, j *job.Job) {
			j.Name = strings.Repeat("x", 62)
			s.CompletionMode, s.Completions = indexed, vptr(int32(3))
		}, "metadata.name", field.ErrInvalid},
		{"successPolicy without Indexed", func(s *job.Spec, _ *job.Job) {
			s.SuccessPolicy = &job.SuccessPolicy{Rules: []job.SuccessPolicyRule{{SucceededCount: vptr(int32(1))}}}
		}, "spec.successPolicy", field.ErrInvalid},
		{"succeededIndexes out of order", func(s *job.Spec, _ *job.Job) {
			s.CompletionMode, s.Completions = indexed, vptr(int32(5))
			s.SuccessPolicy = &job.SuccessPolicy{Rules: []job.SuccessPolicyRule{{SucceededIndexes: vptr("3,1")}}}
		}, "spec.successPolicy.rules[0].succeededIndexes", field.ErrInvalid},
		{"succeededCount above the indexes named", func(s *job.Spec, _ *job.Job) {
			s.CompletionMode, s.Completions = indexed, vptr(int32(5))
			s.SuccessPolicy = &job.SuccessPolicy{Rules: []job.SuccessPolicyRule{{SucceededIndexes: vptr("0-1"), SucceededCount: vptr(int32(3))}}}
		}, "spec.successPolicy.rules[0].succeededCount", field.ErrInvalid},
		{"FailIndex without backoffLimitPerIndex", func(s *job.Spec, _ *job.Job) {
			s.PodFailurePolicy = &job.PodFailurePolicy{Rules: []job.PodFailurePolicyRule{{Action: job.ActionFailIndex, OnExitCodes: &job.OnExitCodesRequirement{Operator: job.OpIn, Values: []int32{1}}}}}
		}, "spec.podFailurePolicy.rules[0].action", field.ErrInvalid},
		{"exit code 0 with In", func(s *job.Spec, _ *job.Job) {
			s.PodFailurePolicy = &job.PodFailurePolicy{Rules: []job.PodFailurePolicyRule{{Action: job.ActionFailJob, OnExitCodes: &job.OnExitCodesRequirement{Operator: job.OpIn, Values: []int32{0, 1}}}}}
		}, "spec.podFailurePolicy.rules[0].onExitCodes.values[0]", field.ErrInvalid},
		{"podReplacementPolicy TerminatingOrFailed with a pod failure policy", func(s *job.Spec, _ *job.Job) {
			s.PodReplacementPolicy = vptr(job.TerminatingOrFailed)
			s.PodFailurePolicy = &job.PodFailurePolicy{Rules: []job.PodFailurePolicyRule{{Action: job.ActionFailJob, OnExitCodes: &job.OnExitCodesRequirement{Operator: job.OpIn, Values: []int32{1}}}}}
		}, "spec.podReplacementPolicy", field.ErrUnsupported},
	} {
		j := &job.Job{}
		j.Name = "pi"
		c.edit(&j.Spec, j)
		err := job.Validate(j, nil)
		if c.err == nil {
			if err != nil {
				t.Errorf("%s: Validate = %v; want nil", c.name, err)
			}
			continue
		}
		var fe *field.Error
		if !errors.As(err, &fe) || fe.Path != c.path || !errors.Is(err, c.err) {
			t.Errorf("%s: Validate = %v; want %v at %s", c.name, err, c.err, c.path)
		}
	}
}
