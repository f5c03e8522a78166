package replicaset

// Options selects deviations from Kubernetes v1.36.3 with default feature
// gates. The zero value is v1.36.3.
type Options struct {
	// DisablePodDeletionCost turns the PodDeletionCost gate (Beta, on by
	// default) off: the controller.kubernetes.io/pod-deletion-cost
	// annotation no longer orders scale-down victims.
	DisablePodDeletionCost bool `json:"disablePodDeletionCost,omitempty"`
	// DisableTerminatingReplicas turns the
	// DeploymentReplicaSetTerminatingReplicas gate (Beta, on by default)
	// off: status.terminatingReplicas is left unset.
	DisableTerminatingReplicas bool `json:"disableTerminatingReplicas,omitempty"`
	// BurstReplicas caps the pods created or deleted in one sync; 0 means
	// [DefaultBurstReplicas].
	BurstReplicas int `json:"burstReplicas,omitempty"`
}

// DefaultBurstReplicas is the controller's default cap on pods created or
// deleted in one sync.
//
// Source: upstream pkg/controller/replicaset/replica_set.go BurstReplicas
// (v1.36.3).
const DefaultBurstReplicas = 500

func (o Options) burst() int {
	if o.BurstReplicas <= 0 {
		return DefaultBurstReplicas
	}
	return o.BurstReplicas
}
