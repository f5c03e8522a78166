package statefulset

import (
	"math"
	"slices"

	"github.com/kubesem/kubesem/podstatus"
)

// slot is one ordinal of the set's range, or a condemned pod.
type slot struct {
	pod     *podstatus.Pod
	ordinal int64 // the slot's ordinal (start + index) or the pod's
	// name is the pod's name: the existing pod's, or the one upstream
	// gives a new pod ("<set>--1" for an ordinal beyond int32).
	name string
	// claimOrd is the ordinal upstream reads back from name: the claims,
	// the storage and the ordinal range of the pod are computed from it.
	claimOrd int32
	new      bool   // the pod does not exist yet
	revision string // the revision of a new pod
}

// slots lays the set's pods out as upstream does: replicas holds one slot
// per ordinal of [start, start+replicas), a missing pod's slot built by
// newSlot; condemned holds the pods outside that range, from the
// highest ordinal down.
func (s *stepper) slots(members []*podstatus.Pod, ords []int32, current, update string) (replicas, condemned []slot) {
	start, n := int64(s.set.Start()), s.set.Replicas()
	replicas = make([]slot, n)
	for i, m := range members {
		o := int64(ords[i])
		sl := slot{pod: m, ordinal: o, name: m.Name, claimOrd: ords[i]}
		if o >= start && o < start+int64(n) {
			replicas[o-start] = sl
		} else {
			condemned = append(condemned, sl)
		}
	}
	slices.Reverse(condemned)
	for i := range replicas {
		if replicas[i].pod == nil {
			replicas[i] = s.newSlot(start+int64(i), current, update)
		}
	}
	return replicas, condemned
}

// firstUnavailable returns the first unavailable slot: its index in
// replicas, or -2-i for condemned[i] (condemned walked from the lowest
// ordinal up), or -1 when every pod is available.
func (s *stepper) firstUnavailable(replicas, condemned []slot) int {
	for i := range replicas {
		if s.unavailable(&replicas[i]) {
			return i
		}
	}
	for i := len(condemned) - 1; i >= 0; i-- {
		if s.unavailable(&condemned[i]) {
			return -2 - i
		}
	}
	return -1
}

// newSlot is the pod upstream builds for missing ordinal o
// (newVersionedStatefulSetPod, newStatefulSetPod and initIdentity,
// stateful_set_utils.go, v1.36.3): named "<set>-<o>", then renamed from
// the ordinal its name parses back to, which for an o beyond int32 is -1
// ("<set>--1", whose name parses back to ordinal 1).
func (s *stepper) newSlot(o int64, current, update string) slot {
	idx := int32(-1)
	if o <= math.MaxInt32 {
		idx = int32(o)
	}
	name := PodName(s.set.Name, idx)
	return slot{ordinal: o, name: name, claimOrd: ParseOrdinal(name), new: true, revision: s.newPodRevision(o, current, update)}
}

// podIndex is the apps.kubernetes.io/pod-index label of a new pod: the
// ordinal its name was built from (-1 beyond int32).
func (r *slot) podIndex() int32 {
	if r.ordinal > math.MaxInt32 {
		return -1
	}
	return int32(r.ordinal)
}

// newPodRevision is the revision a missing pod is created at: with the
// strategy defaulted, the current revision below start+partition when there
// is a rollingUpdate block, or, for a RollingUpdate set without one, below
// start+status.currentReplicas; else the update revision
// (newVersionedStatefulSetPod, stateful_set_utils.go, v1.36.3). Ordinals are
// compared in 64 bits, as upstream compares ints.
func (s *stepper) newPodRevision(o int64, current, update string) string {
	set := s.set
	start := int64(set.Start())
	ru := s.strategy.RollingUpdate
	if s.strategy.Type == RollingUpdate && ru == nil && o < start+int64(set.Status.CurrentReplicas) {
		return current
	}
	if ru != nil {
		part := int64(0)
		if ru.Partition != nil {
			part = int64(*ru.Partition)
		}
		if o < start+part {
			return current
		}
	}
	return update
}

func (s *stepper) unavailable(r *slot) bool {
	if r.new {
		return true
	}
	return IsUnavailable(r.pod, s.set.Spec.MinReadySeconds, s.now)
}

func (s *stepper) terminating(r *slot) bool { return !r.new && r.pod.IsDeleting() }

func (s *stepper) revisionOf(r *slot) string {
	if r.new {
		return r.revision
	}
	return PodRevision(r.pod)
}

func (s *stepper) uidOf(r *slot) string {
	if r.new {
		return ""
	}
	return r.pod.UID
}
