package rollout_test

import (
	"maps"
	"testing"

	"github.com/kubesem/kubesem/replicaset"
	"github.com/kubesem/kubesem/rollout"
)

func TestProportional(t *testing.T) {
	t.Parallel()
	seed := deploy(15, "3", "2")
	seed.Status.Replicas = 13
	for _, c := range []struct {
		name string
		d    *rollout.Deployment
		new  *replicaset.ReplicaSet
		old  []*replicaset.ReplicaSet
		want map[string]int32
	}{
		{"seed 000:L1585: 8+5 to 15 → 11+7", seed,
			annotated(rs("new", 5, 0, 2), "10", "13"), []*replicaset.ReplicaSet{annotated(rs("old", 8, 8, 1), "10", "13")},
			map[string]int32{"old": 11, "new": 7}},
		{"only one active: to replicas", deploy(12, "0", "1"), annotated(rs("v1", 10, 10, 1), "10", "10"), nil, map[string]int32{"v1": 12}},
		{"leftover up goes to the newer of equals", deploy(4, "0", "1"),
			annotated(rs("v3", 1, 1, 3), "3", "3"), []*replicaset.ReplicaSet{annotated(rs("v2", 1, 1, 2), "3", "3"), annotated(rs("v1", 1, 1, 1), "3", "3")},
			map[string]int32{"v3": 2, "v2": 1, "v1": 1}},
		{"leftover down comes from the older of equals", deploy(2, "0", "1"),
			annotated(rs("v3", 1, 1, 3), "3", "3"), []*replicaset.ReplicaSet{annotated(rs("v2", 1, 1, 2), "3", "3"), annotated(rs("v1", 1, 1, 1), "3", "3")},
			map[string]int32{"v3": 1, "v2": 1, "v1": 0}},
		{"to zero", deploy(0, "0", "1"),
			annotated(rs("v2", 3, 3, 2), "6", "6"), []*replicaset.ReplicaSet{annotated(rs("v1", 2, 2, 1), "6", "6")},
			map[string]int32{"v2": 0, "v1": 0}},
		{"saturated new: old to 0", deploy(2, "1", "1"),
			annotated(rs("v2", 2, 2, 2), "2", "3"), []*replicaset.ReplicaSet{annotated(rs("v1", 1, 1, 1), "2", "3")},
			map[string]int32{"v1": 0}},
	} {
		got := sizes(rollout.Proportional(c.d, c.new, c.old))
		if !maps.Equal(got, c.want) {
			t.Errorf("%s: Proportional = %v; want %v", c.name, got, c.want)
		}
	}
}

func TestProportion(t *testing.T) {
	t.Parallel()
	d := deploy(120, "10", "1")
	for _, c := range []struct {
		name         string
		rs           *replicaset.ReplicaSet
		toAdd, added int32
		want         int32
	}{
		{"fraction 50*130/110 - 50 = 9", annotated(rs("a", 50, 0, 0), "100", "110"), 100, 0, 9},
		{"bounded by what is left", annotated(rs("a", 50, 0, 0), "100", "110"), 5, 0, 5},
		{"nothing left", annotated(rs("a", 50, 0, 0), "100", "110"), 5, 5, 0},
		{"empty ReplicaSet", annotated(rs("a", 0, 0, 0), "100", "110"), 5, 0, 0},
		{"no annotation, no status: 0", rs("a", 50, 0, 0), 5, 0, 0},
		{"nil ReplicaSet", nil, 5, 0, 0},
	} {
		if got := rollout.Proportion(d, c.rs, c.toAdd, c.added); got != c.want {
			t.Errorf("%s: Proportion = %d; want %d", c.name, got, c.want)
		}
	}
}

func TestIsScalingEventAndSaturated(t *testing.T) {
	t.Parallel()
	d := deploy(5, "1", "1")
	if !d.IsScalingEvent([]*replicaset.ReplicaSet{annotated(rs("a", 3, 3, 0), "4", "5")}) {
		t.Errorf("IsScalingEvent(desired 4, replicas 5) = false; want true")
	}
	if d.IsScalingEvent([]*replicaset.ReplicaSet{annotated(rs("a", 0, 0, 0), "4", "5"), nil}) {
		t.Errorf("IsScalingEvent(inactive) = true; want false")
	}
	if !d.IsSaturated(annotated(rs("a", 5, 5, 0), "5", "6")) {
		t.Errorf("IsSaturated(5/5/5) = false; want true")
	}
	if d.IsSaturated(annotated(rs("a", 5, 4, 0), "5", "6")) {
		t.Errorf("IsSaturated(4 available) = true; want false")
	}
	if d.IsSaturated(nil) {
		t.Errorf("IsSaturated(nil) = true; want false")
	}
}
