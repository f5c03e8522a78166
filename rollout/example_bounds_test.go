package rollout_test

import (
	"fmt"

	"github.com/kubesem/kubesem/intstr"
	"github.com/kubesem/kubesem/rollout"
)

// The bounds of a rolling update of 10 replicas with maxSurge 3 and
// maxUnavailable 20%: at most 13 pods, at least 8 available.
func ExampleDeployment_MaxSurge() {
	surge, unavailable := intstr.Int(3), intstr.Percent(20)
	d := &rollout.Deployment{}
	d.Spec.Replicas = ptr(int32(10))
	d.Spec.Strategy.RollingUpdate = &rollout.RollingUpdate{MaxSurge: &surge, MaxUnavailable: &unavailable}
	fmt.Println(d.MaxSurge(), d.MaxUnavailable(), d.MinAvailable())
	// Output: 3 2 8
}
