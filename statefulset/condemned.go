package statefulset

// processCondemned mirrors the condemned pass of updateStatefulSet: the
// claims of every condemned pod are brought to the retention policy (which
// never stops: the model has no lookup errors), then processCondemned
// deletes them from the highest ordinal down. A monotonic sync stops at
// the first: it waits while that pod terminates, or while it is not
// Running, Ready and available unless it is the first unavailable pod of
// the set, and deletes it otherwise. It reports whether the sync stops
// here.
func (s *stepper) processCondemned(condemned []slot, firstUnavailable int, monotonic bool) bool {
	mrs := s.set.Spec.MinReadySeconds
	for i := range condemned {
		c := &condemned[i]
		if !s.claimsMatch(c.name, s.uidOf(c), c.claimOrd) {
			s.fixClaims(c.name, s.uidOf(c), c.claimOrd)
		}
	}
	return s.runForAll(len(condemned), monotonic, func(i int) bool {
		c := &condemned[i]
		if c.pod.IsDeleting() {
			return monotonic
		}
		isFirst := firstUnavailable == -2-i
		if monotonic && !isFirst && (!isRunningAndReady(c.pod) || !isAvailable(c.pod, mrs, s.now)) {
			return true
		}
		s.delete(c.pod.Name, c.pod.UID, ReasonCondemned)
		return true
	})
}
