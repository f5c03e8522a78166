package replicaset

import (
	"github.com/kubesem/kubesem/field"
	"github.com/kubesem/kubesem/internal/semantic"
)

// ValidateUpdate returns the first reason the API server refuses to replace
// old with rs: rs fails [Validate], or, for an apps/v1 ReplicaSet,
// spec.selector changed (field.ErrImmutable); a ReplicationController's
// selector may change. Both are taken as stored (defaulted).
//
// Source: upstream pkg/apis/apps/validation/validation.go
// ValidateReplicaSetUpdate, pkg/apis/core/validation/validation.go
// ValidateReplicationControllerUpdate (v1.36.3).
func ValidateUpdate(old, rs *ReplicaSet) error {
	if old == nil {
		return field.New("old", "", field.ErrRequired)
	}
	if err := Validate(rs); err != nil {
		return err
	}
	if rs.Kind != KindReplicationController && !semantic.Equal(rs.Spec.Selector, old.Spec.Selector) {
		return field.New("spec.selector", "", field.ErrImmutable)
	}
	return nil
}
