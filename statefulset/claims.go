package statefulset

import "github.com/kubesem/kubesem/plan"

// claimsMatch mirrors ClaimsMatchRetentionPolicy for the pod named pod
// with uid uid whose claims are those of ordinal o (the ordinal pod's name
// parses to).
func (s *stepper) claimsMatch(pod, uid string, o int32) bool {
	if len(s.set.Spec.VolumeClaimTemplates) == 0 {
		return true
	}
	po := Owner{Name: pod, UID: uid}
	for _, tc := range s.set.Spec.VolumeClaimTemplates {
		t := tc.Name
		c := s.claims[ClaimName(t, s.set.Name, o)]
		if c != nil && !ClaimOwnerUpToDate(c, s.set, po) {
			return false
		}
	}
	return true
}

// fixClaims mirrors UpdatePodClaimForRetentionPolicy for the pod named pod
// with uid uid whose claims are those of ordinal o (the ordinal pod's name
// parses to).
func (s *stepper) fixClaims(pod, uid string, o int32) {
	if len(s.set.Spec.VolumeClaimTemplates) == 0 {
		return
	}
	po := Owner{Name: pod, UID: uid}
	for _, tc := range s.set.Spec.VolumeClaimTemplates {
		t := tc.Name
		c := s.claims[ClaimName(t, s.set.Name, o)]
		if c == nil {
			continue
		}
		if UnexpectedController(c, s.set, po) {
			s.plan.Events = append(s.plan.Events, plan.Event{Type: plan.Warning, Reason: ReasonConflictingController, Object: c.Name})
		}
		if !ClaimOwnerUpToDate(c, s.set, po) {
			s.plan.Claims = append(s.plan.Claims, ClaimWrite{Verb: ClaimUpdate, Name: c.Name, Pod: pod,
				OwnerReferences: ClaimOwnerRefs(c, s.set, po), Reason: ReasonRetention})
		}
	}
}

// createClaims mirrors createPersistentVolumeClaims for the pod named pod
// whose claims are those of ordinal o; false when a claim is being
// deleted.
func (s *stepper) createClaims(pod string, o int32) bool {
	ok := true
	for _, tc := range s.set.Spec.VolumeClaimTemplates {
		t := tc.Name
		name := ClaimName(t, s.set.Name, o)
		c := s.claims[name]
		switch {
		case c == nil:
			s.plan.Claims = append(s.plan.Claims, ClaimWrite{Verb: ClaimCreate, Name: name, Pod: pod, Reason: ReasonClaimMissing})
		case c.DeletionTimestamp != nil:
			ok = false
		}
	}
	if !ok {
		s.fail(ReasonClaimBeingDeleted)
	}
	return ok
}
