package rollout

// This file fixes the signatures the Step (step.go) composes from the
// status, condition and revision rules. Their bodies are filled in by
// status.go, conditions.go and revision.go; until then they are stubs that
// return zero values, and this file is deleted once every body exists.

import (
	"time"

	"github.com/kubesem/kubesem/replicaset"
)

// ComputeStatus returns the status the controller writes after a sync:
// replica sums over allReplicaSets, updated = newReplicaSet's status.replicas
// (0 when nil), unavailable = max(0, Σspec - Σavailable), terminating (nil
// unless every observed ReplicaSet reports it), and the Available condition
// (True iff available >= replicas - MaxUnavailable) merged into d's existing
// conditions at now. Progressing is not touched here (see SyncProgress).
//
// Source: upstream pkg/controller/deployment/sync.go calculateStatus (v1.36.3).
func ComputeStatus(d *Deployment, newReplicaSet *replicaset.ReplicaSet, allReplicaSets []*replicaset.ReplicaSet, now time.Time) Status {
	return Status{}
}

// SyncProgress returns newStatus with the Progressing (and ReplicaFailure)
// conditions the progress state machine sets at now.
//
// Source: upstream pkg/controller/deployment/progress.go syncRolloutStatus (v1.36.3).
func SyncProgress(d *Deployment, newStatus Status, newReplicaSet *replicaset.ReplicaSet, allReplicaSets []*replicaset.ReplicaSet, now time.Time) Status {
	return newStatus
}

// RequeueStuck returns when the controller must look at a rollout again to
// notice its progress deadline, and whether it must.
//
// Source: upstream pkg/controller/deployment/progress.go requeueStuckDeployment (v1.36.3).
func RequeueStuck(d *Deployment, newStatus Status, now time.Time) (time.Duration, bool) {
	return 0, false
}

// PausedCondition returns d's conditions with Progressing set to Unknown
// (DeploymentPaused / DeploymentResumed) as checkPausedConditions does, and
// whether they changed.
//
// Source: upstream pkg/controller/deployment/sync.go checkPausedConditions (v1.36.3).
func PausedCondition(d *Deployment, now time.Time) ([]Condition, bool) {
	return d.Status.Conditions, false
}

// MaxRevision returns the highest deployment.kubernetes.io/revision among
// replicaSets; unparsable or missing revisions count as 0.
//
// Source: upstream deployment_util.go MaxRevision (v1.36.3).
func MaxRevision(replicaSets []*replicaset.ReplicaSet) int64 {
	return 0
}

// NewReplicaSetAnnotations returns the annotations the controller writes on
// newReplicaSet when it becomes (or is created as) the new ReplicaSet with
// revision newRevision, and whether they differ from the current ones.
// created says the ReplicaSet is being created (desired/max replicas are set).
//
// Source: upstream deployment_util.go SetNewReplicaSetAnnotations (v1.36.3).
func NewReplicaSetAnnotations(d *Deployment, newReplicaSet *replicaset.ReplicaSet, newRevision int64, created bool) (map[string]string, bool) {
	return newReplicaSet.Annotations, false
}

// HistoryToDelete returns the old ReplicaSets beyond revisionHistoryLimit the
// controller deletes once the rollout is complete, oldest revision first.
//
// Source: upstream pkg/controller/deployment/sync.go cleanupDeployment (v1.36.3).
func HistoryToDelete(d *Deployment, oldReplicaSets []*replicaset.ReplicaSet) []*replicaset.ReplicaSet {
	return nil
}
