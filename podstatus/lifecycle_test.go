package podstatus_test

import (
	"testing"

	"github.com/kubesem/kubesem/podstatus"
)

func phasePod(phase podstatus.Phase, deleting bool) *podstatus.Pod {
	p := &podstatus.Pod{Status: podstatus.Status{Phase: phase}}
	if deleting {
		p.DeletionTimestamp = &now
	}
	return p
}

func TestLifecycle(t *testing.T) {
	t.Parallel()
	tests := []struct {
		phase                         podstatus.Phase
		deleting                      bool
		active, terminating, terminal bool
	}{
		// upstream TestIsPodTerminal, TestActivePodFiltering, TestCountTerminatingPods.
		{podstatus.Failed, false, false, false, true},
		{podstatus.Succeeded, false, false, false, true},
		{podstatus.Unknown, false, true, false, false},
		{podstatus.Pending, false, true, false, false},
		{podstatus.Running, false, true, false, false},
		{"", false, true, false, false},
		{podstatus.Pending, true, false, true, false},
		{podstatus.Running, true, false, true, false},
		{podstatus.Unknown, true, false, true, false},
		{"", true, false, true, false},
		{podstatus.Succeeded, true, false, false, true},
		{podstatus.Failed, true, false, false, true},
	}
	for _, tc := range tests {
		p := phasePod(tc.phase, tc.deleting)
		if got := podstatus.IsActive(p); got != tc.active {
			t.Errorf("IsActive(%q, deleting %v) = %v; want %v", tc.phase, tc.deleting, got, tc.active)
		}
		if got := podstatus.IsTerminating(p); got != tc.terminating {
			t.Errorf("IsTerminating(%q, deleting %v) = %v; want %v", tc.phase, tc.deleting, got, tc.terminating)
		}
		if got := podstatus.IsTerminal(p); got != tc.terminal {
			t.Errorf("IsTerminal(%q, deleting %v) = %v; want %v", tc.phase, tc.deleting, got, tc.terminal)
		}
	}
	if podstatus.IsActive(nil) || podstatus.IsTerminating(nil) || podstatus.IsTerminal(nil) {
		t.Errorf("IsActive/IsTerminating/IsTerminal(nil) = true; want false")
	}
}

func TestCountTerminating(t *testing.T) {
	t.Parallel()
	// upstream TestCountTerminatingPods: 7 pods, 2 terminating.
	pods := []*podstatus.Pod{
		phasePod(podstatus.Succeeded, false), phasePod(podstatus.Failed, false),
		phasePod(podstatus.Pending, true), phasePod(podstatus.Running, true),
		phasePod(podstatus.Running, false), phasePod(podstatus.Running, false), phasePod(podstatus.Running, false),
	}
	n := 0
	for _, p := range pods {
		if podstatus.IsTerminating(p) {
			n++
		}
	}
	if n != 2 {
		t.Errorf("count of IsTerminating = %d; want 2", n)
	}
}

func always() *podstatus.RestartPolicy { r := podstatus.RestartAlways; return &r }

func TestIsRestartableInit(t *testing.T) {
	t.Parallel()
	onFailure := podstatus.RestartOnFailure
	tests := []struct {
		c    *podstatus.Container
		want bool
	}{
		{&podstatus.Container{Name: "a", RestartPolicy: always()}, true},
		{&podstatus.Container{Name: "a", RestartPolicy: &onFailure}, false},
		{&podstatus.Container{Name: "a"}, false},
		{nil, false},
	}
	for _, tc := range tests {
		if got := podstatus.IsRestartableInit(tc.c); got != tc.want {
			t.Errorf("IsRestartableInit(%+v) = %v; want %v", tc.c, got, tc.want)
		}
	}
}

func TestMaxRestarts(t *testing.T) {
	t.Parallel()
	cs := func(name string, n int32) podstatus.ContainerStatus {
		return podstatus.ContainerStatus{Name: name, RestartCount: n}
	}
	tests := []struct {
		name             string
		pod              *podstatus.Pod
		regular, sidecar int32
	}{
		{"empty", &podstatus.Pod{}, 0, 0},
		{"nil", nil, 0, 0},
		{"highest regular", &podstatus.Pod{Status: podstatus.Status{ContainerStatuses: []podstatus.ContainerStatus{cs("a", 3), cs("b", 7), cs("c", 1)}}}, 7, 0},
		{"sidecar apart, plain init ignored", &podstatus.Pod{
			Spec:   podstatus.Spec{InitContainers: []podstatus.Container{{Name: "side", RestartPolicy: always()}, {Name: "init"}}},
			Status: podstatus.Status{InitContainerStatuses: []podstatus.ContainerStatus{cs("side", 5), cs("init", 9)}, ContainerStatuses: []podstatus.ContainerStatus{cs("app", 2)}},
		}, 2, 5},
		{"status without spec ignored", &podstatus.Pod{
			Spec:   podstatus.Spec{InitContainers: []podstatus.Container{{Name: "side", RestartPolicy: always()}}},
			Status: podstatus.Status{InitContainerStatuses: []podstatus.ContainerStatus{cs("ghost", 9), cs("side", 1)}},
		}, 0, 1},
		{"duplicate names, any sidecar counts", &podstatus.Pod{
			Spec:   podstatus.Spec{InitContainers: []podstatus.Container{{Name: "x"}, {Name: "x", RestartPolicy: always()}}},
			Status: podstatus.Status{InitContainerStatuses: []podstatus.ContainerStatus{cs("x", 4)}},
		}, 0, 4},
		{"negative counts floor at 0", &podstatus.Pod{Status: podstatus.Status{ContainerStatuses: []podstatus.ContainerStatus{cs("a", -3)}}}, 0, 0},
	}
	for _, tc := range tests {
		r, s := podstatus.MaxRestarts(tc.pod)
		if r != tc.regular || s != tc.sidecar {
			t.Errorf("MaxRestarts(%s) = %d, %d; want %d, %d", tc.name, r, s, tc.regular, tc.sidecar)
		}
	}
}
