package node

import (
	"strconv"
	"testing"
)

func f32(v float32) *float32 { return &v }
func i32(v int32) *int32     { return &v }

func TestZoneStateThresholds(t *testing.T) {
	t.Parallel()
	cases := []struct {
		ready, notReady int
		want            ZoneState
	}{
		{0, 0, ZoneNormal},
		{0, 1, ZoneFullDisruption},
		{1, 2, ZoneNormal},             // fewer than 3 not ready
		{2, 3, ZonePartialDisruption},  // 3/5 = 0.6
		{3, 3, ZoneNormal},             // 0.5
		{9, 11, ZonePartialDisruption}, // 0.55 exactly
		{10, 11, ZoneNormal},           // 0.5238
	}
	for _, c := range cases {
		var ready []ConditionStatus
		for range c.ready {
			ready = append(ready, ConditionTrue)
		}
		for i := range c.notReady {
			ready = append(ready, []ConditionStatus{ConditionFalse, ConditionUnknown, ""}[i%3])
		}
		n, st := ComputeZoneState(ready, Options{})
		if n != c.notReady || st != c.want {
			t.Errorf("%d ready %d not: %d %s, want %s", c.ready, c.notReady, n, st, c.want)
		}
	}
	if _, st := ComputeZoneState([]ConditionStatus{ConditionTrue, ConditionFalse, ConditionFalse, ConditionFalse}, Options{UnhealthyZoneThreshold: f32(0.8)}); st != ZoneNormal {
		t.Errorf("custom threshold: %s", st)
	}
}

func TestZoneRates(t *testing.T) {
	t.Parallel()
	if r := ReducedRate(50, Options{}); r != 0 {
		t.Errorf("50 nodes: %v", r)
	}
	if r := ReducedRate(51, Options{}); r != DefaultSecondaryEvictionRate {
		t.Errorf("51 nodes: %v", r)
	}
	if r := ReducedRate(11, Options{LargeClusterThreshold: i32(10), SecondaryEvictionRate: f32(0.5)}); r != 0.5 {
		t.Errorf("custom: %v", r)
	}
	if r := HealthyRate(1000, Options{EvictionRate: f32(2)}); r != 2 {
		t.Errorf("healthy: %v", r)
	}
	for _, c := range []struct {
		st   ZoneState
		size int
		rate float32
		ok   bool
	}{
		{ZoneNormal, 3, DefaultEvictionRate, true},
		{ZoneFullDisruption, 3, DefaultEvictionRate, true},
		{ZonePartialDisruption, 3, 0, true},
		{ZonePartialDisruption, 100, DefaultSecondaryEvictionRate, true},
		{ZoneInitial, 3, 0, false},
	} {
		if r, ok := ZoneRate(c.st, c.size, Options{}); r != c.rate || ok != c.ok {
			t.Errorf("ZoneRate(%s, %d) = %v %v", c.st, c.size, r, ok)
		}
	}
}

func TestZoneStatesGroups(t *testing.T) {
	t.Parallel()
	mk := func(name string, labels map[string]string, ready bool) *Node {
		n := &Node{}
		n.Name, n.Labels = name, labels
		if ready {
			n.Status.Conditions = []Condition{{Type: Ready, Status: ConditionTrue}}
		}
		return n
	}
	nodes := []*Node{
		mk("a", map[string]string{LabelTopologyZone: "z1"}, true),
		mk("b", map[string]string{LabelFailureZone: "z1"}, false),
		mk("c", map[string]string{LabelTopologyZone: "z1", LabelExcludeDisruption: ""}, false),
		mk("d", nil, false),
		nil,
	}
	got := ZoneStates(nodes, Options{})
	if len(got) != 2 || got[0].Zone != "" || got[0].State != ZoneFullDisruption || got[1].Zone != ":\x00:z1" || got[1].Size != 2 || got[1].NotReady != 1 || got[1].Rate != DefaultEvictionRate {
		t.Fatalf("%+v", got)
	}
	// more zones than the built-in table, keys intact
	nodes = nil
	for i := range 100 {
		nodes = append(nodes, mk("n"+strconv.Itoa(i), map[string]string{LabelTopologyRegion: "r", LabelTopologyZone: "zone-" + strconv.Itoa(i%40)}, i%2 == 0))
	}
	got = ZoneStates(nodes, Options{})
	if len(got) != 40 {
		t.Fatalf("%d zones", len(got))
	}
	total := 0
	for i, z := range got {
		total += z.Size
		if i > 0 && got[i-1].Zone >= z.Zone {
			t.Fatalf("unsorted: %q %q", got[i-1].Zone, z.Zone)
		}
		if z.Zone[:4] != "r:\x00:" {
			t.Fatalf("key %q", z.Zone)
		}
	}
	if total != 100 {
		t.Fatalf("%d nodes counted", total)
	}
}

func TestComputeZoneState(t *testing.T) {
	t.Parallel()
	st := func(r, n int) []ConditionStatus {
		var out []ConditionStatus
		for range r {
			out = append(out, ConditionTrue)
		}
		for range n {
			out = append(out, ConditionFalse)
		}
		return out
	}
	cases := []struct {
		r, n int
		want ZoneState
	}{{0, 0, ZoneNormal}, {0, 1, ZoneFullDisruption}, {1, 2, ZoneNormal}, {2, 3, ZonePartialDisruption}, {9, 11, ZonePartialDisruption}, {10, 11, ZoneNormal}, {45, 55, ZonePartialDisruption}, {46, 54, ZoneNormal}}
	for _, c := range cases {
		if _, got := ComputeZoneState(st(c.r, c.n), Options{}); got != c.want {
			t.Errorf("%d ready %d not: %s", c.r, c.n, got)
		}
	}
	if ReducedRate(50, Options{}) != 0 || ReducedRate(51, Options{}) != 0.01 {
		t.Error("reduced rate")
	}
}
