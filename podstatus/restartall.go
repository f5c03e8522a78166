package podstatus

import "github.com/kubesem/kubesem/meta"

// RuntimeState is a container's state as the container runtime reports it.
type RuntimeState string

// Runtime container states.
const (
	RuntimeCreated RuntimeState = "created"
	RuntimeRunning RuntimeState = "running"
	RuntimeExited  RuntimeState = "exited"
	RuntimeUnknown RuntimeState = "unknown"
)

// RuntimeContainer is one container of the pod as the container runtime
// reports it, newest first for a name: the kubelet looks at the first entry
// of a name.
type RuntimeContainer struct {
	Name     string       `json:"name"`
	State    RuntimeState `json:"state"`
	ExitCode int32        `json:"exitCode,omitempty"`
}

// ReasonRestartAllContainersStarted is the reason of a True
// AllContainersRestarting condition.
const ReasonRestartAllContainersStarted = "RestartAllContainersStarted"

// MessageRestartAllContainers is the message of a True
// AllContainersRestarting condition.
const MessageRestartAllContainers = "container exited with restart policy rule"

// CanRestartAll reports whether some init or regular container of the pod
// has a restart rule with action RestartAllContainers, whatever its exit
// codes; only such pods get an AllContainersRestarting condition.
//
// Source: upstream pkg/api/v1/pod/util.go AllContainersCouldRestart (v1.36.3).
func CanRestartAll(p *Pod) bool {
	if p == nil {
		return false
	}
	has := func(cs []Container) bool {
		for i := range cs {
			for _, r := range cs[i].RestartPolicyRules {
				if r.Action == ActionRestartAllContainers {
					return true
				}
			}
		}
		return false
	}
	return has(p.Spec.InitContainers) || has(p.Spec.Containers)
}

// RestartAllTriggered reports whether the kubelet restarts every container
// of the pod: its status already has a True AllContainersRestarting
// condition; or an init or regular container whose first runtime entry has
// exited matches a rule with action RestartAllContainers with the runtime's
// exit code or, when its API status (the last of its name, regular statuses
// over init ones) is terminated, with that status's exit code. A container
// the runtime does not report as exited is not looked at, whatever its API
// status says.
//
// Source: upstream pkg/kubelet/container/helpers.go ShouldAllContainersRestart (v1.36.3).
func RestartAllTriggered(p *Pod, runtime []RuntimeContainer) bool {
	if p == nil {
		return false
	}
	for _, c := range p.Status.Conditions {
		if c.Type == AllContainersRestarting && c.Status == meta.ConditionTrue {
			return true
		}
	}
	triggers := func(c *Container, code int32) bool {
		r, ok := MatchRule(c, code)
		return ok && r.Action == ActionRestartAllContainers
	}
	check := func(c *Container) bool {
		rc := findRuntime(runtime, c.Name)
		if rc == nil || rc.State != RuntimeExited {
			return false
		}
		if triggers(c, rc.ExitCode) {
			return true
		}
		if cs := lastAPIStatus(&p.Status, c.Name); cs != nil && cs.State.Terminated != nil && triggers(c, cs.State.Terminated.ExitCode) {
			return true
		}
		return false
	}
	for i := range p.Spec.InitContainers {
		if check(&p.Spec.InitContainers[i]) {
			return true
		}
	}
	for i := range p.Spec.Containers {
		if check(&p.Spec.Containers[i]) {
			return true
		}
	}
	return false
}

// findRuntime returns the first runtime entry named name, or nil.
func findRuntime(rs []RuntimeContainer, name string) *RuntimeContainer {
	for i := range rs {
		if rs[i].Name == name {
			return &rs[i]
		}
	}
	return nil
}

// lastAPIStatus returns the status named name that a name-keyed map filled
// from the init statuses, then the regular ones, would hold: the last
// regular one, else the last init one.
func lastAPIStatus(s *Status, name string) *ContainerStatus {
	for i := len(s.ContainerStatuses) - 1; i >= 0; i-- {
		if s.ContainerStatuses[i].Name == name {
			return &s.ContainerStatuses[i]
		}
	}
	for i := len(s.InitContainerStatuses) - 1; i >= 0; i-- {
		if s.InitContainerStatuses[i].Name == name {
			return &s.InitContainerStatuses[i]
		}
	}
	return nil
}

// AllContainersRestartingCondition returns the AllContainersRestarting
// condition the kubelet generates for a pod in phase, given the runtime's
// containers: False PodCompleted when Succeeded; False PodFailed when
// Failed; False when [RestartAllTriggered] says no, or when the runtime
// reports none of the pod's containers any more (the restart has cleaned
// up); else True RestartAllContainersStarted. The transition time is left
// zero.
//
// Source: upstream pkg/kubelet/status/generate.go GenerateAllContainersRestartingCondition (v1.36.3).
func AllContainersRestartingCondition(p *Pod, runtime []RuntimeContainer, phase Phase) Condition {
	c := Condition{Type: AllContainersRestarting, Status: meta.ConditionFalse}
	switch {
	case phase == Succeeded:
		c.Reason = ReasonPodCompleted
	case phase == Failed:
		c.Reason = ReasonPodFailed
	case RestartAllTriggered(p, runtime) && !cleanedUp(p, runtime):
		c.Status, c.Reason, c.Message = meta.ConditionTrue, ReasonRestartAllContainersStarted, MessageRestartAllContainers
	}
	return c
}

// cleanedUp is whether the runtime reports none of the pod's init and
// regular containers.
func cleanedUp(p *Pod, runtime []RuntimeContainer) bool {
	if p == nil {
		return true
	}
	for i := range p.Spec.InitContainers {
		if findRuntime(runtime, p.Spec.InitContainers[i].Name) != nil {
			return false
		}
	}
	for i := range p.Spec.Containers {
		if findRuntime(runtime, p.Spec.Containers[i].Name) != nil {
			return false
		}
	}
	return true
}
