package podstatus_test

import (
	"testing"

	"github.com/kubesem/kubesem/podstatus"
)

func rule(action, op string, codes ...int32) podstatus.RestartRule {
	return podstatus.RestartRule{Action: action, ExitCodes: &podstatus.ExitCodesMatcher{Operator: op, Values: codes}}
}

func policy(p podstatus.RestartPolicy) *podstatus.RestartPolicy { return &p }

func TestMatchRule(t *testing.T) {
	t.Parallel()
	c := &podstatus.Container{Name: "a", RestartPolicyRules: []podstatus.RestartRule{
		{Action: "Restart"}, // no exitCodes: never matches
		rule("Restart", "Between", 1),
		rule("Restart", podstatus.ExitCodesIn, 42, 43),
		rule(podstatus.ActionRestartAllContainers, podstatus.ExitCodesNotIn, 0, 42),
		rule("Last", podstatus.ExitCodesIn, 0),
	}}
	tests := []struct {
		code   int32
		found  bool
		action string
	}{
		{42, true, "Restart"},
		{43, true, "Restart"},
		{1, true, podstatus.ActionRestartAllContainers}, // "Between" is not an operator
		{0, true, "Last"},
	}
	for _, tc := range tests {
		r, ok := podstatus.MatchRule(c, tc.code)
		if ok != tc.found || r.Action != tc.action {
			t.Errorf("MatchRule(%d) = %+v, %v; want %q, %v", tc.code, r, ok, tc.action, tc.found)
		}
	}
	only := &podstatus.Container{RestartPolicyRules: []podstatus.RestartRule{rule("Restart", podstatus.ExitCodesNotIn, 0)}}
	if _, ok := podstatus.MatchRule(only, 0); ok {
		t.Errorf("MatchRule(NotIn [0], 0) matched; want no match")
	}
	if _, ok := podstatus.MatchRule(nil, 0); ok {
		t.Errorf("MatchRule(nil) matched")
	}
}

func TestShouldRestart(t *testing.T) {
	t.Parallel()
	withRule := func(p podstatus.RestartPolicy, r podstatus.RestartRule) *podstatus.Container {
		return &podstatus.Container{Name: "a", RestartPolicy: &p, RestartPolicyRules: []podstatus.RestartRule{r}}
	}
	tests := []struct {
		name string
		c    *podstatus.Container
		pod  podstatus.RestartPolicy
		code int32
		want bool
	}{
		{"pod Always, exit 0", &podstatus.Container{}, podstatus.RestartAlways, 0, true},
		{"pod OnFailure, exit 0", &podstatus.Container{}, podstatus.RestartOnFailure, 0, false},
		{"pod OnFailure, exit 1", &podstatus.Container{}, podstatus.RestartOnFailure, 1, true},
		{"pod Never, exit 1", &podstatus.Container{}, podstatus.RestartNever, 1, false},
		{"pod policy empty: Always", &podstatus.Container{}, "", 0, true},
		{"pod policy unknown: Always", &podstatus.Container{}, "Sometimes", 0, true},
		{"container Never overrides pod Always", &podstatus.Container{RestartPolicy: policy(podstatus.RestartNever)}, podstatus.RestartAlways, 1, false},
		{"container OnFailure, exit 0", &podstatus.Container{RestartPolicy: policy(podstatus.RestartOnFailure)}, podstatus.RestartAlways, 0, false},
		{"container OnFailure, exit 2", &podstatus.Container{RestartPolicy: policy(podstatus.RestartOnFailure)}, podstatus.RestartNever, 2, true},
		{"container Always overrides pod Never", &podstatus.Container{RestartPolicy: policy(podstatus.RestartAlways)}, podstatus.RestartNever, 0, true},
		{"container policy unknown: the pod's", &podstatus.Container{RestartPolicy: policy("Sometimes")}, podstatus.RestartNever, 1, false},
		{"rule Restart matches", withRule(podstatus.RestartNever, rule(podstatus.ActionRestart, podstatus.ExitCodesIn, 42)), podstatus.RestartNever, 42, true},
		{"rule Restart does not match", withRule(podstatus.RestartNever, rule(podstatus.ActionRestart, podstatus.ExitCodesIn, 42)), podstatus.RestartAlways, 1, false},
		{"rule RestartAllContainers matches", withRule(podstatus.RestartNever, rule(podstatus.ActionRestartAllContainers, podstatus.ExitCodesIn, 42)), podstatus.RestartNever, 42, true},
		{"rule with another action: the container's policy", withRule(podstatus.RestartNever, rule("DoNothing", podstatus.ExitCodesIn, 42)), podstatus.RestartAlways, 42, false},
		{"rules without a container policy are not read", &podstatus.Container{RestartPolicyRules: []podstatus.RestartRule{rule(podstatus.ActionRestart, podstatus.ExitCodesIn, 42)}}, podstatus.RestartNever, 42, false},
		{"nil container: the pod's policy", nil, podstatus.RestartOnFailure, 3, true},
	}
	for _, tc := range tests {
		if got := podstatus.ShouldRestart(tc.c, tc.pod, tc.code); got != tc.want {
			t.Errorf("ShouldRestart(%s) = %v; want %v", tc.name, got, tc.want)
		}
	}
}

func TestIsStatic(t *testing.T) {
	t.Parallel()
	tests := []struct {
		annotations map[string]string
		want        bool
	}{
		{nil, false},
		{map[string]string{podstatus.ConfigSourceAnnotation: "api"}, false},
		{map[string]string{podstatus.ConfigSourceAnnotation: "file"}, true},
		{map[string]string{podstatus.ConfigSourceAnnotation: ""}, true},
		{map[string]string{"other": "file"}, false},
	}
	for _, tc := range tests {
		p := &podstatus.Pod{}
		p.Annotations = tc.annotations
		if got := podstatus.IsStatic(p); got != tc.want {
			t.Errorf("IsStatic(%v) = %v; want %v", tc.annotations, got, tc.want)
		}
	}
	if podstatus.IsStatic(nil) {
		t.Errorf("IsStatic(nil) = true")
	}
}

var (
	running    = podstatus.ContainerState{Running: &podstatus.StateRunning{}}
	waiting    = podstatus.ContainerState{Waiting: &podstatus.StateWaiting{Reason: "ContainerCreating"}}
	exited0    = podstatus.ContainerState{Terminated: &podstatus.StateTerminated{ExitCode: 0}}
	exited1    = podstatus.ContainerState{Terminated: &podstatus.StateTerminated{ExitCode: 1}}
	restartAll = podstatus.ContainerState{Terminated: &podstatus.StateTerminated{ExitCode: 1, Reason: podstatus.ReasonRestartingAllContainers}}
)

func cstatus(name string, state podstatus.ContainerState) podstatus.ContainerStatus {
	return podstatus.ContainerStatus{Name: name, State: state}
}

func TestAnyRegularStarted(t *testing.T) {
	t.Parallel()
	spec := podstatus.Spec{InitContainers: []podstatus.Container{{Name: "init"}}, Containers: []podstatus.Container{{Name: "app"}}}
	tests := []struct {
		name       string
		init, regs []podstatus.ContainerStatus
		want       bool
	}{
		{"none", nil, nil, false},
		{"regular running", nil, []podstatus.ContainerStatus{cstatus("app", running)}, true},
		{"regular terminated", nil, []podstatus.ContainerStatus{cstatus("app", exited1)}, true},
		{"regular waiting", nil, []podstatus.ContainerStatus{cstatus("app", waiting)}, false},
		{"init running", []podstatus.ContainerStatus{cstatus("init", running)}, nil, false},
		{"a regular container's name among init statuses", []podstatus.ContainerStatus{cstatus("app", running)}, nil, true},
		{"unknown container running", nil, []podstatus.ContainerStatus{cstatus("other", running)}, false},
	}
	for _, tc := range tests {
		p := &podstatus.Pod{Spec: spec, Status: podstatus.Status{InitContainerStatuses: tc.init, ContainerStatuses: tc.regs}}
		if got := podstatus.AnyRegularStarted(p); got != tc.want {
			t.Errorf("AnyRegularStarted(%s) = %v; want %v", tc.name, got, tc.want)
		}
	}
	if podstatus.AnyRegularStarted(nil) {
		t.Errorf("AnyRegularStarted(nil) = true")
	}
}

func TestKubeletPhase(t *testing.T) {
	t.Parallel()
	yes, no := true, false
	app := []podstatus.Container{{Name: "a"}, {Name: "b"}}
	side := podstatus.Container{Name: "side", RestartPolicy: policy(podstatus.RestartAlways)}
	static := map[string]string{podstatus.ConfigSourceAnnotation: "file"}
	sidecarStarted := func(started bool) podstatus.ContainerStatus {
		s := cstatus("side", running)
		s.Started = &started
		return s
	}
	exitedBefore := func(name string, last podstatus.ContainerState) podstatus.ContainerStatus {
		s := cstatus(name, waiting)
		s.LastTerminationState = last
		return s
	}
	tests := []struct {
		name        string
		policy      podstatus.RestartPolicy
		init        []podstatus.Container
		containers  []podstatus.Container
		initStatus  []podstatus.ContainerStatus
		statuses    []podstatus.ContainerStatus
		annotations map[string]string
		obs         podstatus.Observed
		want        podstatus.Phase
	}{
		{"no statuses", podstatus.RestartAlways, nil, app, nil, nil, nil, podstatus.Observed{}, podstatus.Pending},
		{"one running, one unknown", podstatus.RestartAlways, nil, app, nil, []podstatus.ContainerStatus{cstatus("a", running)}, nil, podstatus.Observed{}, podstatus.Pending},
		{"all running", podstatus.RestartAlways, nil, app, nil, []podstatus.ContainerStatus{cstatus("a", running), cstatus("b", running)}, nil, podstatus.Observed{}, podstatus.Running},
		{"one running, one exited", podstatus.RestartNever, nil, app, nil, []podstatus.ContainerStatus{cstatus("a", running), cstatus("b", exited0)}, nil, podstatus.Observed{}, podstatus.Running},
		{"one waiting first time", podstatus.RestartAlways, nil, app, nil, []podstatus.ContainerStatus{cstatus("a", running), cstatus("b", waiting)}, nil, podstatus.Observed{}, podstatus.Pending},
		{"waiting after an exit counts as stopped", podstatus.RestartAlways, nil, app, nil, []podstatus.ContainerStatus{cstatus("a", running), exitedBefore("b", exited1)}, nil, podstatus.Observed{}, podstatus.Running},
		{"all exited 0, Never", podstatus.RestartNever, nil, app, nil, []podstatus.ContainerStatus{cstatus("a", exited0), cstatus("b", exited0)}, nil, podstatus.Observed{}, podstatus.Succeeded},
		{"one exited 1, Never", podstatus.RestartNever, nil, app, nil, []podstatus.ContainerStatus{cstatus("a", exited0), cstatus("b", exited1)}, nil, podstatus.Observed{}, podstatus.Failed},
		{"all exited, Always: will restart", podstatus.RestartAlways, nil, app, nil, []podstatus.ContainerStatus{cstatus("a", exited0), cstatus("b", exited1)}, nil, podstatus.Observed{}, podstatus.Running},
		{"all exited, Always, kubelet decided terminal", podstatus.RestartAlways, nil, app, nil, []podstatus.ContainerStatus{cstatus("a", exited0), cstatus("b", exited0)}, nil, podstatus.Observed{Terminal: true}, podstatus.Succeeded},
		{"terminal decision ignored for a static pod", podstatus.RestartAlways, nil, app, nil, []podstatus.ContainerStatus{cstatus("a", exited0), cstatus("b", exited0)}, static, podstatus.Observed{Terminal: true}, podstatus.Running},
		{"OnFailure, exit 0 and exit 1: one restarts", podstatus.RestartOnFailure, nil, app, nil, []podstatus.ContainerStatus{cstatus("a", exited0), cstatus("b", exited1)}, nil, podstatus.Observed{}, podstatus.Running},
		{"OnFailure, all exit 0", podstatus.RestartOnFailure, nil, app, nil, []podstatus.ContainerStatus{cstatus("a", exited0), cstatus("b", exited0)}, nil, podstatus.Observed{}, podstatus.Succeeded},
		{"Never, stopped by RestartingAllContainers: restarts", podstatus.RestartNever, nil, app, nil, []podstatus.ContainerStatus{cstatus("a", exited0), cstatus("b", restartAll)}, nil, podstatus.Observed{}, podstatus.Running},
		{"init container failed, Never", podstatus.RestartNever, []podstatus.Container{{Name: "i"}}, app, []podstatus.ContainerStatus{cstatus("i", exited1)}, nil, nil, podstatus.Observed{}, podstatus.Failed},
		{"init container failed, OnFailure: retried", podstatus.RestartOnFailure, []podstatus.Container{{Name: "i"}}, app, []podstatus.ContainerStatus{cstatus("i", exited1)}, nil, nil, podstatus.Observed{}, podstatus.Pending},
		{"init container failed before, waiting, Never", podstatus.RestartNever, []podstatus.Container{{Name: "i"}}, app, []podstatus.ContainerStatus{exitedBefore("i", exited1)}, nil, nil, podstatus.Observed{}, podstatus.Failed},
		{"init container done, app running", podstatus.RestartAlways, []podstatus.Container{{Name: "i"}}, app[:1], []podstatus.ContainerStatus{cstatus("i", exited0)}, []podstatus.ContainerStatus{cstatus("a", running)}, nil, podstatus.Observed{}, podstatus.Running},
		{"init container running", podstatus.RestartAlways, []podstatus.Container{{Name: "i"}}, app[:1], []podstatus.ContainerStatus{cstatus("i", running)}, nil, nil, podstatus.Observed{}, podstatus.Pending},
		{"sidecar not started", podstatus.RestartAlways, []podstatus.Container{side}, app[:1], []podstatus.ContainerStatus{sidecarStarted(false)}, []podstatus.ContainerStatus{cstatus("a", running)}, nil, podstatus.Observed{Initialized: &no}, podstatus.Pending},
		{"sidecar not started, pod initialized", podstatus.RestartAlways, []podstatus.Container{side}, app[:1], []podstatus.ContainerStatus{sidecarStarted(false)}, []podstatus.ContainerStatus{cstatus("a", running)}, nil, podstatus.Observed{Initialized: &yes}, podstatus.Running},
		{"sidecar started", podstatus.RestartAlways, []podstatus.Container{side}, app[:1], []podstatus.ContainerStatus{sidecarStarted(true)}, []podstatus.ContainerStatus{cstatus("a", running)}, nil, podstatus.Observed{Initialized: &no}, podstatus.Running},
		{"sidecar running counts as running", podstatus.RestartNever, []podstatus.Container{side}, app[:1], []podstatus.ContainerStatus{sidecarStarted(true)}, []podstatus.ContainerStatus{cstatus("a", exited0)}, nil, podstatus.Observed{}, podstatus.Running},
		{"sidecar stopped never counts as stopped", podstatus.RestartNever, []podstatus.Container{side}, app[:1], []podstatus.ContainerStatus{cstatus("side", exited1)}, []podstatus.ContainerStatus{cstatus("a", exited0)}, nil, podstatus.Observed{}, podstatus.Succeeded},
	}
	for _, tc := range tests {
		p := &podstatus.Pod{Spec: podstatus.Spec{RestartPolicy: tc.policy, InitContainers: tc.init, Containers: tc.containers},
			Status: podstatus.Status{InitContainerStatuses: tc.initStatus, ContainerStatuses: tc.statuses}}
		p.Annotations = tc.annotations
		if got := podstatus.KubeletPhase(p, tc.obs); got != tc.want {
			t.Errorf("KubeletPhase(%s) = %s; want %s", tc.name, got, tc.want)
		}
	}
	if got := podstatus.KubeletPhase(nil, podstatus.Observed{}); got != podstatus.Pending {
		t.Errorf("KubeletPhase(nil) = %s; want Pending", got)
	}
}
