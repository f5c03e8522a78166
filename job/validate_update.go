package job

import (
	"github.com/kubesem/kubesem/field"
	"github.com/kubesem/kubesem/internal/semantic"
	"github.com/kubesem/kubesem/meta"
	"github.com/kubesem/kubesem/podstatus"
)

// ValidateUpdate returns the first reason the v1.36.3 API server refuses to
// replace old with j (both as stored, defaulted), in upstream's order:
//
//   - j's spec fails [Validate];
//   - spec.completions changed on a Job that is not Indexed
//     (field.ErrImmutable), or on an Indexed one to a value other than its
//     parallelism (field.ErrInvalid);
//   - spec.selector changed (field.ErrImmutable);
//   - the template changed (at spec.template, field.ErrImmutable), unless
//     old is suspended, has no active pods and has not started or carries
//     a true Suspended condition: then only the node selector,
//     tolerations, node affinity, scheduling gates, container resources
//     and the template's metadata may change (else at spec.template.spec;
//     see [podstatus.EqualAsideSchedulingAndResources]);
//   - spec.completionMode (unset read as NonIndexed), podFailurePolicy,
//     backoffLimitPerIndex, managedBy or successPolicy changed
//     (field.ErrImmutable).
//
// Completions equal in both as given are unchanged, whatever defaulting
// would make of them: a Job given without completions and parallelism (a
// scenario's, stored as given) and then given a parallelism is read as the
// API server reads a patch of its parallelism, not as a new object without
// completions.
//
// Source: upstream pkg/apis/batch/validation/validation.go
// ValidateJobSpecUpdate, validateCompletions, validatePodTemplateUpdate;
// pkg/registry/batch/job/strategy.go validationOptionsForJob,
// shouldAllowMutablePodTemplate (v1.36.3).
func ValidateUpdate(old, j *Job) error {
	if old == nil {
		return field.New("old", "", field.ErrRequired)
	}
	if err := Validate(j, nil); err != nil {
		return err
	}
	n, o := &withDefaults(j).Spec, &withDefaults(old).Spec
	mode := func(m *CompletionMode) CompletionMode {
		if m == nil {
			return NonIndexed
		}
		return *m
	}
	if !semantic.Equal(j.Spec.Completions, old.Spec.Completions) && !semantic.Equal(n.Completions, o.Completions) {
		if mode(n.CompletionMode) != Indexed {
			return completionsError(n.Completions, field.ErrImmutable)
		}
		if n.Completions != nil && *n.Completions != *n.Parallelism {
			return completionsError(n.Completions, field.ErrInvalid)
		}
	}
	if !semantic.Equal(n.Selector, o.Selector) {
		return field.New("spec.selector", "", field.ErrImmutable)
	}
	if err := templateUpdate(old, &n.Template, &o.Template); err != nil {
		return err
	}
	switch {
	case mode(n.CompletionMode) != mode(o.CompletionMode):
		return field.New("spec.completionMode", string(mode(n.CompletionMode)), field.ErrImmutable)
	case !semantic.Equal(n.PodFailurePolicy, o.PodFailurePolicy):
		return field.New("spec.podFailurePolicy", "", field.ErrImmutable)
	case !semantic.Equal(n.BackoffLimitPerIndex, o.BackoffLimitPerIndex):
		return field.New("spec.backoffLimitPerIndex", "", field.ErrImmutable)
	case !semantic.Equal(n.ManagedBy, o.ManagedBy):
		return field.New("spec.managedBy", "", field.ErrImmutable)
	case !semantic.Equal(n.SuccessPolicy, o.SuccessPolicy):
		return field.New("spec.successPolicy", "", field.ErrImmutable)
	}
	return nil
}

func completionsError(c *int32, err error) error {
	if c == nil {
		return field.New("spec.completions", "null", err)
	}
	return field.Int("spec.completions", int64(*c), err)
}

// templateUpdate is the template rule of ValidateUpdate.
func templateUpdate(old *Job, n, o *podstatus.Template) error {
	suspended := isSuspended(old)
	started := old.Status.StartTime != nil
	mutable := suspended && (!started || meta.Conditions(old.Status.Conditions).IsTrue(Suspended)) && old.Status.Active == 0
	if mutable {
		if !podstatus.EqualAsideSchedulingAndResources(n, o) {
			return field.New("spec.template.spec", "", field.ErrImmutable)
		}
		return nil
	}
	if !podstatus.Equal(n, o) {
		return field.New("spec.template", "", field.ErrImmutable)
	}
	return nil
}
