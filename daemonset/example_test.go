package daemonset_test

import (
	"fmt"

	"github.com/kubesem/kubesem/daemonset"
	"github.com/kubesem/kubesem/node"
)

// A cordoned node whose kubelet is under memory pressure still runs a
// daemon pod; a NoExecute taint the pod does not tolerate evicts it.
func ExampleNodeShouldRunDaemonPod() {
	ds := &daemonset.DaemonSet{}
	n := &node.Node{Spec: node.Spec{Unschedulable: true, Taints: []node.Taint{
		{Key: node.TaintUnschedulable, Effect: node.NoSchedule},
		{Key: node.TaintMemoryPressure, Effect: node.NoSchedule},
	}}}
	fmt.Printf("%+v\n", daemonset.NodeShouldRunDaemonPod(n, ds, daemonset.Options{}))
	n.Spec.Taints = append(n.Spec.Taints, node.Taint{Key: "maintenance", Effect: node.NoExecute})
	fmt.Printf("%+v\n", daemonset.NodeShouldRunDaemonPod(n, ds, daemonset.Options{}))
	// Output:
	// {ShouldRun:true ShouldContinueRunning:true}
	// {ShouldRun:false ShouldContinueRunning:false}
}
