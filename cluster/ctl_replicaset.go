package cluster

import (
	"slices"
	"time"

	"github.com/kubesem/kubesem/podstatus"
	"github.com/kubesem/kubesem/replicaset"
)

// replicaSetController syncs ReplicaSets (or ReplicationControllers) with
// replicaset.Step. A ReplicaSet sees the pods it controls and the
// orphans of its namespace (the only others Step could claim: upstream
// lists every pod of the namespace, but never claims one another
// controller controls, so leaving those out changes no Plan). Its related
// pods are every pod of the namespace a sibling's selector (a ReplicaSet
// with the same controller) selects, whatever controls it, as upstream
// lists them — replicaset.RelatedPods over the State's pods, looked up
// only when the Plan deletes: they rank the victims and nothing else.
// replicaset.Plan.Writes makes the writes.
func replicaSetController(name string, kind Kind) controller {
	return controller{
		name:  name,
		reads: []Kind{kind, KindPod},
		keys:  func(w *World) []Key { return w.State.Keys(kind) },
		step: func(w *World, k Key, now time.Time) stepOut {
			rs, _ := w.State.Get(k).(*replicaset.ReplicaSet)
			if rs == nil {
				return stepOut{}
			}
			orphans := w.State.orphanPods(rs.Namespace)
			pods := mergePods(controlled[*podstatus.Pod](w.State, KindPod, rs.UID), orphans) // (replicaset.Step keeps those upstream's pod index lists)
			// The related pods only rank the pods a scale-down deletes
			// (replicaset.Step reads them for nothing else, and a list
			// built here never holds a nil), so they are looked up only
			// when the Plan deletes: the same Plan, without the lookup in
			// every other sync.
			var related []*podstatus.Pod
			p, err := replicaset.Step(rs, pods, nil, now, w.Opts.ReplicaSet)
			if ref := rs.ControllerRef(); err == nil && ref != nil && (len(p.Delete) > 0 || len(p.DeleteTied) > 0) {
				siblings := controlled[*replicaset.ReplicaSet](w.State, kind, ref.UID)
				related = replicaset.RelatedPods(rs, siblings, w.State.sharedPods())
				p, err = replicaset.Step(rs, pods, related, now, w.Opts.ReplicaSet)
			}
			var call *StepCall
			if w.Opts.OnStep != nil {
				call = &StepCall{Decision: "replicaset.Step", Options: w.Opts.ReplicaSet,
					Input: map[string]any{"replicaSet": rs, "pods": pods, "relatedPods": related, "now": now}}
			}
			if err != nil {
				return stepOut{plan: p, err: err, call: call}
			}
			writes, err := p.Writes(rs, pods)
			return stepOut{plan: keepPlan(w, p), writes: writes, err: err, events: p.Events, requeue: p.Requeue, call: call}
		},
	}
}

// mergePods merges two pod lists sorted by namespace and name.
func mergePods(a, b []*podstatus.Pod) []*podstatus.Pod {
	if len(b) == 0 {
		return a
	}
	if len(a) == 0 {
		return b
	}
	out := make([]*podstatus.Pod, 0, len(a)+len(b))
	out = append(out, a...)
	out = append(out, b...)
	slices.SortFunc(out, func(x, y *podstatus.Pod) int {
		return compareNames(name{x.Namespace, x.Name}, name{y.Namespace, y.Name})
	})
	return slices.CompactFunc(out, func(x, y *podstatus.Pod) bool { return x == y })
}
