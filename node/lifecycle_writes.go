package node

import (
	"maps"
	"slices"
	"time"

	"github.com/kubesem/kubesem/field"
	"github.com/kubesem/kubesem/internal/deepcopy"
	"github.com/kubesem/kubesem/meta"
	"github.com/kubesem/kubesem/plan"
	"github.com/kubesem/kubesem/podstatus"
)

// Writes returns the API requests of the monitor pass, given the nodes
// [Step] read, the pods the controller's pod cache lists and the pass's
// now, in the controller's order:
//
//  1. the RegisteredNode taint writes of nodes seen for the first time;
//  2. node by node, by name: its status update (update of nodes/status
//     carrying the whole node with the Plan's conditions), its SwapTaint or
//     NodeReady taint write, then, when its Ready condition just left True
//     (MarkPodsNotReady), an update of pods/status for each pod bound to it
//     (by namespace, then name) whose Ready condition is not already False:
//     the whole pod with Ready status False, its transition time now;
//  3. the MasterDisruption, TaintNode and ConditionTaints taint writes, in
//     the Plan's order, each node's label patch of Labels (the node with
//     the labels set) after its ConditionTaints write.
//
// A taint write is one patch of the node adding its taints (the taints
// stamped with their time added), then one patch removing its taints
// (SwapNodeControllerTaint); a write that makes a node reachable
// (RegisteredNode, NodeReady, MasterDisruption) patches once per taint
// removed, unreachable before not-ready (markNodeAsReachable). Each patch
// carries the whole node as it leaves it. Each object is the node as the
// writes before it left it. An entry naming no given node is a
// *field.Error at conditions[i].node, taints[i].node or
// markPodsNotReady[i].
//
// Source: upstream pkg/controller/nodelifecycle Controller.monitorNodeHealth,
// tryUpdateNodeHealth, processTaintBaseEviction, markNodeAsReachable,
// handleDisruption, doNoExecuteTaintingPass, doNoScheduleTaintingPass;
// pkg/controller/util/node SwapNodeControllerTaint, MarkPodsNotReady;
// pkg/controller AddOrUpdateTaintOnNode, RemoveTaintOffNode, PatchNodeTaints,
// AddOrUpdateLabelsOnNode; Controller.reconcileNodeLabels (v1.36.3).
func (p Plan) Writes(nodes []*Node, pods []*podstatus.Pod, now time.Time) ([]plan.Write, error) {
	cur := make(map[string]*Node, len(nodes))
	var names []string
	for _, n := range nodes {
		if n != nil {
			if _, dup := cur[n.Name]; !dup {
				names = append(names, n.Name)
			}
			cur[n.Name] = deepcopy.Copy(n)
		}
	}
	slices.Sort(names)
	for i, c := range p.Conditions {
		if cur[c.Node] == nil {
			return nil, field.New(field.Index("conditions", i)+".node", c.Node, field.ErrInvalid)
		}
	}
	for i, t := range p.Taints {
		if cur[t.Node] == nil {
			return nil, field.New(field.Index("taints", i)+".node", t.Node, field.ErrInvalid)
		}
	}
	for i, l := range p.Labels {
		if cur[l.Node] == nil {
			return nil, field.New(field.Index("labels", i)+".node", l.Node, field.ErrInvalid)
		}
	}
	marked := make(map[string]bool, len(p.MarkPodsNotReady))
	for i, name := range p.MarkPodsNotReady {
		if cur[name] == nil {
			return nil, field.New(field.Index("markPodsNotReady", i), name, field.ErrInvalid)
		}
		marked[name] = true
	}
	conds := make(map[string][]Condition, len(p.Conditions))
	for _, c := range p.Conditions {
		conds[c.Node] = c.Conditions
	}
	var bound []*podstatus.Pod
	for _, q := range pods {
		if q != nil && marked[q.Spec.NodeName] {
			bound = append(bound, q)
		}
	}
	onNode := podsByNode(bound)
	var out []plan.Write
	node := func(name string) *Node { return deepcopy.Copy(cur[name]) }
	taint := func(w TaintWrite) {
		n := cur[w.Node]
		if len(w.Add) > 0 {
			for _, a := range w.Add {
				if i := slices.IndexFunc(n.Spec.Taints, a.MatchTaint); i >= 0 {
					n.Spec.Taints[i] = a
				} else {
					n.Spec.Taints = append(n.Spec.Taints, a)
				}
			}
			out = append(out, plan.Write{Verb: plan.VerbPatch, Resource: "nodes", Name: n.Name, Object: node(n.Name), Reason: w.Reason})
		}
		switch w.Reason {
		case ReasonRegisteredNode, ReasonNodeReady, ReasonMasterDisruption:
			// markNodeAsReachable: one removal, one patch, per taint
			for _, r := range w.Remove {
				n.Spec.Taints = slices.DeleteFunc(n.Spec.Taints, r.MatchTaint)
				out = append(out, plan.Write{Verb: plan.VerbPatch, Resource: "nodes", Name: n.Name, Object: node(n.Name), Reason: w.Reason})
			}
		default:
			if len(w.Remove) > 0 {
				for _, r := range w.Remove {
					n.Spec.Taints = slices.DeleteFunc(n.Spec.Taints, r.MatchTaint)
				}
				out = append(out, plan.Write{Verb: plan.VerbPatch, Resource: "nodes", Name: n.Name, Object: node(n.Name), Reason: w.Reason})
			}
		}
	}
	ti := 0
	for ti < len(p.Taints) && p.Taints[ti].Reason == ReasonRegisteredNode {
		taint(p.Taints[ti])
		ti++
	}
	for _, name := range names {
		if c, ok := conds[name]; ok {
			cur[name].Status.Conditions = slices.Clone(c)
			n := cur[name]
			out = append(out, plan.Write{Verb: plan.VerbUpdate, Resource: "nodes", Subresource: "status", Name: n.Name, UID: n.UID,
				Object: node(name), Reason: ReasonMonitored})
		}
		for ti < len(p.Taints) && p.Taints[ti].Node == name && (p.Taints[ti].Reason == ReasonSwapTaint || p.Taints[ti].Reason == ReasonNodeReady) {
			taint(p.Taints[ti])
			ti++
		}
		if !marked[name] {
			continue
		}
		for _, q := range markedNotReady(onNode[name]) {
			i := slices.IndexFunc(q.Status.Conditions, func(c podstatus.Condition) bool { return c.Type == podstatus.Ready })
			obj := deepcopy.Copy(q)
			obj.Status.Conditions[i].Status = meta.ConditionFalse
			obj.Status.Conditions[i].LastTransitionTime = now
			out = append(out, plan.Write{Verb: plan.VerbUpdate, Resource: "pods", Subresource: "status", Namespace: q.Namespace,
				Name: q.Name, UID: q.UID, Object: obj, Reason: ReasonMarkPodNotReady})
		}
	}
	// the worker's: each node's NoSchedule taint write, then its labels
	li := 0
	label := func(before string) {
		for ; li < len(p.Labels) && (before == "" || p.Labels[li].Node < before); li++ {
			l := p.Labels[li]
			n := cur[l.Node]
			n.Labels = maps.Clone(n.Labels)
			if n.Labels == nil {
				n.Labels = map[string]string{}
			}
			maps.Copy(n.Labels, l.Labels)
			out = append(out, plan.Write{Verb: plan.VerbPatch, Resource: "nodes", Name: n.Name, Object: node(n.Name), Reason: ReasonNodeLabel})
		}
	}
	for ; ti < len(p.Taints); ti++ {
		if p.Taints[ti].Reason == ReasonConditionTaints {
			label(p.Taints[ti].Node)
		}
		taint(p.Taints[ti])
	}
	label("")
	if out == nil {
		out = []plan.Write{}
	}
	return out, nil
}
