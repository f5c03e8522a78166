package podstatus

// IsActive reports whether the pod counts toward a controller's replicas: its
// phase is neither Succeeded nor Failed and it has no deletion timestamp.
//
// Source: upstream pkg/controller/controller_utils.go IsPodActive (v1.36.3).
func IsActive(p *Pod) bool {
	return p.Status.Phase != Succeeded && p.Status.Phase != Failed && p.DeletionTimestamp == nil
}

// IsTerminating reports whether the pod is being deleted but has not yet
// reached a terminal phase.
//
// Source: upstream pkg/controller/controller_utils.go IsPodTerminating (v1.36.3).
func IsTerminating(p *Pod) bool {
	return !IsTerminal(p) && p.DeletionTimestamp != nil
}

// IsTerminal reports whether the pod's phase is Succeeded or Failed.
//
// Source: upstream pkg/api/v1/pod/util.go IsPodTerminal (v1.36.3).
func IsTerminal(p *Pod) bool {
	return p.Status.Phase == Succeeded || p.Status.Phase == Failed
}

// IsRestartableInit reports whether an init container is a sidecar: its
// restartPolicy is Always.
//
// Source: upstream pkg/api/v1/pod/util.go IsRestartableInitContainer (v1.36.3).
func IsRestartableInit(c *Container) bool {
	return c.RestartPolicy != nil && *c.RestartPolicy == RestartAlways
}

// MaxRestarts returns the highest restart count among the pod's regular
// containers and, separately, among its sidecar (restartable init)
// containers, matching sidecar statuses to specs by name.
//
// Source: upstream pkg/controller/controller_utils.go maxContainerRestarts
// (v1.36.3).
func MaxRestarts(p *Pod) (regular, sidecar int32) {
	for _, s := range p.Status.ContainerStatuses {
		regular = max(regular, s.RestartCount)
	}
	if len(p.Spec.InitContainers) == 0 {
		return regular, 0
	}
	for _, s := range p.Status.InitContainerStatuses {
		for i := range p.Spec.InitContainers {
			c := &p.Spec.InitContainers[i]
			if c.Name == s.Name && IsRestartableInit(c) {
				sidecar = max(sidecar, s.RestartCount)
				break
			}
		}
	}
	return regular, sidecar
}
