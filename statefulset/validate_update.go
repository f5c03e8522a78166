package statefulset

import (
	"github.com/kubesem/kubesem/field"
	"github.com/kubesem/kubesem/internal/semantic"
)

// ValidateUpdate returns the first reason the API server refuses to replace
// old with set: set fails [ValidateCreate], or the update changes a spec field
// other than replicas, ordinals, template, updateStrategy,
// revisionHistoryLimit, persistentVolumeClaimRetentionPolicy and
// minReadySeconds (field.ErrForbidden at "spec"): here selector,
// serviceName, podManagementPolicy (an empty one read as the default,
// OrderedReady) and the claim templates' metadata, the modelled fields
// besides those. A claim template's spec is not modelled, so a change to it
// is not seen.
//
// Source: upstream pkg/apis/apps/validation/validation.go
// ValidateStatefulSetUpdate (v1.36.3).
func ValidateUpdate(old, set *StatefulSet) error {
	if old == nil {
		return field.New("old", "", field.ErrRequired)
	}
	if err := ValidateCreate(set); err != nil {
		return err
	}
	policy := func(p PodManagementPolicy) PodManagementPolicy {
		if p == "" {
			return OrderedReady
		}
		return p
	}
	o, n := &old.Spec, &set.Spec
	if !semantic.Equal(n.Selector, o.Selector) || n.ServiceName != o.ServiceName ||
		policy(n.PodManagementPolicy) != policy(o.PodManagementPolicy) ||
		!semantic.Equal(n.VolumeClaimTemplates, o.VolumeClaimTemplates) {
		return field.New("spec", "", field.ErrForbidden)
	}
	return nil
}

// ValidateCreate returns the first reason the API server refuses to create
// set: set fails [Validate], or its selector is missing, malformed or empty
// (in that order) or does not select the template's labels (which
// [Validate] leaves to its callers: a set without a selector claims
// nothing). A malformed selector selects nothing, so the template is not
// checked against it.
//
// Source: upstream pkg/apis/apps/validation/validation.go
// ValidateStatefulSet, ValidateStatefulSetSpec (v1.36.3).
func ValidateCreate(set *StatefulSet) error {
	if err := Validate(set); err != nil {
		return err
	}
	sel := set.Spec.Selector
	if sel == nil {
		return field.New("spec.selector", "", field.ErrRequired)
	}
	if err := sel.Validate("spec.selector"); err != nil {
		return err
	}
	if sel.IsEmpty() {
		return field.New("spec.selector", "", field.ErrInvalid)
	}
	if !sel.Matches(set.Spec.Template.Labels) {
		return field.New("spec.template.metadata.labels", "", field.ErrInvalid)
	}
	return nil
}
