package cluster

import (
	"slices"
	"time"

	"github.com/kubesem/kubesem/meta"
	"github.com/kubesem/kubesem/node"
	"github.com/kubesem/kubesem/plan"
	"github.com/kubesem/kubesem/podstatus"
)

// singleton is the key of a controller that syncs the whole cluster in one
// Step (node lifecycle, pod GC).
var singleton = Key{}

// nodeLifecycleController runs node.Step, one monitor pass over every node
// and lease, with its memory kept in the World.
//
// TEMPORARY: until node.Plan.Writes lands on main, nodeWrites turns the
// Plan's fields into writes here.
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
			p, err := node.Step(nodes, leases, w.State.Pods(), w.nodeMem, now, w.Opts.Node)
			if err != nil {
				return stepOut{plan: p, err: err}
			}
			return stepOut{plan: p, writes: nodeWrites(w.State, p, now), events: p.Events, requeue: p.Requeue,
				after: func() { w.nodeMem = p.Memory }}
		},
	}
}

// nodeWrites (TEMPORARY): the condition writes (node status), the taint
// writes (node updates, applied one after another on the node as written
// so far), and the Ready=False status of the pods of MarkPodsNotReady's
// nodes.
func nodeWrites(s *State, p node.Plan, now time.Time) []plan.Write {
	cur := map[string]*node.Node{}
	get := func(n string) *node.Node {
		if c := cur[n]; c != nil {
			return c
		}
		return s.Node(n)
	}
	var out []plan.Write
	for _, cw := range p.Conditions {
		n := get(cw.Node)
		if n == nil {
			continue
		}
		c := *n
		c.Status.Conditions = slices.Clone(cw.Conditions)
		cur[n.Name] = &c
		out = append(out, plan.Write{Verb: plan.VerbUpdate, Resource: "nodes", Subresource: "status", Name: n.Name, UID: n.UID, Object: &c, Reason: p.Outcome})
	}
	for _, tw := range p.Taints {
		n := get(tw.Node)
		if n == nil {
			continue
		}
		c := *n
		var taints []node.Taint
		for _, t := range n.Spec.Taints {
			if !slices.ContainsFunc(tw.Remove, t.MatchTaint) {
				taints = append(taints, t)
			}
		}
		for _, t := range tw.Add {
			if !slices.ContainsFunc(taints, t.MatchTaint) {
				taints = append(taints, t)
			}
		}
		c.Spec.Taints = taints
		cur[n.Name] = &c
		out = append(out, plan.Write{Verb: plan.VerbPatch, Resource: "nodes", Name: n.Name, UID: n.UID, Object: &c, Reason: tw.Reason})
	}
	for _, nn := range p.MarkPodsNotReady {
		for _, pod := range s.PodsOnNode(nn) {
			rc := pod.Condition(podstatus.Ready)
			if rc == nil || rc.Status == meta.ConditionFalse {
				continue
			}
			c := *pod
			c.Status.Conditions = setPodCondition(pod.Status.Conditions, podstatus.Condition{Type: podstatus.Ready,
				Status: meta.ConditionFalse, LastTransitionTime: now, Reason: "NodeNotReady"})
			out = append(out, plan.Write{Verb: plan.VerbUpdate, Resource: "pods", Subresource: "status", Namespace: pod.Namespace, Name: pod.Name, UID: pod.UID, Object: &c, Reason: "MarkPodsNotReady"})
		}
	}
	return out
}

// taintEvictionController runs node.EvictionStep for each node with a
// NoExecute taint or with evictions scheduled, keeping the scheduled
// evictions in the World; a due eviction marks the pod DisruptionTarget
// (DeletionByTaintManager) and deletes it.
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
			var out []plan.Write
			for _, d := range p.Delete {
				pod := w.State.Pod(findNamespace(pods, d.Name), d.Name)
				if pod == nil {
					continue
				}
				c := *pod
				c.Status.Conditions = setPodCondition(pod.Status.Conditions, podstatus.Condition{Type: podstatus.DisruptionTarget,
					Status: meta.ConditionTrue, LastTransitionTime: now, Reason: "DeletionByTaintManager", Message: "Taint manager: deleting due to NoExecute taint"})
				out = append(out,
					plan.Write{Verb: plan.VerbPatch, Resource: "pods", Subresource: "status", Namespace: pod.Namespace, Name: pod.Name, UID: pod.UID, Object: &c, Reason: d.Reason},
					plan.Write{Verb: plan.VerbDelete, Resource: "pods", Namespace: pod.Namespace, Name: pod.Name, UID: pod.UID, Reason: d.Reason})
			}
			return stepOut{plan: p, writes: out, requeue: p.Requeue, after: func() {
				if len(p.Memory) == 0 {
					delete(w.evictions, n.Name)
				} else {
					w.evictions[n.Name] = p.Memory
				}
			}}
		},
	}
}

func findNamespace(pods []*podstatus.Pod, name string) string {
	for _, p := range pods {
		if p.Name == name {
			return p.Namespace
		}
	}
	return ""
}
