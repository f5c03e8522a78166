package statefulset

import "github.com/kubesem/kubesem/podstatus"

// processReplica mirrors processReplica; true stops a monotonic sync.
func (s *stepper) processReplica(replicas []slot, i int, monotonic bool) bool {
	r := &replicas[i]
	set := s.set
	if !r.new && podstatus.IsTerminal(r.pod) {
		if !r.pod.IsDeleting() {
			s.delete(r.pod.Name, r.pod.UID, ReasonPodFailed)
		}
		return true
	}
	uid := s.uidOf(r)
	if r.new || !isCreated(r.pod) {
		for _, tc := range set.Spec.VolumeClaimTemplates {
			t := tc.Name
			if c := s.claims[ClaimName(t, set.Name, r.claimOrd)]; c != nil && ClaimIsStale(c, set, Owner{Name: r.name, UID: uid}) {
				return true
			}
		}
		if !s.createClaims(r.name, r.claimOrd) {
			return true
		}
		if !r.new || s.podNames[r.name] || s.created[r.name] {
			// A pod of that name exists already (one without a phase, a
			// pod "<set>--1", or one this sync created): the creation fails.
			s.fail(ReasonAlreadyExists)
			return true
		}
		s.created[r.name] = true
		s.plan.Create.Objects = append(s.plan.Create.Objects, NewPod{Name: r.name, Ordinal: r.podIndex(), Revision: r.revision})
		s.plan.Create.Count++
		s.plan.Create.Reason = ReasonMissing
		s.fixClaims(r.name, uid, r.claimOrd)
		if monotonic {
			return true
		}
	}
	if !r.new && r.pod.Status.Phase == podstatus.Pending {
		if !s.createClaims(r.name, r.claimOrd) {
			return true
		}
		s.fixClaims(r.name, uid, r.claimOrd)
	}
	if !r.new && r.pod.IsDeleting() && monotonic {
		return true
	}
	if monotonic && (!isRunningAndReady(r.pod) || !isAvailable(r.pod, set.Spec.MinReadySeconds, s.now)) {
		return true
	}
	retention := s.claimsMatch(r.name, uid, r.claimOrd)
	idOK, storOK := s.nameMatches(r.name), true
	if !r.new {
		idOK = s.identityMatches(r.pod)
		storOK = s.storageMatches(r.pod, r.claimOrd)
	}
	if idOK && storOK && retention {
		return false
	}
	s.updatePod(r, idOK, storOK, uid)
	return false
}

// updatePod mirrors UpdateStatefulPod on (a copy of) the pod of r: an
// identity fix renames it "<set>-<ordinal>" from the ordinal its name
// parses to, a storage fix creates its missing claims, then its claims'
// owner references are fixed when they do not match the retention policy
// for the pod as renamed, and the pod is written; the write fails when no
// pod of that name exists (among the pods given: a pod this sync created is
// not).
func (s *stepper) updatePod(r *slot, idOK, storOK bool, uid string) {
	target := r.name
	var why []Reason
	if !idOK {
		target = PodName(s.set.Name, r.claimOrd)
		why = append(why, ReasonIdentity)
	}
	if !storOK {
		why = append(why, ReasonStorage)
		if !s.createClaims(target, r.claimOrd) {
			return
		}
	}
	if !s.claimsMatch(target, uid, r.claimOrd) {
		why = append(why, ReasonRetention)
		s.fixClaims(target, uid, r.claimOrd)
	}
	if len(why) == 0 {
		return
	}
	if !s.podNames[target] {
		// The pod is not in the API (created in this same sync, or renamed
		// to a name no pod has): the update fails.
		s.fail(ReasonPodNotFound)
		return
	}
	s.plan.Update = append(s.plan.Update, PodUpdate{Name: target, Reasons: why})
}
