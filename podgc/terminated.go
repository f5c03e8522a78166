package podgc

import (
	"slices"

	"github.com/kubesem/kubesem/podstatus"
)

// EvictedReason is the status reason of a pod the kubelet evicted.
const EvictedReason = "Evicted"

// IsTerminated reports whether the collector counts the pod as terminated:
// its phase is not Pending, Running or Unknown — an empty or unknown phase
// counts.
//
// Source: upstream pkg/controller/podgc/gc_controller.go isPodTerminated (v1.36.3).
func IsTerminated(p *podstatus.Pod) bool {
	switch p.Status.Phase {
	case podstatus.Pending, podstatus.Running, podstatus.Unknown:
		return false
	}
	return true
}

// IsEvicted reports whether the kubelet evicted the pod: phase Failed with
// status reason Evicted.
//
// Source: upstream pkg/kubelet/eviction/helpers.go PodIsEvicted (v1.36.3).
func IsEvicted(p *podstatus.Pod) bool {
	return p.Status.Phase == podstatus.Failed && p.Status.Reason == EvictedReason
}

// EvictedFirst reports whether a is collected before b: evicted pods first,
// then the older creation time, then the smaller name (then namespace and
// UID, kubesem's tie-break).
//
// Source: upstream pkg/controller/podgc/gc_controller.go byEvictionAndCreationTimestamp (v1.36.3).
func EvictedFirst(a, b *podstatus.Pod) bool {
	if ea, eb := IsEvicted(a), IsEvicted(b); ea != eb {
		return ea
	}
	if !a.CreationTimestamp.Equal(b.CreationTimestamp) {
		return a.CreationTimestamp.Before(b.CreationTimestamp)
	}
	if a.Name != b.Name {
		return a.Name < b.Name
	}
	if a.Namespace != b.Namespace {
		return a.Namespace < b.Namespace
	}
	return a.UID < b.UID
}

// Terminated returns the terminated pods the collector deletes: with n
// terminated pods and a threshold t > 0, the first n - t in [EvictedFirst]
// order; none when t <= 0.
//
// Source: upstream pkg/controller/podgc/gc_controller.go gcTerminated (v1.36.3).
func Terminated(pods []*podstatus.Pod, threshold int) []*podstatus.Pod {
	if threshold <= 0 {
		return []*podstatus.Pod{}
	}
	var term []*podstatus.Pod
	for _, p := range pods {
		if p != nil && IsTerminated(p) {
			term = append(term, p)
		}
	}
	return beyondThreshold(term, threshold)
}

// beyondThreshold is [Terminated] of the terminated pods term (which it
// sorts).
func beyondThreshold(term []*podstatus.Pod, threshold int) []*podstatus.Pod {
	n := len(term) - threshold
	if threshold <= 0 || n <= 0 {
		return []*podstatus.Pod{}
	}
	slices.SortFunc(term, evictedOrder)
	return term[:n]
}

func evictedOrder(a, b *podstatus.Pod) int {
	switch {
	case EvictedFirst(a, b):
		return -1
	case EvictedFirst(b, a):
		return 1
	}
	return 0
}
