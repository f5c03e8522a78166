package rollout

import (
	"math"
	"strconv"
	"time"

	"github.com/kubesem/kubesem/meta"
	"github.com/kubesem/kubesem/replicaset"
)

// IsComplete reports whether a rollout of d with status s is complete: all
// spec.replicas pods are updated and available, no other pod exists
// (status.replicas == spec.replicas), and s has observed d's generation.
//
// Source: upstream deployment_util.go DeploymentComplete (v1.36.3); seed
// 000 "디플로이먼트 완료".
func (d *Deployment) IsComplete(s Status) bool {
	n := d.Replicas()
	return s.UpdatedReplicas == n && s.Replicas == n && s.AvailableReplicas == n &&
		s.ObservedGeneration >= d.Generation
}

// IsProgressing reports whether status s shows progress over d's current
// status: more updated pods, fewer old pods (replicas - updatedReplicas),
// more ready pods or more available pods.
//
// Source: upstream deployment_util.go DeploymentProgressing (v1.36.3).
func (d *Deployment) IsProgressing(s Status) bool {
	old := d.Status
	return s.UpdatedReplicas > old.UpdatedReplicas ||
		s.Replicas-s.UpdatedReplicas < old.Replicas-old.UpdatedReplicas ||
		s.ReadyReplicas > old.ReadyReplicas ||
		s.AvailableReplicas > old.AvailableReplicas
}

// IsTimedOut reports whether the rollout of d with status s has exceeded its
// progress deadline at now: s's Progressing condition already says
// ProgressDeadlineExceeded, or it was last updated more than
// progressDeadlineSeconds before now (strictly: lastUpdateTime + deadline <
// now). It is false without a deadline ([Deployment.HasProgressDeadline]), without a
// Progressing condition, and when that condition says NewReplicaSetAvailable.
//
// Source: upstream deployment_util.go DeploymentTimedOut (v1.36.3).
func (d *Deployment) IsTimedOut(s Status, now time.Time) bool {
	if !d.HasProgressDeadline() {
		return false
	}
	c, ok := s.Conditions.Find(Progressing)
	switch {
	case !ok, c.Reason == ReasonNewReplicaSetAvailable:
		return false
	case c.Reason == ReasonProgressDeadlineExceeded:
		return true
	}
	return c.LastUpdateTime.Add(deadline(d)).Before(now)
}

// deadline returns d's progress deadline as a duration.
func deadline(d *Deployment) time.Duration {
	return time.Duration(progressDeadline(d)) * time.Second
}

// SyncProgress returns newStatus (as [ComputeStatus] computed it) with the
// Progressing and ReplicaFailure conditions the controller sets at the end of
// a rollout sync, at now.
//
// Without a progress deadline, Progressing is removed. Otherwise, unless the
// rollout was already complete (status.replicas == updatedReplicas and d's
// Progressing reason is NewReplicaSetAvailable, so a steady-state loss of
// pods never times out: kubernetes/kubernetes#106054), the first that holds
// decides:
//
//   - [Deployment.IsComplete]: True, NewReplicaSetAvailable (set with meta.Conditions.Set);
//   - [Deployment.IsProgressing]: True, ReplicaSetUpdated, always rewritten so that
//     lastUpdateTime is now, keeping lastTransitionTime when d's condition
//     was already True;
//   - [Deployment.IsTimedOut]: False, ProgressDeadlineExceeded.
//
// ReplicaFailure is then copied from the first ReplicaFailure condition of
// newReplicaSet, else of allReplicaSets in order (lastUpdateTime taken from
// its lastTransitionTime), or removed when none has one.
//
// Source: upstream pkg/controller/deployment/progress.go syncRolloutStatus,
// getReplicaFailures (v1.36.3); seed 000 "디플로이먼트 상태".
func SyncProgress(d *Deployment, newStatus Status, newReplicaSet *replicaset.ReplicaSet, allReplicaSets []*replicaset.ReplicaSet, now time.Time) Status {
	s := newStatus
	has := d.HasProgressDeadline()
	if !has {
		s.Conditions = s.Conditions.Remove(Progressing)
	}
	cur, curOK := d.Status.Conditions.Find(Progressing)
	complete := s.Replicas == s.UpdatedReplicas && curOK && cur.Reason == ReasonNewReplicaSetAvailable
	if has && !complete {
		subject := "Deployment " + strconv.Quote(d.Name)
		if newReplicaSet != nil {
			subject = "ReplicaSet " + strconv.Quote(newReplicaSet.Name)
		}
		switch {
		case d.IsComplete(s):
			c := newCondition(Progressing, meta.ConditionTrue, ReasonNewReplicaSetAvailable, subject+" has successfully progressed.", now)
			s.Conditions = setCondition(s.Conditions, c)
		case d.IsProgressing(s):
			c := newCondition(Progressing, meta.ConditionTrue, ReasonReplicaSetUpdated, subject+" is progressing.", now)
			if curOK {
				if cur.Status == meta.ConditionTrue {
					c.LastTransitionTime = cur.LastTransitionTime
				}
				s.Conditions = s.Conditions.Remove(Progressing)
			}
			s.Conditions = setCondition(s.Conditions, c)
		case d.IsTimedOut(s, now):
			c := newCondition(Progressing, meta.ConditionFalse, ReasonProgressDeadlineExceeded, subject+" has timed out progressing.", now)
			s.Conditions = setCondition(s.Conditions, c)
		}
	}
	if c, ok := replicaFailure(newReplicaSet, allReplicaSets); ok {
		s.Conditions = setCondition(s.Conditions, c)
	} else {
		s.Conditions = s.Conditions.Remove(ReplicaFailure)
	}
	return s
}

// SyncStatus returns the status the Deployment controller writes at the
// end of a sync: [ComputeStatus] of d's ReplicaSets with the Progressing
// and ReplicaFailure conditions of [SyncProgress] on top.
//
// Source: upstream pkg/controller/deployment/progress.go syncRolloutStatus
// (calculateStatus, then the conditions) (v1.36.3).
func SyncStatus(d *Deployment, newReplicaSet *replicaset.ReplicaSet, allReplicaSets []*replicaset.ReplicaSet, now time.Time) Status {
	return SyncProgress(d, ComputeStatus(d, newReplicaSet, allReplicaSets, now), newReplicaSet, allReplicaSets, now)
}

// replicaFailure returns the ReplicaFailure condition to copy into the
// Deployment: newReplicaSet's first, else the first among allReplicaSets.
func replicaFailure(newReplicaSet *replicaset.ReplicaSet, allReplicaSets []*replicaset.ReplicaSet) (Condition, bool) {
	if c, ok := replicaSetFailure(newReplicaSet); ok {
		return c, true
	}
	for _, rs := range allReplicaSets {
		if c, ok := replicaSetFailure(rs); ok {
			return c, true
		}
	}
	return Condition{}, false
}

// replicaSetFailure converts rs's first ReplicaFailure condition.
func replicaSetFailure(rs *replicaset.ReplicaSet) (Condition, bool) {
	if rs == nil {
		return Condition{}, false
	}
	for _, c := range rs.Status.Conditions {
		if c.Type == replicaset.ReplicaFailure {
			return Condition{
				Type:               ReplicaFailure,
				Status:             c.Status,
				LastUpdateTime:     c.LastTransitionTime,
				LastTransitionTime: c.LastTransitionTime,
				Reason:             c.Reason,
				Message:            c.Message,
			}, true
		}
	}
	return Condition{}, false
}

// RequeueStuck returns how long after now the controller looks at d again to
// notice a missed progress deadline, and whether it does: never without a
// deadline, without a Progressing condition on d, once newStatus is
// [Deployment.IsComplete], or once d already says ProgressDeadlineExceeded. Otherwise
// the time left is lastUpdateTime + deadline - now: under one second the
// answer is 0 (at once, rate-limited), else the time left plus one second.
//
// The controller asks only when the sync left d's status unchanged.
//
// Source: upstream pkg/controller/deployment/progress.go requeueStuckDeployment
// (v1.36.3), which returns the time left and enqueues after it plus 1s
// (kubernetes/kubernetes#39785).
func RequeueStuck(d *Deployment, newStatus Status, now time.Time) (time.Duration, bool) {
	cur, ok := d.Status.Conditions.Find(Progressing)
	if !d.HasProgressDeadline() || !ok {
		return 0, false
	}
	if d.IsComplete(newStatus) || cur.Reason == ReasonProgressDeadlineExceeded {
		return 0, false
	}
	after := cur.LastUpdateTime.Add(deadline(d)).Sub(now)
	if after < time.Second {
		return 0, true
	}
	if after > math.MaxInt64-time.Second {
		return math.MaxInt64, true
	}
	return after + time.Second, true
}
