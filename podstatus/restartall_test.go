package podstatus_test

import (
	"fmt"
	"testing"

	"github.com/kubesem/kubesem/internal/fuzzlimit"
	"github.com/kubesem/kubesem/meta"
	"github.com/kubesem/kubesem/podstatus"
	"pgregory.net/rapid"
)

// raPod draws a pod whose containers may carry RestartAllContainers rules,
// an old AllContainersRestarting condition, and the runtime's containers.
func raPod(t *rapid.T) (*podstatus.Pod, []podstatus.RuntimeContainer) {
	p := ktPod(t, true)
	names := []string{"x"}
	for _, list := range [][]podstatus.Container{p.Spec.InitContainers, p.Spec.Containers} {
		for i := range list {
			names = append(names, list[i].Name)
		}
	}
	for i := range p.Spec.Containers {
		if rapid.Bool().Draw(t, "restartAllRule") {
			p.Spec.Containers[i].RestartPolicyRules = append(p.Spec.Containers[i].RestartPolicyRules, podstatus.RestartRule{
				Action: podstatus.ActionRestartAllContainers, ExitCodes: &podstatus.ExitCodesMatcher{Operator: podstatus.ExitCodesIn, Values: []int32{137}}})
		}
	}
	if rapid.Bool().Draw(t, "oldCondition") {
		p.Status.Conditions = append(p.Status.Conditions, podstatus.Condition{Type: podstatus.AllContainersRestarting,
			Status: rapid.SampledFrom([]meta.ConditionStatus{meta.ConditionTrue, meta.ConditionFalse}).Draw(t, "oldStatus"), LastTransitionTime: kt0})
	}
	var rs []podstatus.RuntimeContainer
	for range rapid.IntRange(0, 4).Draw(t, "runtime") {
		rs = append(rs, podstatus.RuntimeContainer{Name: rapid.SampledFrom(names).Draw(t, "rname"),
			State:    rapid.SampledFrom([]podstatus.RuntimeState{podstatus.RuntimeRunning, podstatus.RuntimeExited, podstatus.RuntimeCreated}).Draw(t, "rstate"),
			ExitCode: rapid.SampledFrom([]int32{0, 1, 137}).Draw(t, "rcode")})
	}
	return p, rs
}

// A True AllContainersRestarting needs a non-terminal phase, a trigger and a
// runtime still holding one of the pod's containers; Generate writes the
// condition exactly for pods that can restart all, after PodScheduled, and
// never with the gate off.
func checkRestartAll(t *rapid.T) {
	p, rs := raPod(t)
	phase := rapid.SampledFrom([]podstatus.Phase{podstatus.Pending, podstatus.Running, podstatus.Succeeded, podstatus.Failed}).Draw(t, "phase")
	c := podstatus.AllContainersRestartingCondition(p, rs, phase)
	if c.Status == meta.ConditionTrue && (phase == podstatus.Succeeded || phase == podstatus.Failed || len(rs) == 0 || !podstatus.RestartAllTriggered(p, rs)) {
		t.Fatalf("True for phase %s, runtime %v", phase, rs)
	}
	obs := podstatus.Observed{Terminal: rapid.Bool().Draw(t, "terminal"), Runtime: rs}
	g := podstatus.Generate(p, obs, kt0, podstatus.Options{})
	last := g.Conditions[len(g.Conditions)-1]
	if podstatus.CanRestartAll(p) != (last.Type == podstatus.AllContainersRestarting) {
		t.Fatalf("CanRestartAll %v, last condition %s", podstatus.CanRestartAll(p), last.Type)
	}
	off := podstatus.Generate(p, obs, kt0, podstatus.Options{DisableRestartAllContainersOnContainerExits: true})
	for i, c := range off.Conditions {
		if c.Type == podstatus.AllContainersRestarting && (p.Condition(podstatus.AllContainersRestarting) == nil || i >= len(p.Status.Conditions)) {
			t.Fatalf("gate off generated AllContainersRestarting: %+v", off.Conditions)
		}
	}
}

func TestRestartAllProperty(t *testing.T) { t.Parallel(); rapid.Check(t, checkRestartAll) }

func FuzzRestartAll(f *testing.F) { fuzzlimit.Rapid(f, checkRestartAll) }

func BenchmarkAllContainersRestartingCondition(b *testing.B) {
	never := podstatus.RestartNever
	p := &podstatus.Pod{Spec: podstatus.Spec{Containers: []podstatus.Container{{Name: "app"}, {Name: "trigger", RestartPolicy: &never,
		RestartPolicyRules: []podstatus.RestartRule{{Action: podstatus.ActionRestartAllContainers, ExitCodes: &podstatus.ExitCodesMatcher{Operator: podstatus.ExitCodesIn, Values: []int32{42}}}}}}}}
	rs := []podstatus.RuntimeContainer{{Name: "app", State: podstatus.RuntimeRunning}, {Name: "trigger", State: podstatus.RuntimeExited, ExitCode: 42}}
	b.ReportAllocs()
	for b.Loop() {
		_ = podstatus.AllContainersRestartingCondition(p, rs, podstatus.Running)
	}
}

func BenchmarkCanRestartAll(b *testing.B) {
	p := benchKubeletPod()
	b.ReportAllocs()
	for b.Loop() {
		_ = podstatus.CanRestartAll(p)
	}
}

// A container whose rule restarts the whole pod on exit code 42 has exited
// with 42: the kubelet writes AllContainersRestarting True while the runtime
// still holds the pod's containers, and False once it has removed them all.
func ExampleAllContainersRestartingCondition() {
	never := podstatus.RestartNever
	pod := &podstatus.Pod{Spec: podstatus.Spec{Containers: []podstatus.Container{
		{Name: "app"},
		{Name: "trigger", RestartPolicy: &never, RestartPolicyRules: []podstatus.RestartRule{{
			Action: podstatus.ActionRestartAllContainers, ExitCodes: &podstatus.ExitCodesMatcher{Operator: podstatus.ExitCodesIn, Values: []int32{42}}}}},
	}}}
	runtime := []podstatus.RuntimeContainer{{Name: "app", State: podstatus.RuntimeRunning}, {Name: "trigger", State: podstatus.RuntimeExited, ExitCode: 42}}
	c := podstatus.AllContainersRestartingCondition(pod, runtime, podstatus.Running)
	fmt.Println(c.Status, c.Reason)
	pod.Status.Conditions = []podstatus.Condition{c}
	c = podstatus.AllContainersRestartingCondition(pod, nil, podstatus.Running)
	fmt.Println(c.Status, c.Reason == "")
	// Output:
	// True RestartAllContainersStarted
	// False true
}
