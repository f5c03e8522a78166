package podstatus

// Restart rule actions and exit-code operators (gate ContainerRestartRules).
const (
	ActionRestart              = "Restart"
	ActionRestartAllContainers = "RestartAllContainers"
	ExitCodesIn                = "In"
	ExitCodesNotIn             = "NotIn"
)

// ReasonRestartingAllContainers is the terminated reason the kubelet gives a
// container it stopped to restart all containers of the pod; such a container
// counts as restartable whatever its rules say.
const ReasonRestartingAllContainers = "RestartingAllContainers"

// ConfigSourceAnnotation names where the kubelet got a pod from; any value
// other than "api" marks a static pod, whose phase is never forced terminal.
const ConfigSourceAnnotation = "kubernetes.io/config.source"

// MatchRule returns the first of the container's restart rules whose exit
// codes match code: In matches a listed code, NotIn an unlisted one; a rule
// without exitCodes or with another operator never matches.
//
// Source: upstream pkg/api/v1/pod/util.go FindMatchingContainerRestartRule (v1.36.3).
func MatchRule(c *Container, code int32) (RestartRule, bool) {
	if c == nil {
		return RestartRule{}, false
	}
	for _, r := range c.RestartPolicyRules {
		if r.ExitCodes == nil {
			continue
		}
		listed := false
		for _, v := range r.ExitCodes.Values {
			if v == code {
				listed = true
				break
			}
		}
		switch r.ExitCodes.Operator {
		case ExitCodesIn:
			if listed {
				return r, true
			}
		case ExitCodesNotIn:
			if !listed {
				return r, true
			}
		}
	}
	return RestartRule{}, false
}

// ShouldRestart reports whether the kubelet restarts a container that exited
// with code: a matching rule with action Restart or RestartAllContainers
// says yes; otherwise, when the container has its own restartPolicy, Always
// restarts, OnFailure restarts on a non-zero code and Never does not; an
// unknown container policy, or none, falls back to the pod's policy, where an
// empty or unknown value means Always.
//
// Source: upstream pkg/api/v1/pod/util.go ContainerShouldRestart (v1.36.3).
func ShouldRestart(c *Container, pod RestartPolicy, code int32) bool {
	return shouldRestart(c, pod, code, true)
}

// shouldRestart is ShouldRestart with gate RestartAllContainersOnContainerExits
// on or off (off: a RestartAllContainers rule falls back to the policies).
func shouldRestart(c *Container, pod RestartPolicy, code int32, all bool) bool {
	if c != nil && c.RestartPolicy != nil {
		if r, ok := MatchRule(c, code); ok && (r.Action == ActionRestart || all && r.Action == ActionRestartAllContainers) {
			return true
		}
		switch *c.RestartPolicy {
		case RestartAlways:
			return true
		case RestartOnFailure:
			return code != 0
		case RestartNever:
			return false
		}
	}
	switch pod {
	case RestartOnFailure:
		return code != 0
	case RestartNever:
		return false
	}
	return true
}

// IsStatic reports whether the pod came from a source other than the API
// server: its kubernetes.io/config.source annotation is present and not "api".
//
// Source: upstream pkg/kubelet/types/pod_update.go IsStaticPod (v1.36.3).
func IsStatic(p *Pod) bool {
	if p == nil {
		return false
	}
	src, ok := p.Annotations[ConfigSourceAnnotation]
	return ok && src != "api"
}

// Observed is what the kubelet knows about a pod beyond its spec and the
// container statuses: whether it has decided the pod is terminal (it will
// not restart any container), whether a regular container of the current
// sandbox has started, and whether a new sandbox is needed.
type Observed struct {
	// Terminal is the kubelet's podIsTerminal.
	Terminal bool `json:"terminal,omitempty"`
	// Initialized is whether a regular container of the current sandbox has
	// started; nil derives it from the statuses (any regular container
	// running or terminated).
	Initialized *bool `json:"initialized,omitempty"`
	// NewSandboxNeeded makes PodReadyToStartContainers False.
	NewSandboxNeeded bool `json:"newSandboxNeeded,omitempty"`
	// Runtime is the pod's containers as the container runtime reports
	// them (nil: none), read only for AllContainersRestarting.
	Runtime []RuntimeContainer `json:"runtime,omitempty"`
}

// findStatus returns the first status named name, looking at the regular
// statuses first, then the init ones, as the kubelet's merged list does.
func findStatus(s *Status, name string) (*ContainerStatus, bool) {
	for i := range s.ContainerStatuses {
		if s.ContainerStatuses[i].Name == name {
			return &s.ContainerStatuses[i], true
		}
	}
	for i := range s.InitContainerStatuses {
		if s.InitContainerStatuses[i].Name == name {
			return &s.InitContainerStatuses[i], true
		}
	}
	return nil, false
}

// findInitFirst is findStatus with the init statuses looked at first, the
// order of the list the condition generators read.
func findInitFirst(s *Status, name string) (*ContainerStatus, bool) {
	for i := range s.InitContainerStatuses {
		if s.InitContainerStatuses[i].Name == name {
			return &s.InitContainerStatuses[i], true
		}
	}
	for i := range s.ContainerStatuses {
		if s.ContainerStatuses[i].Name == name {
			return &s.ContainerStatuses[i], true
		}
	}
	return nil, false
}

// AnyRegularStarted reports whether some container status (init or regular)
// named after a regular container is running or terminated.
//
// Source: upstream pkg/kubelet/container/helpers.go HasAnyRegularContainerStarted (v1.36.3).
func AnyRegularStarted(p *Pod) bool {
	if p == nil {
		return false
	}
	started := func(ss []ContainerStatus) bool {
		for i := range ss {
			if ss[i].State.Running == nil && ss[i].State.Terminated == nil {
				continue
			}
			for j := range p.Spec.Containers {
				if p.Spec.Containers[j].Name == ss[i].Name {
					return true
				}
			}
		}
		return false
	}
	return started(p.Status.InitContainerStatuses) || started(p.Status.ContainerStatuses)
}

// exitRestartable is whether a container that ended with t restarts: its
// rules and policies say so, or the kubelet stopped it to restart all.
func exitRestartable(c *Container, pod RestartPolicy, t *StateTerminated, all bool) bool {
	return shouldRestart(c, pod, t.ExitCode, all) || all && t.Reason == ReasonRestartingAllContainers
}

// KubeletPhase returns the phase the kubelet computes from the pod's spec and
// its container statuses (pod.Status.InitContainerStatuses and
// ContainerStatuses, looked up by name, regular statuses first):
//
//   - a regular init container that failed and will not restart fails the
//     pod; one that is missing, running or waiting without a past exit keeps
//     it Pending, as does a sidecar not yet started, unless a regular
//     container has already run (obs.Initialized);
//   - a regular container waiting without a past exit keeps it Pending
//     (image pull, RunContainerError);
//   - with every container known and one running, Running;
//   - with every container known and all stopped: if the kubelet decided the
//     pod is terminal (and it is not static), Succeeded when every exit code
//     is 0, else Failed; otherwise Running while one of them will restart,
//     then Succeeded or Failed the same way;
//   - otherwise Pending.
//
// Sidecars count as running while they run, never as stopped, and do not
// hold completion. A nil pod is Pending.
//
// Source: upstream pkg/kubelet/kubelet_pods.go getPhase (v1.36.3, gates
// ContainerRestartRules and RestartAllContainersOnContainerExits on).
func KubeletPhase(p *Pod, obs Observed) Phase {
	return kubeletPhase(p, obs, Options{})
}

// kubeletPhase is KubeletPhase under the gates of opts.
func kubeletPhase(p *Pod, obs Observed, opts Options) Phase {
	all := opts.restartAll()
	if p == nil {
		return Pending
	}
	spec, st := &p.Spec, &p.Status
	initialized := AnyRegularStarted(p)
	if obs.Initialized != nil {
		initialized = *obs.Initialized
	}
	var pendingInit, pendingSidecar, failedNoRestart int
	var unknown, running, waiting, stopped, stoppedNoRestart, succeeded int
	for i := range spec.InitContainers {
		c := &spec.InitContainers[i]
		cs, ok := findStatus(st, c.Name)
		if IsRestartableInit(c) {
			switch {
			case !ok:
				unknown++
			case cs.State.Running != nil:
				if cs.Started == nil || !*cs.Started {
					pendingSidecar++
				}
				running++
			case cs.State.Terminated != nil:
			case cs.State.Waiting != nil:
				if cs.LastTerminationState.Terminated == nil {
					pendingSidecar++
					waiting++
				}
			default:
				pendingSidecar++
				unknown++
			}
			continue
		}
		switch {
		case !ok, cs.State.Running != nil:
			pendingInit++
		case cs.State.Terminated != nil:
			if t := cs.State.Terminated; t.ExitCode != 0 && !exitRestartable(c, spec.RestartPolicy, t, all) {
				failedNoRestart++
			}
		case cs.State.Waiting != nil:
			if t := cs.LastTerminationState.Terminated; t == nil {
				pendingInit++
			} else if t.ExitCode != 0 && !exitRestartable(c, spec.RestartPolicy, t, all) {
				failedNoRestart++
			}
		default:
			pendingInit++
		}
	}
	for i := range spec.Containers {
		c := &spec.Containers[i]
		cs, ok := findStatus(st, c.Name)
		switch {
		case !ok:
			unknown++
		case cs.State.Running != nil:
			running++
		case cs.State.Terminated != nil:
			t := cs.State.Terminated
			stopped++
			if !exitRestartable(c, spec.RestartPolicy, t, all) {
				stoppedNoRestart++
			}
			if t.ExitCode == 0 {
				succeeded++
			}
		case cs.State.Waiting != nil:
			if t := cs.LastTerminationState.Terminated; t != nil {
				stopped++
				if !exitRestartable(c, spec.RestartPolicy, t, all) {
					stoppedNoRestart++
				}
			} else {
				waiting++
			}
		default:
			unknown++
		}
	}
	switch {
	case failedNoRestart > 0:
		return Failed
	case pendingInit > 0, pendingSidecar > 0 && !initialized, waiting > 0:
		return Pending
	case running > 0 && unknown == 0:
		return Running
	case running == 0 && stopped > 0 && unknown == 0:
		if obs.Terminal && !IsStatic(p) || stopped == stoppedNoRestart {
			if stopped == succeeded {
				return Succeeded
			}
			return Failed
		}
		return Running
	}
	return Pending
}
