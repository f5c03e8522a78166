package rollout

import (
	"github.com/kubesem/kubesem/field"
	"github.com/kubesem/kubesem/intstr"
	"github.com/kubesem/kubesem/replicaset"
)

// NewReplicaSetReplicas returns the size the new ReplicaSet may grow to in
// one step. For RollingUpdate it is newReplicaSet's spec.replicas plus as
// many pods as fit under replicas + maxSurge, counting spec.replicas of every
// ReplicaSet in allReplicaSets, but never past replicas; when the total is
// already at or above that cap the size is unchanged. For Recreate it is
// spec.replicas.
//
// maxSurge is scaled against replicas rounding up but, as upstream, without
// the both-zero fencepost of [Fenceposts] (which only ever changes the
// unavailable count). The arithmetic is int32 and wraps as upstream's does.
// newReplicaSet need not be in allReplicaSets; nil ReplicaSets count as 0.
//
// It returns a *field.Error for an invalid maxSurge
// (spec.strategy.rollingUpdate.maxSurge) or an unknown strategy type
// (spec.strategy, field.ErrUnsupported); the count is then 0.
//
// Source: upstream deployment_util.go NewRSNewReplicas (v1.36.3).
func NewReplicaSetReplicas(d *Deployment, allReplicaSets []*replicaset.ReplicaSet, newReplicaSet *replicaset.ReplicaSet) (int32, error) {
	replicas := d.Replicas()
	switch d.Spec.Strategy.Type {
	case RecreateStrategy:
		return replicas, nil
	case RollingUpdateStrategy, "":
	default:
		return 0, field.New("spec.strategy", string(d.Spec.Strategy.Type), field.ErrUnsupported)
	}
	s, _ := rollingValues(d)
	surge, err := intstr.Scaled(s, replicas, intstr.Up)
	if err != nil {
		return 0, field.At(err, pathMaxSurge)
	}
	current := specSum(allReplicaSets)
	size := specOf(newReplicaSet)
	maxTotal := replicas + surge
	if current >= maxTotal {
		return size, nil
	}
	return size + min(maxTotal-current, replicas-size), nil
}

// specOf returns rs's spec.replicas, 0 for a nil rs.
func specOf(rs *replicaset.ReplicaSet) int32 {
	if rs == nil {
		return 0
	}
	return rs.Replicas()
}

// specSum adds spec.replicas over replicaSets (int32, wrapping as upstream).
func specSum(replicaSets []*replicaset.ReplicaSet) int32 {
	var n int32
	for _, rs := range replicaSets {
		n += specOf(rs)
	}
	return n
}

// availableSum adds status.availableReplicas over replicaSets.
func availableSum(replicaSets []*replicaset.ReplicaSet) int32 {
	var n int32
	for _, rs := range replicaSets {
		if rs != nil {
			n += rs.Status.AvailableReplicas
		}
	}
	return n
}
