package k8s_test

import (
	"fmt"

	"github.com/kubesem/kubesem/k8s"
)

// The pod a DaemonSet's sync creates on a node, complete.
func ExampleDaemonSetPod() {
	pod, err := k8s.DaemonSetPod(dsForWrites(), "node-1", "6c8d7b9f4")
	if err != nil {
		panic(err)
	}
	fmt.Println(pod.GenerateName, pod.Labels["controller-revision-hash"], pod.Spec.Affinity.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution.NodeSelectorTerms[0].MatchFields[0].Values)
	for _, t := range pod.Spec.Tolerations {
		fmt.Println(t.Key, t.Effect)
	}
	// Output:
	// agent- 6c8d7b9f4 [node-1]
	// node.kubernetes.io/not-ready NoExecute
	// node.kubernetes.io/unreachable NoExecute
	// node.kubernetes.io/disk-pressure NoSchedule
	// node.kubernetes.io/memory-pressure NoSchedule
	// node.kubernetes.io/pid-pressure NoSchedule
	// node.kubernetes.io/unschedulable NoSchedule
	// node.kubernetes.io/network-unavailable NoSchedule
}
