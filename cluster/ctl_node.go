package cluster

import (
	"slices"
	"time"

	"github.com/kubesem/kubesem/node"
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
			writes, err := p.Writes(nodes, pods, now)
			return stepOut{plan: p, writes: writes, err: err, events: p.Events, requeue: p.Requeue,
				after: func() { w.nodeMem = p.Memory }}
		},
	}
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
