package job

import (
	"strconv"
	"strings"

	"github.com/kubesem/kubesem/field"
	"github.com/kubesem/kubesem/internal/uidset"
	"github.com/kubesem/kubesem/meta"
	"github.com/kubesem/kubesem/podstatus"
)

// Validate checks the fields of j (after v1 defaulting of completions,
// parallelism and backoffLimit) and pods that Step relies on, as API
// validation of a Job on create does, and returns the first problem as a
// *field.Error naming one of the paths upstream reports: a negative count or
// activeDeadlineSeconds (ErrNegative; 0 is accepted); maxFailedIndexes
// without backoffLimitPerIndex (ErrRequired at spec.backoffLimitPerIndex);
// an unknown completion mode, pod replacement policy (only Failed with a pod
// failure policy), rule action, exit-code operator or condition status
// (ErrUnsupported); an Indexed job without completions, or with parallelism,
// maxFailedIndexes or a pod hostname beyond the API limits; backoffLimitPerIndex,
// maxFailedIndexes or successPolicy without Indexed mode; pod failure policy
// and success policy rules of the wrong shape, count or range; a manual
// selector that is missing or does not select the template labels; a nil pod
// or a pod without UID (ErrRequired) and a repeated UID (ErrDuplicate).
//
// Not validated (not modelled): object metadata beyond the name, the pod
// template spec (containers, restartPolicy, onExitCodes.containerName against
// the template's containers), label syntax and managedBy.
//
// A pod's unparsable completion index is not an error: like the controller,
// Step treats it as no index and deletes the pod.
//
// Source: upstream pkg/apis/batch/validation/validation.go ValidateJob,
// validateJobSpec, validatePodFailurePolicy, validateSuccessPolicy,
// validateIndexesFormat; pkg/apis/batch/v1/defaults.go SetDefaults_Job
// (v1.36.3).
func Validate(j *Job, pods []*podstatus.Pod) error {
	if j == nil {
		return field.New("job", "", field.ErrRequired)
	}
	if err := validateSpec(j); err != nil {
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

// API limits on an Indexed Job (upstream pkg/apis/batch/validation
// validation.go, v1.36.3).
const (
	maxIndexedParallelism      = 100_000
	maxIndexedFailedIndexes    = 100_000
	highCompletions            = 100_000
	maxHighCompletionsParallel = 10_000
	maxHighCompletionsFailed   = 10_000
	maxFailurePolicyRules      = 20
	maxOnPodConditions         = 20
	maxOnExitCodesValues       = 255
	maxSuccessPolicyRules      = 20
	maxSucceededIndexesLength  = 64 * 1024
	maxDNSLabelLength          = 63
)

func validateSpec(j *Job) error {
	s := &withDefaults(j).Spec
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
	if a := s.ActiveDeadlineSeconds; a != nil && *a < 0 {
		return field.Int("spec.activeDeadlineSeconds", *a, field.ErrNegative)
	}
	if s.MaxFailedIndexes != nil && s.BackoffLimitPerIndex == nil {
		return field.New("spec.backoffLimitPerIndex", "", field.ErrRequired)
	}
	if m := s.CompletionMode; m != nil && *m != NonIndexed && *m != Indexed {
		return field.New("spec.completionMode", string(*m), field.ErrUnsupported)
	}
	if err := validateIndexed(j.Name, s); err != nil {
		return err
	}
	if r := s.PodReplacementPolicy; r != nil {
		if s.PodFailurePolicy != nil && *r != FailedOnly || *r != TerminatingOrFailed && *r != FailedOnly {
			return field.New("spec.podReplacementPolicy", string(*r), field.ErrUnsupported)
		}
	}
	if err := validateFailurePolicy(s); err != nil {
		return err
	}
	if err := validateSuccessPolicy(s); err != nil {
		return err
	}
	if s.ManualSelector != nil && *s.ManualSelector {
		sel := s.Selector
		if sel == nil {
			return field.New("spec.selector", "", field.ErrRequired)
		}
		if err := sel.Validate("spec.selector"); err != nil {
			return err
		}
		if !sel.Matches(s.Template.Labels) {
			return field.New("spec.template.metadata.labels", "", field.ErrInvalid)
		}
	}
	return nil
}

// validateIndexed checks the completion-mode dependent limits.
func validateIndexed(name string, s *Spec) error {
	indexed := s.CompletionMode != nil && *s.CompletionMode == Indexed
	if !indexed {
		if s.BackoffLimitPerIndex != nil {
			return field.Int("spec.backoffLimitPerIndex", int64(*s.BackoffLimitPerIndex), field.ErrInvalid)
		}
		if s.MaxFailedIndexes != nil {
			return field.Int("spec.maxFailedIndexes", int64(*s.MaxFailedIndexes), field.ErrInvalid)
		}
		if s.SuccessPolicy != nil {
			return field.New("spec.successPolicy", "", field.ErrInvalid)
		}
		return nil
	}
	if s.Completions == nil {
		return field.New("spec.completions", "", field.ErrRequired)
	}
	c := *s.Completions
	if p := s.Parallelism; p != nil && *p > maxIndexedParallelism {
		return field.Int("spec.parallelism", int64(*p), field.ErrInvalid)
	}
	if m := s.MaxFailedIndexes; m != nil && (*m > c || *m > maxIndexedFailedIndexes) {
		return field.Int("spec.maxFailedIndexes", int64(*m), field.ErrInvalid)
	}
	if c > highCompletions && s.BackoffLimitPerIndex != nil {
		if s.MaxFailedIndexes == nil {
			return field.New("spec.maxFailedIndexes", "", field.ErrRequired)
		}
		if p := s.Parallelism; p != nil && *p > maxHighCompletionsParallel {
			return field.Int("spec.parallelism", int64(*p), field.ErrInvalid)
		}
		if m := *s.MaxFailedIndexes; m > maxHighCompletionsFailed {
			return field.Int("spec.maxFailedIndexes", int64(m), field.ErrInvalid)
		}
	}
	if c > 0 && !isDNSLabel(name+"-"+strconv.Itoa(int(c-1))) {
		return field.New("metadata.name", name, field.ErrInvalid)
	}
	return nil
}

// isDNSLabel reports whether s is an RFC 1123 label: 1-63 characters of
// a-z, 0-9 and '-', starting and ending with a letter or digit.
func isDNSLabel(s string) bool {
	if len(s) == 0 || len(s) > maxDNSLabelLength || s[0] == '-' || s[len(s)-1] == '-' {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !('a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '-') {
			return false
		}
	}
	return true
}

func validateFailurePolicy(s *Spec) error {
	p := s.PodFailurePolicy
	if p == nil {
		return nil
	}
	if len(p.Rules) > maxFailurePolicyRules {
		return field.Int("spec.podFailurePolicy.rules", int64(len(p.Rules)), field.ErrInvalid)
	}
	for i, r := range p.Rules {
		path := field.Index("spec.podFailurePolicy.rules", i)
		switch r.Action {
		case "":
			return field.New(field.Child(path, "action"), "", field.ErrRequired)
		case ActionFailIndex:
			if s.BackoffLimitPerIndex == nil {
				return field.New(field.Child(path, "action"), string(r.Action), field.ErrInvalid)
			}
		case ActionFailJob, ActionIgnore, ActionCount:
		default:
			return field.New(field.Child(path, "action"), string(r.Action), field.ErrUnsupported)
		}
		if e := r.OnExitCodes; e != nil {
			if err := validateOnExitCodes(e, field.Child(path, "onExitCodes")); err != nil {
				return err
			}
		}
		if len(r.OnPodConditions) > maxOnPodConditions {
			return field.Int(field.Child(path, "onPodConditions"), int64(len(r.OnPodConditions)), field.ErrInvalid)
		}
		for k, c := range r.OnPodConditions {
			cp := field.Index(field.Child(path, "onPodConditions"), k)
			if c.Type == "" {
				return field.New(field.Child(cp, "type"), "", field.ErrRequired)
			}
			switch c.Status {
			case "", meta.ConditionTrue, meta.ConditionFalse, meta.ConditionUnknown:
			default:
				return field.New(field.Child(cp, "status"), string(c.Status), field.ErrUnsupported)
			}
		}
		if (r.OnExitCodes == nil) == (len(r.OnPodConditions) == 0) {
			return field.New(path, "", field.ErrInvalid)
		}
	}
	return nil
}

func validateOnExitCodes(e *OnExitCodesRequirement, path string) error {
	switch e.Operator {
	case "":
		return field.New(field.Child(path, "operator"), "", field.ErrRequired)
	case OpIn, OpNotIn:
	default:
		return field.New(field.Child(path, "operator"), e.Operator, field.ErrUnsupported)
	}
	vp := field.Child(path, "values")
	if len(e.Values) == 0 || len(e.Values) > maxOnExitCodesValues {
		return field.Int(vp, int64(len(e.Values)), field.ErrInvalid)
	}
	for k, v := range e.Values {
		if e.Operator == OpIn && v == 0 {
			return field.Int(field.Index(vp, k), 0, field.ErrInvalid)
		}
		if k > 0 && e.Values[k-1] == v {
			return field.Int(field.Index(vp, k), int64(v), field.ErrDuplicate)
		}
		if k > 0 && e.Values[k-1] > v {
			return field.Int(vp, int64(v), field.ErrInvalid)
		}
	}
	return nil
}

func validateSuccessPolicy(s *Spec) error {
	p := s.SuccessPolicy
	if p == nil {
		return nil
	}
	if len(p.Rules) == 0 || len(p.Rules) > maxSuccessPolicyRules {
		err := field.ErrRequired
		if len(p.Rules) > 0 {
			err = field.ErrInvalid
		}
		return field.Int("spec.successPolicy.rules", int64(len(p.Rules)), err)
	}
	c := *s.Completions // Indexed: checked by validateIndexed
	for i, r := range p.Rules {
		path := field.Index("spec.successPolicy.rules", i)
		if r.SucceededCount == nil && r.SucceededIndexes == nil {
			return field.New(path, "", field.ErrRequired)
		}
		var total int32
		if x := r.SucceededIndexes; x != nil {
			n, ok := countIndexes(*x, c)
			if !ok || len(*x) > maxSucceededIndexesLength {
				return field.New(field.Child(path, "succeededIndexes"), *x, field.ErrInvalid)
			}
			total = n
		}
		if n := r.SucceededCount; n != nil {
			cp := field.Child(path, "succeededCount")
			switch {
			case *n < 0:
				return field.Int(cp, int64(*n), field.ErrNegative)
			case *n > c, r.SucceededIndexes != nil && *n > total:
				return field.Int(cp, int64(*n), field.ErrInvalid)
			}
		}
	}
	return nil
}

// countIndexes parses a succeededIndexes list strictly, as API validation
// does: comma-separated "a" or "a-b" entries of decimal indexes below
// completions, a < b, in increasing order. It returns how many indexes the
// list names.
func countIndexes(s string, completions int32) (int32, bool) {
	if s == "" {
		return 0, true
	}
	var total int32
	last := int64(-1)
	for _, entry := range strings.Split(s, ",") {
		parts := strings.Split(entry, "-")
		if len(parts) > 2 {
			return 0, false
		}
		x, err := strconv.Atoi(parts[0])
		if err != nil || x >= int(completions) {
			return 0, false
		}
		y := x
		if len(parts) == 2 {
			if y, err = strconv.Atoi(parts[1]); err != nil || y >= int(completions) || x >= y {
				return 0, false
			}
		}
		if int64(x) <= last {
			return 0, false
		}
		total += int32(y - x + 1)
		last = int64(y)
	}
	return total, true
}

func validatePods(pods []*podstatus.Pod) error {
	seen := uidset.New(len(pods))
	for i, p := range pods {
		if p == nil || p.UID == "" {
			return badPod(i, p)
		}
		if !seen.Add(p.UID) {
			return field.New("pods["+strconv.Itoa(i)+"].metadata.uid", p.UID, field.ErrDuplicate)
		}
	}
	return nil
}

// badPod is the error of pods[i], nil or without a UID.
func badPod(i int, p *podstatus.Pod) error {
	path := "pods[" + strconv.Itoa(i) + "]"
	if p == nil {
		return field.New(path, "", field.ErrRequired)
	}
	return field.New(path+".metadata.uid", "", field.ErrRequired)
}
