package node

import (
	"cmp"
	"slices"
	"strings"
)

// ZoneState is the node lifecycle controller's view of one zone.
type ZoneState string

// Zone states. Initial is the state of a zone the controller has just
// discovered, until its first disruption pass.
const (
	ZoneInitial           ZoneState = "Initial"
	ZoneNormal            ZoneState = "Normal"
	ZonePartialDisruption ZoneState = "PartialDisruption"
	ZoneFullDisruption    ZoneState = "FullDisruption"
)

// ComputeZoneState returns how many of a zone's nodes are not ready (no
// Ready condition, or one whose status is not True) and the zone's state:
// FullDisruption when none is ready and at least one is not;
// PartialDisruption when at least 3 are not ready and their share (in
// float32) is at least the unhealthy-zone threshold (0.55); else Normal
// (also for an empty zone). ready lists each node's Ready status, ""
// standing for a node without a Ready condition.
//
// Source: upstream pkg/controller/nodelifecycle Controller.ComputeZoneState
// (v1.36.3).
func ComputeZoneState(ready []ConditionStatus, opts Options) (notReady int, state ZoneState) {
	readyN := 0
	for _, s := range ready {
		if s == ConditionTrue {
			readyN++
		} else {
			notReady++
		}
	}
	return notReady, zoneState(readyN, notReady, opts.unhealthyThreshold())
}

func zoneState(ready, notReady int, threshold float32) ZoneState {
	switch {
	case ready == 0 && notReady > 0:
		return ZoneFullDisruption
	case notReady > 2 && float32(notReady)/float32(notReady+ready) >= threshold:
		return ZonePartialDisruption
	}
	return ZoneNormal
}

// ReducedRate is the eviction (tainting) rate of a partially disrupted
// zone of zoneSize nodes: the secondary rate (0.01/s) when the zone has
// more than the large-cluster threshold (50) nodes, else 0 (no eviction).
//
// Source: upstream Controller.ReducedQPSFunc (v1.36.3).
func ReducedRate(zoneSize int, opts Options) float32 {
	if int32(zoneSize) > opts.largeCluster() {
		return opts.secondaryRate()
	}
	return 0
}

// HealthyRate is the eviction rate of a healthy zone, and of a fully
// disrupted zone when other zones are healthy: --node-eviction-rate
// (0.1/s), whatever the zone's size.
//
// Source: upstream Controller.HealthyQPSFunc (v1.36.3).
func HealthyRate(zoneSize int, opts Options) float32 { return opts.evictionRate() }

// ZoneRate is the rate limit a zone's NoExecute tainter gets for state:
// Normal → [HealthyRate] (the primary rate), PartialDisruption →
// [ReducedRate], FullDisruption → [HealthyRate]; ok is false for states
// that do not change the limiter (Initial).
//
// Source: upstream Controller.setLimiterInZone (v1.36.3).
func ZoneRate(state ZoneState, zoneSize int, opts Options) (rate float32, ok bool) {
	switch state {
	case ZoneNormal:
		return opts.evictionRate(), true
	case ZonePartialDisruption:
		return ReducedRate(zoneSize, opts), true
	case ZoneFullDisruption:
		return HealthyRate(zoneSize, opts), true
	}
	return 0, false
}

// ZoneStates groups nodes by zone ([Zone]; excluded nodes skipped, see
// [ExcludedFromDisruption]) and returns each zone's size, not-ready count
// and state from the nodes' Ready conditions as they are, by zone key. The
// Rate field is the rate a zone in that state would get
// ([ZoneRate]; Initial never occurs here).
//
// Source: upstream Controller.monitorNodeHealth (zoneToNodeConditions) and
// ComputeZoneState (v1.36.3).
func ZoneStates(nodes []*Node, opts Options) []ZoneReport {
	var t zoneTable
	for _, n := range nodes {
		if n == nil {
			continue
		}
		region, zone, excluded := zoneLabels(n.Labels)
		if excluded {
			continue
		}
		z := &t.zones[t.index(region, zone)]
		if n.IsReady() {
			z.ready++
		} else {
			z.notReady++
		}
	}
	// every zone key in one allocation
	size := 0
	for _, z := range t.zones {
		size += len(z.region) + len(zoneKeySep) + len(z.zone)
	}
	var b strings.Builder
	b.Grow(size)
	out := make([]ZoneReport, len(t.zones))
	threshold := opts.unhealthyThreshold()
	for i, z := range t.zones {
		if z.region != "" || z.zone != "" {
			b.WriteString(z.region)
			b.WriteString(zoneKeySep)
			b.WriteString(z.zone)
		}
		st := zoneState(z.ready, z.notReady, threshold)
		size := z.ready + z.notReady
		rate, _ := ZoneRate(st, size, opts)
		out[i] = ZoneReport{Size: size, NotReady: z.notReady, State: st, Rate: rate}
	}
	keys, at := b.String(), 0
	for i, z := range t.zones {
		if z.region != "" || z.zone != "" {
			n := len(z.region) + len(zoneKeySep) + len(z.zone)
			out[i].Zone = keys[at : at+n]
			at += n
		}
	}
	slices.SortFunc(out, func(a, b ZoneReport) int { return cmp.Compare(a.Zone, b.Zone) })
	return out
}

// zoneKeySep joins region and zone in a zone key, as upstream GetZoneKey
// does.
const zoneKeySep = ":\x00:"
