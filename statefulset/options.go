package statefulset

// Options are the deviations from Kubernetes v1.36.3 with default feature
// gates; the zero value is v1.36.3.
type Options struct {
	// MaxUnavailableStatefulSet turns on the MaxUnavailableStatefulSet gate
	// (beta, off by default in v1.36.3, pkg/features/kube_features.go), which
	// lets a RollingUpdate replace up to spec.updateStrategy.rollingUpdate.maxUnavailable
	// pods at once ([Step]) and defaults an unset maxUnavailable to 1
	// ([UpdateStrategy.Defaulted]).
	MaxUnavailableStatefulSet bool `json:"maxUnavailableStatefulSet,omitempty"`
	// RefuseOrdinalsPastInt32 makes [Step] refuse, with an Overflow error on
	// spec.ordinals.start, a set whose last ordinal
	// (spec.ordinals.start + spec.replicas - 1) is beyond 2147483647. The API
	// accepts such a set and v1.36.3 syncs it: for each such ordinal it
	// creates a pod named "<set>--1" (see [Step]), which it never takes for
	// one of the set's pods, and it tries again on every sync. Off (the
	// default), Step answers as v1.36.3 does.
	RefuseOrdinalsPastInt32 bool `json:"refuseOrdinalsPastInt32,omitempty"`
}
