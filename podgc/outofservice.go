package podgc

import (
	"slices"

	"github.com/kubesem/kubesem/node"
	"github.com/kubesem/kubesem/podstatus"
)

// OutOfServiceTaint is the taint key that lets the collector force-delete
// terminating pods of a not-Ready node.
const OutOfServiceTaint = "node.kubernetes.io/out-of-service"

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

// terminatingOutOfService returns the terminating pods bound to a listed
// node that is [OutOfService], in [EvictedFirst] order.
func terminatingOutOfService(pods []*podstatus.Pod, listed map[string]*node.Node) []*podstatus.Pod {
	var oos []*podstatus.Pod
	for _, pod := range pods {
		if pod != nil && pod.DeletionTimestamp != nil && OutOfService(listed[pod.Spec.NodeName]) {
			oos = append(oos, pod)
		}
	}
	slices.SortFunc(oos, evictedOrder)
	return oos
}
