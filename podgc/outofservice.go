package podgc

import (
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

// isTerminatingOutOfService reports whether the collector's second step
// deletes pod, bound to the listed node n: the pod is terminating and n is
// [OutOfService]. The step takes these pods in [EvictedFirst] order.
func isTerminatingOutOfService(pod *podstatus.Pod, n *node.Node) bool {
	return pod.DeletionTimestamp != nil && OutOfService(n)
}
