package rollout

import (
	"math"
	"slices"
	"strconv"

	"github.com/kubesem/kubesem/replicaset"
)

// Annotations the Deployment controller keeps on its ReplicaSets.
const (
	// DesiredReplicasAnnotation holds spec.replicas of the Deployment when
	// the ReplicaSet was last scaled.
	DesiredReplicasAnnotation = "deployment.kubernetes.io/desired-replicas"
	// MaxReplicasAnnotation holds spec.replicas + maxSurge of the Deployment
	// when the ReplicaSet was last scaled.
	MaxReplicasAnnotation = "deployment.kubernetes.io/max-replicas"
)

// Scale is one ReplicaSet resize a rule decides.
type Scale struct {
	// ReplicaSet is the input ReplicaSet; it is not modified.
	ReplicaSet *replicaset.ReplicaSet
	// Replicas is its new spec.replicas.
	Replicas int32
	// Annotate says the desired- and max-replicas annotations are
	// rewritten even when Replicas equals the current size.
	Annotate bool
	// Reason says which rule decided it.
	Reason Reason
}

// IsScalingEvent reports whether d's replica count changed since its
// ReplicaSets were last scaled: some active ReplicaSet (spec.replicas > 0)
// has a desired-replicas annotation, parsed as a non-negative int32, that
// differs from d's spec.replicas. Unparsable or missing annotations are
// ignored.
//
// Source: upstream pkg/controller/deployment/sync.go isScalingEvent (v1.36.3).
func (d *Deployment) IsScalingEvent(replicaSets []*replicaset.ReplicaSet) bool {
	for _, rs := range replicaSets {
		if !isActive(rs) {
			continue
		}
		if desired, ok := annotationInt32(rs, DesiredReplicasAnnotation); ok && desired != d.Replicas() {
			return true
		}
	}
	return false
}

// IsSaturated reports whether rs holds all of d's pods: its spec.replicas,
// its desired-replicas annotation and its status.availableReplicas all
// equal d's spec.replicas. A nil rs is not saturated.
//
// Source: upstream deployment_util.go IsSaturated (v1.36.3).
func (d *Deployment) IsSaturated(rs *replicaset.ReplicaSet) bool {
	if rs == nil {
		return false
	}
	desired, err := strconv.Atoi(rs.Annotations[DesiredReplicasAnnotation])
	if err != nil {
		return false
	}
	replicas := d.Replicas()
	return rs.Replicas() == replicas && int32(desired) == replicas && rs.Status.AvailableReplicas == replicas
}

// Proportional returns how the controller resizes d's ReplicaSets when d is
// paused or its replica count changed during a rollout, so that the
// rollout's progress is neither hastened nor undone:
//
//   - when at most one ReplicaSet is active, that one (or, with none active,
//     newReplicaSet, else the newest old one) is scaled to spec.replicas;
//   - else when newReplicaSet [Deployment.IsSaturated], every active old ReplicaSet is
//     scaled to 0;
//   - else, for RollingUpdate, the difference between spec.replicas +
//     maxSurge (0 when spec.replicas is 0) and the active ReplicaSets' total
//     is shared among them in proportion to their size: each gets
//     round(size * (replicas+maxSurge) / max-replicas annotation) - size,
//     rounding half away from zero, bounded by what is left to share; the
//     remainder goes to the first ReplicaSet, whose size is kept ≥ 0. They
//     are visited largest first; among equal sizes the newer first when
//     growing and the older first when shrinking (creationTimestamp, then
//     name). Every active ReplicaSet is returned, with Annotate set.
//
// A missing, unparsable or zero max-replicas annotation falls back to
// d's status.replicas; when that is 0 too the ReplicaSet's share is 0. As
// upstream, size * (replicas+maxSurge) is computed in int32 and may wrap.
// Nil ReplicaSets are ignored; the result lists only changes to make.
//
// Source: upstream pkg/controller/deployment/sync.go scale, deployment_util.go
// FindActiveOrLatest, GetReplicaSetProportion, getReplicaSetFraction
// (v1.36.3); seed 000:L1585; kubernetes/kubernetes#29357, #21922, #37083.
func Proportional(d *Deployment, newReplicaSet *replicaset.ReplicaSet, oldReplicaSets []*replicaset.ReplicaSet) []Scale {
	replicas := d.Replicas()
	if only, ok := activeOrLatest(newReplicaSet, oldReplicaSets); ok {
		if only == nil || only.Replicas() == replicas {
			return nil
		}
		return []Scale{{ReplicaSet: only, Replicas: replicas}}
	}
	if d.IsSaturated(newReplicaSet) {
		var out []Scale
		for _, rs := range byAgeDesc(oldReplicaSets) {
			if isActive(rs) {
				out = append(out, Scale{ReplicaSet: rs, Replicas: 0, Reason: ReasonProportional})
			}
		}
		return out
	}
	if !isRolling(d) {
		return nil
	}
	// Visited newest first (then newReplicaSet) when nothing is to be
	// shared, as upstream leaves them.
	active := make([]*replicaset.ReplicaSet, 0, len(oldReplicaSets)+1)
	for _, rs := range byAgeDesc(oldReplicaSets) {
		if isActive(rs) {
			active = append(active, rs)
		}
	}
	if isActive(newReplicaSet) {
		active = append(active, newReplicaSet)
	}
	var allowed int32
	surge := d.MaxSurge()
	if replicas > 0 {
		allowed = replicas + surge
	}
	toAdd := allowed - specSum(active)
	switch {
	case toAdd > 0:
		slices.SortStableFunc(active, func(a, b *replicaset.ReplicaSet) int {
			if a.Replicas() != b.Replicas() {
				return cmpDesc(a.Replicas(), b.Replicas())
			}
			return olderFirst(b, a)
		})
	case toAdd < 0:
		slices.SortStableFunc(active, func(a, b *replicaset.ReplicaSet) int {
			if a.Replicas() != b.Replicas() {
				return cmpDesc(a.Replicas(), b.Replicas())
			}
			return olderFirst(a, b)
		})
	}
	out := make([]Scale, len(active))
	var added int32
	for i, rs := range active {
		size := rs.Replicas()
		if toAdd != 0 {
			p := proportion(d, rs, replicas+surge, toAdd, added)
			size += p
			added += p
		}
		out[i] = Scale{ReplicaSet: rs, Replicas: size, Annotate: true, Reason: ReasonProportional}
	}
	if len(out) > 0 && toAdd != 0 {
		out[0].Replicas = max(out[0].Replicas+toAdd-added, 0)
	}
	return out
}

func cmpDesc(a, b int32) int {
	if a > b {
		return -1
	}
	if a < b {
		return 1
	}
	return 0
}

// activeOrLatest returns the ReplicaSet to scale when at most one is active,
// and false when several are (so that proportional scaling applies).
func activeOrLatest(newReplicaSet *replicaset.ReplicaSet, oldReplicaSets []*replicaset.ReplicaSet) (*replicaset.ReplicaSet, bool) {
	var only *replicaset.ReplicaSet
	n := 0
	for _, rs := range oldReplicaSets {
		if isActive(rs) {
			only = rs
			n++
		}
	}
	if isActive(newReplicaSet) {
		only = newReplicaSet
		n++
	}
	switch {
	case n == 1:
		return only, true
	case n > 1:
		return nil, false
	case newReplicaSet != nil:
		return newReplicaSet, true
	}
	var latest *replicaset.ReplicaSet
	for _, rs := range oldReplicaSets {
		if rs != nil && (latest == nil || olderFirst(rs, latest) > 0) {
			latest = rs
		}
	}
	return latest, true
}

// byAgeDesc returns a copy of replicaSets, newest first.
func byAgeDesc(replicaSets []*replicaset.ReplicaSet) []*replicaset.ReplicaSet {
	s := byAge(replicaSets)
	slices.Reverse(s)
	return s
}

// proportion returns how many pods rs gains (or, negative, loses) out of
// toAdd when added have been handed out already.
//
// Source: upstream deployment_util.go GetReplicaSetProportion (v1.36.3).
func proportion(d *Deployment, rs *replicaset.ReplicaSet, maxReplicas, toAdd, added int32) int32 {
	if rs.Replicas() == 0 || toAdd == 0 || toAdd == added {
		return 0
	}
	f := fraction(d, rs, maxReplicas)
	left := toAdd - added
	if toAdd > 0 {
		return min(f, left)
	}
	return max(f, left)
}

// fraction returns rs's share of a resize of d to maxReplicas (spec.replicas
// + maxSurge), before bounding.
//
// Source: upstream deployment_util.go getReplicaSetFraction (v1.36.3).
func fraction(d *Deployment, rs *replicaset.ReplicaSet, maxReplicas int32) int32 {
	size := rs.Replicas()
	if d.Replicas() == 0 {
		return -size
	}
	before, ok := annotationInt32(rs, MaxReplicasAnnotation)
	if !ok || before == 0 {
		before = d.Status.Replicas
		if before == 0 {
			return 0
		}
	}
	x := float64(size*maxReplicas) / float64(before)
	return int32(math.Round(x)) - size
}

// annotationInt32 parses a non-negative int32 annotation of rs.
//
// Source: upstream deployment_util.go getNonNegativeInt32FromAnnotation (v1.36.3).
func annotationInt32(rs *replicaset.ReplicaSet, key string) (int32, bool) {
	s, ok := rs.Annotations[key]
	if !ok {
		return 0, false
	}
	n, err := strconv.ParseUint(s, 10, 32)
	if err != nil || n > math.MaxInt32 {
		return 0, false
	}
	return int32(n), true
}

// Proportion returns how many pods rs gains (negative: loses) when toAdd
// pods are shared among d's ReplicaSets and added have been handed out
// already: 0 for a nil or empty rs, for toAdd 0 and when nothing is left;
// else rs's fraction round(size * (replicas+maxSurge) / max-replicas) - size
// (-size when d has 0 replicas), at most toAdd-added when growing and at
// least toAdd-added when shrinking. See [Proportional] for the fallbacks.
//
// Source: upstream deployment_util.go GetReplicaSetProportion, getReplicaSetFraction (v1.36.3).
func Proportion(d *Deployment, rs *replicaset.ReplicaSet, toAdd, added int32) int32 {
	if rs == nil {
		return 0
	}
	return proportion(d, rs, d.Replicas()+d.MaxSurge(), toAdd, added)
}
