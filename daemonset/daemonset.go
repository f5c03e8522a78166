package daemonset

import (
	"github.com/kubesem/kubesem/intstr"
	"github.com/kubesem/kubesem/meta"
	"github.com/kubesem/kubesem/podstatus"
)

// DaemonSet is the subset of an apps/v1 DaemonSet the controller reads.
// JSON tags follow the API.
type DaemonSet struct {
	meta.ObjectMeta `json:"metadata"`
	Spec            Spec   `json:"spec"`
	Status          Status `json:"status"`
}

// Spec is the subset of a DaemonSetSpec kubesem reads.
type Spec struct {
	Selector             *meta.LabelSelector `json:"selector,omitempty"`
	Template             podstatus.Template  `json:"template"`
	UpdateStrategy       UpdateStrategy      `json:"updateStrategy"`
	MinReadySeconds      int32               `json:"minReadySeconds,omitempty"`
	RevisionHistoryLimit *int32              `json:"revisionHistoryLimit,omitempty"`
}

// StrategyType is a DaemonSet update strategy type.
type StrategyType string

// Update strategy types.
const (
	RollingUpdate StrategyType = "RollingUpdate"
	OnDelete      StrategyType = "OnDelete"
)

// UpdateStrategy is spec.updateStrategy. Absent fields read as apps/v1
// defaulting fills them: an empty type is RollingUpdate, and for
// RollingUpdate a missing rollingUpdate, maxUnavailable or maxSurge is
// maxUnavailable 1, maxSurge 0.
type UpdateStrategy struct {
	Type          StrategyType   `json:"type,omitempty"`
	RollingUpdate *RollingParams `json:"rollingUpdate,omitempty"`
}

// RollingParams is spec.updateStrategy.rollingUpdate.
type RollingParams struct {
	MaxUnavailable *intstr.Value `json:"maxUnavailable,omitempty"`
	MaxSurge       *intstr.Value `json:"maxSurge,omitempty"`
}

// Status is a DaemonSetStatus.
type Status struct {
	CurrentNumberScheduled int32  `json:"currentNumberScheduled"`
	NumberMisscheduled     int32  `json:"numberMisscheduled"`
	DesiredNumberScheduled int32  `json:"desiredNumberScheduled"`
	NumberReady            int32  `json:"numberReady"`
	ObservedGeneration     int64  `json:"observedGeneration,omitempty"`
	UpdatedNumberScheduled int32  `json:"updatedNumberScheduled"`
	NumberAvailable        int32  `json:"numberAvailable"`
	NumberUnavailable      int32  `json:"numberUnavailable"`
	CollisionCount         *int32 `json:"collisionCount,omitempty"`
}

// Labels used by the DaemonSet controller.
const (
	// LabelTemplateGeneration is the deprecated pod label carrying the
	// template generation (pod-template-generation).
	LabelTemplateGeneration = "pod-template-generation"
	// AnnotationTemplateGeneration is the deprecated DaemonSet annotation
	// holding the template generation (deprecated.daemonset.template.generation).
	AnnotationTemplateGeneration = "deprecated.daemonset.template.generation"
)

// strategy is spec.updateStrategy as apps/v1 defaulting leaves it: an
// empty type is RollingUpdate; for RollingUpdate a missing rollingUpdate,
// maxUnavailable or maxSurge reads as maxUnavailable 1, maxSurge 0. The
// spec is not modified.
func (s *Spec) strategy() UpdateStrategy {
	us := s.UpdateStrategy
	if us.Type == "" {
		us.Type = RollingUpdate
	}
	if us.Type != RollingUpdate {
		return us
	}
	var ru RollingParams
	if us.RollingUpdate != nil {
		ru = *us.RollingUpdate
	}
	if ru.MaxUnavailable == nil {
		one := intstr.Int(1)
		ru.MaxUnavailable = &one
	}
	if ru.MaxSurge == nil {
		zero := intstr.Int(0)
		ru.MaxSurge = &zero
	}
	us.RollingUpdate = &ru
	return us
}
