package podstatus_test

import (
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/kubesem/kubesem/internal/fuzzlimit"
	"github.com/kubesem/kubesem/meta"
	"github.com/kubesem/kubesem/podstatus"
	"pgregory.net/rapid"
)

var kt0 = time.Date(2025, 1, 1, 12, 0, 0, 0, time.UTC)

func ktTerminated(t *rapid.T, label string) *podstatus.StateTerminated {
	return &podstatus.StateTerminated{ExitCode: rapid.SampledFrom([]int32{0, 1, 137}).Draw(t, label+"Code"),
		Reason: rapid.SampledFrom([]string{"", "Error", podstatus.ReasonRestartingAllContainers}).Draw(t, label+"Reason")}
}

// ktPod draws init, sidecar and regular containers with statuses in every
// state; overrides allows container-level restart policies and rules.
func ktPod(t *rapid.T, overrides bool) *podstatus.Pod {
	p := &podstatus.Pod{}
	p.Spec.RestartPolicy = rapid.SampledFrom([]podstatus.RestartPolicy{"", podstatus.RestartAlways, podstatus.RestartOnFailure, podstatus.RestartNever}).Draw(t, "policy")
	always := podstatus.RestartAlways
	for i := range rapid.IntRange(0, 2).Draw(t, "inits") {
		c := podstatus.Container{Name: fmt.Sprint("i", i)}
		if rapid.Bool().Draw(t, "sidecar") {
			c.RestartPolicy = &always
		}
		p.Spec.InitContainers = append(p.Spec.InitContainers, c)
	}
	for i := range rapid.IntRange(0, 3).Draw(t, "containers") {
		c := podstatus.Container{Name: fmt.Sprint("c", i)}
		if overrides && rapid.Bool().Draw(t, "override") {
			pol := rapid.SampledFrom([]podstatus.RestartPolicy{podstatus.RestartAlways, podstatus.RestartOnFailure, podstatus.RestartNever}).Draw(t, "cpolicy")
			c.RestartPolicy = &pol
			c.RestartPolicyRules = []podstatus.RestartRule{{Action: podstatus.ActionRestart, ExitCodes: &podstatus.ExitCodesMatcher{Operator: podstatus.ExitCodesIn, Values: []int32{1}}}}
		}
		p.Spec.Containers = append(p.Spec.Containers, c)
	}
	status := func(name string) (podstatus.ContainerStatus, bool) {
		cs := podstatus.ContainerStatus{Name: name, Ready: rapid.Bool().Draw(t, "ready")}
		switch rapid.IntRange(0, 4).Draw(t, "state") {
		case 0:
			return cs, false
		case 1:
			cs.State.Running = &podstatus.StateRunning{StartedAt: kt0}
			s := rapid.Bool().Draw(t, "started")
			cs.Started = &s
		case 2:
			cs.State.Terminated = ktTerminated(t, "t")
		case 3:
			cs.State.Waiting = &podstatus.StateWaiting{Reason: "CrashLoopBackOff"}
			if rapid.Bool().Draw(t, "last") {
				cs.LastTerminationState.Terminated = ktTerminated(t, "l")
			}
		}
		return cs, true
	}
	for _, c := range p.Spec.InitContainers {
		if cs, ok := status(c.Name); ok {
			p.Status.InitContainerStatuses = append(p.Status.InitContainerStatuses, cs)
		}
	}
	for _, c := range p.Spec.Containers {
		if cs, ok := status(c.Name); ok {
			p.Status.ContainerStatuses = append(p.Status.ContainerStatuses, cs)
		}
	}
	for range rapid.IntRange(0, 2).Draw(t, "gates") {
		p.Spec.ReadinessGates = append(p.Spec.ReadinessGates, podstatus.ReadinessGate{ConditionType: "g"})
	}
	if rapid.Bool().Draw(t, "gateTrue") {
		p.Status.Conditions = append(p.Status.Conditions, podstatus.Condition{Type: "g", Status: meta.ConditionTrue})
	}
	return p
}

// A pod with restartPolicy Always (or none) and no container-level
// override never becomes Succeeded or Failed while the kubelet has not
// decided it is terminal.
func checkAlwaysNeverTerminal(t *rapid.T) {
	p := ktPod(t, false)
	if p.Spec.RestartPolicy != "" && p.Spec.RestartPolicy != podstatus.RestartAlways {
		p.Spec.RestartPolicy = podstatus.RestartAlways
	}
	init := rapid.Bool().Draw(t, "initialized")
	if ph := podstatus.KubeletPhase(p, podstatus.Observed{Initialized: &init}); ph == podstatus.Succeeded || ph == podstatus.Failed {
		t.Fatalf("restartPolicy Always gave %s", ph)
	}
}

// Ready True implies ContainersReady True in what the kubelet writes.
func checkReadyImpliesContainersReady(t *rapid.T) {
	p := ktPod(t, true)
	g := podstatus.Generate(p, podstatus.Observed{Terminal: rapid.Bool().Draw(t, "terminal")}, kt0, podstatus.Options{})
	cs := meta.Conditions(g.Conditions)
	if cs.IsTrue(podstatus.Ready) && !cs.IsTrue(podstatus.ContainersReady) {
		t.Fatalf("Ready without ContainersReady: %+v", g.Conditions)
	}
}

// Crash-loop delays never decrease and never pass the cap; a restart
// decision's delay stays within [initial, cap].
func checkBackoffMonotoneCapped(t *rapid.T) {
	o := podstatus.BackoffOptions{ReducedDecay: rapid.Bool().Draw(t, "reduced"), DisableMaxGate: rapid.Bool().Draw(t, "noGate"),
		MaxContainerRestartPeriod: time.Duration(rapid.IntRange(0, 300).Draw(t, "max")) * time.Second}
	initial, max := podstatus.CrashLoopBounds(o)
	ds, err := podstatus.CrashLoopDelays(rapid.IntRange(0, 40).Draw(t, "n"), o)
	if err != nil {
		t.Fatal(err)
	}
	for i, d := range ds {
		if d > max || d < initial || i > 0 && d < ds[i-1] {
			t.Fatalf("delays %v (initial %v, max %v)", ds, initial, max)
		}
	}
	var e *podstatus.BackoffEntry
	at := kt0
	for range rapid.IntRange(1, 10).Draw(t, "exits") {
		at = at.Add(time.Duration(rapid.IntRange(0, 1200).Draw(t, "gap")) * time.Second)
		r := podstatus.RestartBackoff(e, at, at.Add(time.Duration(rapid.IntRange(0, 400).Draw(t, "look"))*time.Second), o)
		if r.Entry.Delay > max || r.Entry.Delay < initial {
			t.Fatalf("delay %v outside [%v, %v]", r.Entry.Delay, initial, max)
		}
		if r.InBackoff != !r.Until.IsZero() {
			t.Fatalf("until %v with inBackoff %v", r.Until, r.InBackoff)
		}
		e = &r.Entry
	}
}

func TestKubeletProperties(t *testing.T) {
	t.Run("AlwaysNeverTerminal", func(t *testing.T) { rapid.Check(t, checkAlwaysNeverTerminal) })
	t.Run("ReadyImpliesContainersReady", func(t *testing.T) { rapid.Check(t, checkReadyImpliesContainersReady) })
	t.Run("BackoffMonotoneCapped", func(t *testing.T) { rapid.Check(t, checkBackoffMonotoneCapped) })
}

func FuzzAlwaysNeverTerminal(f *testing.F) { fuzzlimit.Rapid(f, checkAlwaysNeverTerminal) }
func FuzzReadyImpliesContainersReady(f *testing.F) {
	fuzzlimit.Rapid(f, checkReadyImpliesContainersReady)
}
func FuzzBackoff(f *testing.F) { fuzzlimit.Rapid(f, checkBackoffMonotoneCapped) }

// FuzzStatus decodes arbitrary JSON as a pod and runs the kubelet rules
// over it: none may panic.
func FuzzStatus(f *testing.F) {
	for _, s := range []string{`{}`, `null`,
		`{"spec":{"restartPolicy":"Never","initContainers":[{"name":"i","restartPolicy":"Always"}],"containers":[{"name":"a","restartPolicy":"Never","restartPolicyRules":[{"action":"Restart","exitCodes":{"operator":"In","values":[1]}}]}]},"status":{"containerStatuses":[{"name":"a","state":{"terminated":{"exitCode":1}}}]}}`,
		`{"metadata":{"deletionTimestamp":"2025-01-01T12:00:00Z","deletionGracePeriodSeconds":30},"spec":{"nodeName":"n","terminationGracePeriodSeconds":-1,"readinessGates":[{"conditionType":"x"}]},"status":{"phase":"Failed","conditions":[{"type":"x","status":"False"}]}}`,
	} {
		f.Add([]byte(s), int64(0), true)
	}
	f.Fuzz(func(t *testing.T, b []byte, n int64, flag bool) {
		var p *podstatus.Pod
		if json.Unmarshal(b, &p) != nil {
			return
		}
		obs := podstatus.Observed{Terminal: flag, NewSandboxNeeded: !flag}
		_ = podstatus.KubeletPhase(p, obs)
		_ = podstatus.Generate(p, obs, kt0, podstatus.Options{})
		_ = podstatus.GracefulDelete(p, &n, kt0)
		_ = podstatus.GracefulDelete(p, nil, kt0)
		_ = podstatus.PlanKill(n, nil)
		d := time.Duration(n)
		_ = podstatus.PlanKill(podstatus.KillGracePeriod(p, nil), &d)
		_ = podstatus.ValidateUpdate(p, p)
		if p != nil {
			_ = podstatus.InitializedCondition(p, podstatus.Running)
			_ = podstatus.ReadyCondition(p, p.Status.Conditions, podstatus.Succeeded)
			for i := range p.Spec.Containers {
				_ = podstatus.BackoffKey(p, &p.Spec.Containers[i])
				_ = podstatus.ShouldRestart(&p.Spec.Containers[i], p.Spec.RestartPolicy, int32(n))
			}
		}
		_ = podstatus.RestartBackoff(&podstatus.BackoffEntry{Delay: d, LastUpdate: kt0}, kt0.Add(d), kt0, podstatus.BackoffOptions{MaxContainerRestartPeriod: d})
		_, _ = podstatus.CrashLoopDelays(int(n), podstatus.BackoffOptions{MaxContainerRestartPeriod: d})
	})
}

func BenchmarkKubeletPhase(b *testing.B) {
	p := benchKubeletPod()
	b.ReportAllocs()
	for b.Loop() {
		_ = podstatus.KubeletPhase(p, podstatus.Observed{})
	}
}

func BenchmarkGenerate(b *testing.B) {
	p := benchKubeletPod()
	b.ReportAllocs()
	for b.Loop() {
		_ = podstatus.Generate(p, podstatus.Observed{}, kt0, podstatus.Options{})
	}
}

func BenchmarkRestartBackoff(b *testing.B) {
	e := &podstatus.BackoffEntry{Delay: 40 * time.Second, LastUpdate: kt0}
	b.ReportAllocs()
	for b.Loop() {
		_ = podstatus.RestartBackoff(e, kt0.Add(time.Minute), kt0.Add(2*time.Minute), podstatus.BackoffOptions{})
	}
}

func BenchmarkGracefulDelete(b *testing.B) {
	grace := int64(30)
	p := &podstatus.Pod{Spec: podstatus.Spec{NodeName: "n", TerminationGracePeriodSeconds: &grace}}
	b.ReportAllocs()
	for b.Loop() {
		_ = podstatus.GracefulDelete(p, nil, kt0)
	}
}

func BenchmarkPlanKill(b *testing.B) {
	d := 5 * time.Second
	b.ReportAllocs()
	for b.Loop() {
		_ = podstatus.PlanKill(30, &d)
	}
}

func BenchmarkValidateUpdate(b *testing.B) {
	p := benchKubeletPod()
	q := *p
	q.Spec.Containers = append([]podstatus.Container(nil), p.Spec.Containers...)
	q.Spec.Containers[0].Image = "v2"
	b.ReportAllocs()
	for b.Loop() {
		_ = podstatus.ValidateUpdate(p, &q)
	}
}

func benchKubeletPod() *podstatus.Pod {
	always := podstatus.RestartAlways
	started := true
	p := &podstatus.Pod{}
	p.Spec.InitContainers = []podstatus.Container{{Name: "init", Image: "busybox"}, {Name: "proxy", Image: "envoy", RestartPolicy: &always}}
	p.Spec.Containers = []podstatus.Container{{Name: "app", Image: "app"}, {Name: "log", Image: "fluent"}}
	p.Status.InitContainerStatuses = []podstatus.ContainerStatus{
		{Name: "init", Ready: true, State: podstatus.ContainerState{Terminated: &podstatus.StateTerminated{}}},
		{Name: "proxy", Ready: true, Started: &started, State: podstatus.ContainerState{Running: &podstatus.StateRunning{StartedAt: kt0}}}}
	p.Status.ContainerStatuses = []podstatus.ContainerStatus{
		{Name: "app", Ready: true, State: podstatus.ContainerState{Running: &podstatus.StateRunning{StartedAt: kt0}}},
		{Name: "log", State: podstatus.ContainerState{Waiting: &podstatus.StateWaiting{Reason: "CrashLoopBackOff"}},
			LastTerminationState: podstatus.ContainerState{Terminated: &podstatus.StateTerminated{ExitCode: 1}}}}
	return p
}

// A pod whose only container keeps crashing under restartPolicy Always
// (kubernetes/website#7090): the phase stays Running between restarts, and
// the kubelet waits 10s, 20s, 40s … before each restart.
func ExampleKubeletPhase() {
	p := &podstatus.Pod{Spec: podstatus.Spec{RestartPolicy: podstatus.RestartAlways, Containers: []podstatus.Container{{Name: "app"}}}}
	p.Status.ContainerStatuses = []podstatus.ContainerStatus{{Name: "app", RestartCount: 3,
		State:                podstatus.ContainerState{Waiting: &podstatus.StateWaiting{Reason: podstatus.ReasonCrashLoopBackOff}},
		LastTerminationState: podstatus.ContainerState{Terminated: &podstatus.StateTerminated{ExitCode: 1}}}}
	fmt.Println(podstatus.KubeletPhase(p, podstatus.Observed{}))
	delays, err := podstatus.CrashLoopDelays(7, podstatus.BackoffOptions{})
	fmt.Println(delays, err)
	// Output:
	// Running
	// [10s 20s 40s 1m20s 2m40s 5m0s 5m0s] <nil>
}

// Deleting a scheduled pod with the default 30s grace period; its container
// has a preStop hook that runs for 40s, so SIGTERM comes at the end of the
// grace period and SIGKILL 2s later.
func ExampleGracefulDelete() {
	grace := int64(podstatus.DefaultTerminationGracePeriodSeconds)
	p := &podstatus.Pod{Spec: podstatus.Spec{NodeName: "node-1", TerminationGracePeriodSeconds: &grace}}
	d := podstatus.GracefulDelete(p, nil, kt0)
	fmt.Println(d.Outcome, d.GracePeriodSeconds, d.DeletionTimestamp.Format(time.TimeOnly))
	hook := 40 * time.Second
	k := podstatus.PlanKill(d.GracePeriodSeconds, &hook)
	fmt.Println("SIGTERM", k.SIGTERM, "SIGKILL", k.SIGKILL)
	// Output:
	// Graceful 30 12:00:30
	// SIGTERM 30s SIGKILL 32s
}
