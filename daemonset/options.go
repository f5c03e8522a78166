package daemonset

import (
	"time"

	"github.com/kubesem/kubesem/node"
)

// Options selects deviations from Kubernetes v1.36.3 with default feature
// gates and kube-controller-manager flags. The zero value is v1.36.3.
type Options struct {
	// TaintTolerationComparisonOperators enables the Lt and Gt toleration
	// operators (feature gate, alpha, off in v1.36.3).
	TaintTolerationComparisonOperators bool `json:"taintTolerationComparisonOperators,omitempty"`
	// BurstReplicas caps the creations and the deletions of one sync; 0
	// means [DefaultBurstReplicas].
	BurstReplicas int `json:"burstReplicas,omitempty"`
	// BackoffBase and BackoffCap bound the per-node failed-pod backoff;
	// 0 means [DefaultBackoffBase] and [DefaultBackoffCap].
	BackoffBase time.Duration `json:"backoffBase,omitempty"`
	BackoffCap  time.Duration `json:"backoffCap,omitempty"`
}

// Controller defaults.
//
// Source: upstream pkg/controller/daemon/daemon_controller.go BurstReplicas;
// cmd/kube-controller-manager/app/apps.go NewBackOff(1s, 15m) (v1.36.3).
const (
	DefaultBurstReplicas = 250
	DefaultBackoffBase   = time.Second
	DefaultBackoffCap    = 15 * time.Minute
)

func (o Options) burst() int {
	if o.BurstReplicas <= 0 {
		return DefaultBurstReplicas
	}
	return o.BurstReplicas
}

func (o Options) backoffBase() time.Duration {
	if o.BackoffBase <= 0 {
		return DefaultBackoffBase
	}
	return o.BackoffBase
}

func (o Options) backoffCap() time.Duration {
	if o.BackoffCap <= 0 {
		return DefaultBackoffCap
	}
	return o.BackoffCap
}

func (o Options) nodeOptions() node.Options {
	return node.Options{TaintTolerationComparisonOperators: o.TaintTolerationComparisonOperators}
}
