package rollout

import (
	"slices"

	"github.com/kubesem/kubesem/replicaset"
)

// ReconcileNewReplicaSet returns the size a rolling update gives the new
// ReplicaSet in this sync, and the reason when it changes: spec.replicas
// when the new ReplicaSet is above it (ReasonScaleDownNew), else
// [NewReplicaSetReplicas] (ReasonScaleUpNew). It returns the current size
// and "" when nothing changes. newReplicaSet must not be nil.
//
// It returns the errors of [NewReplicaSetReplicas].
//
// Source: upstream pkg/controller/deployment/rolling.go reconcileNewReplicaSet (v1.36.3).
func ReconcileNewReplicaSet(d *Deployment, allReplicaSets []*replicaset.ReplicaSet, newReplicaSet *replicaset.ReplicaSet) (int32, Reason, error) {
	size, replicas := newReplicaSet.Replicas(), d.Replicas()
	switch {
	case size == replicas:
		return size, "", nil
	case size > replicas:
		return replicas, ReasonScaleDownNew, nil
	}
	n, err := NewReplicaSetReplicas(d, allReplicaSets, newReplicaSet)
	if err != nil || n == size {
		return size, "", err
	}
	return n, ReasonScaleUpNew, nil
}

// sized is a ReplicaSet with the size a sync has given it so far.
type sized struct {
	rs   *replicaset.ReplicaSet
	size int32
}

func sizedOf(replicaSets []*replicaset.ReplicaSet) []sized {
	s := make([]sized, 0, len(replicaSets))
	for _, rs := range replicaSets {
		if rs != nil {
			s = append(s, sized{rs, rs.Replicas()})
		}
	}
	return s
}

func sortSizedByAge(s []sized) {
	slices.SortStableFunc(s, func(a, b sized) int { return olderFirst(a.rs, b.rs) })
}

// ReconcileOldReplicaSets returns how a rolling update shrinks the active
// old ReplicaSets in this sync, and whether it counts as having scaled.
// With maxScaledDown = Σ spec.replicas(allReplicaSets) - (spec.replicas -
// [Deployment.MaxUnavailable]) - (new spec.replicas - new available) (for Recreate too,
// where MaxUnavailable is 0, unlike [Deployment.MinAvailable]), nothing happens unless it is
// positive; then [CleanupUnhealthy] removes up to maxScaledDown unavailable
// old pods, and [ScaleDownOld] removes available old pods down to
// spec.replicas - MaxUnavailable, counting the sizes cleanup left.
//
// When cleanup meets an old ReplicaSet reporting more available pods than
// its spec.replicas, upstream aborts with an error after the resizes made so
// far: those are returned, with scaled false. newReplicaSet may be nil.
//
// Source: upstream pkg/controller/deployment/rolling.go reconcileOldReplicaSets (v1.36.3);
// seed 000 Deployment rollover; kubernetes/kubernetes#16737.
func ReconcileOldReplicaSets(d *Deployment, allReplicaSets, oldReplicaSets []*replicaset.ReplicaSet, newReplicaSet *replicaset.ReplicaSet) (scales []Scale, scaled bool) {
	old := sizedOf(oldReplicaSets)
	if specSum(oldReplicaSets) == 0 {
		return nil, false
	}
	var newUnavailable int32
	if newReplicaSet != nil {
		newUnavailable = newReplicaSet.Replicas() - newReplicaSet.Status.AvailableReplicas
	}
	maxScaledDown := specSum(allReplicaSets) - (d.Replicas() - d.MaxUnavailable()) - newUnavailable
	if maxScaledDown <= 0 {
		return nil, false
	}
	scales, cleaned, ok := cleanup(old, maxScaledDown)
	if !ok {
		return scales, false
	}
	// Availability is read from the ReplicaSets' status, which cleanup leaves as is.
	all := append(slices.Clone(oldReplicaSets), newReplicaSet)
	down, n := scaleDown(d, availableSum(all), old)
	return append(scales, down...), cleaned+n > 0
}

// CleanupUnhealthy returns how the old ReplicaSets shed pods that are not
// available, oldest first (creationTimestamp, then name), removing
// min(spec.replicas - available, what is left of maxCleanup) from each until
// maxCleanup pods are gone, and how many pods that removes in all (cleaned,
// at most maxCleanup). ReplicaSets of size 0 or fully available are
// skipped. ok is false when an old ReplicaSet reports more available pods
// than its spec.replicas, where upstream stops with an error; the resizes
// before it are returned, with what they remove.
//
// Source: upstream pkg/controller/deployment/rolling.go cleanupUnhealthyReplicas (v1.36.3),
// which returns the same total.
func CleanupUnhealthy(oldReplicaSets []*replicaset.ReplicaSet, maxCleanup int32) (scales []Scale, cleaned int32, ok bool) {
	return cleanup(sizedOf(oldReplicaSets), maxCleanup)
}

// cleanup sorts old by age and shrinks it in place.
func cleanup(old []sized, maxCleanup int32) (scales []Scale, total int32, ok bool) {
	sortSizedByAge(old)
	for i := range old {
		rs := &old[i]
		if total >= maxCleanup {
			break
		}
		available := rs.rs.Status.AvailableReplicas
		if rs.size == 0 || rs.size == available {
			continue
		}
		n := min(maxCleanup-total, rs.size-available)
		if rs.size-n > rs.size {
			return scales, total, false
		}
		rs.size -= n
		scales = append(scales, Scale{ReplicaSet: rs.rs, Replicas: rs.size, Reason: ReasonCleanupUnhealthy})
		total += n
	}
	return scales, total, true
}

// ScaleDownOld returns how the old ReplicaSets shrink, oldest first
// (creationTimestamp, then name), so that available pods
// (Σ status.availableReplicas over allReplicaSets) fall to spec.replicas -
// [Deployment.MaxUnavailable] (for Recreate too)
// and no lower, and how many pods that removes in all (scaledDown).
// Nothing shrinks when available <= minAvailable.
//
// Source: upstream pkg/controller/deployment/rolling.go
// scaleDownOldReplicaSetsForRollingUpdate (v1.36.3), which returns the
// same total.
func ScaleDownOld(d *Deployment, allReplicaSets, oldReplicaSets []*replicaset.ReplicaSet) (scales []Scale, scaledDown int32) {
	return scaleDown(d, availableSum(allReplicaSets), sizedOf(oldReplicaSets))
}

func scaleDown(d *Deployment, available int32, old []sized) ([]Scale, int32) {
	minAvailable := d.Replicas() - d.MaxUnavailable()
	if available <= minAvailable {
		return nil, 0
	}
	sortSizedByAge(old)
	var scales []Scale
	var total int32
	budget := available - minAvailable
	for i := range old {
		rs := &old[i]
		if total >= budget {
			break
		}
		if rs.size == 0 {
			continue
		}
		n := min(rs.size, budget-total)
		rs.size -= n
		scales = append(scales, Scale{ReplicaSet: rs.rs, Replicas: rs.size, Reason: ReasonScaleDownOld})
		total += n
	}
	return scales, total
}
