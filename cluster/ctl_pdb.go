package cluster

import (
	"time"

	"github.com/kubesem/kubesem/pdb"
	"github.com/kubesem/kubesem/podstatus"
	"github.com/kubesem/kubesem/replicaset"
	"github.com/kubesem/kubesem/rollout"
	"github.com/kubesem/kubesem/statefulset"
)

// disruptionController runs pdb.Step on each budget with the pods of its
// namespace and the controllers their controller references name (found
// by UID, with their own controller references for a ReplicaSet's
// Deployment); pdb.Plan.Writes makes the writes.
func disruptionController() controller {
	return controller{
		name:  CtlDisruption,
		reads: []Kind{KindPodDisruptionBudget, KindPod, KindDeployment, KindReplicaSet, KindReplicationController, KindStatefulSet},
		keys:  func(w *World) []Key { return w.State.Keys(KindPodDisruptionBudget) },
		step: func(w *World, k Key, now time.Time) stepOut {
			b, _ := w.State.Get(k).(*pdb.PodDisruptionBudget)
			if b == nil {
				return stepOut{}
			}
			var pods []*podstatus.Pod
			for _, p := range w.State.Pods() {
				if p.Namespace == b.Namespace {
					pods = append(pods, p)
				}
			}
			ctls := w.pdbControllers(pods)
			p, err := pdb.Step(b, pods, ctls, now, w.Opts.PDB)
			if err != nil {
				return stepOut{plan: p, err: err}
			}
			writes, err := p.Writes(b, pods, now)
			return stepOut{plan: p, writes: writes, err: err, events: p.Events, requeue: p.Requeue}
		},
	}
}

// pdbControllers returns the controllers the pods' controller references
// name, and the Deployments of those that are ReplicaSets.
func (w *World) pdbControllers(pods []*podstatus.Pod) []pdb.Controller {
	seen := map[string]bool{}
	var out []pdb.Controller
	var add func(uid string)
	add = func(uid string) {
		if seen[uid] {
			return
		}
		seen[uid] = true
		k, ok := w.State.ByUID(uid)
		if !ok {
			return
		}
		c := pdb.Controller{APIVersion: kindInfos[k.Kind].apiVersion, Kind: string(k.Kind)}
		switch o := w.State.Get(k).(type) {
		case *rollout.Deployment:
			c.ObjectMeta, c.Spec.Replicas = o.ObjectMeta, replicasOrOne(o.Spec.Replicas)
		case *replicaset.ReplicaSet:
			c.ObjectMeta, c.Spec.Replicas = o.ObjectMeta, replicasOrOne(o.Spec.Replicas)
			if ref := o.ControllerRef(); ref != nil {
				add(ref.UID)
			}
		case *statefulset.StatefulSet:
			c.ObjectMeta, c.Spec.Replicas = o.ObjectMeta, replicasOrOne(o.Spec.Replicas)
		default:
			c.ObjectMeta = *metaOf(o)
		}
		out = append(out, c)
	}
	for _, p := range pods {
		if ref := p.ControllerRef(); ref != nil {
			add(ref.UID)
		}
	}
	return out
}

func replicasOrOne(r *int32) *int32 {
	if r != nil {
		return r
	}
	one := int32(1)
	return &one
}
