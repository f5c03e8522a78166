package rollout

import (
	"slices"
	"time"

	"github.com/kubesem/kubesem/meta"
	"github.com/kubesem/kubesem/replicaset"
)

// ComputeStatus returns the status the controller writes after a sync of d
// whose ReplicaSets are allReplicaSets (newReplicaSet among them, or nil):
//
//   - observedGeneration is d's generation; collisionCount is kept;
//   - replicas, readyReplicas and availableReplicas add up the ReplicaSets'
//     status counts; updatedReplicas is newReplicaSet's status.replicas (0
//     when nil);
//   - unavailableReplicas is Σspec.replicas - Σavailable, or 0 when negative;
//   - terminatingReplicas adds up the ReplicaSets' counts, and is nil when a
//     ReplicaSet the ReplicaSet controller has synced (observedGeneration > 0)
//     does not report one (gate DeploymentReplicaSetTerminatingReplicas, on);
//   - Available is True (MinimumReplicasAvailable) when available >=
//     spec.replicas - [Deployment.MaxUnavailable], else False
//     (MinimumReplicasUnavailable), recorded with meta.Conditions.Set at now.
//
// The Progressing condition is left as d has it; see [SyncProgress]. Sums
// are int32 and wrap on overflow, as upstream's do; nil ReplicaSets are
// skipped. d is not modified.
//
// Source: upstream pkg/controller/deployment/sync.go calculateStatus and
// deployment_util.go Get*ReplicaCountForReplicaSets (v1.36.3).
func ComputeStatus(d *Deployment, newReplicaSet *replicaset.ReplicaSet, allReplicaSets []*replicaset.ReplicaSet, now time.Time) Status {
	var spec, actual, ready, available, terminating int32
	terminatingKnown := true
	for _, rs := range allReplicaSets {
		if rs == nil {
			continue
		}
		spec += rs.Replicas()
		actual += rs.Status.Replicas
		ready += rs.Status.ReadyReplicas
		available += rs.Status.AvailableReplicas
		switch {
		case rs.Status.TerminatingReplicas != nil:
			terminating += *rs.Status.TerminatingReplicas
		case rs.Status.ObservedGeneration != 0:
			terminatingKnown = false
		}
	}
	s := Status{
		ObservedGeneration:  d.Generation,
		Replicas:            actual,
		ReadyReplicas:       ready,
		AvailableReplicas:   available,
		UnavailableReplicas: max(spec-available, 0),
	}
	if newReplicaSet != nil {
		s.UpdatedReplicas = newReplicaSet.Status.Replicas
	}
	if terminatingKnown {
		s.TerminatingReplicas = &terminating
	}
	if cc := d.Status.CollisionCount; cc != nil {
		n := *cc
		s.CollisionCount = &n
	}
	s.Conditions = slices.Clone(d.Status.Conditions)
	s.Conditions = setCondition(s.Conditions, availableCondition(d, available, now))
	return s
}

// availableCondition returns the Available condition for d with available
// pods, stamped with now.
func availableCondition(d *Deployment, available int32, now time.Time) Condition {
	if available >= d.Replicas()-d.MaxUnavailable() {
		return newCondition(Available, meta.ConditionTrue, ReasonMinimumReplicasAvailable, "Deployment has minimum availability.", now)
	}
	return newCondition(Available, meta.ConditionFalse, ReasonMinimumReplicasUnavailable, "Deployment does not have minimum availability.", now)
}
