package pdb

import (
	"time"

	"github.com/kubesem/kubesem/intstr"
	"github.com/kubesem/kubesem/meta"
)

// PodDisruptionBudget is the policy/v1 object, reduced to the fields the
// disruption controller and the eviction subresource read.
type PodDisruptionBudget struct {
	meta.ObjectMeta `json:"metadata"`
	Spec            Spec   `json:"spec"`
	Status          Status `json:"status"`
}

// Spec is the budget's desired state. At most one of MinAvailable and
// MaxUnavailable may be set.
type Spec struct {
	MinAvailable               *intstr.Value       `json:"minAvailable,omitempty"`
	Selector                   *meta.LabelSelector `json:"selector,omitempty"`
	MaxUnavailable             *intstr.Value       `json:"maxUnavailable,omitempty"`
	UnhealthyPodEvictionPolicy *EvictionPolicy     `json:"unhealthyPodEvictionPolicy,omitempty"`
}

// Status is what the disruption controller last wrote.
type Status struct {
	ObservedGeneration int64                `json:"observedGeneration,omitempty"`
	DisruptedPods      map[string]time.Time `json:"disruptedPods,omitempty"`
	DisruptionsAllowed int32                `json:"disruptionsAllowed"`
	CurrentHealthy     int32                `json:"currentHealthy"`
	DesiredHealthy     int32                `json:"desiredHealthy"`
	ExpectedPods       int32                `json:"expectedPods"`
	Conditions         meta.Conditions      `json:"conditions,omitempty"`
}

// EvictionPolicy is spec.unhealthyPodEvictionPolicy: when a running pod that
// is not Ready may be evicted.
type EvictionPolicy string

// Eviction policies; unset means IfHealthyBudget.
const (
	// IfHealthyBudget evicts a running, not Ready pod only while the budget
	// has at least its desired healthy pods (and desires some).
	IfHealthyBudget EvictionPolicy = "IfHealthyBudget"
	// AlwaysAllow evicts a running, not Ready pod regardless of the budget.
	AlwaysAllow EvictionPolicy = "AlwaysAllow"
)

// ConditionType is a budget condition type.
type ConditionType = meta.ConditionType

// DisruptionAllowed is the one condition the controller writes: True when
// status.disruptionsAllowed > 0.
const DisruptionAllowed ConditionType = "DisruptionAllowed"

// Policy returns the unhealthy pod eviction policy, IfHealthyBudget when unset.
func (b *PodDisruptionBudget) Policy() EvictionPolicy {
	if b.Spec.UnhealthyPodEvictionPolicy == nil {
		return IfHealthyBudget
	}
	return *b.Spec.UnhealthyPodEvictionPolicy
}

// Controller is an object that owns pods, as the disruption controller finds
// it from a pod's controller reference: a ReplicationController, ReplicaSet,
// Deployment, StatefulSet, or any resource with a scale subresource, as the
// API server returns it, trimmed to its apiVersion, kind, metadata (name,
// UID, and its own controller reference: a ReplicaSet's Deployment) and
// spec.replicas.
type Controller struct {
	APIVersion      string `json:"apiVersion"`
	Kind            string `json:"kind"`
	meta.ObjectMeta `json:"metadata"`
	Spec            ControllerSpec `json:"spec"`
}

// ControllerSpec is the part of a controller's spec the disruption
// controller reads.
type ControllerSpec struct {
	// Replicas is spec.replicas (or the scale subresource's spec.replicas).
	// Nil means the resource has no scale subresource.
	Replicas *int32 `json:"replicas,omitempty"`
}
