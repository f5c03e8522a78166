package rollout_test

import (
	"errors"
	"testing"

	"github.com/kubesem/kubesem/field"
	"github.com/kubesem/kubesem/replicaset"
	"github.com/kubesem/kubesem/rollout"
)

func TestValidate(t *testing.T) {
	t.Parallel()
	if err := rollout.Validate(deploy(3, "25%", "25%"), nil, nil); err != nil {
		t.Fatalf("Validate(valid) = %v", err)
	}
	bothZero := deploy(3, "0", "0")
	overPercent := deploy(3, "", "101%")
	other := deploy(3, "", "")
	other.Spec.Strategy.Type = "BlueGreen"
	mismatch := deploy(3, "", "")
	mismatch.Spec.Template.Labels = map[string]string{"app": "bar"}
	recreate := deploy(3, "1", "")
	recreate.Spec.Strategy.Type = rollout.RecreateStrategy
	for _, c := range []struct {
		name string
		d    *rollout.Deployment
		rss  []*replicaset.ReplicaSet
		path string
		err  error
	}{
		{"nil", nil, nil, "deployment", field.ErrRequired},
		{"negative replicas", deploy(-1, "", ""), nil, "spec.replicas", field.ErrNegative},
		{"both bounds 0", bothZero, nil, "spec.strategy.rollingUpdate.maxUnavailable", field.ErrInvalid},
		{"maxUnavailable above 100%", overPercent, nil, "spec.strategy.rollingUpdate.maxUnavailable", field.ErrInvalid},
		{"an unknown strategy", other, nil, "spec.strategy", field.ErrUnsupported},
		{"a selector not matching the template", mismatch, nil, "spec.template.metadata.labels", field.ErrInvalid},
		{"Recreate with rollingUpdate", recreate, nil, "spec.strategy.rollingUpdate", field.ErrForbidden},
		{"a nil ReplicaSet", deploy(3, "", ""), []*replicaset.ReplicaSet{nil}, "replicaSets[0]", field.ErrRequired},
		{"two ReplicaSets with one name", deploy(3, "", ""), []*replicaset.ReplicaSet{rs("a", 1, 1, 0), rs("a", 1, 1, 1)}, "replicaSets[1].metadata.name", field.ErrDuplicate},
	} {
		var fe *field.Error
		err := rollout.Validate(c.d, c.rss, nil)
		if !errors.As(err, &fe) || fe.Path != c.path || !errors.Is(err, c.err) {
			t.Errorf("%s: Validate = %v; want %v at %s", c.name, err, c.err, c.path)
		}
	}
}
