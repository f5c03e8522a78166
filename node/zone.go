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
	t.init()
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

// zoneLabels reads what the zone grouping needs from a node's labels: the
// region and zone as [Zone] reads them (the deprecated labels first) and
// the exclusion label.
func zoneLabels(l map[string]string) (region, zone string, excluded bool) {
	if _, excluded = l[LabelExcludeDisruption]; excluded {
		return "", "", true
	}
	region, zone = zoneParts(l)
	return region, zone, false
}

// zoneParts reads a node's region and zone as [Zone] does: the deprecated
// labels first.
func zoneParts(l map[string]string) (region, zone string) {
	var ok bool
	if zone, ok = l[LabelFailureZone]; !ok {
		zone = l[LabelTopologyZone]
	}
	if region, ok = l[LabelFailureRegion]; !ok {
		region = l[LabelTopologyRegion]
	}
	return region, zone
}

// zoneCount is one zone's (region, zone) and its node counts.
type zoneCount struct {
	region, zone    string
	ready, notReady int
}

// zoneTable indexes zones by (region, zone) with open addressing on a
// cheap hash of the two strings: a cluster has few zones and many nodes,
// so each node costs one hash and usually one comparison. Up to 32 zones
// live in the table's own slots, without allocating.
type zoneTable struct {
	slots []int32 // 1 + index into zones; 0 is empty; len is a power of two
	zones []zoneCount
	small [64]int32
	first [32]zoneCount
}

func (t *zoneTable) init() {
	t.slots = t.small[:]
	t.zones = t.first[:0]
}

func zoneHash(region, zone string) uint64 {
	return hashString(hashString(0, zone), region)
}

// hashString mixes s into h: eight bytes at a time, the last zero to eight
// bytes with two overlapping loads, the length included, so every byte
// counts.
func hashString(h uint64, s string) uint64 {
	h ^= uint64(len(s))
	for len(s) > 8 {
		h = mix64(h ^ (uint64(load32(s)) | uint64(load32(s[4:]))<<32))
		s = s[8:]
	}
	var w uint64
	switch n := len(s); {
	case n >= 4:
		w = uint64(load32(s)) | uint64(load32(s[n-4:]))<<32
	case n > 0:
		w = uint64(s[0]) | uint64(s[n/2])<<8 | uint64(s[n-1])<<16
	}
	return mix64(h ^ w)
}

func load32(s string) uint32 {
	_ = s[3]
	return uint32(s[0]) | uint32(s[1])<<8 | uint32(s[2])<<16 | uint32(s[3])<<24
}

func mix64(h uint64) uint64 {
	h *= 0x9E3779B97F4A7C15
	return h ^ h>>32
}

// index returns the zone's index, adding the zone when it is new.
func (t *zoneTable) index(region, zone string) int {
	mask := uint64(len(t.slots) - 1)
	for i := zoneHash(region, zone) & mask; ; i = (i + 1) & mask {
		j := t.slots[i]
		if j == 0 {
			return t.add(i, region, zone)
		}
		if z := &t.zones[j-1]; z.zone == zone && z.region == region {
			return int(j - 1)
		}
	}
}

func (t *zoneTable) add(slot uint64, region, zone string) int {
	t.zones = append(t.zones, zoneCount{region: region, zone: zone})
	t.slots[slot] = int32(len(t.zones))
	if len(t.zones)*2 > len(t.slots) {
		t.grow()
	}
	return len(t.zones) - 1
}

func (t *zoneTable) grow() {
	n := 2 * len(t.slots)
	t.slots = make([]int32, n)
	mask := uint64(n - 1)
	for j, z := range t.zones {
		i := zoneHash(z.region, z.zone) & mask
		for t.slots[i] != 0 {
			i = (i + 1) & mask
		}
		t.slots[i] = int32(j + 1)
	}
}
