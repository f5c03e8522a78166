package statefulset

// rollingUpdate mirrors the rolling update of updateStatefulSet (and, with
// the MaxUnavailableStatefulSet option, updateStatefulSetAfterInvariantEstablished):
// outdated pods are deleted from the highest ordinal down to the
// partition, one at a time, stopping at an unavailable pod; with the
// option, up to maxUnavailable less the unavailable pods of the range.
// Each deletion lowers st.CurrentReplicas.
func (s *stepper) rollingUpdate(replicas []slot, st *Status, update string) Reason {
	updateMin := int64(0)
	ru := s.strategy.RollingUpdate
	if ru != nil && ru.Partition != nil {
		updateMin = int64(*ru.Partition)
	}
	if s.opts.MaxUnavailableStatefulSet {
		maxU := int64(1)
		if ru != nil {
			m, err := MaxUnavailable(ru.MaxUnavailable, s.set.Replicas())
			if err != nil {
				s.fail(ReasonError)
				return ReasonRollingUpdate
			}
			maxU = m
		}
		unavail := int64(0)
		for i := range replicas {
			if s.unavailable(&replicas[i]) {
				unavail++
			}
		}
		if unavail >= maxU {
			return ReasonRollingUpdate
		}
		budget := maxU - unavail
		for t := int64(len(replicas)) - 1; t >= updateMin && budget > 0; t-- {
			r := &replicas[t]
			if s.revisionOf(r) != update && !s.terminating(r) {
				s.delete(r.name, s.uidOf(r), ReasonOutdated)
				budget--
				st.CurrentReplicas--
			}
		}
		return ReasonRollingUpdate
	}
	for t := int64(len(replicas)) - 1; t >= updateMin; t-- {
		r := &replicas[t]
		if s.revisionOf(r) != update && !s.terminating(r) {
			s.delete(r.name, s.uidOf(r), ReasonOutdated)
			st.CurrentReplicas--
			return ReasonRollingUpdate
		}
		if s.unavailable(r) {
			return ReasonRollingUpdate
		}
	}
	return ReasonRollingUpdate
}
