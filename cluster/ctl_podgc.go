package cluster

import (
	"time"

	"github.com/kubesem/kubesem/plan"
	"github.com/kubesem/kubesem/podgc"
	"github.com/kubesem/kubesem/podstatus"
)

// podGCController runs podgc.Step over every pod and node, its quarantine
// kept in the World. The informer cache is the State, so no node is
// unlisted.
//
// TEMPORARY: until podgc.Plan.Writes lands on main, the status patches and
// force deletions are written here.
func podGCController() controller {
	return controller{
		name:     CtlPodGC,
		reads:    []Kind{KindPod, KindNode},
		periodic: true,
		keys:     func(*World) []Key { return []Key{singleton} },
		step: func(w *World, _ Key, now time.Time) stepOut {
			p, err := podgc.Step(w.State.Pods(), w.State.Nodes(), nil, w.podgcMem, now, w.Opts.PodGC)
			if err != nil {
				return stepOut{plan: p, err: err}
			}
			var out []plan.Write
			patched := map[string]int{}
			for _, pp := range p.Patch {
				pod := w.State.Pod(pp.Namespace, pp.Name)
				if pod == nil {
					continue
				}
				c := *pod
				c.Status.Phase = pp.Phase
				if pp.Condition != nil {
					c.Status.Conditions = setPodCondition(pod.Status.Conditions, *pp.Condition)
				}
				patched[pp.Namespace+"/"+pp.Name] = len(out)
				out = append(out, plan.Write{Verb: plan.VerbPatch, Resource: "pods", Subresource: "status", Namespace: pod.Namespace, Name: pod.Name, UID: pod.UID, Object: &c, Reason: p.Outcome})
			}
			zero := int64(0)
			var dels []plan.Write
			for _, d := range p.Delete {
				dels = append(dels, plan.Write{Verb: plan.VerbDelete, Resource: "pods", Namespace: d.Namespace, Name: d.Name, UID: d.UID, GracePeriodSeconds: &zero, Reason: d.Reason})
			}
			// Each patch is written just before its pod's deletion.
			var ordered []plan.Write
			used := map[int]bool{}
			for _, d := range dels {
				if i, ok := patched[d.Namespace+"/"+d.Name]; ok {
					ordered = append(ordered, out[i])
					used[i] = true
				}
				ordered = append(ordered, d)
			}
			for i, wr := range out {
				if !used[i] {
					ordered = append(ordered, wr)
				}
			}
			_ = podstatus.Failed
			return stepOut{plan: p, writes: ordered, requeue: p.Requeue, after: func() { w.podgcMem = p.Memory }}
		},
	}
}
