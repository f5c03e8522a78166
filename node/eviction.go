package node

import (
	"time"
)

// DefaultTolerationSeconds is the tolerationSeconds of the not-ready and
// unreachable NoExecute tolerations the DefaultTolerationSeconds admission
// plugin adds (kube-apiserver --default-not-ready-toleration-seconds and
// --default-unreachable-toleration-seconds).
//
// Source: upstream plugin/pkg/admission/defaulttolerationseconds
// (v1.36.3): 300.
const DefaultTolerationSeconds int64 = 300

// DefaultTolerations returns tolerations with the admission plugin's
// defaults appended, both of its flags at seconds ([DefaultTolerationsFor]);
// seconds < 0 means [DefaultTolerationSeconds]. The plugin runs when a pod
// is created (and on updates), so pods created before it was enabled keep
// their tolerations (kubernetes/kubernetes#124243). The input is not
// modified.
//
// Source: upstream plugin/pkg/admission/defaulttolerationseconds
// Plugin.Admit (v1.36.3).
func DefaultTolerations(tolerations []Toleration, seconds int64) []Toleration {
	if seconds < 0 {
		seconds = DefaultTolerationSeconds
	}
	return DefaultTolerationsFor(tolerations, seconds, seconds)
}

// DefaultTolerationsFor returns tolerations with the admission plugin's
// defaults appended: an Exists NoExecute toleration of
// node.kubernetes.io/not-ready for notReadySeconds (unless a toleration with
// that key or an empty key, and effect NoExecute or empty, is already
// there), then the same for node.kubernetes.io/unreachable with
// unreachableSeconds. The seconds are the plugin's flags
// (--default-not-ready-toleration-seconds,
// --default-unreachable-toleration-seconds), any int64, negative ones
// included, taken as they are. The input is not modified.
//
// Source: upstream plugin/pkg/admission/defaulttolerationseconds
// Plugin.Admit (v1.36.3).
func DefaultTolerationsFor(tolerations []Toleration, notReadySeconds, unreachableSeconds int64) []Toleration {
	notReady, unreachable := false, false
	for _, t := range tolerations {
		if t.Effect != "" && t.Effect != string(NoExecute) {
			continue
		}
		if t.Key == "" || t.Key == TaintNotReady {
			notReady = true
		}
		if t.Key == "" || t.Key == TaintUnreachable {
			unreachable = true
		}
	}
	out := make([]Toleration, len(tolerations), len(tolerations)+2)
	copy(out, tolerations)
	if !notReady {
		s := notReadySeconds
		out = append(out, Toleration{Key: TaintNotReady, Operator: OpExists, Effect: string(NoExecute), TolerationSeconds: &s})
	}
	if !unreachable {
		s := unreachableSeconds
		out = append(out, Toleration{Key: TaintUnreachable, Operator: OpExists, Effect: string(NoExecute), TolerationSeconds: &s})
	}
	return out
}

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
// has tolerationSeconds, else the smallest tolerationSeconds.
//
// Source: upstream pkg/controller/tainteviction getMinTolerationTime
// (v1.36.3).
func MinTolerationTime(tolerations []Toleration) time.Duration {
	if len(tolerations) == 0 {
		return 0
	}
	least := int64(-1)
	for _, t := range tolerations {
		if t.TolerationSeconds == nil {
			continue
		}
		s := *t.TolerationSeconds
		if s <= 0 {
			return 0
		}
		if least < 0 || s < least {
			least = s
		}
	}
	if least < 0 {
		return Forever
	}
	return secondsDuration(least)
}

// secondsDuration is time.Duration(s)*time.Second with upstream's int64
// wrap for huge values.
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
// taint → evicted at seen; else evicted after [MinTolerationTime] of the
// used tolerations (never when that is [Forever]).
//
// Source: upstream pkg/controller/tainteviction Controller.processPodOnNode
// (v1.36.3).
func EvictionFor(tolerations []Toleration, taints []Taint, seen time.Time, opts Options) Eviction {
	var buf [4]Taint
	ne := buf[:0]
	for _, t := range taints {
		if t.Effect == NoExecute {
			ne = append(ne, t)
		}
	}
	if len(ne) == 0 {
		return Eviction{Kind: NotEvicted}
	}
	least := int64(-1)
	for i := range ne {
		found := false
		for j := range tolerations {
			t := &tolerations[j]
			if !ToleratesTaint(t, &ne[i], opts) {
				continue
			}
			found = true
			if t.TolerationSeconds != nil {
				s := *t.TolerationSeconds
				if s <= 0 {
					s = 0
				}
				if least < 0 || s < least {
					least = s
				}
			}
			break
		}
		if !found {
			return Eviction{Kind: EvictNow, At: seen}
		}
	}
	if least < 0 {
		return Eviction{Kind: NotEvicted}
	}
	d := secondsDuration(least)
	if d < 0 {
		// tolerationSeconds beyond 292 years wrap negative upstream, which
		// then reads as "forever".
		return Eviction{Kind: NotEvicted}
	}
	if d == 0 {
		return Eviction{Kind: EvictNow, At: seen}
	}
	return Eviction{Kind: EvictAt, At: seen.Add(d), After: d}
}
