package node

import (
	"testing"
	"time"
)

var t0 = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

func readyNode(name, zone string, hb time.Time) *Node {
	n := &Node{}
	n.Name = name
	n.CreationTimestamp = t0.Add(-time.Hour)
	n.Labels = map[string]string{LabelTopologyZone: zone}
	n.Status.Conditions = []Condition{{Type: Ready, Status: ConditionTrue, LastHeartbeatTime: hb, LastTransitionTime: t0.Add(-time.Hour)}}
	return n
}

func TestStepNodeGoesUnknown(t *testing.T) {
	nodes := []*Node{readyNode("a", "z1", t0), readyNode("b", "z1", t0), readyNode("c", "z1", t0)}
	p, err := Step(nodes, nil, nil, Memory{}, t0, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Events) != 3 || len(p.Zones) != 1 || p.Zones[0].State != ZoneNormal || p.Zones[0].Rate != 0.1 {
		t.Fatalf("first pass: %+v", p)
	}
	mem := p.Memory
	// a keeps heartbeating; b and c stop. At t0+50s: not yet (strict).
	for _, now := range []time.Duration{50 * time.Second, 51 * time.Second} {
		nodes[0].Status.Conditions[0].LastHeartbeatTime = t0.Add(now)
		p, err = Step(nodes, nil, nil, mem, t0.Add(now), Options{})
		if err != nil {
			t.Fatal(err)
		}
		mem = p.Memory
	}
	if len(p.Conditions) != 2 || p.Conditions[0].Node != "b" || p.Conditions[0].Conditions[0].Status != ConditionUnknown {
		t.Fatalf("unknown at 51s: %+v", p.Conditions)
	}
	if len(p.MarkPodsNotReady) != 2 {
		t.Fatalf("mark pods: %v", p.MarkPodsNotReady)
	}
	// rate 0.1 with burst 1: one NoExecute taint now, plus NoSchedule unreachable on both.
	noExec := 0
	for _, w := range p.Taints {
		for _, tt := range w.Add {
			if tt.Effect == NoExecute {
				noExec++
			}
		}
	}
	if noExec != 1 {
		t.Fatalf("taints: %+v", p.Taints)
	}
	if p.Zones[0].NotReady != 2 || p.Zones[0].State != ZoneNormal {
		t.Fatalf("zone: %+v", p.Zones)
	}
}

func TestStepAllZonesDown(t *testing.T) {
	nodes := []*Node{readyNode("a", "z1", t0), readyNode("b", "z2", t0)}
	p, _ := Step(nodes, nil, nil, Memory{}, t0, Options{})
	p, _ = Step(nodes, nil, nil, p.Memory, t0.Add(61*time.Second), Options{})
	if !p.Disrupted {
		t.Fatalf("not disrupted: %+v", p.Zones)
	}
	for _, z := range p.Zones {
		if z.State != ZoneFullDisruption || z.Rate != 0 {
			t.Fatalf("zone %+v", z)
		}
	}
	for _, w := range p.Taints {
		for _, tt := range w.Add {
			if tt.Effect == NoExecute {
				t.Fatalf("NoExecute taint in master disruption: %+v", p.Taints)
			}
		}
	}
}

func TestComputeZoneState(t *testing.T) {
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
