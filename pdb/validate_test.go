package pdb_test

import (
	"errors"
	"testing"

	"github.com/kubesem/kubesem/field"
	"github.com/kubesem/kubesem/intstr"
	"github.com/kubesem/kubesem/meta"
	"github.com/kubesem/kubesem/pdb"
)

func TestValidate(t *testing.T) {
	t.Parallel()
	withPolicy := func(p pdb.EvictionPolicy) *pdb.PodDisruptionBudget {
		b := budget(ptr(intstr.Int(1)), nil)
		b.Spec.UnhealthyPodEvictionPolicy = &p
		return b
	}
	withSelector := func(s *meta.LabelSelector) *pdb.PodDisruptionBudget {
		b := budget(ptr(intstr.Int(1)), nil)
		b.Spec.Selector = s
		return b
	}
	tests := []struct {
		name string
		b    *pdb.PodDisruptionBudget
		path string // "" when valid
		err  error
	}{
		{"minAvailable 0", budget(ptr(intstr.Int(0)), nil), "", nil},
		{"maxUnavailable 100%", budget(nil, ptr(intstr.Percent(100))), "", nil},
		{"neither field", budget(nil, nil), "", nil},
		{"nil selector", withSelector(nil), "", nil},
		{"IfHealthyBudget", withPolicy(pdb.IfHealthyBudget), "", nil},
		{"AlwaysAllow", withPolicy(pdb.AlwaysAllow), "", nil},
		{"both fields", budget(ptr(intstr.Int(1)), ptr(intstr.Int(1))), "spec", field.ErrInvalid},
		{"negative minAvailable", budget(ptr(intstr.Int(-1)), nil), "spec.minAvailable", field.ErrNegative},
		{"negative maxUnavailable", budget(nil, ptr(intstr.Int(-1))), "spec.maxUnavailable", field.ErrNegative},
		{"minAvailable 101%", budget(ptr(intstr.Percent(101)), nil), "spec.minAvailable", nil},
		{"maxUnavailable 101%", budget(nil, ptr(intstr.Percent(101))), "spec.maxUnavailable", nil},
		{"malformed percentage", budget(ptr(intstr.String("ten%")), nil), "spec.minAvailable", nil},
		{"unknown policy", withPolicy("Sometimes"), "spec.unhealthyPodEvictionPolicy", field.ErrUnsupported},
		{"bad selector operator", withSelector(&meta.LabelSelector{MatchExpressions: []meta.Requirement{{Key: "a", Operator: "Near"}}}), "spec.selector.matchExpressions[0].operator", field.ErrInvalid},
		{"nil budget", nil, "", field.ErrRequired},
	}
	for _, tc := range tests {
		err := pdb.Validate(tc.b)
		valid := tc.path == "" && tc.err == nil
		if valid {
			if err != nil {
				t.Errorf("Validate(%s) = %v; want nil", tc.name, err)
			}
			continue
		}
		var fe *field.Error
		if !errors.As(err, &fe) {
			t.Errorf("Validate(%s) = %v; want a *field.Error at %q", tc.name, err, tc.path)
			continue
		}
		if fe.Path != tc.path || tc.err != nil && !errors.Is(err, tc.err) {
			t.Errorf("Validate(%s) = %v (path %q); want path %q, %v", tc.name, err, fe.Path, tc.path, tc.err)
		}
	}
}
