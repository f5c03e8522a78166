package statefulset

import (
	"errors"
	"math"
	"testing"

	"github.com/kubesem/kubesem/field"
	"github.com/kubesem/kubesem/intstr"
	"github.com/kubesem/kubesem/meta"
)

func TestValidate(t *testing.T) {
	t.Parallel()
	ok := func(name string, s StatefulSet) {
		t.Helper()
		if err := Validate(&s); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
	bad := func(name string, s StatefulSet, path string, kind error) {
		t.Helper()
		err := Validate(&s)
		var fe *field.Error
		if !errors.As(err, &fe) || fe.Path != path || !errors.Is(err, kind) {
			t.Errorf("%s: %v; want %s at %s", name, err, kind, path)
		}
	}
	ok("the test set", gset(3))
	ok("zero replicas", gset(0))
	ok("empty enumerations", StatefulSet{Spec: Spec{PersistentVolumeClaimRetentionPolicy: &RetentionPolicy{}}})
	ok("partition 0", gset(1, partition(0)))
	ok("partition past replicas", gset(1, partition(math.MaxInt32)))
	ok("maxUnavailable 1", gset(1, maxUnavail(intstr.Int(1))))
	ok("maxUnavailable 1%", gset(1, maxUnavail(intstr.Percent(1))))
	ok("maxUnavailable 100%", gset(1, maxUnavail(intstr.Percent(100))))
	ok("OnDelete", gset(1, onDelete))
	ok("a last ordinal past int32 (API-valid)", gset(2, start(math.MaxInt32)))
	ok("start MaxInt32, replicas MaxInt32", gset(math.MaxInt32, start(math.MaxInt32)))
	ok("absent strategy", gset(1, func(s *StatefulSet) { s.Spec.UpdateStrategy = UpdateStrategy{} }))

	if err := Validate(nil); err == nil {
		t.Error("nil set accepted")
	}
	bad("replicas -1", gset(-1), "spec.replicas", field.ErrNegative)
	bad("start -1", gset(1, start(-1)), "spec.ordinals.start", field.ErrNegative)
	bad("minReadySeconds -1", gset(1, func(s *StatefulSet) { s.Spec.MinReadySeconds = -1 }), "spec.minReadySeconds", field.ErrNegative)
	bad("policy", gset(1, func(s *StatefulSet) { s.Spec.PodManagementPolicy = "orderedready" }), "spec.podManagementPolicy", field.ErrInvalid)
	bad("strategy type (upstream's path)", gset(1, func(s *StatefulSet) { s.Spec.UpdateStrategy.Type = "Recreate" }), "spec.updateStrategy", field.ErrInvalid)
	bad("OnDelete with a block", gset(1, func(s *StatefulSet) { s.Spec.UpdateStrategy.Type = OnDelete }), "spec.updateStrategy.rollingUpdate", field.ErrInvalid)
	bad("partition -1", gset(1, partition(-1)), "spec.updateStrategy.rollingUpdate.partition", field.ErrNegative)
	bad("partition -1, empty type", gset(1, func(s *StatefulSet) {
		s.Spec.UpdateStrategy = UpdateStrategy{RollingUpdate: &RollingUpdateStrategy{Partition: i32(-1)}}
	}), "spec.updateStrategy.rollingUpdate.partition", field.ErrNegative)
	const mu = "spec.updateStrategy.rollingUpdate.maxUnavailable"
	bad("maxUnavailable 0", gset(1, maxUnavail(intstr.Int(0))), mu, field.ErrInvalid)
	bad("maxUnavailable 0%", gset(1, maxUnavail(intstr.Percent(0))), mu, field.ErrInvalid)
	bad("maxUnavailable 101%", gset(1, maxUnavail(intstr.Percent(101))), mu, field.ErrInvalid)
	bad("maxUnavailable -1", gset(1, maxUnavail(intstr.Int(-1))), mu, field.ErrNegative)
	bad("whenDeleted", gset(1, retention("retain", Retain)), "spec.persistentVolumeClaimRetentionPolicy.whenDeleted", field.ErrUnsupported)
	bad("whenScaled", gset(1, retention(Delete, "Keep")), "spec.persistentVolumeClaimRetentionPolicy.whenScaled", field.ErrUnsupported)
}

// TestValidateCreateSelectorOrder: a malformed selector is reported at the
// selector, as upstream's LabelSelectorAsSelector failure is, not at the
// template it cannot select (found by the vector "create: a StatefulSet
// whose selector has an unknown operator").
func TestValidateCreateSelectorOrder(t *testing.T) {
	t.Parallel()
	set := gset(1)
	set.Spec.Template.Labels = map[string]string{"app": "web"}
	set.Spec.Selector = &meta.LabelSelector{MatchExpressions: []meta.Requirement{{Key: "app", Operator: "Near", Values: []string{"web"}}}}
	err := ValidateCreate(&set)
	var fe *field.Error
	if !errors.As(err, &fe) || fe.Path != "spec.selector.matchExpressions[0].operator" {
		t.Errorf("ValidateCreate = %v; want the error at spec.selector.matchExpressions[0].operator", err)
	}
	set.Spec.Selector = &meta.LabelSelector{}
	if err := ValidateCreate(&set); !errors.As(err, &fe) || fe.Path != "spec.selector" || !errors.Is(err, field.ErrInvalid) {
		t.Errorf("empty selector: ValidateCreate = %v; want invalid at spec.selector", err)
	}
}
