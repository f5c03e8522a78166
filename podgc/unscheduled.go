package podgc

import "github.com/kubesem/kubesem/podstatus"

// isTerminatingUnscheduled reports whether the collector's last step
// deletes pod: it is terminating and bound to no node. The step takes
// these pods by namespace, then name.
func isTerminatingUnscheduled(pod *podstatus.Pod) bool {
	return pod.DeletionTimestamp != nil && pod.Spec.NodeName == ""
}
