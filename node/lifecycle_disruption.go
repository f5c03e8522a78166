package node

// handleDisruption mirrors upstream handleDisruption.
func (s *lifecycle) handleDisruption(zoneReady map[string][]ConditionStatus) {
	newStates := map[string]ZoneState{}
	allAre := true
	for k, v := range zoneReady {
		_, st := ComputeZoneState(v, s.opts)
		if st != ZoneFullDisruption {
			allAre = false
		}
		newStates[k] = st
		if z, ok := s.zones[k]; !ok || z.State == "" {
			s.ensureZone(k)
		}
	}
	allWas := true
	for _, k := range s.withState() {
		if _, ok := zoneReady[k]; !ok {
			s.zones[k].State = "" // its tainter stays
			continue
		}
		if s.zones[k].State != ZoneFullDisruption {
			allWas = false
		}
	}
	s.p.Disrupted = allAre && allWas && len(zoneReady) > 0
	if allAre && allWas {
		return
	}
	if allAre {
		for i := range s.nodes {
			s.markReachable(i, ReasonMasterDisruption)
		}
		for _, k := range s.withState() {
			z := s.zones[k]
			z.Limiter.swap(0, s.now)
			z.State = ZoneFullDisruption
		}
		s.p.Disrupted = true
		return
	}
	if allWas {
		for i := range s.nodes {
			if s.has[i] {
				s.health[i].ProbeTime = s.now
			}
		}
		for _, k := range s.withState() {
			z := s.zones[k]
			if r, ok := ZoneRate(newStates[k], len(zoneReady[k]), s.opts); ok {
				z.Limiter.swap(r, s.now)
			}
			z.State = newStates[k]
		}
		return
	}
	for _, k := range s.withState() {
		z := s.zones[k]
		if z.State == newStates[k] {
			continue
		}
		if r, ok := ZoneRate(newStates[k], len(zoneReady[k]), s.opts); ok {
			z.Limiter.swap(r, s.now)
		}
		z.State = newStates[k]
	}
}
