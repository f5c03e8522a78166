package check

import (
	"github.com/kubesem/kubesem/cluster"
	"github.com/kubesem/kubesem/job"
	"github.com/kubesem/kubesem/meta"
	"github.com/kubesem/kubesem/podstatus"
	"github.com/kubesem/kubesem/replicaset"
	"github.com/kubesem/kubesem/rollout"
)

// What the properties count, read from the State: the pods a workload
// controls (by controller reference), and their states.

// controlledPods returns the pods whose controller reference names uid.
func controlledPods(s *cluster.State, uid string) []*podstatus.Pod {
	var out []*podstatus.Pod
	for _, k := range s.Dependents(uid) {
		if k.Kind != cluster.KindPod {
			continue
		}
		if p := s.Pod(k.Namespace, k.Name); p != nil {
			if ref := p.ControllerRef(); ref != nil && ref.UID == uid {
				out = append(out, p)
			}
		}
	}
	return out
}

// controlledReplicaSets returns the ReplicaSets a Deployment controls.
func controlledReplicaSets(s *cluster.State, uid string) []*replicaset.ReplicaSet {
	var out []*replicaset.ReplicaSet
	for _, k := range s.Dependents(uid) {
		if k.Kind != cluster.KindReplicaSet {
			continue
		}
		if rs, _ := s.Get(k).(*replicaset.ReplicaSet); rs != nil {
			if ref := rs.ControllerRef(); ref != nil && ref.UID == uid {
				out = append(out, rs)
			}
		}
	}
	return out
}

// controlledJobs returns the Jobs a CronJob controls.
func controlledJobs(s *cluster.State, uid string) []*job.Job {
	var out []*job.Job
	for _, k := range s.Dependents(uid) {
		if k.Kind != cluster.KindJob {
			continue
		}
		if j, _ := s.Get(k).(*job.Job); j != nil {
			if ref := j.ControllerRef(); ref != nil && ref.UID == uid {
				out = append(out, j)
			}
		}
	}
	return out
}

// deploymentPods returns the pods of a Deployment's ReplicaSets.
func deploymentPods(s *cluster.State, d *rollout.Deployment) []*podstatus.Pod {
	var out []*podstatus.Pod
	for _, rs := range controlledReplicaSets(s, d.UID) {
		out = append(out, controlledPods(s, rs.UID)...)
	}
	return out
}

// deploymentOf returns the Deployment controlling the ReplicaSet that
// controls pod p, or nil.
func deploymentOf(s *cluster.State, p *podstatus.Pod) *rollout.Deployment {
	ref := p.ControllerRef()
	if ref == nil || ref.Kind != string(cluster.KindReplicaSet) {
		return nil
	}
	k, ok := s.ByUID(ref.UID)
	if !ok {
		return nil
	}
	rs, _ := s.Get(k).(*replicaset.ReplicaSet)
	if rs == nil {
		return nil
	}
	dref := rs.ControllerRef()
	if dref == nil {
		return nil
	}
	dk, ok := s.ByUID(dref.UID)
	if !ok {
		return nil
	}
	d, _ := s.Get(dk).(*rollout.Deployment)
	return d
}

// ownerOf returns the object that controls m, or nil.
func ownerOf(s *cluster.State, m *meta.ObjectMeta) any {
	ref := m.ControllerRef()
	if ref == nil {
		return nil
	}
	k, ok := s.ByUID(ref.UID)
	if !ok {
		return nil
	}
	return s.Get(k)
}

// counts are the pods of a workload by state.
type counts struct {
	active      int // not finished, not being deleted (podstatus.IsActive)
	terminating int // being deleted, not finished
	ready       int // active and Ready
	available   int // active and available for minReadySeconds
}

func count(pods []*podstatus.Pod, minReady int32, s Snapshot) counts {
	var c counts
	for _, p := range pods {
		switch {
		case podstatus.IsActive(p):
			c.active++
			if podstatus.IsReady(p) {
				c.ready++
			}
			if podstatus.IsAvailable(p, minReady, s.Now) {
				c.available++
			}
		case podstatus.IsTerminating(p):
			c.terminating++
		}
	}
	return c
}

func isCondition(cs []meta.Condition, t string) bool {
	for _, c := range cs {
		if string(c.Type) == t && c.Status == meta.ConditionTrue {
			return true
		}
	}
	return false
}
