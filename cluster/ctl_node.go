package cluster

import (
	"reflect"
	"slices"
	"time"

	"github.com/kubesem/kubesem/node"
	"github.com/kubesem/kubesem/plan"
	"github.com/kubesem/kubesem/podstatus"
)

// singleton is the key of a controller that syncs the whole cluster in one
// Step (node lifecycle, pod GC).
var singleton = Key{}

// nodeLifecycleController runs node.Step, one monitor pass over every
// node, lease and pod (the controller's caches), every node monitor period
// from its first sync (node.DefaultNodeMonitorPeriod, its requeue), with
// its memory kept in the World; between monitor passes, a change of the
// nodes runs node.NoScheduleStep (its node worker). node.Plan.Writes
// makes the writes (condition, taint and label updates, the Ready=False
// status of the pods of nodes that left Ready).
func nodeLifecycleController() controller {
	return controller{
		name:     CtlNode,
		reads:    []Kind{KindNode},
		periodic: true,
		keys:     func(*World) []Key { return []Key{singleton} },
		step: func(w *World, _ Key, now time.Time) stepOut {
			nodes := w.State.sharedNodes()
			if !w.nodeMonitorAt.IsZero() && now.Before(w.nodeMonitorAt) {
				p, err := node.NoScheduleStep(nodes, now)
				if err != nil {
					return stepOut{plan: p, err: err}
				}
				writes, err := nodeWrites(w.State, p, nodes, now)
				return stepOut{plan: keepPlan(w, p), writes: writes, err: err,
					requeue: []plan.Requeue{{After: w.nodeMonitorAt.Sub(now), Reason: node.ReasonNodeMonitorPeriod}}}
			}
			leases := w.nodeLeases()
			pods := w.State.sharedPods()
			// (the memo is used only when no caller sees the Plan: see
			// passMemo)
			memo := w.passes != nil && !w.keepPlans && w.Opts.OnStep == nil
			var kept *nodePass
			if memo && !w.nodeMemOwn {
				kept = w.passes.find(now, w.nodeMemBy, nodes, leases, w.Opts.Node)
			}
			var p node.Plan
			var err error
			var class *memClass // (of the memory after the pass; nil: none)
			if kept != nil {
				p, class = kept.plan, kept.out
			} else {
				p, err = node.Step(nodes, leases, pods, w.nodeMem, now, w.Opts.Node)
				if memo && err == nil {
					class = w.passes.class(p.Memory)
					p.Memory = class.mem
					if len(p.MarkPodsNotReady) == 0 && !w.nodeMemOwn {
						w.passes.add(&nodePass{now: now, mem: w.nodeMemBy, out: class, nodes: w.passes.representatives(nodes),
							leases: readLeases(leases, make([]leaseRead, 0, len(leases))), opts: w.Opts.Node, plan: p})
					}
				}
			}
			var call *StepCall
			if w.Opts.OnStep != nil {
				call = &StepCall{Decision: "node.Step", Options: w.Opts.Node,
					Input: map[string]any{"nodes": slices.Clone(nodes), "leases": leases, "pods": slices.Clone(pods), "memory": w.nodeMem, "now": now}}
			}
			if err != nil {
				return stepOut{plan: p, err: err, call: call}
			}
			writes, err := nodeWrites(w.State, p, nodes, now)
			at := now
			if r, ok := plan.First(p.Requeue); ok {
				at = now.Add(r.After)
			}
			mem := p.Memory // (captured alone: capturing p would move the whole Plan to the heap)
			return stepOut{plan: keepPlan(w, p), writes: writes, err: err, events: p.Events, requeue: p.Requeue, call: call,
				after: func() { w.nodeMem, w.nodeMemBy, w.nodeMemOwn = mem, class, class == nil; w.nodeMonitorAt = at }}
		},
	}
}

// leaseList is the node leases (of leaseNamespace) of a State at a
// version of its leases, as node.Step takes them.
type leaseList struct {
	state   *State
	version uint64
	leases  []node.Lease
}

// nodeLeases returns the node leases, in order, as copies: listed once
// per version of the State's leases (the list is shared with clones, so
// nothing may modify it; node.Step only reads its input).
func (w *World) nodeLeases() []node.Lease {
	if c := w.leases; c.state == w.State && c.leases != nil && c.version == w.State.version(KindLease) {
		return c.leases
	}
	lp := w.State.Leases()
	leases := make([]node.Lease, 0, len(lp))
	for _, l := range lp {
		if l.Namespace == leaseNamespace {
			leases = append(leases, *l)
		}
	}
	w.leases = leaseList{state: w.State, version: w.State.version(KindLease), leases: leases}
	return leases
}

// nodeWrites is p.Writes given only the nodes the Plan writes and the pods
// bound to the nodes it marks not ready (in the order of nodes and of
// State.Pods): Writes copies every node it is given, and each write
// concerns one named node, so the writes are the same.
func nodeWrites(s *State, p node.Plan, nodes []*node.Node, now time.Time) ([]plan.Write, error) {
	if len(p.Conditions) == 0 && len(p.Taints) == 0 && len(p.MarkPodsNotReady) == 0 && len(p.Labels) == 0 {
		return nil, nil
	}
	named := map[string]bool{}
	for _, c := range p.Conditions {
		named[c.Node] = true
	}
	for _, t := range p.Taints {
		named[t.Node] = true
	}
	for _, l := range p.Labels {
		named[l.Node] = true
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
// NoExecute taint, with evictions scheduled, or whose NoExecute taints it
// last saw non-empty, keeping the scheduled evictions in the World;
// node.EvictionPlan.Writes makes the writes (the DisruptionTarget
// condition, then the delete, of each pod due).
//
// It is given the pods upstream's informer handlers would make it
// process: every pod of the node when the node's NoExecute taints changed
// since it last looked (NodeUpdated, handleNodeUpdate); otherwise only
// pods it has not seen (a new pod, or a new UID under the name), pods
// whose tolerations changed (PodUpdated ignores every other pod update),
// and pods whose scheduled eviction is due (the timer firing). A pod whose
// eviction already fired is thus not deleted again until the taints or
// its tolerations change. Evictions of pods no longer on the node, or
// recreated under their name, are dropped (handlePodUpdate's cancel on
// deletion; the world records no "Cancelling deletion" event for them).
func taintEvictionController() controller {
	return controller{
		name:  CtlTaintEvictor,
		reads: []Kind{KindNode, KindPod},
		keys: func(w *World) []Key {
			var out []Key
			for _, n := range w.State.sharedNodes() {
				if len(w.evictions[n.Name]) > 0 || len(w.taintSeen[n.Name].taints) > 0 || len(noExecute(n.Spec.Taints)) > 0 {
					out = append(out, Key{KindNode, "", n.Name})
				}
			}
			for n := range w.evictions {
				if w.State.Node(n) == nil {
					delete(w.evictions, n)
				}
			}
			for n := range w.taintSeen {
				if w.State.Node(n) == nil {
					delete(w.taintSeen, n)
				}
			}
			return out
		},
		step: func(w *World, k Key, now time.Time) stepOut {
			n := w.State.Node(k.Name)
			if n == nil {
				return stepOut{}
			}
			all := w.State.PodsOnNode(n.Name)
			taints := noExecute(n.Spec.Taints)
			old, known := w.taintSeen[n.Name]
			full := !known || !sameList(old.taints, taints)
			due := map[string]bool{}
			present := map[string]bool{}
			for _, s := range w.evictions[n.Name] {
				if !s.FireAt.After(now) {
					due[s.Pod] = true
				}
			}
			seen := taintSeen{taints: taints, pods: make(map[string]podSeen, len(all))}
			var pods []*podstatus.Pod
			for _, p := range all {
				ps, ok := old.pods[p.Name]
				// A pod recreated under the name (a new UID) starts
				// afresh: the old one's deletion cancelled its work.
				present[p.Name] = !ok || ps.uid == p.UID
				seen.pods[p.Name] = podSeen{uid: p.UID, tolerations: p.Spec.Tolerations}
				if full || !ok || ps.uid != p.UID || !sameList(ps.tolerations, p.Spec.Tolerations) || due[p.Name] {
					pods = append(pods, p)
				}
			}
			var scheduled []node.ScheduledEviction
			for _, s := range w.evictions[n.Name] {
				if present[s.Pod] {
					scheduled = append(scheduled, s)
				}
			}
			p, err := node.EvictionStep(n, pods, scheduled, now, w.Opts.Node)
			var call *StepCall
			if w.Opts.OnStep != nil {
				call = &StepCall{Decision: "node.EvictionStep", Options: w.Opts.Node,
					Input: map[string]any{"node": n, "pods": pods, "memory": scheduled, "now": now}}
			}
			if err != nil {
				return stepOut{plan: p, err: err, call: call}
			}
			writes, err := p.Writes(n, pods, now)
			// The pods not given keep their scheduled evictions (in
			// Memory): the next one due, of any pod, is the requeue.
			requeue := p.Requeue
			for _, s := range p.Memory {
				if r := (plan.Requeue{After: s.FireAt.Sub(now), Reason: node.ReasonEvictionDue}); r.After > 0 && (len(requeue) == 0 || r.After < requeue[0].After) {
					requeue = []plan.Requeue{r}
				}
			}
			return stepOut{plan: keepPlan(w, p), writes: writes, err: err, events: p.Events, requeue: requeue, call: call, after: func() {
				if len(taints) == 0 && len(p.Memory) == 0 {
					delete(w.taintSeen, n.Name)
				} else {
					w.taintSeen[n.Name] = seen
				}
				if len(p.Memory) == 0 {
					delete(w.evictions, n.Name)
				} else {
					w.evictions[n.Name] = p.Memory
				}
			}}
		},
	}
}

// taintSeen is what the taint-eviction controller last saw of a node: its
// NoExecute taints and, by name, each pod's UID and tolerations.
type taintSeen struct {
	taints []node.Taint
	pods   map[string]podSeen
}

type podSeen struct {
	uid         string
	tolerations []podstatus.Toleration
}

// sameList is apimachinery's semantic equality of two lists: nil and
// empty are equal.
func sameList[T any](a, b []T) bool {
	if len(a) == 0 && len(b) == 0 {
		return true
	}
	return reflect.DeepEqual(a, b)
}

func noExecute(ts []node.Taint) []node.Taint {
	var out []node.Taint
	for _, t := range ts {
		if t.Effect == node.NoExecute {
			out = append(out, t)
		}
	}
	return out
}
