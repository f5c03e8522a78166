package pdb

import (
	"github.com/kubesem/kubesem/field"
	"github.com/kubesem/kubesem/intstr"
)

// Validate returns a *field.Error, with the API's field path, for what
// v1.36.3 API validation rejects in the modelled fields: both minAvailable
// and maxUnavailable set (spec, ErrInvalid), a negative integer or a
// malformed or above-100% percentage in either, an invalid selector, and an
// unknown unhealthyPodEvictionPolicy (ErrUnsupported).
//
// Source: upstream pkg/apis/policy/validation/validation.go
// ValidatePodDisruptionBudgetSpec (v1.36.3).
func Validate(b *PodDisruptionBudget) error {
	if b == nil {
		return field.New("", "", field.ErrRequired)
	}
	s := &b.Spec
	if s.MinAvailable != nil && s.MaxUnavailable != nil {
		return field.New("spec", "minAvailable and maxUnavailable", field.ErrInvalid)
	}
	if s.MinAvailable != nil {
		if err := intstr.ValidateAtMost100Percent(*s.MinAvailable, "spec.minAvailable"); err != nil {
			return err
		}
	}
	if s.MaxUnavailable != nil {
		if err := intstr.ValidateAtMost100Percent(*s.MaxUnavailable, "spec.maxUnavailable"); err != nil {
			return err
		}
	}
	if s.Selector != nil {
		if err := s.Selector.Validate("spec.selector"); err != nil {
			return err
		}
	}
	if p := s.UnhealthyPodEvictionPolicy; p != nil && *p != IfHealthyBudget && *p != AlwaysAllow {
		return field.New("spec.unhealthyPodEvictionPolicy", string(*p), field.ErrUnsupported)
	}
	return nil
}
