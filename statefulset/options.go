package statefulset

// Options are the deviations from Kubernetes v1.36.3 with default feature
// gates; the zero value is v1.36.3.
type Options struct {
	// MaxUnavailableStatefulSet turns on the MaxUnavailableStatefulSet gate
	// (beta, off by default in v1.36.3, pkg/features/kube_features.go), which
	// lets a RollingUpdate replace up to spec.updateStrategy.rollingUpdate.maxUnavailable
	// pods at once ([Step]).
	MaxUnavailableStatefulSet bool `json:"maxUnavailableStatefulSet,omitempty"`
}
