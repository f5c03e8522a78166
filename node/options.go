package node

import (
	"time"

	"github.com/kubesem/kubesem/internal/apijson"
)

// Options selects deviations from Kubernetes v1.36.3 with default feature
// gates and default kube-controller-manager and kubelet flags. The zero
// value is v1.36.3.
type Options struct {
	// TaintTolerationComparisonOperators enables the Lt and Gt toleration
	// operators (feature gate TaintTolerationComparisonOperators, alpha,
	// off in v1.36.3).
	TaintTolerationComparisonOperators bool `json:"taintTolerationComparisonOperators,omitempty"`
	// NodeMonitorGracePeriod is how long a node may go without a heartbeat
	// or lease renewal before its Ready condition becomes Unknown; 0 means
	// [DefaultNodeMonitorGracePeriod] (50 s; the seed's 40 s is the
	// pre-1.32 default).
	NodeMonitorGracePeriod time.Duration `json:"nodeMonitorGracePeriod,omitempty"`
	// NodeStartupGracePeriod is the grace period of a node that never
	// posted a Ready condition; 0 means [DefaultNodeStartupGracePeriod].
	NodeStartupGracePeriod time.Duration `json:"nodeStartupGracePeriod,omitempty"`
	// EvictionRate is --node-eviction-rate (nodes per second) of a healthy
	// zone and of a fully disrupted one; nil means [DefaultEvictionRate].
	EvictionRate *float32 `json:"evictionRate,omitempty"`
	// SecondaryEvictionRate is --secondary-node-eviction-rate, used in a
	// partially disrupted zone larger than LargeClusterThreshold; nil
	// means [DefaultSecondaryEvictionRate].
	SecondaryEvictionRate *float32 `json:"secondaryEvictionRate,omitempty"`
	// LargeClusterThreshold is --large-cluster-size-threshold; nil means
	// [DefaultLargeClusterThreshold].
	LargeClusterThreshold *int32 `json:"largeClusterThreshold,omitempty"`
	// UnhealthyZoneThreshold is --unhealthy-zone-threshold; nil means
	// [DefaultUnhealthyZoneThreshold].
	UnhealthyZoneThreshold *float32 `json:"unhealthyZoneThreshold,omitempty"`
}

// Node lifecycle controller defaults (kube-controller-manager flags).
//
// Source: upstream cmd/kube-controller-manager/app/options/
// nodelifecyclecontroller.go and pkg/controller/nodelifecycle/config/
// v1alpha1/defaults.go (v1.36.3).
const (
	DefaultNodeMonitorGracePeriod = 50 * time.Second
	DefaultNodeStartupGracePeriod = 60 * time.Second
	DefaultEvictionRate           = float32(0.1)
	DefaultSecondaryEvictionRate  = float32(0.01)
	DefaultLargeClusterThreshold  = int32(50)
	DefaultUnhealthyZoneThreshold = float32(0.55)
)

func (o Options) monitorGrace() time.Duration {
	if o.NodeMonitorGracePeriod <= 0 {
		return DefaultNodeMonitorGracePeriod
	}
	return o.NodeMonitorGracePeriod
}

func (o Options) startupGrace() time.Duration {
	if o.NodeStartupGracePeriod <= 0 {
		return DefaultNodeStartupGracePeriod
	}
	return o.NodeStartupGracePeriod
}

func (o Options) evictionRate() float32 {
	if o.EvictionRate == nil {
		return DefaultEvictionRate
	}
	return *o.EvictionRate
}

func (o Options) secondaryRate() float32 {
	if o.SecondaryEvictionRate == nil {
		return DefaultSecondaryEvictionRate
	}
	return *o.SecondaryEvictionRate
}

func (o Options) largeCluster() int32 {
	if o.LargeClusterThreshold == nil {
		return DefaultLargeClusterThreshold
	}
	return *o.LargeClusterThreshold
}

func (o Options) unhealthyThreshold() float32 {
	if o.UnhealthyZoneThreshold == nil {
		return DefaultUnhealthyZoneThreshold
	}
	return *o.UnhealthyZoneThreshold
}

// UnmarshalJSON reads durations as Go duration strings ("40s"), the way
// plan.Encode writes them, or as integer nanoseconds. Keys are
// case-sensitive; an unknown or repeated key is a *field.Error at its name
// (Unsupported, Duplicate).
func (o *Options) UnmarshalJSON(b []byte) error {
	type plain Options
	var p plain
	if err := apijson.UnmarshalStrict(b, &p); err != nil {
		return err
	}
	*o = Options(p)
	return nil
}
