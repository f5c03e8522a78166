package statefulset

import (
	"time"

	"github.com/kubesem/kubesem/podstatus"
)

func isCreated(p *podstatus.Pod) bool { return p.Status.Phase != "" }
func isRunningAndReady(p *podstatus.Pod) bool {
	return p.Status.Phase == podstatus.Running && podstatus.IsReady(p)
}
func isAvailable(p *podstatus.Pod, minReady int32, now time.Time) bool {
	return podstatus.IsAvailable(p, minReady, now)
}

// IsUnavailable reports whether a pod counts as unavailable: not available
// (Ready for minReadySeconds at now, [podstatus.IsAvailable]) or
// terminating.
//
// Source: upstream pkg/controller/statefulset stateful_set_utils.go
// isUnavailable (v1.36.3); seed 002:L202-204.
func IsUnavailable(p *podstatus.Pod, minReadySeconds int32, now time.Time) bool {
	return !isAvailable(p, minReadySeconds, now) || p.IsDeleting()
}

// CountReplicas fills the replica counts of st from pods: replicas counts
// created pods (phase set), ready those Running and Ready, available those
// also available at now, current and updated the created, non-terminating
// pods at st.CurrentRevision and st.UpdateRevision. Other fields of st are
// left as they are.
//
// Source: upstream pkg/controller/statefulset stateful_set_control.go
// computeReplicaStatus, updateStatus (v1.36.3).
func CountReplicas(st *Status, pods []*podstatus.Pod, minReadySeconds int32, now time.Time) {
	st.Replicas, st.ReadyReplicas, st.AvailableReplicas, st.CurrentReplicas, st.UpdatedReplicas = 0, 0, 0, 0, 0
	for _, p := range pods {
		created := isCreated(p)
		if created {
			st.Replicas++
		}
		if isRunningAndReady(p) {
			st.ReadyReplicas++
			if isAvailable(p, minReadySeconds, now) {
				st.AvailableReplicas++
			}
		}
		if created && !p.IsDeleting() {
			r := PodRevision(p)
			if r == st.CurrentRevision {
				st.CurrentReplicas++
			}
			if r == st.UpdateRevision {
				st.UpdatedReplicas++
			}
		}
	}
}

// CompleteRollingUpdate makes the update revision current (and
// currentReplicas the updated count) when a RollingUpdate set has all
// spec.replicas pods created, ready and updated; otherwise st is left
// alone.
//
// Source: upstream pkg/controller/statefulset stateful_set_utils.go
// completeRollingUpdate (v1.36.3).
func CompleteRollingUpdate(set *StatefulSet, st *Status) {
	r := set.Replicas()
	if set.Strategy() == RollingUpdate && st.UpdatedReplicas == r && st.ReadyReplicas == r && st.Replicas == r {
		st.CurrentReplicas = st.UpdatedReplicas
		st.CurrentRevision = st.UpdateRevision
	}
}

// StatusChanged reports whether the controller writes st over old: a newer
// observedGeneration or any count or revision differs; collisionCount alone
// does not count.
//
// Source: upstream pkg/controller/statefulset stateful_set_utils.go
// inconsistentStatus (v1.36.3).
func StatusChanged(old, st *Status) bool {
	return st.ObservedGeneration > old.ObservedGeneration ||
		st.Replicas != old.Replicas || st.CurrentReplicas != old.CurrentReplicas ||
		st.ReadyReplicas != old.ReadyReplicas || st.UpdatedReplicas != old.UpdatedReplicas ||
		st.CurrentRevision != old.CurrentRevision || st.AvailableReplicas != old.AvailableReplicas ||
		st.UpdateRevision != old.UpdateRevision
}
