package rollout

import (
	"math"
	"time"

	"github.com/kubesem/kubesem/meta"
)

// Reasons the controller writes on the Available and Progressing conditions,
// and the reasons of the events a rollback emits.
const (
	ReasonMinimumReplicasAvailable   = "MinimumReplicasAvailable"
	ReasonMinimumReplicasUnavailable = "MinimumReplicasUnavailable"

	ReasonNewReplicaSetCreated     = "NewReplicaSetCreated"
	ReasonFoundNewReplicaSet       = "FoundNewReplicaSet"
	ReasonReplicaSetUpdated        = "ReplicaSetUpdated"
	ReasonNewReplicaSetAvailable   = "NewReplicaSetAvailable"
	ReasonProgressDeadlineExceeded = "ProgressDeadlineExceeded"
	ReasonDeploymentPaused         = "DeploymentPaused"
	ReasonDeploymentResumed        = "DeploymentResumed"
	ReasonReplicaSetCreateError    = "ReplicaSetCreateError"

	ReasonRollbackDone              = "DeploymentRollback"
	ReasonRollbackRevisionNotFound  = "DeploymentRollbackRevisionNotFound"
	ReasonRollbackTemplateUnchanged = "DeploymentRollbackTemplateUnchanged"
)

// setCondition returns cs with c recorded as meta.Conditions.Set records
// it (upstream SetDeploymentCondition).
func setCondition(cs meta.Conditions, c Condition) meta.Conditions {
	out, _ := cs.Set(c)
	return out
}

// newCondition returns a condition updated and transitioned at now.
func newCondition(t ConditionType, s meta.ConditionStatus, reason, message string, now time.Time) Condition {
	return Condition{Type: t, Status: s, LastUpdateTime: now, LastTransitionTime: now, Reason: reason, Message: message}
}

// HasProgressDeadline reports whether d's rollouts are checked against a
// progress deadline: spec.progressDeadlineSeconds (600 when unset) is not
// MaxInt32.
//
// Source: upstream deployment_util.go HasProgressDeadline (v1.36.3), with the
// API default applied to an unset value.
func (d *Deployment) HasProgressDeadline() bool {
	return progressDeadline(d) != math.MaxInt32
}

// progressDeadline returns spec.progressDeadlineSeconds, 600 when unset.
func progressDeadline(d *Deployment) int32 {
	if d.Spec.ProgressDeadlineSeconds == nil {
		return 600
	}
	return *d.Spec.ProgressDeadlineSeconds
}

// PausedCondition returns d's conditions with Progressing set to Unknown,
// reason DeploymentPaused, when d is paused and not yet marked so, or reason
// DeploymentResumed when d is no longer paused but still marked paused; and
// whether the conditions changed. Nothing changes when d has no progress
// deadline or its Progressing condition says ProgressDeadlineExceeded (a
// reported failure is never overwritten). A new condition is stamped with now,
// so a resumed rollout measures its deadline from the resume
// (kubernetes/kubernetes#36427).
//
// Source: upstream pkg/controller/deployment/sync.go checkPausedConditions (v1.36.3).
func PausedCondition(d *Deployment, now time.Time) (meta.Conditions, bool) {
	if !d.HasProgressDeadline() {
		return d.Status.Conditions, false
	}
	cur, ok := d.Status.Conditions.Find(Progressing)
	if ok && cur.Reason == ReasonProgressDeadlineExceeded {
		return d.Status.Conditions, false
	}
	marked := ok && cur.Reason == ReasonDeploymentPaused
	switch {
	case d.Spec.Paused && !marked:
		c := newCondition(Progressing, meta.ConditionUnknown, ReasonDeploymentPaused, "Deployment is paused", now)
		return setCondition(d.Status.Conditions, c), true
	case !d.Spec.Paused && marked:
		c := newCondition(Progressing, meta.ConditionUnknown, ReasonDeploymentResumed, "Deployment is resumed", now)
		return setCondition(d.Status.Conditions, c), true
	}
	return d.Status.Conditions, false
}
