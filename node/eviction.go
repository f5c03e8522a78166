package node

import (
	"math"
	"slices"
	"time"
)

// MatchingTolerations returns, for each of taints in order, the first of
// tolerations that tolerates it; ok is false (and the list nil) when some
// taint is tolerated by none. No taints → (empty, true).
//
// Source: upstream pkg/apis/core/v1/helper GetMatchingTolerations
// (v1.36.3).
func MatchingTolerations(taints []Taint, tolerations []Toleration, opts Options) (used []Toleration, ok bool) {
	used = make([]Toleration, 0, len(taints))
	for i := range taints {
		found := false
		for j := range tolerations {
			if ToleratesTaint(&tolerations[j], &taints[i], opts) {
				used = append(used, tolerations[j])
				found = true
				break
			}
		}
		if !found {
			return nil, false
		}
	}
	return used, true
}

// Forever is the toleration time of tolerations without
// tolerationSeconds: the pod is never evicted.
const Forever time.Duration = -1

// MinTolerationTime returns how long tolerations let a pod stay: 0 for no
// tolerations or when any tolerationSeconds is ≤ 0, [Forever] when none
// has tolerationSeconds below 9223372036854775807 (math.MaxInt64 seconds
// stands for "no limit", as a missing value does), else the smallest
// tolerationSeconds as a Duration — multiplied by 1e9 in int64, so values
// beyond about 292 years wrap as upstream's do (to a negative, zero or
// small positive duration).
//
// Source: upstream pkg/controller/tainteviction getMinTolerationTime
// (v1.36.3).
func MinTolerationTime(tolerations []Toleration) time.Duration {
	if len(tolerations) == 0 {
		return 0
	}
	least := int64(math.MaxInt64)
	for _, t := range tolerations {
		if t.TolerationSeconds == nil {
			continue
		}
		if s := *t.TolerationSeconds; s <= 0 {
			return 0
		} else if s < least {
			least = s
		}
	}
	if least == math.MaxInt64 {
		return Forever
	}
	return secondsDuration(least)
}

// secondsDuration is s seconds as a Duration, computed as upstream does it
// (time.Duration(s) * time.Second): the product wraps modulo 2^64.
func secondsDuration(s int64) time.Duration {
	return time.Duration(s) * time.Second
}

// EvictionKind says what the taint-eviction controller does with a pod.
type EvictionKind string

// Eviction kinds.
const (
	// NotEvicted: the node has no NoExecute taint, or the tolerations that
	// match them have no tolerationSeconds.
	NotEvicted EvictionKind = "NotEvicted"
	// EvictNow: a NoExecute taint is not tolerated, or a matching
	// toleration's tolerationSeconds is ≤ 0.
	EvictNow EvictionKind = "EvictNow"
	// EvictAt: the pod is deleted at Eviction.At.
	EvictAt EvictionKind = "EvictAt"
)

// Eviction is the taint-eviction controller's answer for one pod.
type Eviction struct {
	Kind EvictionKind `json:"kind"`
	// At is when the pod is deleted: the time the controller saw the taints
	// for EvictNow, that time plus the toleration time for EvictAt; zero for
	// NotEvicted.
	At time.Time `json:"at,omitzero"`
	// After is At minus the time the taints were seen.
	After time.Duration `json:"after,omitempty"`
}

// EvictionFor decides a pod's fate on a node with taints, seen by the
// taint-eviction controller at seen: only the NoExecute taints count; each
// is matched with the first toleration that tolerates it; an untolerated
// taint → evicted at seen; else the toleration time is [MinTolerationTime]
// of the tolerations so used: negative (Forever, or seconds that wrapped
// below zero) → never evicted, 0 → evicted at seen, else evicted that long
// after seen.
//
// Source: upstream pkg/controller/tainteviction Controller.processPodOnNode
// (v1.36.3).
func EvictionFor(tolerations []Toleration, taints []Taint, seen time.Time, opts Options) Eviction {
	e, _ := evictionFor(tolerations, taints, seen, opts)
	return e
}

// evictionFor is EvictionFor, also telling whether the pod is evicted
// because a taint is not tolerated.
func evictionFor(tolerations []Toleration, taints []Taint, seen time.Time, opts Options) (e Eviction, untolerated bool) {
	var buf [4]Toleration
	used := buf[:0]
	for i := range taints {
		if taints[i].Effect != NoExecute {
			continue
		}
		j := slices.IndexFunc(tolerations, func(t Toleration) bool { return ToleratesTaint(&t, &taints[i], opts) })
		if j < 0 {
			return Eviction{Kind: EvictNow, At: seen}, true
		}
		used = append(used, tolerations[j])
	}
	if len(used) == 0 {
		return Eviction{Kind: NotEvicted}, false
	}
	switch d := MinTolerationTime(used); {
	case d < 0:
		return Eviction{Kind: NotEvicted}, false
	case d == 0:
		return Eviction{Kind: EvictNow, At: seen}, false
	default:
		return Eviction{Kind: EvictAt, At: seen.Add(d), After: d}, false
	}
}
