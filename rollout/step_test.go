package rollout_test

import (
	"errors"
	"maps"
	"testing"

	"github.com/kubesem/kubesem/field"
	"github.com/kubesem/kubesem/replicaset"
	"github.com/kubesem/kubesem/rollout"
)

func sizesOf(rss []*replicaset.ReplicaSet) map[string]int32 {
	m := map[string]int32{}
	for _, r := range rss {
		m[r.Name] = r.Replicas()
	}
	return m
}

func TestStepRollover(t *testing.T) {
	t.Parallel()
	// seed 000:L1328: 5 replicas of v1 with 3 created, then v2.
	w := rolloutWorld(5, "", "")
	w.rss[0].Status.Replicas, w.rss[0].Status.AvailableReplicas = 3, 3
	w.d.TemplateHash = "v2hash"
	p, err := w.tick()
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]int32{"foo-v1": 4, "foo-v2hash": 2}
	if got := sizesOf(w.rss); !maps.Equal(got, want) {
		t.Errorf("Step(rollover) sizes = %v; want %v (plan %+v)", got, want, p)
	}
	if p.Outcome != rollout.ReasonRollingUpdate || writes(p) != 2 || p.Create.Count != 1 || len(p.Scale) != 1 || p.Scale[0].Reason != rollout.ReasonCleanupUnhealthy {
		t.Errorf("Step(rollover) = %s %+v; want RollingUpdate, create, then CleanupUnhealthy", p.Outcome, p)
	}
	if p.Annotations[rollout.RevisionAnnotation] != "2" {
		t.Errorf("Step(rollover) revision = %q; want 2", p.Annotations[rollout.RevisionAnnotation])
	}
}

func TestStepConvergesAndIsIdempotent(t *testing.T) {
	t.Parallel()
	w := rolloutWorld(10, "3", "2")
	for i := 0; i < 100; i++ {
		if _, err := w.tick(); err != nil {
			t.Fatal(err)
		}
		w.settle(func(*replicaset.ReplicaSet) int32 { return 2 })
	}
	p, err := rollout.Step(w.d, w.rss, nil, w.now, rollout.Options{})
	if err != nil || writes(p) != 0 {
		t.Fatalf("Step(converged) = %+v, %v; want no writes", p, err)
	}
	for _, r := range w.rss {
		if r.Spec.Template.Spec.Containers[0].Image == "app:v2" && r.Replicas() != 10 || r.Spec.Template.Spec.Containers[0].Image == "app:v1" && r.Replicas() != 0 {
			t.Errorf("converged %s = %d replicas", r.Name, r.Replicas())
		}
	}
}

func TestStepValidates(t *testing.T) {
	t.Parallel()
	neg := deploy(-1, "1", "1")
	zero := deploy(3, "0", "0%")
	noSel := deploy(3, "1", "1")
	noSel.Spec.Selector = nil
	for _, c := range []struct {
		name string
		d    *rollout.Deployment
		rss  []*replicaset.ReplicaSet
		path string
		err  error
	}{
		{"nil deployment", nil, nil, "deployment", field.ErrRequired},
		{"negative replicas", neg, nil, "spec.replicas", field.ErrNegative},
		{"both bounds 0", zero, nil, "spec.strategy.rollingUpdate.maxUnavailable", field.ErrInvalid},
		{"no selector", noSel, nil, "spec.selector", field.ErrRequired},
		{"nil ReplicaSet", deploy(3, "1", "1"), []*replicaset.ReplicaSet{nil}, "replicaSets[0]", field.ErrRequired},
		{"duplicate names", deploy(3, "1", "1"), []*replicaset.ReplicaSet{rs("a", 1, 1, 0), rs("a", 1, 1, 1)}, "replicaSets[1].metadata.name", field.ErrDuplicate},
	} {
		_, err := rollout.Step(c.d, c.rss, nil, t0, rollout.Options{})
		var fe *field.Error
		if !errors.As(err, &fe) || fe.Path != c.path || !errors.Is(err, c.err) {
			t.Errorf("%s: Step error = %v; want %v at %s", c.name, err, c.err, c.path)
		}
	}
}

func TestStepRecreate(t *testing.T) {
	t.Parallel()
	w := rolloutWorld(3, "", "")
	w.d.Spec.Strategy = rollout.Strategy{Type: rollout.RecreateStrategy}
	want := []rollout.Reason{rollout.ReasonRecreateScaleDown, rollout.ReasonCreateNew}
	var got []rollout.Reason
	for i := 0; i < 5; i++ {
		p, err := w.tick()
		if err != nil {
			t.Fatal(err)
		}
		for _, u := range p.Update {
			got = append(got, u.Reason)
		}
		if p.Create.Count > 0 {
			got = append(got, p.Create.Reason)
		}
		for _, r := range p.Scale {
			got = append(got, r.Reason)
		}
		w.settle(func(*replicaset.ReplicaSet) int32 { return 3 })
	}
	if len(got) != len(want) || got[0] != want[0] || got[1] != want[1] {
		t.Errorf("Recreate reasons = %v; want %v", got, want)
	}
}

// writes counts a Plan's ReplicaSet writes.
func writes(p rollout.Plan) int {
	return len(p.Update) + int(p.Create.Count) + len(p.Scale) + len(p.Delete)
}
