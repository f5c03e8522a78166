package statefulset

import (
	"slices"
	"testing"
)

// A missing pod's revision at the boundaries: start+partition, and
// start+status.currentReplicas for RollingUpdate without a block.
func TestNewPodRevision(t *testing.T) {
	t.Parallel()
	two := func(mods ...func(*StatefulSet)) StatefulSet {
		return gset(4, append([]func(*StatefulSet){start(3), parallel, template("web-v2"), current("web-v1", "web-v2")}, mods...)...)
	}
	for _, c := range []struct {
		name string
		set  StatefulSet
		want []string
	}{
		{"partition 2 from start 3: web-3, web-4 current", two(partition(2)), []string{"web-3@web-v1", "web-4@web-v1", "web-5@web-v2", "web-6@web-v2"}},
		{"partition 0", two(partition(0)), []string{"web-3@web-v2", "web-4@web-v2", "web-5@web-v2", "web-6@web-v2"}},
		{"partition past the range", two(partition(9)), []string{"web-3@web-v1", "web-4@web-v1", "web-5@web-v1", "web-6@web-v1"}},
		{"no block, currentReplicas 1", two(func(s *StatefulSet) {
			s.Spec.UpdateStrategy.RollingUpdate = nil
			s.Status.CurrentReplicas = 1
		}), []string{"web-3@web-v1", "web-4@web-v2", "web-5@web-v2", "web-6@web-v2"}},
		{"no updateStrategy: partition 0 whatever currentReplicas", two(func(s *StatefulSet) {
			s.Spec.UpdateStrategy = UpdateStrategy{}
			s.Status.CurrentReplicas = 4
		}), []string{"web-3@web-v2", "web-4@web-v2", "web-5@web-v2", "web-6@web-v2"}},
		{"OnDelete: update revision", two(onDelete, func(s *StatefulSet) { s.Status.CurrentReplicas = 4 }), []string{"web-3@web-v2", "web-4@web-v2", "web-5@web-v2", "web-6@web-v2"}},
	} {
		p := mustStep(t, c.set, nil, revs("web-v1", "web-v2"), nil, Options{})
		if got := created(p); !slices.Equal(got, c.want) {
			t.Errorf("%s: %v; want %v", c.name, got, c.want)
		}
	}
}
