package rollout

import (
	"strconv"

	"github.com/kubesem/kubesem/podstatus"
	"github.com/kubesem/kubesem/replicaset"
)

// RollbackResult is what the controller does with a rollback request.
type RollbackResult struct {
	// Revision is the revision asked for, with 0 resolved to
	// [LastRevision] (0 when there is none).
	Revision int64 `json:"revision"`
	// ReplicaSet is the ReplicaSet of that revision, nil when none has it.
	ReplicaSet *replicaset.ReplicaSet `json:"-"`
	// Template is the pod template d gets back (the ReplicaSet's, without
	// its pod-template-hash label); nil unless Reason is ReasonRollbackDone.
	Template *podstatus.Template `json:"template,omitempty"`
	// Annotations are d's annotations after the rollback: on success the
	// ReplicaSet's copied annotations plus d's own not-copied ones, otherwise
	// d's; in every case without the rollback request.
	Annotations map[string]string `json:"annotations,omitempty"`
	// Reason and Message are the event the controller emits: Normal
	// DeploymentRollback, or Warning DeploymentRollbackRevisionNotFound /
	// DeploymentRollbackTemplateUnchanged.
	Reason  string `json:"reason"`
	Message string `json:"message"`
}

// rollbackRevision returns the revision d's rollback request asks for, and
// whether there is a valid request (a base-10 int64 in the
// deprecated.deployment.rollback.to annotation; an empty or unparsable value
// is no request).
func rollbackRevision(d *Deployment) (int64, bool) {
	v := d.Annotations[RollbackToAnnotation]
	if v == "" {
		return 0, false
	}
	n, err := strconv.ParseInt(v, 10, 64)
	return n, err == nil
}

// Rollback returns what the controller does with d's rollback request
// (annotation deprecated.deployment.rollback.to), given all of d's
// ReplicaSets including the new one; false when there is no request.
//
// Revision 0 means [LastRevision]; when that is 0 too, or no ReplicaSet has
// the revision (unparsable revisions are skipped; the first match in
// allReplicaSets wins), the result is DeploymentRollbackRevisionNotFound.
// When the ReplicaSet's template equals d's (ignoring pod-template-hash) it
// is DeploymentRollbackTemplateUnchanged; otherwise DeploymentRollback with
// the ReplicaSet's template and annotations. The request is cleared in every
// case. The next sync then finds that ReplicaSet as the new one and raises
// its revision ([NewReplicaSetAnnotations]). d is not modified.
//
// Source: upstream pkg/controller/deployment/rollback.go rollback,
// rollbackToTemplate, getRollbackTo and deployment_util.go
// SetDeploymentAnnotationsTo, SetFromReplicaSetTemplate (v1.36.3); seed 000
// "이전 수정 버전으로 롤백".
func Rollback(d *Deployment, allReplicaSets []*replicaset.ReplicaSet) (RollbackResult, bool) {
	want, ok := rollbackRevision(d)
	if !ok {
		return RollbackResult{}, false
	}
	r := RollbackResult{Revision: want, Annotations: withoutRollbackRequest(d.Annotations)}
	if want == 0 {
		if r.Revision = LastRevision(allReplicaSets); r.Revision == 0 {
			r.Reason, r.Message = ReasonRollbackRevisionNotFound, "Unable to find last revision."
			return r, true
		}
	}
	for _, rs := range allReplicaSets {
		if rs == nil {
			continue
		}
		if v, err := Revision(rs); err != nil || v != r.Revision {
			continue
		}
		r.ReplicaSet = rs
		if sameTemplate(&d.Spec.Template, &rs.Spec.Template) {
			r.Reason = ReasonRollbackTemplateUnchanged
			r.Message = "The rollback revision contains the same template as current deployment " + strconv.Quote(d.Name)
			return r, true
		}
		r.Template = templateWithoutHash(&rs.Spec.Template)
		r.Annotations = rolledBackAnnotations(d.Annotations, rs.Annotations)
		r.Reason = ReasonRollbackDone
		r.Message = "Rolled back deployment " + strconv.Quote(d.Name) + " to revision " + strconv.FormatInt(r.Revision, 10)
		return r, true
	}
	r.Reason, r.Message = ReasonRollbackRevisionNotFound, "Unable to find the revision to rollback to."
	return r, true
}

// withoutRollbackRequest returns a copy of annotations without the rollback
// request.
func withoutRollbackRequest(annotations map[string]string) map[string]string {
	out := make(map[string]string, len(annotations))
	for k, v := range annotations {
		if k != RollbackToAnnotation {
			out[k] = v
		}
	}
	return out
}

// rolledBackAnnotations returns the Deployment's not-copied annotations
// (without the rollback request) plus the ReplicaSet's copied ones.
func rolledBackAnnotations(deployment, rs map[string]string) map[string]string {
	out := make(map[string]string, len(deployment)+len(rs))
	for k, v := range deployment {
		if notCopied(k) && k != RollbackToAnnotation {
			out[k] = v
		}
	}
	for k, v := range rs {
		if !notCopied(k) {
			out[k] = v
		}
	}
	return out
}

// templateWithoutHash returns a copy of t whose labels lack pod-template-hash.
func templateWithoutHash(t *podstatus.Template) *podstatus.Template {
	c := *t
	if t.Labels != nil {
		c.Labels = make(map[string]string, len(t.Labels))
		for k, v := range t.Labels {
			if k != HashLabel {
				c.Labels[k] = v
			}
		}
	}
	return &c
}
