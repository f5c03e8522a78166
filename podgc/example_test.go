package podgc_test

import (
	"fmt"
	"time"

	"github.com/kubesem/kubesem/podgc"
	"github.com/kubesem/kubesem/podstatus"
)

// A node was deleted; the collector first quarantines it for 40s, then
// marks its running pod Failed with DisruptionTarget and deletes it.
func ExampleStep() {
	p := &podstatus.Pod{}
	p.Name, p.Spec.NodeName, p.Status.Phase = "web-1", "node-2", podstatus.Running
	pass1, _ := podgc.Step([]*podstatus.Pod{p}, nil, nil, podgc.Memory{}, t0, podgc.Options{})
	fmt.Println(len(pass1.Delete), pass1.Memory.Quarantine[0].ReadyAt.Sub(t0))
	pass2, _ := podgc.Step([]*podstatus.Pod{p}, nil, nil, pass1.Memory, t0.Add(40*time.Second), podgc.Options{})
	fmt.Println(pass2.Delete[0].Name, pass2.Delete[0].Reason, pass2.Patch[0].Phase, pass2.Patch[0].Condition.Reason)
	// Output:
	// 0 40s
	// web-1 Orphaned Failed DeletionByPodGC
}
