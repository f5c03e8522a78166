package node

import (
	"testing"
	"time"
)

func TestStepAllZonesDown(t *testing.T) {
	t.Parallel()
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
