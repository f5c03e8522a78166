package job

import (
	"time"

	"github.com/kubesem/kubesem/meta"
	"github.com/kubesem/kubesem/podstatus"
)

// Job is the subset of a batch/v1 Job that the Job, CronJob and
// TTL-after-finished controllers read.
type Job struct {
	meta.ObjectMeta `json:"metadata"`
	Spec            Spec   `json:"spec"`
	Status          Status `json:"status"`
}

// Spec is a Job spec. Pointer fields are optional in the API; nil takes the
// API default (see each field).
type Spec struct {
	Parallelism             *int32                `json:"parallelism,omitempty"`
	Completions             *int32                `json:"completions,omitempty"`
	ActiveDeadlineSeconds   *int64                `json:"activeDeadlineSeconds,omitempty"`
	PodFailurePolicy        *PodFailurePolicy     `json:"podFailurePolicy,omitempty"`
	SuccessPolicy           *SuccessPolicy        `json:"successPolicy,omitempty"`
	BackoffLimit            *int32                `json:"backoffLimit,omitempty"`
	BackoffLimitPerIndex    *int32                `json:"backoffLimitPerIndex,omitempty"`
	MaxFailedIndexes        *int32                `json:"maxFailedIndexes,omitempty"`
	Selector                *meta.LabelSelector   `json:"selector,omitempty"`
	ManualSelector          *bool                 `json:"manualSelector,omitempty"`
	Template                podstatus.Template    `json:"template"`
	TTLSecondsAfterFinished *int32                `json:"ttlSecondsAfterFinished,omitempty"`
	CompletionMode          *CompletionMode       `json:"completionMode,omitempty"`
	Suspend                 *bool                 `json:"suspend,omitempty"`
	PodReplacementPolicy    *PodReplacementPolicy `json:"podReplacementPolicy,omitempty"`
	ManagedBy               *string               `json:"managedBy,omitempty"`
}

// CompletionMode is NonIndexed (the default) or Indexed.
type CompletionMode string

// Completion modes.
const (
	NonIndexed CompletionMode = "NonIndexed"
	Indexed    CompletionMode = "Indexed"
)

// PodReplacementPolicy says when a replacement pod is created.
type PodReplacementPolicy string

// Pod replacement policies.
const (
	TerminatingOrFailed PodReplacementPolicy = "TerminatingOrFailed"
	FailedOnly          PodReplacementPolicy = "Failed"
)

// PodFailurePolicy is an ordered list of rules matched against failed pods.
type PodFailurePolicy struct {
	Rules []PodFailurePolicyRule `json:"rules"`
}

// PodFailurePolicyRule is one pod failure policy rule: Action applies when
// OnExitCodes or one of OnPodConditions matches.
type PodFailurePolicyRule struct {
	Action          PodFailurePolicyAction       `json:"action"`
	OnExitCodes     *OnExitCodesRequirement      `json:"onExitCodes,omitempty"`
	OnPodConditions []OnPodConditionsRequirement `json:"onPodConditions,omitempty"`
}

// PodFailurePolicyAction is FailJob, FailIndex, Ignore or Count.
type PodFailurePolicyAction string

// Pod failure policy actions.
const (
	ActionFailJob   PodFailurePolicyAction = "FailJob"
	ActionFailIndex PodFailurePolicyAction = "FailIndex"
	ActionIgnore    PodFailurePolicyAction = "Ignore"
	ActionCount     PodFailurePolicyAction = "Count"
)

// OnExitCodesRequirement matches terminated containers' exit codes.
type OnExitCodesRequirement struct {
	ContainerName *string `json:"containerName,omitempty"`
	Operator      string  `json:"operator"`
	Values        []int32 `json:"values"`
}

// OnPodConditionsRequirement matches a pod condition; Status defaults to True.
type OnPodConditionsRequirement struct {
	Type   podstatus.ConditionType `json:"type"`
	Status meta.ConditionStatus    `json:"status,omitempty"`
}

// SuccessPolicy declares a Job succeeded when one of its rules matches.
type SuccessPolicy struct {
	Rules []SuccessPolicyRule `json:"rules"`
}

// SuccessPolicyRule matches on succeeded indexes and/or a succeeded count.
type SuccessPolicyRule struct {
	SucceededIndexes *string `json:"succeededIndexes,omitempty"`
	SucceededCount   *int32  `json:"succeededCount,omitempty"`
}

// Status is a Job status.
type Status struct {
	Conditions              []Condition              `json:"conditions,omitempty"`
	StartTime               *time.Time               `json:"startTime,omitempty"`
	CompletionTime          *time.Time               `json:"completionTime,omitempty"`
	Active                  int32                    `json:"active"`
	Succeeded               int32                    `json:"succeeded"`
	Failed                  int32                    `json:"failed"`
	Terminating             *int32                   `json:"terminating,omitempty"`
	Ready                   *int32                   `json:"ready,omitempty"`
	CompletedIndexes        string                   `json:"completedIndexes"`
	FailedIndexes           *string                  `json:"failedIndexes,omitempty"`
	UncountedTerminatedPods *UncountedTerminatedPods `json:"uncountedTerminatedPods,omitempty"`
}

// UncountedTerminatedPods lists the UIDs of finished pods not yet counted in
// the status.
type UncountedTerminatedPods struct {
	Succeeded []string `json:"succeeded"`
	Failed    []string `json:"failed"`
}

// ConditionType names a Job condition.
type ConditionType = meta.ConditionType

// Job condition types.
const (
	Suspended          ConditionType = "Suspended"
	Complete           ConditionType = "Complete"
	Failed             ConditionType = "Failed"
	FailureTarget      ConditionType = "FailureTarget"
	SuccessCriteriaMet ConditionType = "SuccessCriteriaMet"
)

// Condition is a Job condition: the shared meta.Condition, with the time
// fields this kind uses.
type Condition = meta.Condition

// FinishedCondition returns the first Complete or Failed condition whose
// status is True, or nil when the job has not finished.
//
// Source: upstream pkg/controller/job/util/utils.go FinishedCondition (v1.36.3).
func (j *Job) FinishedCondition() *Condition {
	for i := range j.Status.Conditions {
		c := &j.Status.Conditions[i]
		if (c.Type == Complete || c.Type == Failed) && c.Status == meta.ConditionTrue {
			return c
		}
	}
	return nil
}

// IsFinished reports whether the job has a True Complete or Failed condition.
//
// Source: upstream pkg/controller/job/util/utils.go IsJobFinished (v1.36.3).
func (j *Job) IsFinished() bool { return j.FinishedCondition() != nil }

// IsSucceeded reports whether the job has a True Complete condition,
// wherever it is in the list (a Failed=True condition before it does not
// hide it, unlike FinishedCondition).
//
// Source: upstream pkg/controller/job/util/utils.go IsJobSucceeded (v1.36.3).
func (j *Job) IsSucceeded() bool {
	for i := range j.Status.Conditions {
		if c := &j.Status.Conditions[i]; c.Type == Complete && c.Status == meta.ConditionTrue {
			return true
		}
	}
	return false
}
