package daemonset

import (
	"strconv"

	"github.com/kubesem/kubesem/field"
	"github.com/kubesem/kubesem/intstr"
	"github.com/kubesem/kubesem/node"
)

// Validate returns the first *field.Error v1.36.3 API validation reports
// for the DaemonSet fields kubesem reads: a selector that is missing,
// empty or does not select the template labels; an update strategy type
// other than RollingUpdate or OnDelete; for RollingUpdate, a missing
// rollingUpdate, maxUnavailable or maxSurge that is negative, not "N%" or
// above 100%, both non-zero, or both zero; negative minReadySeconds or
// revisionHistoryLimit; template tolerations with an unknown operator
// (Lt and Gt only with the gate), Exists with a value, an empty key without
// Exists, an unknown effect, or tolerationSeconds without NoExecute; and
// node affinity expressions with an unknown operator or the wrong number of
// values.
//
// Source: upstream pkg/apis/apps/validation ValidateDaemonSetSpec,
// ValidateDaemonSetUpdateStrategy, ValidateRollingUpdateDaemonSet;
// pkg/apis/core/validation validateTolerations, ValidateNodeSelector
// (v1.36.3).
func Validate(ds *DaemonSet, opts Options) error {
	if ds == nil {
		return field.New("daemonSet", "", field.ErrRequired)
	}
	s := &ds.Spec
	if s.Selector == nil {
		return field.New("spec.selector", "", field.ErrRequired)
	}
	if s.Selector.IsEmpty() {
		return field.New("spec.selector", "{}", field.ErrInvalid)
	}
	if err := s.Selector.Validate("spec.selector"); err != nil {
		return err
	}
	if !s.Selector.Matches(s.Template.Labels) {
		return field.New("spec.template.metadata.labels", "", field.ErrInvalid)
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
// [UnavailableNumbers] reads: a type other than RollingUpdate or OnDelete;
// for RollingUpdate, a missing rollingUpdate, or maxUnavailable / maxSurge
// negative, not "N%", above 100%, both non-zero or both zero.
//
// Source: upstream pkg/apis/apps/validation ValidateDaemonSetUpdateStrategy,
// ValidateRollingUpdateDaemonSet (v1.36.3).
func ValidateUpdateStrategy(ds *DaemonSet) error {
	if ds == nil {
		return field.New("daemonSet", "", field.ErrRequired)
	}
	s := &ds.Spec
	const us = "spec.updateStrategy"
	switch s.UpdateStrategy.Type {
	case OnDelete:
	case RollingUpdate:
		ru := s.UpdateStrategy.RollingUpdate
		if ru == nil {
			return field.New(us+".rollingUpdate", "", field.ErrRequired)
		}
		zero := intstr.Int(0)
		mu, ms := zero, zero
		if ru.MaxUnavailable != nil {
			mu = *ru.MaxUnavailable
		}
		if ru.MaxSurge != nil {
			ms = *ru.MaxSurge
		}
		if err := intstr.Validate(mu, us+".rollingUpdate.maxUnavailable", true); err != nil {
			return err
		}
		if err := intstr.Validate(ms, us+".rollingUpdate.maxSurge", true); err != nil {
			return err
		}
		hasU, hasS := nonZero(mu), nonZero(ms)
		switch {
		case hasU && hasS:
			return field.New(us+".rollingUpdate.maxSurge", ms.String(), field.ErrInvalid)
		case !hasU && !hasS:
			return field.New(us+".rollingUpdate.maxUnavailable", mu.String(), field.ErrRequired)
		}
	case "":
		return field.New(us+".type", "", field.ErrRequired)
	default:
		return field.New(us+".type", string(s.UpdateStrategy.Type), field.ErrUnsupported)
	}
	return nil
}

// ValidateTemplate returns the first *field.Error v1.36.3 API validation
// reports for the template fields [NodeShouldRunDaemonPod] and [NewPod]
// read: tolerations with an unknown operator (Lt and Gt only with the
// gate), Exists with a value, an empty key without Exists, an unknown
// effect, or tolerationSeconds without NoExecute; required node affinity
// terms with an unknown operator or the wrong number of values.
//
// Source: upstream pkg/apis/core/validation validateTolerations,
// ValidateNodeSelector (v1.36.3).
func ValidateTemplate(ds *DaemonSet, opts Options) error {
	if ds == nil {
		return field.New("daemonSet", "", field.ErrRequired)
	}
	s := &ds.Spec
	for i, t := range s.Template.Spec.Tolerations {
		if err := validateToleration(t, field.Index("spec.template.spec.tolerations", i), opts); err != nil {
			return err
		}
	}
	if req := s.Template.Spec.Affinity.Required(); req != nil {
		// Each term alone against an empty node: the matcher parses the
		// whole term before matching, so a malformed one reports its error.
		for i, term := range req.NodeSelectorTerms {
			if _, err := node.MatchNodeSelectorTerms(&node.Node{}, []node.NodeSelectorTerm{term}); err != nil {
				return field.Under(field.Index("spec.template.spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms", i), stripTermPath(err))
			}
		}
	}
	return nil
}

// stripTermPath drops the "nodeSelectorTerms[0]." prefix the matcher puts
// on a single term's error.
func stripTermPath(err error) error {
	fe, ok := err.(*field.Error)
	if !ok {
		return err
	}
	c := *fe
	const p = "nodeSelectorTerms[0]."
	if len(c.Path) >= len(p) && c.Path[:len(p)] == p {
		c.Path = c.Path[len(p):]
	}
	return &c
}

func nonZero(v intstr.Value) bool {
	if !v.IsString() {
		return v.IntValue() != 0
	}
	s := v.String()
	n, err := strconv.ParseInt(s[:len(s)-1], 10, 64)
	return err != nil || n != 0
}

func validateToleration(t node.Toleration, path string, opts Options) error {
	switch t.Operator {
	case "", node.OpEqual:
		if t.Key == "" {
			return field.New(path+".operator", t.Operator, field.ErrInvalid)
		}
	case node.OpExists:
		if t.Value != "" {
			return field.New(path+".value", t.Value, field.ErrInvalid)
		}
	case node.OpLt, node.OpGt:
		if !opts.TaintTolerationComparisonOperators {
			return field.New(path+".operator", t.Operator, field.ErrUnsupported)
		}
	default:
		return field.New(path+".operator", t.Operator, field.ErrUnsupported)
	}
	switch node.TaintEffect(t.Effect) {
	case "", node.NoSchedule, node.PreferNoSchedule, node.NoExecute:
	default:
		return field.New(path+".effect", t.Effect, field.ErrUnsupported)
	}
	if t.TolerationSeconds != nil && node.TaintEffect(t.Effect) != node.NoExecute {
		return field.New(path+".effect", t.Effect, field.ErrInvalid)
	}
	return nil
}
