package statefulset

import (
	"github.com/kubesem/kubesem/history"
	"github.com/kubesem/kubesem/plan"
)

// Reason says why a sync ended as it did or why a Plan holds an action.
type Reason = plan.Reason

// Reasons for Plan outcomes and actions.
const (
	// ReasonSynced: the sync ran to its end (outcome).
	ReasonSynced Reason = "Synced"
	// ReasonBeingDeleted: the set has a deletionTimestamp; only the status
	// and the revision history are maintained (outcome).
	ReasonBeingDeleted Reason = "BeingDeleted"
	// ReasonBlocked: the sync stopped without acting, at a pod that is not
	// Running and Ready, not available, or terminating, or at a stale
	// claim (outcome).
	ReasonBlocked Reason = "Blocked"
	// ReasonScaling: the sync created or deleted pods while establishing
	// the replicas (OrderedReady stops after one such action) and did not
	// reach the update (outcome).
	ReasonScaling Reason = "Scaling"
	// ReasonRollingUpdate: the sync reached the rolling update (outcome).
	ReasonRollingUpdate Reason = "RollingUpdate"
	// ReasonOnDelete: the sync ended before updates, the strategy is
	// OnDelete (outcome).
	ReasonOnDelete Reason = "OnDelete"
	// ReasonError: a write the controller attempted fails; the sync is
	// retried with rate limiting (outcome).
	ReasonError Reason = "Error"

	// ReasonMissing: no pod holds this ordinal; it is created.
	ReasonMissing Reason = "Missing"
	// ReasonPodFailed: the pod is Failed or Succeeded; it is deleted and
	// recreated on a later sync.
	ReasonPodFailed Reason = "PodFailed"
	// ReasonCondemned: the pod's ordinal is outside [start, start+replicas).
	ReasonCondemned Reason = "Condemned"
	// ReasonOutdated: the pod is not at the update revision (rolling update).
	ReasonOutdated Reason = "Outdated"
	// ReasonIdentity: the pod's name, namespace or pod-name label do not
	// match its identity; the pod is updated.
	ReasonIdentity Reason = "IdentityMismatch"
	// ReasonStorage: the pod's claim volumes do not match the templates.
	ReasonStorage Reason = "StorageMismatch"
	// ReasonRetention: the pod's claims' owner references do not match the
	// retention policy.
	ReasonRetention Reason = "RetentionMismatch"
	// ReasonClaimMissing: a claim of a created or pending pod is missing.
	ReasonClaimMissing Reason = "ClaimMissing"
	// ReasonClaimBeingDeleted: a claim the pod needs is terminating; the
	// pod is not created and the sync fails.
	ReasonClaimBeingDeleted Reason = "ClaimBeingDeleted"
	// ReasonPodNotFound: the controller updates a pod it created in this
	// same sync, which the API does not have yet; the sync fails.
	ReasonPodNotFound Reason = "PodNotFound"
	// ReasonAlreadyExists: a pod without a phase exists; the controller
	// creates it again and the sync fails.
	ReasonAlreadyExists Reason = "AlreadyExists"
	// ReasonStaleClaim: a claim of a missing pod still belongs to a former
	// pod of that name; creation waits.
	ReasonStaleClaim Reason = "StaleClaim"
	// ReasonRevisionCreated: the template has no ControllerRevision yet.
	ReasonRevisionCreated = history.ReasonNewRevision
	// ReasonRollback: the template equals an older revision, which is
	// renumbered to the next revision.
	ReasonRollback = history.ReasonRollback
	// ReasonHistoryLimit: a non-live revision beyond revisionHistoryLimit.
	ReasonHistoryLimit = history.ReasonHistoryLimit
	// ReasonMinReadySeconds: a ready pod becomes available later (requeue).
	ReasonMinReadySeconds Reason = "MinReadySeconds"
	// ReasonConflictingController: a claim has another managing controller
	// (event).
	ReasonConflictingController Reason = "ConflictingController"
)
