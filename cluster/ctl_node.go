package cluster

import (
	"slices"
	"time"

	"github.com/kubesem/kubesem/node"
	"github.com/kubesem/kubesem/plan"
	"github.com/kubesem/kubesem/podstatus"
)

// singleton is the key of a controller that syncs the whole cluster in one
// Step (node lifecycle, pod GC).
var singleton = Key{}

// nodeLifecycleController runs node.Step, one monitor pass over every node,
// lease and pod (the controller's caches), with its memory kept in the
// World; node.Plan.Writes makes the writes (condition and taint updates,
// the Ready=False status of the pods of nodes that left Ready).
func nodeLifecycleController() controller {
	return controller{
		name:     CtlNode,
		reads:    []Kind{KindNode, KindLease},
		periodic: true,
		keys:     func(*World) []Key { return []Key{singleton} },
		step: func(w *World, _ Key, now time.Time) stepOut {
			nodes := w.State.Nodes()
			lp := w.State.Leases()
			leases := make([]node.Lease, 0, len(lp))
			for _, l := range lp {
				if l.Namespace == leaseNamespace {
					leases = append(leases, *l)
				}
			}
			pods := w.State.Pods()
			p, err := node.Step(nodes, leases, pods, w.nodeMem, now, w.Opts.Node)
			if err != nil {
				return stepOut{plan: p, err: err}
			}
			writes, err := nodeWrites(w.State, p, nodes, now)
			return stepOut{plan: p, writes: writes, err: err, events: p.Events, requeue: p.Requeue,
				after: func() { w.nodeMem = p.Memory }}
		},
	}
}

// nodeWrites is p.Writes given only the nodes the Plan writes and the pods
// bound to the nodes it marks not ready (in the order of nodes and of
// State.Pods): Writes copies every node it is given, and each write
// concerns one named node, so the writes are the same.
func nodeWrites(s *State, p node.Plan, nodes []*node.Node, now time.Time) ([]plan.Write, error) {
	if len(p.Conditions) == 0 && len(p.Taints) == 0 && len(p.MarkPodsNotReady) == 0 {
		return nil, nil
	}
	named := map[string]bool{}
	for _, c := range p.Conditions {
		named[c.Node] = true
	}
	for _, t := range p.Taints {
		named[t.Node] = true
	}
	var pods []*podstatus.Pod
	marked := map[string]bool{}
	for _, n := range p.MarkPodsNotReady {
		named[n] = true
		if !marked[n] {
			marked[n] = true
			pods = mergePods(pods, s.PodsOnNode(n))
		}
	}
	sub := make([]*node.Node, 0, len(named))
	for _, n := range nodes {
		if named[n.Name] {
			sub = append(sub, n)
		}
	}
	return p.Writes(sub, pods, now)
}

// taintEvictionController runs node.EvictionStep for each node with a
// NoExecute taint or with evictions scheduled, keeping the scheduled
// evictions in the World; node.EvictionPlan.Writes makes the writes (the
// DisruptionTarget condition, then the delete, of each pod due).
func taintEvictionController() controller {
	return controller{
		name:  CtlTaintEvictor,
		reads: []Kind{KindNode, KindPod},
		keys: func(w *World) []Key {
			var out []Key
			for _, n := range w.State.Nodes() {
				if len(w.evictions[n.Name]) > 0 || slices.ContainsFunc(n.Spec.Taints, func(t node.Taint) bool { return t.Effect == node.NoExecute }) {
					out = append(out, Key{KindNode, "", n.Name})
				}
			}
			for n := range w.evictions {
				if w.State.Node(n) == nil {
					delete(w.evictions, n)
				}
			}
			return out
		},
		step: func(w *World, k Key, now time.Time) stepOut {
			n := w.State.Node(k.Name)
			if n == nil {
				return stepOut{}
			}
			pods := w.State.PodsOnNode(n.Name)
			p, err := node.EvictionStep(n, pods, w.evictions[n.Name], now, w.Opts.Node)
			if err != nil {
				return stepOut{plan: p, err: err}
			}
			writes, err := p.Writes(n, pods, now)
			return stepOut{plan: p, writes: writes, err: err, events: p.Events, requeue: p.Requeue, after: func() {
				if len(p.Memory) == 0 {
					delete(w.evictions, n.Name)
				} else {
					w.evictions[n.Name] = p.Memory
				}
			}}
		},
	}
}
