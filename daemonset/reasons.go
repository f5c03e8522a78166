package daemonset

import (
	"github.com/kubesem/kubesem/history"
	"github.com/kubesem/kubesem/plan"
)

// Reason says why a sync ended as it did or why a Plan holds an action.
type Reason = plan.Reason

// Outcomes.
const (
	// ReasonSynced: manage ran and did something, so the rolling update
	// waits for the next sync (its expectations are pending).
	ReasonSynced Reason = "Synced"
	// ReasonRollingUpdate: manage had nothing to do and the rolling update ran.
	ReasonRollingUpdate Reason = "RollingUpdate"
	// ReasonOnDelete: manage had nothing to do; OnDelete updates nothing.
	ReasonOnDelete Reason = "OnDelete"
	// ReasonBeingDeleted: the DaemonSet has a deletionTimestamp; nothing is done.
	ReasonBeingDeleted Reason = "BeingDeleted"
	// ReasonSelectingAll: the selector is empty; upstream emits an event
	// and does nothing else. Step never returns it: API validation rejects
	// an empty selector, and so does [Validate], which Step runs first.
	ReasonSelectingAll Reason = "SelectingAll"
	// ReasonInvalidBudget: maxUnavailable or maxSurge cannot be scaled;
	// the rolling update fails and the sync is retried rate-limited.
	ReasonInvalidBudget Reason = "InvalidBudget"
	// ReasonNodeNotFound: the surge path met an old pod on a node that is
	// not in the node list; the rolling update fails (rate-limited retry).
	ReasonNodeNotFound Reason = "NodeNotFound"
)

// Action reasons.
const (
	// ReasonNoDaemonPod: the node should run a daemon pod and has none.
	ReasonNoDaemonPod Reason = "NoDaemonPod"
	// ReasonSurgeNoPod: with surge, the node should run a pod and has no
	// running one (all failed, succeeded or deleting).
	ReasonSurgeNoPod Reason = "SurgeNoPod"
	// ReasonFailedPod: a failed daemon pod is deleted (event FailedDaemonPod).
	ReasonFailedPod Reason = "FailedDaemonPod"
	// ReasonSucceededPod: a succeeded daemon pod is deleted (event SucceededDaemonPod).
	ReasonSucceededPod Reason = "SucceededDaemonPod"
	// ReasonExcessPod: a node runs more daemon pods than it may keep.
	ReasonExcessPod Reason = "ExcessPod"
	// ReasonOldPodNotReady: with surge, the old pod is not ready and a new pod exists.
	ReasonOldPodNotReady Reason = "OldPodNotReady"
	// ReasonNewPodAvailable: with surge, the new pod is available; the old one goes.
	ReasonNewPodAvailable Reason = "NewPodAvailable"
	// ReasonShouldNotRun: the node should not keep a daemon pod.
	ReasonShouldNotRun Reason = "ShouldNotRun"
	// ReasonNodeGone: an unscheduled pod targets a node that does not exist.
	ReasonNodeGone Reason = "NodeGone"
	// ReasonOldPodUnavailable: rolling update; an old pod that is not
	// available is replaced regardless of the budget.
	ReasonOldPodUnavailable Reason = "OldPodUnavailable"
	// ReasonUpdateOldPod: rolling update; an available old pod is replaced
	// within the budget.
	ReasonUpdateOldPod Reason = "UpdateOldPod"
	// ReasonSurgeOldPod: surge; a new pod is created beside an available
	// old pod within maxSurge.
	ReasonSurgeOldPod Reason = "SurgeOldPod"
	// ReasonRevisionCreated: no ControllerRevision has the current
	// template's hash; one is created.
	ReasonRevisionCreated = history.ReasonNewRevision
	// ReasonRollback: the current template's ControllerRevision is older
	// than another; it is renumbered to the newest.
	ReasonRollback = history.ReasonRollback
	// ReasonRevisionLabelled: a claimed ControllerRevision without the
	// controller-revision-hash label is updated to carry its name as that
	// label.
	ReasonRevisionLabelled Reason = "RevisionLabelled"
	// ReasonDuplicateRevision: more than one of the DaemonSet's
	// ControllerRevisions holds the current template: the others than the
	// kept one are deleted, after every claimed pod's
	// controller-revision-hash label is set to the kept one's hash.
	ReasonDuplicateRevision Reason = "DuplicateRevision"
	// ReasonHistoryLimit: an old ControllerRevision beyond revisionHistoryLimit.
	ReasonHistoryLimit = history.ReasonHistoryLimit
	// ReasonFailedPodBackoff: a failed pod's deletion waits for the node's backoff.
	ReasonFailedPodBackoff Reason = "FailedPodBackoff"
	// ReasonMinReadySeconds: pods are ready but not yet available.
	ReasonMinReadySeconds Reason = "MinReadySeconds"
)
