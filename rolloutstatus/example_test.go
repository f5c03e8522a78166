package rolloutstatus_test

import (
	"fmt"

	"github.com/kubesem/kubesem/meta"
	"github.com/kubesem/kubesem/rollout"
	"github.com/kubesem/kubesem/rolloutstatus"
)

// The seed's failed rollout: once the progress deadline is exceeded, kubectl
// rollout status prints an error and exits 1 (seed 000:L1907-1920).
func ExampleDeployment() {
	three := int32(3)
	d := &rollout.Deployment{}
	d.Name, d.Generation = "nginx", 2
	d.Spec.Replicas = &three
	d.Status = rollout.Status{ObservedGeneration: 2, Replicas: 3, UpdatedReplicas: 2, AvailableReplicas: 2}
	s := rolloutstatus.Deployment(d, 0)
	fmt.Print(s.Message)

	d.Status.Conditions = []rollout.Condition{{Type: rollout.Progressing, Status: meta.ConditionFalse, Reason: rollout.ReasonProgressDeadlineExceeded}}
	s = rolloutstatus.Deployment(d, 0)
	code, _ := s.ExitCode(rolloutstatus.Watch)
	fmt.Println("error:", s.Err)
	fmt.Println("exit", code)
	// Output:
	// Waiting for deployment "nginx" rollout to finish: 2 out of 3 new replicas have been updated...
	// error: deployment "nginx" exceeded its progress deadline
	// exit 1
}
