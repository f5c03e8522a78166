package cluster

import (
	"slices"
	"time"

	"github.com/kubesem/kubesem/plan"
	"github.com/kubesem/kubesem/podgc"
)

// podGCController runs podgc.Step over every pod and node, its quarantine
// kept in the World; podgc.Plan.Writes makes the writes (each status patch
// before its pod's grace-0 delete). The informer cache is the State, so no
// node is unlisted.
func podGCController() controller {
	return controller{
		name:     CtlPodGC,
		reads:    []Kind{KindPod, KindNode},
		periodic: true,
		keys:     func(*World) []Key { return []Key{singleton} },
		step: func(w *World, _ Key, now time.Time) stepOut {
			pods, nodes := w.State.sharedPods(), w.State.sharedNodes()
			p, err := podgc.Step(pods, nodes, nil, w.podgcMem, now, w.Opts.PodGC)
			var call *StepCall
			if w.Opts.OnStep != nil {
				call = &StepCall{Decision: "podgc.Step", Options: w.Opts.PodGC,
					Input: map[string]any{"pods": slices.Clone(pods), "nodes": slices.Clone(nodes), "memory": w.podgcMem, "now": now}}
			}
			if err != nil {
				return stepOut{plan: p, err: err, call: call}
			}
			writes := []plan.Write{}
			if len(p.Patch) > 0 || len(p.Delete) > 0 {
				// (Writes makes one write per patch and deletion, and
				// indexes every pod to find them)
				writes, err = p.Writes(pods)
			}
			return stepOut{plan: keepPlan(w, p), writes: writes, err: err, events: p.Events, requeue: p.Requeue, call: call,
				after: func() { w.podgcMem = p.Memory }}
		},
	}
}
