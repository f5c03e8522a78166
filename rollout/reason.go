package rollout

import "github.com/kubesem/kubesem/plan"

// Reason says why the Step takes an action or which path of the sync it
// followed (Plan.Outcome); it is machine-readable and stable.
type Reason = plan.Reason

// Action reasons.
const (
	// ReasonCreateNew: the new ReplicaSet is created.
	ReasonCreateNew Reason = "CreateNew"
	// ReasonSyncRevision: the new ReplicaSet's annotations (revision, copied
	// Deployment annotations) or minReadySeconds are brought up to date.
	ReasonSyncRevision Reason = "SyncRevision"
	// ReasonScaleUpNew: a rolling update grows the new ReplicaSet.
	ReasonScaleUpNew Reason = "ScaleUpNew"
	// ReasonScaleDownNew: the new ReplicaSet is above spec.replicas.
	ReasonScaleDownNew Reason = "ScaleDownNew"
	// ReasonCleanupUnhealthy: an old ReplicaSet loses pods that are not available.
	ReasonCleanupUnhealthy Reason = "CleanupUnhealthy"
	// ReasonScaleDownOld: an old ReplicaSet shrinks within maxUnavailable.
	ReasonScaleDownOld Reason = "ScaleDownOld"
	// ReasonProportional: scaling while paused or on a replica-count change.
	ReasonProportional Reason = "Proportional"
	// ReasonRecreateScaleDown: Recreate scales an old ReplicaSet to 0.
	ReasonRecreateScaleDown Reason = "RecreateScaleDown"
	// ReasonRecreateScaleUp: Recreate scales the new ReplicaSet to spec.replicas.
	ReasonRecreateScaleUp Reason = "RecreateScaleUp"
	// ReasonHistoryLimit: an old ReplicaSet beyond revisionHistoryLimit is deleted.
	ReasonHistoryLimit Reason = "HistoryLimit"
	// ReasonProgressDeadline: a rollout in progress is looked at again when
	// its progress deadline passes (requeue).
	ReasonProgressDeadline Reason = "ProgressDeadline"
	// ReasonScalingReplicaSet: the event recorded when the sync changes a
	// ReplicaSet's spec.replicas, or creates the new one with replicas > 0.
	ReasonScalingReplicaSet Reason = "ScalingReplicaSet"
)

// Outcomes (Plan.Outcome): the paths of the sync, in syncDeployment's
// dispatch order. Every constant of the package is a Reason.
const (
	ReasonDeleting      Reason = "Deleting"
	ReasonPaused        Reason = "Paused"
	ReasonRollback      Reason = "Rollback"
	ReasonScalingEvent  Reason = "ScalingEvent"
	ReasonRollingUpdate Reason = "RollingUpdate"
	ReasonRecreate      Reason = "Recreate"
	// ReasonHashCollision: the new ReplicaSet's name is taken by a ReplicaSet
	// with another template; status.collisionCount is raised.
	ReasonHashCollision Reason = "HashCollision"
	// ReasonOldPodsRunning: Recreate waits for old pods to stop.
	ReasonOldPodsRunning Reason = "OldPodsRunning"
	// ReasonSyncFailed: the sync stops with an error after the writes planned
	// so far and is retried with rate limiting; v1.36.3 does so when it
	// cannot parse maxSurge (a percentage beyond int64, which the API
	// accepts) as it sizes the new ReplicaSet.
	ReasonSyncFailed Reason = "SyncFailed"
)
