package job

import (
	"strconv"

	"github.com/kubesem/kubesem/field"
	"github.com/kubesem/kubesem/podstatus"
)

// Validate checks the fields of j and pods that Step relies on, the way
// Kubernetes validation would, and returns the first problem as a
// *field.Error: a negative count (spec.parallelism, spec.completions,
// spec.backoffLimit, spec.backoffLimitPerIndex, spec.maxFailedIndexes,
// spec.ttlSecondsAfterFinished, status counters) wraps ErrNegative; a
// non-positive spec.activeDeadlineSeconds wraps ErrNegative or ErrInvalid; an
// unknown completion mode, pod replacement policy, rule action or exit-code
// operator wraps ErrUnsupported; an Indexed job without completions wraps
// ErrRequired; backoffLimitPerIndex without Indexed mode, maxFailedIndexes
// without backoffLimitPerIndex, or a failure policy rule with both or
// neither of onExitCodes and onPodConditions wraps ErrInvalid; a nil pod or
// a pod without UID wraps ErrRequired and a repeated UID ErrDuplicate.
//
// A pod's unparsable completion index is not an error: like the controller,
// Step treats it as no index and deletes the pod.
func Validate(j *Job, pods []*podstatus.Pod) error {
	if j == nil {
		return field.New("job", "", field.ErrRequired)
	}
	s := &j.Spec
	for _, c := range []struct {
		path string
		v    *int32
	}{
		{"spec.parallelism", s.Parallelism},
		{"spec.completions", s.Completions},
		{"spec.backoffLimit", s.BackoffLimit},
		{"spec.backoffLimitPerIndex", s.BackoffLimitPerIndex},
		{"spec.maxFailedIndexes", s.MaxFailedIndexes},
		{"spec.ttlSecondsAfterFinished", s.TTLSecondsAfterFinished},
	} {
		if c.v != nil && *c.v < 0 {
			return field.Int(c.path, int64(*c.v), field.ErrNegative)
		}
	}
	if a := s.ActiveDeadlineSeconds; a != nil && *a <= 0 {
		err := field.ErrInvalid
		if *a < 0 {
			err = field.ErrNegative
		}
		return field.Int("spec.activeDeadlineSeconds", *a, err)
	}
	if m := s.CompletionMode; m != nil && *m != NonIndexed && *m != Indexed {
		return field.New("spec.completionMode", string(*m), field.ErrUnsupported)
	}
	if isIndexed(j) && s.Completions == nil {
		return field.New("spec.completions", "", field.ErrRequired)
	}
	if s.BackoffLimitPerIndex != nil && !isIndexed(j) {
		return field.Int("spec.backoffLimitPerIndex", int64(*s.BackoffLimitPerIndex), field.ErrInvalid)
	}
	if s.MaxFailedIndexes != nil && s.BackoffLimitPerIndex == nil {
		return field.Int("spec.maxFailedIndexes", int64(*s.MaxFailedIndexes), field.ErrInvalid)
	}
	if r := s.PodReplacementPolicy; r != nil && *r != TerminatingOrFailed && *r != FailedOnly {
		return field.New("spec.podReplacementPolicy", string(*r), field.ErrUnsupported)
	}
	if err := validateFailurePolicy(s.PodFailurePolicy); err != nil {
		return err
	}
	for _, c := range []struct {
		path string
		v    int32
	}{
		{"status.active", j.Status.Active},
		{"status.succeeded", j.Status.Succeeded},
		{"status.failed", j.Status.Failed},
	} {
		if c.v < 0 {
			return field.Int(c.path, int64(c.v), field.ErrNegative)
		}
	}
	return validatePods(pods)
}

func validateFailurePolicy(p *PodFailurePolicy) error {
	if p == nil {
		return nil
	}
	for i, r := range p.Rules {
		path := field.Index("spec.podFailurePolicy.rules", i)
		switch r.Action {
		case ActionFailJob, ActionFailIndex, ActionIgnore, ActionCount:
		default:
			return field.New(field.Child(path, "action"), string(r.Action), field.ErrUnsupported)
		}
		if (r.OnExitCodes == nil) == (r.OnPodConditions == nil) {
			return field.New(path, "", field.ErrInvalid)
		}
		if e := r.OnExitCodes; e != nil && e.Operator != OpIn && e.Operator != OpNotIn {
			return field.New(field.Child(path, "onExitCodes.operator"), e.Operator, field.ErrUnsupported)
		}
	}
	return nil
}

func validatePods(pods []*podstatus.Pod) error {
	seen := make(map[string]int, len(pods))
	for i, p := range pods {
		path := "pods[" + strconv.Itoa(i) + "]"
		if p == nil {
			return field.New(path, "", field.ErrRequired)
		}
		if p.UID == "" {
			return field.New(path+".metadata.uid", "", field.ErrRequired)
		}
		if _, dup := seen[p.UID]; dup {
			return field.New(path+".metadata.uid", p.UID, field.ErrDuplicate)
		}
		seen[p.UID] = i
	}
	return nil
}
