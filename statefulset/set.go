package statefulset

import (
	"github.com/kubesem/kubesem/history"
	"github.com/kubesem/kubesem/intstr"
	"github.com/kubesem/kubesem/meta"
	"github.com/kubesem/kubesem/podstatus"
)

// StatefulSet is the subset of an apps/v1 StatefulSet the controller reads.
// JSON tags follow the API, except Spec.TemplateRevision (see there).
type StatefulSet struct {
	meta.ObjectMeta `json:"metadata"`
	Spec            Spec   `json:"spec"`
	Status          Status `json:"status"`
}

// PodManagementPolicy is spec.podManagementPolicy.
type PodManagementPolicy string

// Pod management policies.
const (
	OrderedReady PodManagementPolicy = "OrderedReady"
	Parallel     PodManagementPolicy = "Parallel"
)

// UpdateStrategyType is spec.updateStrategy.type.
type UpdateStrategyType string

// Update strategies.
const (
	RollingUpdate UpdateStrategyType = "RollingUpdate"
	OnDelete      UpdateStrategyType = "OnDelete"
)

// RetentionPolicyType is a value of spec.persistentVolumeClaimRetentionPolicy.
type RetentionPolicyType string

// Claim retention policy values.
const (
	Retain RetentionPolicyType = "Retain"
	Delete RetentionPolicyType = "Delete"
)

// Spec is the subset of a StatefulSetSpec the controller reads.
type Spec struct {
	// Replicas defaults to 1 when nil.
	Replicas *int32 `json:"replicas,omitempty"`
	// Selector is spec.selector; its matchLabels label the claims the
	// controller creates (read by [Plan.Writes] only).
	Selector *meta.LabelSelector `json:"selector,omitempty"`
	// Template is spec.template, the pod template of the update revision
	// (read by [Plan.Writes] only: which revision it is, is
	// TemplateRevision).
	Template podstatus.Template `json:"template,omitzero"`
	// Ordinals.Start is the first ordinal (0 when nil).
	Ordinals            *OrdinalsSpec       `json:"ordinals,omitempty"`
	ServiceName         string              `json:"serviceName,omitempty"`
	PodManagementPolicy PodManagementPolicy `json:"podManagementPolicy,omitempty"`
	UpdateStrategy      UpdateStrategy      `json:"updateStrategy,omitzero"`
	MinReadySeconds     int32               `json:"minReadySeconds,omitempty"`
	// RevisionHistoryLimit defaults to 10 when nil.
	RevisionHistoryLimit *int32 `json:"revisionHistoryLimit,omitempty"`
	// VolumeClaimTemplates are the claim templates; the controller reads
	// their names (claims are named <template>-<set>-<ordinal>).
	VolumeClaimTemplates []Claim `json:"volumeClaimTemplates,omitempty"`
	// PersistentVolumeClaimRetentionPolicy is Retain/Retain when nil.
	PersistentVolumeClaimRetentionPolicy *RetentionPolicy `json:"persistentVolumeClaimRetentionPolicy,omitempty"`
	// TemplateRevision is the name of the ControllerRevision the current
	// pod template hashes to ("<set>-<hash>", the controller-revision-hash
	// label value); an input, as pod-template-hash is for Deployments.
	TemplateRevision string `json:"templateRevision"`
}

// OrdinalsSpec is spec.ordinals.
type OrdinalsSpec struct {
	Start int32 `json:"start"`
}

// UpdateStrategy is spec.updateStrategy; the controller reads it as API
// defaulting leaves it ([UpdateStrategy.Defaulted]).
type UpdateStrategy struct {
	Type          UpdateStrategyType     `json:"type,omitempty"`
	RollingUpdate *RollingUpdateStrategy `json:"rollingUpdate,omitempty"`
}

// RollingUpdateStrategy is spec.updateStrategy.rollingUpdate.
type RollingUpdateStrategy struct {
	Partition      *int32        `json:"partition,omitempty"`
	MaxUnavailable *intstr.Value `json:"maxUnavailable,omitempty"`
}

// RetentionPolicy is spec.persistentVolumeClaimRetentionPolicy; empty
// fields mean Retain.
type RetentionPolicy struct {
	WhenDeleted RetentionPolicyType `json:"whenDeleted,omitempty"`
	WhenScaled  RetentionPolicyType `json:"whenScaled,omitempty"`
}

// Status is a StatefulSetStatus.
type Status struct {
	ObservedGeneration int64  `json:"observedGeneration,omitempty"`
	Replicas           int32  `json:"replicas"`
	ReadyReplicas      int32  `json:"readyReplicas,omitempty"`
	CurrentReplicas    int32  `json:"currentReplicas,omitempty"`
	UpdatedReplicas    int32  `json:"updatedReplicas,omitempty"`
	AvailableReplicas  int32  `json:"availableReplicas,omitempty"`
	CurrentRevision    string `json:"currentRevision,omitempty"`
	UpdateRevision     string `json:"updateRevision,omitempty"`
	CollisionCount     *int32 `json:"collisionCount,omitempty"`
}

// Claim is a PersistentVolumeClaim, the one model of the kind: its
// metadata (name, UID, deletion timestamp, owner references …), the part
// the StatefulSet controller reads of a claim and of a volume claim
// template. JSON tags follow the API.
type Claim struct {
	meta.ObjectMeta `json:"metadata"`
}

// Replicas returns spec.replicas, 1 when unset.
//
// Source: upstream pkg/apis/apps/v1/defaults.go SetDefaults_StatefulSet
// (v1.36.3).
func (s *StatefulSet) Replicas() int32 {
	if s.Spec.Replicas == nil {
		return 1
	}
	return *s.Spec.Replicas
}

// Start returns spec.ordinals.start, 0 when unset.
//
// Source: upstream pkg/controller/statefulset stateful_set_utils.go
// getStartOrdinal (v1.36.3); seed 002:L122-124.
func (s *StatefulSet) Start() int32 {
	if s.Spec.Ordinals == nil {
		return 0
	}
	return s.Spec.Ordinals.Start
}

// Policy returns the pod management policy, OrderedReady when unset. Step
// treats every policy but Parallel as OrderedReady, as upstream does.
//
// Source: upstream pkg/apis/apps/v1/defaults.go SetDefaults_StatefulSet;
// pkg/controller/statefulset stateful_set_utils.go allowsBurst (v1.36.3);
// seed 002:L171-177.
func (s *StatefulSet) Policy() PodManagementPolicy {
	if s.Spec.PodManagementPolicy == "" {
		return OrderedReady
	}
	return s.Spec.PodManagementPolicy
}

// Strategy returns the update strategy type after API defaulting:
// RollingUpdate when unset.
//
// Source: upstream pkg/apis/apps/v1/defaults.go SetDefaults_StatefulSet
// (v1.36.3).
func (s *StatefulSet) Strategy() UpdateStrategyType {
	return s.Spec.UpdateStrategy.Defaulted(Options{}).Type
}

// Partition returns spec.updateStrategy.rollingUpdate.partition after API
// defaulting ([UpdateStrategy.Defaulted]) and whether the defaulted
// strategy has a rollingUpdate block: a set without spec.updateStrategy
// has one with partition 0, a set with type RollingUpdate and no block has
// none.
//
// Source: upstream pkg/apis/apps/v1/defaults.go SetDefaults_StatefulSet
// (v1.36.3).
func (s *StatefulSet) Partition() (int32, bool) {
	ru := s.Spec.UpdateStrategy.Defaulted(Options{}).RollingUpdate
	if ru == nil {
		return 0, false
	}
	if ru.Partition == nil {
		return 0, true
	}
	return *ru.Partition, true
}

// Defaulted returns u as API defaulting leaves it: an empty type becomes
// RollingUpdate and, when it has no rollingUpdate block, gets an empty one;
// then a RollingUpdate strategy's block (when there is one) gets partition
// 0 when unset and, with the MaxUnavailableStatefulSet gate
// (opts.MaxUnavailableStatefulSet), maxUnavailable 1 when unset. An
// explicit type RollingUpdate without a block keeps no block (the
// controller then creates a missing pod below status.currentReplicas at
// the current revision, see [Step]). u is not modified: the result holds
// its own rollingUpdate block.
//
// Source: upstream pkg/apis/apps/v1/defaults.go SetDefaults_StatefulSet
// (v1.36.3).
func (u UpdateStrategy) Defaulted(opts Options) UpdateStrategy {
	if u.RollingUpdate != nil {
		ru := *u.RollingUpdate
		u.RollingUpdate = &ru
	}
	if u.Type == "" {
		u.Type = RollingUpdate
		if u.RollingUpdate == nil {
			u.RollingUpdate = &RollingUpdateStrategy{}
		}
	}
	if u.Type == RollingUpdate && u.RollingUpdate != nil {
		if u.RollingUpdate.Partition == nil {
			var zero int32
			u.RollingUpdate.Partition = &zero
		}
		if opts.MaxUnavailableStatefulSet && u.RollingUpdate.MaxUnavailable == nil {
			one := intstr.Int(1)
			u.RollingUpdate.MaxUnavailable = &one
		}
	}
	return u
}

// HistoryLimit returns spec.revisionHistoryLimit, 10 when unset.
//
// Source: upstream pkg/apis/apps/v1/defaults.go SetDefaults_StatefulSet
// (v1.36.3).
func (s *StatefulSet) HistoryLimit() int32 {
	if s.Spec.RevisionHistoryLimit == nil {
		return 10
	}
	return *s.Spec.RevisionHistoryLimit
}

// Retention returns the claim retention policy with Retain for unset
// fields ([RetentionPolicy.Defaulted]); Retain/Retain when the set has none.
//
// Source: upstream pkg/apis/apps/v1/defaults.go SetDefaults_StatefulSet;
// pkg/controller/statefulset stateful_set_utils.go
// getPersistentVolumeClaimRetentionPolicy (v1.36.3); seed 002:L222-230.
func (s *StatefulSet) Retention() RetentionPolicy {
	if r := s.Spec.PersistentVolumeClaimRetentionPolicy; r != nil {
		return r.Defaulted()
	}
	return RetentionPolicy{WhenDeleted: Retain, WhenScaled: Retain}
}

// Defaulted returns p with Retain for empty fields, as API defaulting
// leaves it.
//
// Source: upstream pkg/apis/apps/v1/defaults.go SetDefaults_StatefulSet
// (v1.36.3).
func (p RetentionPolicy) Defaulted() RetentionPolicy {
	if p.WhenDeleted == "" {
		p.WhenDeleted = Retain
	}
	if p.WhenScaled == "" {
		p.WhenScaled = Retain
	}
	return p
}

// PodRevision returns the pod's controller-revision-hash label
// ([history.HashLabel]): the name of the ControllerRevision it was created
// from ("" when absent).
//
// Source: upstream pkg/controller/statefulset stateful_set_utils.go
// getPodRevision (v1.36.3).
func PodRevision(p *podstatus.Pod) string { return p.Labels[history.HashLabel] }
