package rollout_test

import (
	"maps"
	"testing"
	"time"

	"github.com/kubesem/kubesem/plan"
	"github.com/kubesem/kubesem/replicaset"
	"github.com/kubesem/kubesem/rollout"
)

func TestApply(t *testing.T) {
	t.Parallel()
	in := []*replicaset.ReplicaSet{rs("a", 3, 3, 0), rs("b", 2, 2, 1)}
	p := rollout.Plan{
		Create: plan.Creation[replicaset.ReplicaSet]{Count: 1, Objects: []replicaset.ReplicaSet{*rs("c", 4, 0, 2)}},
		Scale:  []rollout.Resize{{Name: "a", Replicas: 1, Annotations: map[string]string{"k": "v"}}, {Name: "missing", Replicas: 9}},
		Delete: []plan.Deletion{{Name: "b"}},
	}
	out := p.Apply(in, t0.Add(time.Hour))
	if got, want := sizesOf(out), map[string]int32{"a": 1, "c": 4}; !maps.Equal(got, want) {
		t.Errorf("Apply sizes = %v; want %v", got, want)
	}
	if in[0].Replicas() != 3 || len(in) != 2 || in[0].Annotations != nil {
		t.Errorf("Apply modified its input: %+v", in[0])
	}
	if out[0].Annotations["k"] != "v" {
		t.Errorf("Apply annotations = %v; want k=v", out[0].Annotations)
	}
}
