package cluster

import (
	"testing"
	"time"

	"github.com/kubesem/kubesem/meta"
	"github.com/kubesem/kubesem/node"
)

// TestPassMemoKey: a kept pass is found again only with its whole input:
// each part changed alone (now, the memory's class, a node's content, a
// lease's renew time, the options) misses; an equal node under another
// pointer finds it.
func TestPassMemoKey(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	mk := func(hb time.Time) *node.Node {
		return &node.Node{ObjectMeta: meta.ObjectMeta{Name: "a"}, Status: node.Status{Conditions: []node.Condition{{Type: node.Ready, Status: node.ConditionTrue, LastHeartbeatTime: hb}}}}
	}
	lease := func(at time.Time) []node.Lease {
		return []node.Lease{{ObjectMeta: meta.ObjectMeta{Name: "a"}, Spec: node.LeaseSpec{RenewTime: &at}}}
	}
	m := &passMemo{}
	n := mk(t0)
	x := m.class(node.Memory{Known: []string{"a"}})
	y := m.class(node.Memory{Known: []string{"b"}})
	if m.class(node.Memory{Known: []string{"a"}}) != x || x == y {
		t.Fatal("memory classes")
	}
	p := m.add(&nodePass{now: t0, mem: x, nodes: m.representatives([]*node.Node{n}), leases: readLeases(lease(t0), nil), plan: node.Plan{Outcome: "kept"}})
	if got := m.find(t0, x, []*node.Node{mk(t0)}, lease(t0), node.Options{}); got != p {
		t.Fatal("an equal input misses")
	}
	rate := float32(0.5)
	for name, miss := range map[string]*nodePass{
		"now":     m.find(t0.Add(time.Second), x, []*node.Node{n}, lease(t0), node.Options{}),
		"memory":  m.find(t0, y, []*node.Node{n}, lease(t0), node.Options{}),
		"zero":    m.find(t0, nil, []*node.Node{n}, lease(t0), node.Options{}),
		"node":    m.find(t0, x, []*node.Node{mk(t0.Add(time.Second))}, lease(t0), node.Options{}),
		"nodes":   m.find(t0, x, []*node.Node{n, mk(t0)}, lease(t0), node.Options{}),
		"lease":   m.find(t0, x, []*node.Node{n}, lease(t0.Add(time.Second)), node.Options{}),
		"leases":  m.find(t0, x, []*node.Node{n}, nil, node.Options{}),
		"options": m.find(t0, x, []*node.Node{n}, lease(t0), node.Options{EvictionRate: &rate}),
	} {
		if miss != nil {
			t.Errorf("a pass is found with another %s", name)
		}
	}
}
