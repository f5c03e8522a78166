package rollout

import (
	"github.com/kubesem/kubesem/field"
	"github.com/kubesem/kubesem/internal/semantic"
)

// ValidateUpdate returns the first reason the API server refuses to replace
// old with d: d's spec fails [Validate], or spec.selector changed (apps/v1
// Deployment selectors are immutable: field.ErrImmutable). Both are taken as
// stored (defaulted).
//
// Source: upstream pkg/apis/apps/validation/validation.go
// ValidateDeploymentUpdate (v1.36.3).
func ValidateUpdate(old, d *Deployment) error {
	if old == nil {
		return field.New("old", "", field.ErrRequired)
	}
	if err := Validate(d, nil, nil); err != nil {
		return err
	}
	if !semantic.Equal(d.Spec.Selector, old.Spec.Selector) {
		return field.New("spec.selector", "", field.ErrImmutable)
	}
	return nil
}
