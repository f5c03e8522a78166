package daemonset

import (
	"github.com/kubesem/kubesem/field"
	"github.com/kubesem/kubesem/internal/semantic"
)

// ValidateUpdate returns the first reason the API server refuses to replace
// old with ds: spec.selector changed (field.ErrImmutable), or ds fails
// [Validate]. Both are taken as stored (defaulted). The deprecated
// templateGeneration (kept in an annotation by apps/v1, which the API server
// sets itself) is not checked.
//
// Source: upstream pkg/apis/apps/validation/validation.go
// ValidateDaemonSetUpdate, ValidateDaemonSetSpecUpdate (v1.36.3).
func ValidateUpdate(old, ds *DaemonSet, opts Options) error {
	if old == nil {
		return field.New("old", "", field.ErrRequired)
	}
	if ds == nil {
		return field.New("daemonSet", "", field.ErrRequired)
	}
	if !semantic.Equal(ds.Spec.Selector, old.Spec.Selector) {
		return field.New("spec.selector", "", field.ErrImmutable)
	}
	return Validate(ds, opts)
}
