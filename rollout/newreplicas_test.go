package rollout_test

import (
	"errors"
	"testing"

	"github.com/kubesem/kubesem/field"
	"github.com/kubesem/kubesem/replicaset"
	"github.com/kubesem/kubesem/rollout"
)

func TestNewReplicaSetReplicas(t *testing.T) {
	t.Parallel()
	recreate := deploy(3, "1", "1")
	recreate.Spec.Strategy.Type = rollout.RecreateStrategy
	for _, c := range []struct {
		name string
		d    *rollout.Deployment
		all  []*replicaset.ReplicaSet
		new  *replicaset.ReplicaSet
		want int32
	}{
		{"cannot scale up: keep size", deploy(1, "1", "1"), []*replicaset.ReplicaSet{rs("a", 5, 5, 0)}, rs("n", 5, 0, 1), 5},
		{"scale up to replicas", deploy(6, "10", "1"), []*replicaset.ReplicaSet{rs("a", 5, 5, 0)}, rs("n", 2, 0, 1), 6},
		{"recreate: replicas", recreate, nil, rs("n", 1, 0, 1), 3},
		{"surge room only", deploy(10, "2", "0"), []*replicaset.ReplicaSet{rs("a", 10, 10, 0), rs("n", 0, 0, 1)}, rs("n", 0, 0, 1), 2},
		{"nil new counts as 0", deploy(4, "1", "1"), nil, nil, 4},
	} {
		got, err := rollout.NewReplicaSetReplicas(c.d, c.all, c.new)
		if err != nil || got != c.want {
			t.Errorf("%s: NewReplicaSetReplicas = %d, %v; want %d", c.name, got, err, c.want)
		}
	}
	bad := deploy(3, "x%", "1")
	if _, err := rollout.NewReplicaSetReplicas(bad, nil, rs("n", 0, 0, 0)); !errors.Is(err, field.ErrInvalid) {
		t.Errorf("NewReplicaSetReplicas(maxSurge x%%) error = %v; want ErrInvalid", err)
	}
	odd := deploy(3, "1", "1")
	odd.Spec.Strategy.Type = "BlueGreen"
	if _, err := rollout.NewReplicaSetReplicas(odd, nil, rs("n", 0, 0, 0)); !errors.Is(err, field.ErrUnsupported) {
		t.Errorf("NewReplicaSetReplicas(BlueGreen) error = %v; want ErrUnsupported", err)
	}
}
