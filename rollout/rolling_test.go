package rollout_test

import (
	"slices"
	"testing"

	"github.com/kubesem/kubesem/replicaset"
	"github.com/kubesem/kubesem/rollout"
)

func TestReconcileNewReplicaSet(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		surge          string
		old, new, want int32
		reason         rollout.Reason
	}{
		{"0", 10, 0, 0, ""},
		{"2", 10, 0, 2, rollout.ReasonScaleUpNew},
		{"2", 5, 0, 7, rollout.ReasonScaleUpNew},
		{"2", 10, 2, 2, ""},
		{"2", 2, 11, 10, rollout.ReasonScaleDownNew},
	} {
		d := deploy(10, c.surge, "0")
		newRS := rs("new", c.new, 0, 1)
		got, reason, err := rollout.ReconcileNewReplicaSet(d, []*replicaset.ReplicaSet{newRS, rs("old", c.old, c.old, 0)}, newRS)
		if err != nil || got != c.want || reason != c.reason {
			t.Errorf("ReconcileNewReplicaSet(surge %s, old %d, new %d) = %d, %q, %v; want %d, %q", c.surge, c.old, c.new, got, reason, err, c.want, c.reason)
		}
	}
}

type scaleRow struct {
	Name     string
	Replicas int32
	Reason   rollout.Reason
}

func rows(scales []rollout.Scale) []scaleRow {
	var out []scaleRow
	for _, s := range scales {
		out = append(out, scaleRow{s.ReplicaSet.Name, s.Replicas, s.Reason})
	}
	return out
}

func TestReconcileOldReplicaSets(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name                     string
		unavail                  string
		old, oldAvl, new, newAvl int32
		want                     []scaleRow
		scaled                   bool
	}{
		{"maxUnavailable 0 fencepost 1", "0", 10, 10, 0, 0, []scaleRow{{"old", 9, rollout.ReasonScaleDownOld}}, true},
		{"maxUnavailable 2", "2", 10, 10, 0, 0, []scaleRow{{"old", 8, rollout.ReasonScaleDownOld}}, true},
		{"unhealthy cleaned first", "2", 10, 8, 0, 0, []scaleRow{{"old", 8, rollout.ReasonCleanupUnhealthy}}, true},
		{"cleanup then scale down", "2", 10, 9, 0, 0, []scaleRow{{"old", 9, rollout.ReasonCleanupUnhealthy}, {"old", 8, rollout.ReasonScaleDownOld}}, true},
		{"unavailable new pods block", "2", 8, 8, 2, 0, nil, false},
	} {
		d := deploy(10, "0", c.unavail)
		o, n := rs("old", c.old, c.oldAvl, 0), rs("new", c.new, c.newAvl, 1)
		got, scaled := rollout.ReconcileOldReplicaSets(d, []*replicaset.ReplicaSet{o, n}, []*replicaset.ReplicaSet{o}, n)
		if !slices.Equal(rows(got), c.want) || scaled != c.scaled {
			t.Errorf("%s: ReconcileOldReplicaSets = %v, %v; want %v, %v", c.name, rows(got), scaled, c.want, c.scaled)
		}
	}
}

func TestCleanupUnhealthy(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		max     int32
		want    []scaleRow
		cleaned int32
		ok      bool
		old     []*replicaset.ReplicaSet
	}{
		{1, []scaleRow{{"a", 9, rollout.ReasonCleanupUnhealthy}}, 1, true, []*replicaset.ReplicaSet{rs("a", 10, 8, 0)}},
		{3, []scaleRow{{"a", 8, rollout.ReasonCleanupUnhealthy}}, 2, true, []*replicaset.ReplicaSet{rs("a", 10, 8, 0)}},
		{0, nil, 0, true, []*replicaset.ReplicaSet{rs("a", 10, 8, 0)}},
		{3, nil, 0, true, []*replicaset.ReplicaSet{rs("a", 10, 10, 0)}},
		{3, []scaleRow{{"a", 1, rollout.ReasonCleanupUnhealthy}, {"b", 2, rollout.ReasonCleanupUnhealthy}}, 3, true,
			[]*replicaset.ReplicaSet{rs("b", 3, 1, 1), rs("a", 3, 1, 0)}},
		{9, []scaleRow{{"a", 1, rollout.ReasonCleanupUnhealthy}}, 2, false,
			[]*replicaset.ReplicaSet{rs("a", 3, 1, 0), rs("b", 2, 4, 1)}},
	} {
		got, cleaned, ok := rollout.CleanupUnhealthy(c.old, c.max)
		if !slices.Equal(rows(got), c.want) || cleaned != c.cleaned || ok != c.ok {
			t.Errorf("CleanupUnhealthy(max %d) = %v, %d, %v; want %v, %d, %v", c.max, rows(got), cleaned, ok, c.want, c.cleaned, c.ok)
		}
	}
}

func TestScaleDownOld(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		unavail          string
		ready, old, want int32
		scaled           bool
	}{
		{"0", 10, 10, 9, true},
		{"2", 10, 10, 8, true},
		{"2", 8, 10, 0, false},
		{"2", 10, 0, 0, false},
		{"2", 1, 10, 0, false},
	} {
		o := rs("old", c.old, c.ready, 0)
		got, down := rollout.ScaleDownOld(deploy(10, "0", c.unavail), []*replicaset.ReplicaSet{o}, []*replicaset.ReplicaSet{o})
		var want []scaleRow
		var wantDown int32
		if c.scaled {
			want, wantDown = []scaleRow{{"old", c.want, rollout.ReasonScaleDownOld}}, c.old-c.want
		}
		if !slices.Equal(rows(got), want) || down != wantDown {
			t.Errorf("ScaleDownOld(unavailable %s, ready %d, old %d) = %v, %d; want %v, %d", c.unavail, c.ready, c.old, rows(got), down, want, wantDown)
		}
	}
}
