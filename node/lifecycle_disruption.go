package node

// handleDisruption mirrors upstream handleDisruption.
// zoneReady holds, by zone key, the ready and not-ready nodes of each zone
// with a node that counts (ComputeZoneState's input).
func (s *lifecycle) handleDisruption(zoneReady map[string]readyCount) {
	newStates := map[string]ZoneState{}
	allAre := true
	threshold := s.opts.unhealthyThreshold()
	for k, c := range zoneReady {
		st := zoneState(c.ready, c.notReady, threshold)
		if st != ZoneFullDisruption {
			allAre = false
		}
		newStates[k] = st
		if z := s.zones.get(k); z == nil || z.State == "" {
			s.ensureZone(k)
		}
	}
	allWas := true
	for _, k := range s.withState() {
		if _, ok := zoneReady[k]; !ok {
			s.zones.get(k).State = "" // its tainter stays
			continue
		}
		if s.zones.get(k).State != ZoneFullDisruption {
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
			z := s.zones.get(k)
			z.Limiter.swap(0, s.now)
			z.State = ZoneFullDisruption
		}
		s.p.Disrupted = true
		return
	}
	if allWas {
		for _, n := range s.nodes {
			if h, ok := s.next[n.Name]; ok {
				h.ProbeTime = s.now
				s.next[n.Name] = h
			}
		}
		for _, k := range s.withState() {
			z := s.zones.get(k)
			if r, ok := ZoneRate(newStates[k], zoneReady[k].size(), s.opts); ok {
				z.Limiter.swap(r, s.now)
			}
			z.State = newStates[k]
		}
		return
	}
	for _, k := range s.withState() {
		z := s.zones.get(k)
		if z.State == newStates[k] {
			continue
		}
		if r, ok := ZoneRate(newStates[k], zoneReady[k].size(), s.opts); ok {
			z.Limiter.swap(r, s.now)
		}
		z.State = newStates[k]
	}
}

// readyCount is how many of a zone's nodes are ready (their Ready
// condition True) and not.
type readyCount struct{ ready, notReady int }

func (c readyCount) size() int { return c.ready + c.notReady }
