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

// FindCondition returns the first condition of type t in conditions, and
// whether there is one.
//
// Source: upstream deployment_util.go GetDeploymentCondition (v1.36.3).
func FindCondition(conditions []Condition, t ConditionType) (Condition, bool) {
	for _, c := range conditions {
		if c.Type == t {
			return c, true
		}
	}
	return Condition{}, false
}

// SetCondition returns conditions with c recorded: when a condition of c's
// type already has c's status and reason, conditions come back unchanged (the
// same slice); otherwise every condition of that type is dropped and c is
// appended at the end, keeping the old lastTransitionTime when only the reason
// changes. A changed result is a new slice; conditions is never modified.
//
// Source: upstream deployment_util.go SetDeploymentCondition (v1.36.3).
func SetCondition(conditions []Condition, c Condition) []Condition {
	if cur, ok := FindCondition(conditions, c.Type); ok {
		if cur.Status == c.Status && cur.Reason == c.Reason {
			return conditions
		}
		if cur.Status == c.Status {
			c.LastTransitionTime = cur.LastTransitionTime
		}
	}
	out := make([]Condition, 0, len(conditions)+1)
	for _, x := range conditions {
		if x.Type != c.Type {
			out = append(out, x)
		}
	}
	return append(out, c)
}

// RemoveCondition returns conditions without any condition of type t: the
// same slice when there is none, else a new slice (nil when empty).
//
// Source: upstream deployment_util.go RemoveDeploymentCondition (v1.36.3).
func RemoveCondition(conditions []Condition, t ConditionType) []Condition {
	if _, ok := FindCondition(conditions, t); !ok {
		return conditions
	}
	var out []Condition
	for _, x := range conditions {
		if x.Type != t {
			out = append(out, x)
		}
	}
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
func PausedCondition(d *Deployment, now time.Time) ([]Condition, bool) {
	if !d.HasProgressDeadline() {
		return d.Status.Conditions, false
	}
	cur, ok := FindCondition(d.Status.Conditions, Progressing)
	if ok && cur.Reason == ReasonProgressDeadlineExceeded {
		return d.Status.Conditions, false
	}
	marked := ok && cur.Reason == ReasonDeploymentPaused
	switch {
	case d.Spec.Paused && !marked:
		c := newCondition(Progressing, meta.ConditionUnknown, ReasonDeploymentPaused, "Deployment is paused", now)
		return SetCondition(d.Status.Conditions, c), true
	case !d.Spec.Paused && marked:
		c := newCondition(Progressing, meta.ConditionUnknown, ReasonDeploymentResumed, "Deployment is resumed", now)
		return SetCondition(d.Status.Conditions, c), true
	}
	return d.Status.Conditions, false
}
