package rollout

import (
	"github.com/kubesem/kubesem/intstr"
	"github.com/kubesem/kubesem/meta"
	"github.com/kubesem/kubesem/podstatus"
)

// Deployment is the subset of an apps/v1 Deployment the controller reads.
// Unset optional fields take the API defaults (see each field).
type Deployment struct {
	meta.ObjectMeta `json:"metadata"`
	Spec            Spec   `json:"spec"`
	Status          Status `json:"status"`

	// TemplateHash is not an API field: it is the pod-template-hash of
	// Spec.Template (with Status.CollisionCount), which Kubernetes computes
	// from the Go encoding of the full template (the k8s adapter module
	// computes it exactly). When set, a created ReplicaSet is named after
	// it and labelled with it; when empty, kubesem's own hash is used. The
	// new ReplicaSet is found by comparing whole templates either way.
	TemplateHash string `json:"templateHash,omitempty"`
}

// Spec is a Deployment spec.
type Spec struct {
	// Replicas is the desired count; nil means 1.
	Replicas *int32              `json:"replicas,omitempty"`
	Selector *meta.LabelSelector `json:"selector,omitempty"`
	Template podstatus.Template  `json:"template"`
	Strategy Strategy            `json:"strategy,omitzero"`
	// MinReadySeconds is how long a new pod must be ready to be available.
	MinReadySeconds int32 `json:"minReadySeconds,omitempty"`
	// RevisionHistoryLimit is how many old ReplicaSets to keep; nil means 10.
	RevisionHistoryLimit *int32 `json:"revisionHistoryLimit,omitempty"`
	Paused               bool   `json:"paused,omitempty"`
	// ProgressDeadlineSeconds is how long a rollout may make no progress
	// before it is reported stuck; nil means 600.
	ProgressDeadlineSeconds *int32 `json:"progressDeadlineSeconds,omitempty"`
}

// StrategyType is RollingUpdate (the default) or Recreate.
type StrategyType string

// Strategy types.
const (
	RollingUpdateStrategy StrategyType = "RollingUpdate"
	RecreateStrategy      StrategyType = "Recreate"
)

// Strategy says how pods of the old template are replaced.
type Strategy struct {
	// Type is RollingUpdate when empty.
	Type          StrategyType   `json:"type,omitempty"`
	RollingUpdate *RollingUpdate `json:"rollingUpdate,omitempty"`
}

// RollingUpdate bounds a rolling update. A nil value means "25%".
type RollingUpdate struct {
	MaxUnavailable *intstr.Value `json:"maxUnavailable,omitempty"`
	MaxSurge       *intstr.Value `json:"maxSurge,omitempty"`
}

// Status is a Deployment status.
type Status struct {
	ObservedGeneration  int64           `json:"observedGeneration,omitempty"`
	Replicas            int32           `json:"replicas"`
	UpdatedReplicas     int32           `json:"updatedReplicas"`
	ReadyReplicas       int32           `json:"readyReplicas"`
	AvailableReplicas   int32           `json:"availableReplicas"`
	UnavailableReplicas int32           `json:"unavailableReplicas"`
	TerminatingReplicas *int32          `json:"terminatingReplicas,omitempty"`
	Conditions          meta.Conditions `json:"conditions,omitempty"`
	CollisionCount      *int32          `json:"collisionCount,omitempty"`
}

// ConditionType names a Deployment condition.
type ConditionType = meta.ConditionType

// Deployment condition types.
const (
	Available      ConditionType = "Available"
	Progressing    ConditionType = "Progressing"
	ReplicaFailure ConditionType = "ReplicaFailure"
)

// Condition is a Deployment condition: the shared meta.Condition, with the time
// fields this kind uses.
type Condition = meta.Condition

// Replicas returns spec.replicas, or 1 when it is unset.
func (d *Deployment) Replicas() int32 {
	if d.Spec.Replicas == nil {
		return 1
	}
	return *d.Spec.Replicas
}
