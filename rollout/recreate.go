package rollout

import (
	"github.com/kubesem/kubesem/podstatus"
	"github.com/kubesem/kubesem/replicaset"
)

// OldPodsRunning reports whether a Recreate rollout of d must still wait
// before starting new pods: the old ReplicaSets' status.replicas add up (in
// int32, wrapping as upstream's sum does) to more than 0,
// or some pod matching d's selector and controlled by an old ReplicaSet is
// in neither phase Succeeded nor Failed (phase Unknown counts as running, as
// a pod on an unreachable node may still run). Pods of newReplicaSet (which
// may be nil) and pods of no listed ReplicaSet are ignored.
//
// A pod belongs to a ReplicaSet when its controller owner reference has the
// ReplicaSet's UID, or, for a ReplicaSet without UID, its name and no UID.
//
// Source: upstream pkg/controller/deployment/recreate.go oldPodsRunning,
// deployment_controller.go getPodMapForDeployment (v1.36.3); seed 000
// Deployment Recreate.
func OldPodsRunning(d *Deployment, newReplicaSet *replicaset.ReplicaSet, oldReplicaSets []*replicaset.ReplicaSet, pods []*podstatus.Pod) bool {
	// Upstream adds the counts in int32 first, so a sum that wraps to 0 or
	// below counts as no pods.
	var actual int32
	for _, rs := range oldReplicaSets {
		if rs != nil {
			actual += rs.Status.Replicas
		}
	}
	if actual > 0 {
		return true
	}
	for _, p := range pods {
		if p == nil || podstatus.IsTerminal(p) {
			continue
		}
		if !d.Spec.Selector.Matches(p.Labels) {
			continue
		}
		ref := p.ControllerRef()
		if ref == nil || (newReplicaSet != nil && owns(newReplicaSet, ref.UID, ref.Name)) {
			continue
		}
		for _, rs := range oldReplicaSets {
			if rs != nil && owns(rs, ref.UID, ref.Name) {
				return true
			}
		}
	}
	return false
}

// owns reports whether an owner reference with uid and name points at rs.
func owns(rs *replicaset.ReplicaSet, uid, name string) bool {
	if rs.UID == "" {
		return uid == "" && name == rs.Name
	}
	return uid == rs.UID
}
