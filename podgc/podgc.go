package podgc

import (
	"time"

	"github.com/kubesem/kubesem/node"
	"github.com/kubesem/kubesem/podstatus"
)

// Constants of the collector.
const (
	DefaultTerminatedPodThreshold = 12500
	CheckPeriod                   = 20 * time.Second
	QuarantineTime                = 40 * time.Second
	// OutOfServiceTaint is the taint key that lets the collector
	// force-delete terminating pods of a not-Ready node.
	OutOfServiceTaint = "node.kubernetes.io/out-of-service"
	// EvictedReason is the status reason of a pod the kubelet evicted.
	EvictedReason = "Evicted"
	// OrphanMessage is the DisruptionTarget message of an orphan.
	OrphanMessage = "PodGC: node no longer exists"
)

// OutOfService reports whether the node is not Ready and has the
// node.kubernetes.io/out-of-service taint, whatever its value and effect.
//
// Source: upstream pkg/controller/podgc/gc_controller.go gcTerminating (v1.36.3).
func OutOfService(n *node.Node) bool {
	if n == nil || n.IsReady() {
		return false
	}
	for _, t := range n.Spec.Taints {
		if t.Key == OutOfServiceTaint {
			return true
		}
	}
	return false
}

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
