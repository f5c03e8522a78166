package pdb_test

import (
	"fmt"

	"github.com/kubesem/kubesem/intstr"
	"github.com/kubesem/kubesem/pdb"
	"github.com/kubesem/kubesem/podstatus"
)

// A Deployment of 5 replicas with a budget of minAvailable 4 allows one
// voluntary disruption at a time (seed 000, disruptions).
func ExampleStep() {
	var pods []*podstatus.Pod
	for _, n := range []string{"a", "b", "c", "d", "e"} {
		pods = append(pods, readyPod(n, true, rsRef("web")))
	}
	b := budget(ptr(intstr.Int(4)), nil)
	p, err := pdb.Step(b, pods, []pdb.Controller{rs("web", 5)}, now, pdb.Options{})
	if err != nil {
		panic(err)
	}
	fmt.Println(p.Status.ExpectedPods, p.Status.DesiredHealthy, p.Status.CurrentHealthy, p.Status.DisruptionsAllowed)

	b.Status = p.Status
	first, _ := pdb.Evict(pods[0], []pdb.PodDisruptionBudget{*b}, pdb.Request{}, now)
	b.Status = *first.Status
	second, _ := pdb.Evict(pods[1], []pdb.PodDisruptionBudget{*b}, pdb.Request{}, now)
	fmt.Println(first.Code, first.Reason, second.Code, second.Reason)
	// Output:
	// 5 4 5 1
	// 200 BudgetDecremented 429 NoDisruptionsAllowed
}
