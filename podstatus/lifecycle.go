package podstatus

// IsActive reports whether the pod counts toward a controller's replicas: its
// phase is neither Succeeded nor Failed and it has no deletion timestamp. A
// nil pod is not active.
//
// Source: upstream pkg/controller/controller_utils.go IsPodActive (v1.36.3).
func IsActive(p *Pod) bool {
	return p != nil && !IsTerminal(p) && p.DeletionTimestamp == nil
}

// IsTerminating reports whether the pod is being deleted but has not yet
// reached a terminal phase: it has a deletion timestamp and its phase is
// neither Succeeded nor Failed. A nil pod is not terminating.
//
// Source: upstream pkg/controller/controller_utils.go IsPodTerminating (v1.36.3).
func IsTerminating(p *Pod) bool {
	return p != nil && !IsTerminal(p) && p.DeletionTimestamp != nil
}

// IsTerminal reports whether the pod's phase is Succeeded or Failed. A nil
// pod is not terminal.
//
// Source: upstream pkg/api/v1/pod/util.go IsPodTerminal (v1.36.3).
func IsTerminal(p *Pod) bool {
	return p != nil && (p.Status.Phase == Succeeded || p.Status.Phase == Failed)
}

// IsRestartableInit reports whether an init container is a sidecar: its
// restartPolicy is Always.
//
// Source: upstream pkg/api/v1/pod/util.go IsRestartableInitContainer (v1.36.3).
func IsRestartableInit(c *Container) bool {
	return c != nil && c.RestartPolicy != nil && *c.RestartPolicy == RestartAlways
}

// MaxRestarts returns the highest restart count among the pod's regular
// containers and, separately, among its sidecar containers: the init
// container statuses whose name is that of some init container with
// restartPolicy Always. Both are at least 0; a nil pod has 0 and 0.
//
// Source: upstream pkg/controller/controller_utils.go maxContainerRestarts
// (v1.36.3).
func MaxRestarts(p *Pod) (regular, sidecar int32) {
	if p == nil {
		return 0, 0
	}
	for i := range p.Status.ContainerStatuses {
		regular = max(regular, p.Status.ContainerStatuses[i].RestartCount)
	}
	for i := range p.Status.InitContainerStatuses {
		s := &p.Status.InitContainerStatuses[i]
		if s.RestartCount > sidecar && isSidecarName(p.Spec.InitContainers, s.Name) {
			sidecar = s.RestartCount
		}
	}
	return regular, sidecar
}

// isSidecarName reports whether any of the init containers named name is a
// sidecar. Names are unique in a valid pod; with duplicates, any match counts.
func isSidecarName(inits []Container, name string) bool {
	for i := range inits {
		if inits[i].Name == name && IsRestartableInit(&inits[i]) {
			return true
		}
	}
	return false
}
