package job

import "github.com/kubesem/kubesem/plan"

// Reason says why a sync ended as it did or why a Plan holds an action.
type Reason = plan.Reason

// Reasons for Plan outcomes and actions.
const (
	// ReasonSynced: the sync evaluated the job and acted on it (outcome).
	ReasonSynced Reason = "Synced"
	// ReasonTooFewActive: fewer pods run than the job wants; create more.
	ReasonTooFewActive Reason = "TooFewActive"
	// ReasonTooManyActive: more pods run than the job wants; delete some.
	ReasonTooManyActive Reason = "TooManyActive"
	// ReasonDuplicateIndex: another active pod holds the same completion index.
	ReasonDuplicateIndex Reason = "DuplicateIndex"
	// ReasonInvalidIndex: the pod has no valid completion index, or one at or
	// beyond completions.
	ReasonInvalidIndex Reason = "InvalidIndex"
	// ReasonSuspended: the job is suspended; its active pods are deleted.
	ReasonSuspended Reason = "JobSuspended"
	// ReasonFinishing: the job reached a terminal condition; its active pods
	// are deleted.
	ReasonFinishing Reason = "JobFinishing"
	// ReasonManagedExternally: spec.managedBy names another controller; the
	// sync does nothing.
	ReasonManagedExternally Reason = "ManagedExternally"
	// ReasonAlreadyFinished: the job has a Complete or Failed condition; the
	// sync does nothing.
	ReasonAlreadyFinished Reason = "AlreadyFinished"
	// ReasonActiveDeadline: look again when activeDeadlineSeconds runs out.
	ReasonActiveDeadline Reason = "ActiveDeadline"
	// ReasonPodFailureBackoff: pod creation waits for the failure backoff.
	ReasonPodFailureBackoff Reason = "PodFailureBackoff"
	// ReasonIndexFailureBackoff: pod creation waits for the per-index backoff.
	ReasonIndexFailureBackoff Reason = "IndexFailureBackoff"
	// ReasonTTLExpired: the finished job's TTL has run out; delete it.
	ReasonTTLExpired Reason = "TTLExpired"
	// ReasonTTLPending: look again when the finished job's TTL runs out.
	ReasonTTLPending Reason = "TTLPending"
)

// Event reasons the Job controller and its pod control record
// (Plan.Events). A failed job's Warning event is named by its Failed
// condition's reason (the ConditionReason… constants).
const (
	// ReasonSuccessfulCreate: the pod control created a pod.
	ReasonSuccessfulCreate Reason = "SuccessfulCreate"
	// ReasonSuccessfulDelete: the pod control deleted a pod.
	ReasonSuccessfulDelete Reason = "SuccessfulDelete"
	// ReasonSuspendedEvent: the Suspended condition became True.
	ReasonSuspendedEvent Reason = "Suspended"
	// ReasonResumed: the Suspended condition became False.
	ReasonResumed Reason = "Resumed"
	// ReasonCompleted: the Complete condition is written.
	ReasonCompleted Reason = "Completed"
	// ReasonTooManySucceededPods: the job completes with more succeeded
	// pods than completions (Warning).
	ReasonTooManySucceededPods Reason = "TooManySucceededPods"
)

// Reasons of the writes that are not a Plan entry's own.
const (
	// ReasonRemoveTrackingFinalizer: a finished pod, accounted for, is
	// released (its tracking finalizer removed).
	ReasonRemoveTrackingFinalizer Reason = "RemoveTrackingFinalizer"
	// ReasonFlushStatus: the status write made before finalizers are
	// removed (Plan.FlushStatus).
	ReasonFlushStatus Reason = "FlushStatus"
	// ReasonStatusUpdate: the status write made after them (Plan.Status).
	ReasonStatusUpdate Reason = "StatusUpdate"
)

// Condition reasons and messages the Job controller writes.
const (
	ConditionReasonPodFailurePolicy         = "PodFailurePolicy"
	ConditionReasonBackoffLimitExceeded     = "BackoffLimitExceeded"
	ConditionReasonDeadlineExceeded         = "DeadlineExceeded"
	ConditionReasonMaxFailedIndexesExceeded = "MaxFailedIndexesExceeded"
	ConditionReasonFailedIndexes            = "FailedIndexes"
	ConditionReasonSuccessPolicy            = "SuccessPolicy"
	ConditionReasonCompletionsReached       = "CompletionsReached"
	ConditionReasonSuspended                = "JobSuspended"
	ConditionReasonResumed                  = "JobResumed"
)

const (
	msgBackoffLimit     = "Job has reached the specified backoff limit"
	msgDeadline         = "Job was active longer than specified deadline"
	msgMaxFailedIndexes = "Job has exceeded the specified maximal number of failed indexes"
	msgFailedIndexes    = "Job has failed indexes"
	msgCompletions      = "Reached expected number of succeeded pods"
	msgSuspended        = "Job suspended"
	msgResumed          = "Job resumed"
	msgCompleted        = "Job completed"
	msgTooManySucceeded = "Too many succeeded pods running after completion count reached"
	msgDeletedPod       = "Deleted pod: "
)
