package replicaset

import (
	"github.com/kubesem/kubesem/meta"
	"github.com/kubesem/kubesem/podstatus"
)

// ReplicaSet is the subset of an apps/v1 ReplicaSet (or, with Kind set to
// ReplicationController, a v1 ReplicationController) that controllers read.
type ReplicaSet struct {
	// Kind is "ReplicaSet" (the default when empty) or
	// "ReplicationController".
	Kind            string `json:"kind,omitempty"`
	meta.ObjectMeta `json:"metadata"`
	Spec            Spec   `json:"spec"`
	Status          Status `json:"status"`
}

// Spec is a ReplicaSet spec.
type Spec struct {
	// Replicas is the desired count; nil means 1, the API default.
	Replicas        *int32              `json:"replicas,omitempty"`
	MinReadySeconds int32               `json:"minReadySeconds,omitempty"`
	Selector        *meta.LabelSelector `json:"selector,omitempty"`
	Template        podstatus.Template  `json:"template"`
}

// Status is a ReplicaSet status.
type Status struct {
	Replicas             int32 `json:"replicas"`
	FullyLabeledReplicas int32 `json:"fullyLabeledReplicas"`
	ReadyReplicas        int32 `json:"readyReplicas"`
	AvailableReplicas    int32 `json:"availableReplicas"`
	// TerminatingReplicas is nil for a ReplicationController and for a
	// ReplicaSet whose controller has not reported it.
	TerminatingReplicas *int32      `json:"terminatingReplicas"`
	ObservedGeneration  int64       `json:"observedGeneration"`
	Conditions          []Condition `json:"conditions"`
}

// ConditionType names a ReplicaSet condition.
type ConditionType = meta.ConditionType

// ReplicaFailure is the only ReplicaSet condition type.
const ReplicaFailure ConditionType = "ReplicaFailure"

// Condition is a ReplicaSet condition: the shared meta.Condition, with the time
// fields this kind uses.
type Condition = meta.Condition

// Replicas returns spec.replicas, or 1 when it is unset.
func (rs *ReplicaSet) Replicas() int32 {
	if rs.Spec.Replicas == nil {
		return 1
	}
	return *rs.Spec.Replicas
}
