package replicaset_test

import (
	"errors"
	"testing"

	"github.com/kubesem/kubesem/field"
	"github.com/kubesem/kubesem/meta"
	"github.com/kubesem/kubesem/replicaset"
)

func TestValidate(t *testing.T) {
	t.Parallel()
	if err := replicaset.Validate(frontend(3)); err != nil {
		t.Fatalf("Validate(frontend) = %v", err)
	}
	neg := frontend(-1)
	noSel := frontend(1)
	noSel.Spec.Selector = nil
	mismatch := frontend(1)
	mismatch.Spec.Template.Labels = map[string]string{"tier": "backend"}
	rcExpr := frontend(1)
	rcExpr.Kind = "ReplicationController"
	rcExpr.Spec.Selector.MatchExpressions = []meta.Requirement{{Key: "tier", Operator: meta.OpExists}}
	for _, c := range []struct {
		name string
		rs   *replicaset.ReplicaSet
		path string
		err  error
	}{
		{"nil", nil, "replicaSet", field.ErrRequired},
		{"negative replicas", neg, "spec.replicas", field.ErrNegative},
		{"no selector", noSel, "spec.selector", field.ErrRequired},
		{"selector does not match the template", mismatch, "spec.template.metadata.labels", field.ErrInvalid},
		{"a ReplicationController with matchExpressions", rcExpr, "spec.selector.matchExpressions", field.ErrInvalid},
	} {
		var fe *field.Error
		err := replicaset.Validate(c.rs)
		if !errors.As(err, &fe) || fe.Path != c.path || !errors.Is(err, c.err) {
			t.Errorf("%s: Validate = %v; want %v at %s", c.name, err, c.err, c.path)
		}
	}
}
