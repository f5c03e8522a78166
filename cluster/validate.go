package cluster

import (
	"github.com/kubesem/kubesem/cronjob"
	"github.com/kubesem/kubesem/daemonset"
	"github.com/kubesem/kubesem/job"
	"github.com/kubesem/kubesem/pdb"
	"github.com/kubesem/kubesem/plan"
	"github.com/kubesem/kubesem/podstatus"
	"github.com/kubesem/kubesem/replicaset"
	"github.com/kubesem/kubesem/rollout"
	"github.com/kubesem/kubesem/statefulset"
)

// validateUserUpdate returns the API server's refusal of the user's update
// wr (the main resource; the stored object must exist, else Apply refuses
// it itself), as each kind's update validation states it: immutable and
// forbidden fields, and the new object's own validation. Controllers'
// writes are not checked here: upstream's controllers, which kubesem's
// mirror, change no immutable field.
func (w *World) validateUserUpdate(wr *plan.Write) error {
	if wr.Subresource != "" || wr.Object == nil {
		return nil
	}
	k, ok := KindOfResource(wr.Resource)
	if !ok {
		return nil
	}
	old := w.State.Get(Key{k, wr.Namespace, wr.Name})
	if old == nil {
		return nil
	}
	switch o := old.(type) {
	case *rollout.Deployment:
		if n, ok := wr.Object.(*rollout.Deployment); ok {
			return rollout.ValidateUpdate(o, n)
		}
	case *replicaset.ReplicaSet:
		if n, ok := wr.Object.(*replicaset.ReplicaSet); ok {
			c := *n
			if k == KindReplicationController {
				c.Kind = replicaset.KindReplicationController
			} else if c.Kind == "" {
				c.Kind = replicaset.KindReplicaSet
			}
			return replicaset.ValidateUpdate(o, &c)
		}
	case *statefulset.StatefulSet:
		if n, ok := wr.Object.(*statefulset.StatefulSet); ok {
			return statefulset.ValidateUpdate(o, n)
		}
	case *daemonset.DaemonSet:
		if n, ok := wr.Object.(*daemonset.DaemonSet); ok {
			return daemonset.ValidateUpdate(o, n, w.Opts.DaemonSet)
		}
	case *job.Job:
		if n, ok := wr.Object.(*job.Job); ok {
			return job.ValidateUpdate(o, n)
		}
	case *cronjob.CronJob:
		if n, ok := wr.Object.(*cronjob.CronJob); ok {
			return cronjob.Validate(n, o)
		}
	case *podstatus.Pod:
		if n, ok := wr.Object.(*podstatus.Pod); ok {
			return podstatus.ValidateUpdate(o, n)
		}
	case *pdb.PodDisruptionBudget:
		if n, ok := wr.Object.(*pdb.PodDisruptionBudget); ok {
			return pdb.Validate(n)
		}
	}
	return nil
}

// validateUserCreate returns the API server's refusal of the user's create
// wr as each kind's validation states it, over the fields kubesem models
// (a Job's as sent, before the defaults and the generated selector Apply
// adds, which the rule reads as they would be). Pods, nodes and the other
// kinds are not validated.
func (w *World) validateUserCreate(wr *plan.Write) error {
	if wr.Subresource != "" || wr.Object == nil {
		return nil
	}
	k, _ := KindOfResource(wr.Resource)
	switch o := wr.Object.(type) {
	case *rollout.Deployment:
		return rollout.Validate(o, nil, nil)
	case *replicaset.ReplicaSet:
		c := *o
		if k == KindReplicationController {
			c.Kind = replicaset.KindReplicationController
		}
		return replicaset.Validate(&c)
	case *statefulset.StatefulSet:
		return statefulset.ValidateCreate(o)
	case *daemonset.DaemonSet:
		return daemonset.Validate(o, w.Opts.DaemonSet)
	case *job.Job:
		return job.Validate(o, nil)
	case *cronjob.CronJob:
		return cronjob.Validate(o, nil)
	case *pdb.PodDisruptionBudget:
		return pdb.Validate(o)
	}
	return nil
}
