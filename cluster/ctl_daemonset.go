package cluster

import (
	"time"

	"github.com/kubesem/kubesem/daemonset"
	"github.com/kubesem/kubesem/history"
	"github.com/kubesem/kubesem/podstatus"
)

// daemonSetController runs daemonset.Step on each DaemonSet with every
// node, the pods it controls, its ControllerRevisions with the hash of its
// current template, and its failed-pod backoff kept in the World;
// daemonset.Plan.Writes makes the writes. The hash is that of the newest
// revision holding spec.template (equalRevision; its label, or its whole
// name when unlabelled: daemonset.RevisionHash), else the pod-template-hash
// of the template and status.collisionCount (upstream names a DaemonSet's
// revisions by controller.ComputeHash, the Deployment's hash:
// Namer.PodTemplateHash), else, when the namer has none, Namer.RevisionHash.
func daemonSetController() controller {
	return controller{
		name:  CtlDaemonSet,
		reads: []Kind{KindDaemonSet, KindPod, KindNode, KindControllerRevision},
		keys:  func(w *World) []Key { return w.State.Keys(KindDaemonSet) },
		step: func(w *World, k Key, now time.Time) stepOut {
			ds, _ := w.State.Get(k).(*daemonset.DaemonSet)
			if ds == nil {
				return stepOut{}
			}
			pods := controlled[*podstatus.Pod](w.State, KindPod, ds.UID)
			owned := controlled[*history.ControllerRevision](w.State, KindControllerRevision, ds.UID)
			var h daemonset.History
			if eq := equalRevision(owned, &ds.Spec.Template); eq != nil {
				h.Hash = daemonset.RevisionHash(eq)
			} else if h.Hash = w.Opts.Namer.PodTemplateHash(&ds.Spec.Template, ds.Status.CollisionCount); h.Hash == "" {
				h.Hash = w.Opts.Namer.RevisionHash(&ds.Spec.Template, ds.Status.CollisionCount)
			}
			for _, r := range owned {
				h.Revisions = append(h.Revisions, *r)
			}
			p, err := daemonset.Step(ds, w.State.Nodes(), pods, h, w.dsBackoff[k], now, w.Opts.DaemonSet)
			if err != nil {
				return stepOut{plan: p, err: err}
			}
			writes, err := p.Writes(ds, pods, h)
			return stepOut{plan: p, writes: writes, err: err, events: p.Events, requeue: p.Requeue,
				after: func() { w.dsBackoff[k] = p.Memory }}
		},
	}
}
