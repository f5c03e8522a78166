package podstatus

// Options are the feature gates the kubelet's status rules depend on. The
// zero value is Kubernetes v1.36.3 with default feature gates.
type Options struct {
	// DisableRestartAllContainersOnContainerExits turns gate
	// RestartAllContainersOnContainerExits (beta, on by default in v1.36)
	// off: a RestartAllContainers rule no longer restarts its container,
	// the RestartingAllContainers exit reason no longer counts as
	// restartable, Initialized may become False again, and
	// AllContainersRestarting is neither generated nor owned by the kubelet.
	DisableRestartAllContainersOnContainerExits bool `json:"disableRestartAllContainersOnContainerExits,omitempty"`
}

// restartAll is whether gate RestartAllContainersOnContainerExits is on.
func (o Options) restartAll() bool { return !o.DisableRestartAllContainersOnContainerExits }
