package daemonset

import (
	"strconv"

	"github.com/kubesem/kubesem/field"
	"github.com/kubesem/kubesem/internal/names"
	"github.com/kubesem/kubesem/intstr"
	"github.com/kubesem/kubesem/node"
)

// Validate returns the first *field.Error v1.36.3 API validation
// (ValidateDaemonSet after apps/v1 defaulting) reports for the DaemonSet
// fields kubesem reads, at upstream's path:
//
//   - spec.selector: an empty selector (Invalid), a matchLabels key or
//     value, or a matchExpressions key, operator or value the API rejects;
//     a missing selector, or one that does not select the template's
//     labels (spec.template.metadata.labels, Invalid);
//   - negative spec.minReadySeconds or spec.revisionHistoryLimit;
//   - spec.updateStrategy, read as defaulted ([UpdateStrategy]): see
//     [ValidateUpdateStrategy];
//   - the template: see [ValidateTemplate].
//
// Source: upstream pkg/apis/apps/validation ValidateDaemonSetSpec,
// ValidateDaemonSetUpdateStrategy, ValidateRollingUpdateDaemonSet;
// pkg/apis/apps/v1 SetDefaults_DaemonSet (v1.36.3).
func Validate(ds *DaemonSet, opts Options) error {
	if ds == nil {
		return field.New("daemonSet", "", field.ErrRequired)
	}
	s := &ds.Spec
	if err := validateSelector(s.Selector, "spec.selector"); err != nil {
		return err
	}
	if s.Selector == nil || !s.Selector.Matches(s.Template.Labels) {
		// A missing selector selects nothing, so it cannot select the
		// template either; upstream reports only that.
		return field.New("spec.template.metadata.labels", "", field.ErrInvalid)
	}
	if s.Selector.IsEmpty() {
		return field.New("spec.selector", "{}", field.ErrInvalid)
	}
	if s.MinReadySeconds < 0 {
		return field.Int("spec.minReadySeconds", int64(s.MinReadySeconds), field.ErrNegative)
	}
	if s.RevisionHistoryLimit != nil && *s.RevisionHistoryLimit < 0 {
		return field.Int("spec.revisionHistoryLimit", int64(*s.RevisionHistoryLimit), field.ErrNegative)
	}
	if err := ValidateUpdateStrategy(ds); err != nil {
		return err
	}
	return ValidateTemplate(ds, opts)
}

// ValidateUpdateStrategy returns the first *field.Error v1.36.3 API
// validation reports for spec.updateStrategy, the fields
// [UnavailableNumbers] reads, as apps/v1 defaulting leaves them (an empty
// type is RollingUpdate; for RollingUpdate, a missing maxUnavailable is 1
// and a missing maxSurge 0): a type other than RollingUpdate or OnDelete
// (Unsupported, at spec.updateStrategy); for RollingUpdate, maxUnavailable
// or maxSurge negative, not "N%" or above 100%, both non-zero (at
// maxSurge) or both zero (Required, at maxUnavailable). OnDelete's
// rollingUpdate is not read.
//
// Source: upstream pkg/apis/apps/validation ValidateDaemonSetUpdateStrategy,
// ValidateRollingUpdateDaemonSet; pkg/apis/apps/v1 SetDefaults_DaemonSet
// (v1.36.3).
func ValidateUpdateStrategy(ds *DaemonSet) error {
	if ds == nil {
		return field.New("daemonSet", "", field.ErrRequired)
	}
	const us = "spec.updateStrategy"
	st := ds.Spec.strategy()
	switch st.Type {
	case OnDelete:
	case RollingUpdate:
		mu, ms := *st.RollingUpdate.MaxUnavailable, *st.RollingUpdate.MaxSurge
		if err := intstr.ValidateAtMost100Percent(mu, us+".rollingUpdate.maxUnavailable"); err != nil {
			return err
		}
		if err := intstr.ValidateAtMost100Percent(ms, us+".rollingUpdate.maxSurge"); err != nil {
			return err
		}
		hasU, hasS := nonZero(mu), nonZero(ms)
		switch {
		case hasU && hasS:
			return field.New(us+".rollingUpdate.maxSurge", ms.String(), field.ErrInvalid)
		case !hasU && !hasS:
			return field.New(us+".rollingUpdate.maxUnavailable", mu.String(), field.ErrRequired)
		}
	default:
		return field.New(us, string(st.Type), field.ErrUnsupported)
	}
	return nil
}

// ValidateTemplate returns the first *field.Error v1.36.3 API validation
// reports for the template fields [NodeShouldRunDaemonPod] and [NewPod]
// read: template labels that are not label keys and values
// (spec.template.labels, as upstream names them); a restartPolicy other
// than Always (empty is defaulted to Always); an activeDeadlineSeconds
// (Forbidden); a nodeName that is not a DNS-1123 subdomain; nodeSelector
// keys and values that are not label keys and values; tolerations the API
// rejects ([node.ValidateTolerations]; Lt and Gt only with the gate); a
// required node affinity without terms, or with an expression whose
// operator, number of values, key or values the API rejects (a field
// expression must be metadata.name In or NotIn one node name).
//
// Source: upstream pkg/apis/apps/validation ValidateDaemonSetSpec;
// pkg/apis/core/validation ValidatePodTemplateSpec, ValidatePodSpec,
// ValidateTolerations, ValidateNodeSelector (v1.36.3).
func ValidateTemplate(ds *DaemonSet, opts Options) error {
	if ds == nil {
		return field.New("daemonSet", "", field.ErrRequired)
	}
	t := &ds.Spec.Template
	const sp = "spec.template.spec"
	if err := validateLabels(t.Labels, "spec.template.labels"); err != nil {
		return err
	}
	switch rp := t.Spec.RestartPolicy; rp {
	case "", "Always":
	default:
		return field.New(sp+".restartPolicy", string(rp), field.ErrUnsupported)
	}
	if t.Spec.ActiveDeadlineSeconds != nil {
		return field.Int(sp+".activeDeadlineSeconds", *t.Spec.ActiveDeadlineSeconds, field.ErrForbidden)
	}
	if n := t.Spec.NodeName; n != "" && !names.DNS1123Subdomain(n) {
		return field.New(sp+".nodeName", n, field.ErrInvalid)
	}
	if err := validateLabels(t.Spec.NodeSelector, sp+".nodeSelector"); err != nil {
		return err
	}
	if err := node.ValidateTolerations(t.Spec.Tolerations, sp+".tolerations", opts.nodeOptions()); err != nil {
		return err
	}
	if req := t.Spec.Affinity.Required(); req != nil {
		return validateNodeSelector(req, sp+".affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution")
	}
	return nil
}

// nonZero is upstream's test for a set bound: an integer other than 0, or
// a percentage other than 0% (a malformed string was rejected before).
func nonZero(v intstr.Value) bool {
	if !v.IsString() {
		return v.IntValue() != 0
	}
	s := v.String()
	n, err := strconv.ParseInt(s[:len(s)-1], 10, 64)
	return err != nil || n != 0
}
