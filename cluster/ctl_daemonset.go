package cluster

import (
	"maps"
	"time"

	"github.com/kubesem/kubesem/daemonset"
	"github.com/kubesem/kubesem/history"
	"github.com/kubesem/kubesem/meta"
	"github.com/kubesem/kubesem/plan"
	"github.com/kubesem/kubesem/podstatus"
)

// daemonSetController runs daemonset.Step on each DaemonSet with every
// node, the pods it controls, its ControllerRevisions with the hash of its
// current template (Namer.RevisionHash), and its failed-pod backoff kept
// in the World.
//
// TEMPORARY: until daemonset.Plan.Writes lands on main, daemonSetWrites
// turns the Plan's fields into writes here.
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
			revs := controlled[*history.ControllerRevision](w.State, KindControllerRevision, ds.UID)
			h := daemonset.History{Hash: w.Opts.Namer.RevisionHash(&ds.Spec.Template, ds.Status.CollisionCount)}
			for _, r := range revs {
				h.Revisions = append(h.Revisions, *r)
			}
			p, err := daemonset.Step(ds, w.State.Nodes(), pods, h, w.dsBackoff[k], now, w.Opts.DaemonSet)
			if err != nil {
				return stepOut{plan: p, err: err}
			}
			return stepOut{plan: p, writes: daemonSetWrites(p, ds, h.Hash, revs), events: p.Events, requeue: p.Requeue,
				after: func() { w.dsBackoff[k] = p.Backoff }}
		},
	}
}

// daemonSetWrites (TEMPORARY): the revision created or renumbered, the pod
// creations and deletions, the history deletions, then the status.
func daemonSetWrites(p daemonset.Plan, ds *daemonset.DaemonSet, hash string, revs []*history.ControllerRevision) []plan.Write {
	ref := meta.NewControllerRef("apps/v1", "DaemonSet", ds.Name, ds.UID)
	var out []plan.Write
	if rw := p.CreateRevision; rw != nil {
		labels := maps.Clone(ds.Spec.Template.Labels)
		if labels == nil {
			labels = map[string]string{}
		}
		labels[daemonset.LabelRevisionHash] = rw.Hash
		r := &history.ControllerRevision{ObjectMeta: meta.ObjectMeta{Name: rw.Name, Namespace: ds.Namespace, Labels: labels,
			OwnerReferences: []meta.OwnerReference{ref}}, Revision: rw.Revision}
		out = append(out, plan.Write{Verb: plan.VerbCreate, Resource: "controllerrevisions", Namespace: ds.Namespace, Object: r, Reason: p.Outcome})
	}
	if rw := p.UpdateRevision; rw != nil {
		for _, r := range revs {
			if r.Name == rw.Name {
				c := *r
				c.Revision = rw.Revision
				out = append(out, plan.Write{Verb: plan.VerbUpdate, Resource: "controllerrevisions", Namespace: ds.Namespace, Name: r.Name, UID: r.UID, Object: &c, Reason: p.Outcome})
			}
		}
	}
	for _, c := range p.Create.Objects {
		t := daemonset.NewPod(ds, c.Node, hash)
		pod := podstatus.FromTemplate(&t, ds.Namespace, podstatus.PodPrefix(ds.Name), "", &ref)
		out = append(out, plan.Write{Verb: plan.VerbCreate, Resource: "pods", Namespace: ds.Namespace, Object: pod, Reason: c.Reason})
	}
	for _, d := range p.Delete {
		out = append(out, plan.Write{Verb: plan.VerbDelete, Resource: "pods", Namespace: ds.Namespace, Name: d.Name, UID: d.UID, Reason: d.Reason})
	}
	for _, d := range p.DeleteRevisions {
		out = append(out, plan.Write{Verb: plan.VerbDelete, Resource: "controllerrevisions", Namespace: ds.Namespace, Name: d.Name, UID: d.UID, Reason: d.Reason})
	}
	if p.UpdateStatus {
		c := *ds
		c.Status = p.Status
		out = append(out, plan.Write{Verb: plan.VerbUpdate, Resource: "daemonsets", Subresource: "status", Namespace: ds.Namespace, Name: ds.Name, UID: ds.UID, Object: &c, Reason: p.Outcome})
	}
	return out
}
