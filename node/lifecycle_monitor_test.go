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
	t.Parallel()
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
