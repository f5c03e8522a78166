package podstatus_test

import (
	"testing"
	"time"

	"github.com/kubesem/kubesem/meta"
	"github.com/kubesem/kubesem/podstatus"
)

func readyStatus(name string, ready bool) podstatus.ContainerStatus {
	return podstatus.ContainerStatus{Name: name, State: running, Ready: ready}
}

func condPod(init, containers []podstatus.Container, initStatus, statuses []podstatus.ContainerStatus) *podstatus.Pod {
	return &podstatus.Pod{Spec: podstatus.Spec{InitContainers: init, Containers: containers},
		Status: podstatus.Status{InitContainerStatuses: initStatus, ContainerStatuses: statuses}}
}

func TestIsKubeletCondition(t *testing.T) {
	t.Parallel()
	for _, ct := range []podstatus.ConditionType{podstatus.PodScheduled, podstatus.Ready, podstatus.Initialized, podstatus.ContainersReady,
		podstatus.PodReadyToStartContainers, podstatus.AllContainersRestarting} {
		if !podstatus.IsKubeletCondition(ct) {
			t.Errorf("IsKubeletCondition(%s) = false; want true", ct)
		}
	}
	for _, ct := range []podstatus.ConditionType{podstatus.DisruptionTarget, "gate", ""} {
		if podstatus.IsKubeletCondition(ct) {
			t.Errorf("IsKubeletCondition(%q) = true; want false", ct)
		}
	}
}

func TestContainersReadyCondition(t *testing.T) {
	t.Parallel()
	app := []podstatus.Container{{Name: "a"}, {Name: "b"}}
	side := []podstatus.Container{{Name: "side", RestartPolicy: policy(podstatus.RestartAlways)}, {Name: "plain"}}
	tests := []struct {
		name    string
		pod     *podstatus.Pod
		phase   podstatus.Phase
		status  meta.ConditionStatus
		reason  string
		message string
	}{
		{"no status list", condPod(nil, app, nil, nil), podstatus.Running, meta.ConditionFalse, podstatus.ReasonUnknownContainerStatuses, ""},
		{"an empty init list counts as a list", condPod(nil, app, []podstatus.ContainerStatus{}, nil), podstatus.Running, meta.ConditionFalse, podstatus.ReasonContainersNotReady, "containers with unknown status: [a b]"},
		{"all ready", condPod(nil, app, nil, []podstatus.ContainerStatus{readyStatus("a", true), readyStatus("b", true)}), podstatus.Running, meta.ConditionTrue, "", ""},
		{"unknown and unready", condPod(nil, app, nil, []podstatus.ContainerStatus{readyStatus("b", false)}), podstatus.Running, meta.ConditionFalse, podstatus.ReasonContainersNotReady,
			"containers with unknown status: [a], containers with unready status: [b]"},
		{"unready only", condPod(nil, app, nil, []podstatus.ContainerStatus{readyStatus("a", false), readyStatus("b", false)}), podstatus.Running, meta.ConditionFalse, podstatus.ReasonContainersNotReady,
			"containers with unready status: [a b]"},
		{"Succeeded, all known", condPod(nil, app, nil, []podstatus.ContainerStatus{readyStatus("a", false), readyStatus("b", false)}), podstatus.Succeeded, meta.ConditionFalse, podstatus.ReasonPodCompleted, ""},
		{"Succeeded, one unknown", condPod(nil, app, nil, []podstatus.ContainerStatus{readyStatus("a", false)}), podstatus.Succeeded, meta.ConditionFalse, podstatus.ReasonContainersNotReady,
			"containers with unknown status: [b], containers with unready status: [a]"},
		{"Failed", condPod(nil, app, nil, []podstatus.ContainerStatus{readyStatus("a", true), readyStatus("b", true)}), podstatus.Failed, meta.ConditionFalse, podstatus.ReasonPodFailed, ""},
		{"sidecar counted, plain init not", condPod(side, app[:1], []podstatus.ContainerStatus{readyStatus("side", false)}, []podstatus.ContainerStatus{readyStatus("a", true)}), podstatus.Running, meta.ConditionFalse, podstatus.ReasonContainersNotReady,
			"containers with unready status: [side]"},
		{"nil pod", nil, podstatus.Running, meta.ConditionFalse, podstatus.ReasonUnknownContainerStatuses, ""},
	}
	for _, tc := range tests {
		c := podstatus.ContainersReadyCondition(tc.pod, tc.phase)
		if c.Type != podstatus.ContainersReady || c.Status != tc.status || c.Reason != tc.reason || c.Message != tc.message || !c.LastTransitionTime.IsZero() {
			t.Errorf("ContainersReadyCondition(%s) = %+v; want %s %q %q", tc.name, c, tc.status, tc.reason, tc.message)
		}
	}
}

func TestReadyCondition(t *testing.T) {
	t.Parallel()
	ready := condPod(nil, []podstatus.Container{{Name: "a"}}, nil, []podstatus.ContainerStatus{readyStatus("a", true)})
	ready.Spec.ReadinessGates = []podstatus.ReadinessGate{{ConditionType: "g1"}, {ConditionType: "g2"}}
	tests := []struct {
		name    string
		pod     *podstatus.Pod
		conds   []podstatus.Condition
		status  meta.ConditionStatus
		reason  string
		message string
	}{
		{"gates True", ready, []podstatus.Condition{{Type: "g2", Status: meta.ConditionTrue}, {Type: "g1", Status: meta.ConditionTrue}}, meta.ConditionTrue, "", ""},
		{"gate missing", ready, []podstatus.Condition{{Type: "g1", Status: meta.ConditionTrue}}, meta.ConditionFalse, podstatus.ReasonReadinessGatesNotReady,
			`corresponding condition of pod readiness gate "g2" does not exist.`},
		{"gate False and gate missing", ready, []podstatus.Condition{{Type: "g1", Status: meta.ConditionFalse}}, meta.ConditionFalse, podstatus.ReasonReadinessGatesNotReady,
			`the status of pod readiness gate "g1" is not "True", but False, corresponding condition of pod readiness gate "g2" does not exist.`},
		{"first condition of a type decides", ready, []podstatus.Condition{{Type: "g1", Status: meta.ConditionUnknown}, {Type: "g1", Status: meta.ConditionTrue}, {Type: "g2", Status: meta.ConditionTrue}},
			meta.ConditionFalse, podstatus.ReasonReadinessGatesNotReady, `the status of pod readiness gate "g1" is not "True", but Unknown`},
		{"first condition of a type decides, True then False", ready, []podstatus.Condition{{Type: "g1", Status: meta.ConditionTrue}, {Type: "g1", Status: meta.ConditionFalse}, {Type: "g2", Status: meta.ConditionTrue}},
			meta.ConditionTrue, "", ""},
		{"containers not ready: their reason", condPod(nil, []podstatus.Container{{Name: "a"}}, nil, []podstatus.ContainerStatus{readyStatus("a", false)}), nil,
			meta.ConditionFalse, podstatus.ReasonContainersNotReady, "containers with unready status: [a]"},
	}
	for _, tc := range tests {
		c := podstatus.ReadyCondition(tc.pod, tc.conds, podstatus.Running)
		if c.Type != podstatus.Ready || c.Status != tc.status || c.Reason != tc.reason || c.Message != tc.message {
			t.Errorf("ReadyCondition(%s) = %+v; want %s %q %q", tc.name, c, tc.status, tc.reason, tc.message)
		}
	}
}

func TestInitializedCondition(t *testing.T) {
	t.Parallel()
	inits := []podstatus.Container{{Name: "i1"}, {Name: "side", RestartPolicy: policy(podstatus.RestartAlways)}, {Name: "i2"}}
	app := []podstatus.Container{{Name: "a"}}
	started := func(s bool) podstatus.ContainerStatus { c := readyStatus("side", false); c.Started = &s; return c }
	tests := []struct {
		name    string
		pod     *podstatus.Pod
		phase   podstatus.Phase
		status  meta.ConditionStatus
		reason  string
		message string
	}{
		{"no init containers", condPod(nil, app, nil, nil), podstatus.Pending, meta.ConditionTrue, "", ""},
		{"init containers, no status list", condPod(inits, app, nil, nil), podstatus.Pending, meta.ConditionFalse, podstatus.ReasonUnknownContainerStatuses, ""},
		{"all done", condPod(inits, app, []podstatus.ContainerStatus{readyStatus("i1", true), started(true), readyStatus("i2", true)}, nil), podstatus.Pending, meta.ConditionTrue, "", ""},
		{"sidecar not started, one unknown", condPod(inits, app, []podstatus.ContainerStatus{readyStatus("i1", true), started(false)}, nil), podstatus.Pending, meta.ConditionFalse,
			podstatus.ReasonContainersNotInitialized, "containers with unknown status: [i2], containers with incomplete status: [side]"},
		{"init not ready", condPod(inits, app, []podstatus.ContainerStatus{readyStatus("i1", false), started(true), readyStatus("i2", true)}, nil), podstatus.Pending, meta.ConditionFalse,
			podstatus.ReasonContainersNotInitialized, "containers with incomplete status: [i1]"},
		{"Succeeded, all known", condPod(inits, app, []podstatus.ContainerStatus{readyStatus("i1", false), started(false), readyStatus("i2", false)}, nil), podstatus.Succeeded, meta.ConditionTrue, podstatus.ReasonPodCompleted, ""},
		{"a regular container started", condPod(inits, app, []podstatus.ContainerStatus{readyStatus("i1", false)}, []podstatus.ContainerStatus{cstatus("a", running)}), podstatus.Running, meta.ConditionTrue, "", ""},
		{"nil pod", nil, podstatus.Pending, meta.ConditionTrue, "", ""},
	}
	for _, tc := range tests {
		c := podstatus.InitializedCondition(tc.pod, tc.phase)
		if c.Type != podstatus.Initialized || c.Status != tc.status || c.Reason != tc.reason || c.Message != tc.message {
			t.Errorf("InitializedCondition(%s) = %+v; want %s %q %q", tc.name, c, tc.status, tc.reason, tc.message)
		}
	}
	// Once True, in-place restarts never uninitialize the pod (the gate is
	// on by default); with the gate off the condition follows the statuses.
	p := condPod(inits, app, []podstatus.ContainerStatus{readyStatus("i1", false), started(true), readyStatus("i2", true)}, nil)
	p.Status.Conditions = []podstatus.Condition{{Type: podstatus.Initialized, Status: meta.ConditionTrue}}
	if c := podstatus.InitializedCondition(p, podstatus.Pending); c.Status != meta.ConditionTrue {
		t.Errorf("InitializedCondition(was True) = %+v; want True", c)
	}
	g := podstatus.Generate(p, podstatus.Observed{Initialized: new(bool)}, now, podstatus.Options{DisableRestartAllContainersOnContainerExits: true})
	for _, c := range g.Conditions {
		if c.Type == podstatus.Initialized && c.Status != meta.ConditionFalse {
			t.Errorf("Generate(gate off, was True) Initialized = %+v; want False", c)
		}
	}
}

func TestGenerate(t *testing.T) {
	t.Parallel()
	earlier := now.Add(-time.Hour)
	p := condPod(nil, []podstatus.Container{{Name: "a"}}, nil, []podstatus.ContainerStatus{readyStatus("a", true)})
	p.Spec.RestartPolicy = podstatus.RestartAlways
	p.Status.Phase, p.Status.Reason, p.Status.Message = podstatus.Running, "Why", "kept"
	p.Status.Conditions = []podstatus.Condition{
		{Type: podstatus.Ready, Status: meta.ConditionTrue, LastTransitionTime: earlier},
		{Type: "custom", Status: meta.ConditionTrue, LastTransitionTime: earlier},
		{Type: podstatus.ContainersReady, Status: meta.ConditionFalse, LastTransitionTime: earlier},
		{Type: podstatus.DisruptionTarget, Status: meta.ConditionTrue, LastTransitionTime: earlier},
	}
	g := podstatus.Generate(p, podstatus.Observed{}, now, podstatus.Options{})
	if g.Phase != podstatus.Running || g.Reason != "Why" || g.Message != "kept" {
		t.Errorf("Generate phase = %s %q %q; want Running, reason and message kept", g.Phase, g.Reason, g.Message)
	}
	type tc struct {
		ct     podstatus.ConditionType
		status meta.ConditionStatus
		at     time.Time
	}
	want := []tc{
		{"custom", meta.ConditionTrue, earlier},
		{podstatus.DisruptionTarget, meta.ConditionTrue, earlier},
		{podstatus.PodReadyToStartContainers, meta.ConditionTrue, now},
		{podstatus.Initialized, meta.ConditionTrue, now},
		{podstatus.Ready, meta.ConditionTrue, earlier},       // unchanged: old time
		{podstatus.ContainersReady, meta.ConditionTrue, now}, // changed: now
		{podstatus.PodScheduled, meta.ConditionTrue, now},
	}
	if len(g.Conditions) != len(want) {
		t.Fatalf("Generate conditions = %+v; want %d", g.Conditions, len(want))
	}
	for i, w := range want {
		c := g.Conditions[i]
		if c.Type != w.ct || c.Status != w.status || !c.LastTransitionTime.Equal(w.at) {
			t.Errorf("Generate condition %d = %s %s at %v; want %s %s at %v", i, c.Type, c.Status, c.LastTransitionTime, w.ct, w.status, w.at)
		}
	}
	if p.Status.Conditions[0].LastTransitionTime != earlier || len(p.Status.Conditions) != 4 {
		t.Errorf("Generate modified its pod")
	}
	// A new sandbox needed: PodReadyToStartContainers False.
	if g := podstatus.Generate(p, podstatus.Observed{NewSandboxNeeded: true}, now, podstatus.Options{}); g.Conditions[2].Status != meta.ConditionFalse {
		t.Errorf("Generate(new sandbox needed) = %+v; want PodReadyToStartContainers False", g.Conditions[2])
	}
	// A terminal phase already written is kept, with its reason, even when
	// the containers would say otherwise.
	done := condPod(nil, []podstatus.Container{{Name: "a"}}, nil, []podstatus.ContainerStatus{cstatus("a", running)})
	done.Status.Phase, done.Status.Reason = podstatus.Failed, "Evicted"
	if g := podstatus.Generate(done, podstatus.Observed{}, now, podstatus.Options{}); g.Phase != podstatus.Failed || g.Reason != "Evicted" {
		t.Errorf("Generate(Failed pod with a running container) = %s %q; want Failed, Evicted", g.Phase, g.Reason)
	}
	// A phase change drops reason and message.
	moved := condPod(nil, []podstatus.Container{{Name: "a"}}, nil, []podstatus.ContainerStatus{cstatus("a", running)})
	moved.Status.Phase, moved.Status.Reason = podstatus.Pending, "Old"
	if g := podstatus.Generate(moved, podstatus.Observed{}, now, podstatus.Options{}); g.Phase != podstatus.Running || g.Reason != "" {
		t.Errorf("Generate(Pending to Running) = %s %q; want Running without reason", g.Phase, g.Reason)
	}
	if g := podstatus.Generate(nil, podstatus.Observed{}, now, podstatus.Options{}); g.Phase != podstatus.Pending || g.Conditions == nil || len(g.Conditions) != 0 {
		t.Errorf("Generate(nil) = %+v; want Pending, no conditions", g)
	}
}
