package rolloutstatus_test

import (
	"fmt"

	"github.com/kubesem/kubesem/rollout"
	"github.com/kubesem/kubesem/rolloutstatus"
)

// kubectl rollout status on a rollout still in progress: watching, it
// keeps waiting; with --watch=false it prints the message once and exits 0.
func ExampleStatus_ExitCode() {
	three := int32(3)
	d := &rollout.Deployment{}
	d.Name, d.Generation = "web", 1
	d.Spec.Replicas = &three
	d.Status = rollout.Status{ObservedGeneration: 1, Replicas: 3, UpdatedReplicas: 3, AvailableReplicas: 1}
	st := rolloutstatus.Deployment(d, 0)
	fmt.Print(st.Message)
	for _, mode := range []rolloutstatus.Mode{rolloutstatus.Watch, rolloutstatus.Once} {
		code, stops := st.ExitCode(mode)
		fmt.Println(code, stops)
	}
	// Output:
	// Waiting for deployment "web" rollout to finish: 1 of 3 updated replicas are available...
	// 0 false
	// 0 true
}
