package podgc

import (
	"slices"

	"github.com/kubesem/kubesem/podstatus"
)

// terminatingUnscheduled returns the terminating pods bound to no node,
// by namespace, then name.
func terminatingUnscheduled(pods []*podstatus.Pod) []*podstatus.Pod {
	var out []*podstatus.Pod
	for _, pod := range pods {
		if pod != nil && pod.DeletionTimestamp != nil && pod.Spec.NodeName == "" {
			out = append(out, pod)
		}
	}
	slices.SortFunc(out, byNamespaceName)
	return out
}
