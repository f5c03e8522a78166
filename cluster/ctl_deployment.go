package cluster

import (
	"maps"
	"slices"
	"time"

	"github.com/kubesem/kubesem/plan"
	"github.com/kubesem/kubesem/podstatus"
	"github.com/kubesem/kubesem/replicaset"
	"github.com/kubesem/kubesem/rollout"
)

// deploymentController syncs Deployments with rollout.Step.
//
// TEMPORARY: until rollout.Plan.Writes lands on main, deploymentWrites
// turns the Plan's fields into writes here.
func deploymentController() controller {
	return controller{
		name:  CtlDeployment,
		reads: []Kind{KindDeployment, KindReplicaSet, KindPod},
		keys:  func(w *World) []Key { return w.State.Keys(KindDeployment) },
		step: func(w *World, k Key, now time.Time) stepOut {
			d, _ := w.State.Get(k).(*rollout.Deployment)
			if d == nil {
				return stepOut{}
			}
			if h := w.Opts.Namer.PodTemplateHash(&d.Spec.Template, d.Status.CollisionCount); h != "" && h != d.TemplateHash {
				c := *d
				c.TemplateHash = h
				d = &c
			}
			rss := controlled[*replicaset.ReplicaSet](w.State, KindReplicaSet, d.UID)
			var pods []*podstatus.Pod
			for _, rs := range rss {
				pods = append(pods, controlled[*podstatus.Pod](w.State, KindPod, rs.UID)...)
			}
			p, err := rollout.Step(d, rss, pods, now, w.Opts.Rollout)
			if err != nil {
				return stepOut{plan: p, err: err}
			}
			return stepOut{plan: p, writes: deploymentWrites(p, d, rss), events: p.Events, requeue: p.Requeue}
		},
	}
}

// deploymentWrites (TEMPORARY, see deploymentController): the new
// ReplicaSet's revision update or creation, the Deployment's annotation or
// template update, the resizes, the history deletions, then the status.
func deploymentWrites(p rollout.Plan, d *rollout.Deployment, rss []*replicaset.ReplicaSet) []plan.Write {
	cur := make(map[string]*replicaset.ReplicaSet, len(rss))
	for _, rs := range rss {
		cur[rs.Name] = rs
	}
	var out []plan.Write
	for _, u := range p.Update {
		rs := cur[u.Name]
		if rs == nil {
			continue
		}
		c := *rs
		c.Spec.MinReadySeconds = u.MinReadySeconds
		if u.Annotations != nil {
			c.Annotations = maps.Clone(u.Annotations)
		}
		cur[u.Name] = &c
		out = append(out, plan.Write{Verb: plan.VerbUpdate, Resource: "replicasets", Namespace: d.Namespace, Name: c.Name, UID: c.UID, Object: &c, Reason: u.Reason})
	}
	for i := range p.Create.Objects {
		c := p.Create.Objects[i]
		cur[c.Name] = &c
		out = append(out, plan.Write{Verb: plan.VerbCreate, Resource: "replicasets", Namespace: d.Namespace, Object: &c, Reason: p.Create.Reason})
	}
	if p.Annotations != nil || p.Template != nil {
		c := *d
		c.TemplateHash = ""
		if p.Annotations != nil {
			c.Annotations = maps.Clone(p.Annotations)
		}
		if p.Template != nil {
			c.Spec.Template = *p.Template
		}
		out = append(out, plan.Write{Verb: plan.VerbUpdate, Resource: "deployments", Namespace: d.Namespace, Name: d.Name, UID: d.UID, Object: &c, Reason: p.Outcome})
	}
	for _, r := range p.Scale {
		rs := cur[r.Name]
		if rs == nil {
			continue
		}
		c := *rs
		n := r.Replicas
		c.Spec.Replicas = &n
		if r.Annotations != nil {
			c.Annotations = maps.Clone(r.Annotations)
		}
		cur[r.Name] = &c
		out = append(out, plan.Write{Verb: plan.VerbUpdate, Resource: "replicasets", Namespace: d.Namespace, Name: c.Name, UID: c.UID, Object: &c, Reason: r.Reason})
	}
	for _, del := range p.Delete {
		out = append(out, plan.Write{Verb: plan.VerbDelete, Resource: "replicasets", Namespace: d.Namespace, Name: del.Name, UID: del.UID, Reason: del.Reason})
	}
	if p.UpdateStatus {
		c := *d
		c.TemplateHash = ""
		c.Status = p.Status
		out = append(out, plan.Write{Verb: plan.VerbUpdate, Resource: "deployments", Subresource: "status", Namespace: d.Namespace, Name: d.Name, UID: d.UID, Object: &c, Reason: p.Outcome})
	}
	return slices.Clip(out)
}
