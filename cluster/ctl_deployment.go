package cluster

import (
	"cmp"
	"slices"
	"time"

	"github.com/kubesem/kubesem/podstatus"
	"github.com/kubesem/kubesem/replicaset"
	"github.com/kubesem/kubesem/rollout"
)

// deploymentController syncs Deployments with rollout.Step, given the
// ReplicaSets each controls, the orphan ReplicaSets of its namespace it
// would adopt (rollout.ClaimReplicaSet; upstream lists every ReplicaSet of
// the namespace, but claims no other: leaving those out changes no Plan)
// and the pods of both, naming new ReplicaSets with Namer.PodTemplateHash
// (unless Options.Rollout.TemplateHash is set); rollout.Plan.Writes makes
// the writes.
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
			opts := w.Opts.Rollout
			if opts.TemplateHash == nil {
				opts.TemplateHash = w.Opts.Namer.PodTemplateHash
			}
			rss := inNamespace(controlled[*replicaset.ReplicaSet](w.State, KindReplicaSet, d.UID), d.Namespace)
			var adopt []*replicaset.ReplicaSet
			for _, rs := range orphans[*replicaset.ReplicaSet](w.State, KindReplicaSet, d.Namespace) {
				if rollout.ClaimReplicaSet(d, rs) == replicaset.Adopt {
					adopt = append(adopt, rs)
				}
			}
			if len(adopt) > 0 {
				rss = append(rss, adopt...)
				slices.SortFunc(rss, func(a, b *replicaset.ReplicaSet) int { return cmp.Compare(a.Name, b.Name) })
			}
			var pods []*podstatus.Pod
			for _, rs := range rss {
				pods = append(pods, listedBy(controlled[*podstatus.Pod](w.State, KindPod, rs.UID), rs.Namespace, KindReplicaSet, rs.Name)...)
			}
			p, err := rollout.Step(d, rss, pods, now, opts)
			var call *StepCall
			if w.Opts.OnStep != nil {
				// The vector names the new ReplicaSet's hash in the
				// Deployment (templateHash), as Step got it from opts.
				dc := *d
				if h := opts.TemplateHash(&d.Spec.Template, d.Status.CollisionCount); h != "" {
					dc.TemplateHash = h
				}
				call = &StepCall{Decision: "rollout.Step", Options: w.Opts.Rollout,
					Input: map[string]any{"deployment": &dc, "replicaSets": rss, "pods": pods, "now": now}}
			}
			if err != nil {
				return stepOut{plan: p, err: err, call: call}
			}
			writes, err := p.Writes(d, rss, pods, now)
			return stepOut{plan: keepPlan(w, p), writes: writes, err: err, events: p.Events, requeue: p.Requeue, call: call}
		},
	}
}
