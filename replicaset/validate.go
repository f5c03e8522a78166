package replicaset

import (
	"github.com/kubesem/kubesem/field"
	"github.com/kubesem/kubesem/internal/uidset"
	"github.com/kubesem/kubesem/podstatus"
)

// Validate returns a *field.Error when rs cannot be synced: rs is nil
// (ErrRequired at "replicaSet"), its kind is unknown (ErrUnsupported at
// "kind"), spec.replicas or spec.minReadySeconds is negative (ErrNegative),
// its selector is missing or empty (ErrRequired, ErrInvalid at
// "spec.selector"), has an invalid requirement (at its path), a
// ReplicationController's has matchExpressions (ErrInvalid), or it does not
// select the template's labels (ErrInvalid at
// "spec.template.metadata.labels"), as API validation would reject.
//
// Source: upstream pkg/apis/apps/validation ValidateReplicaSetSpec,
// pkg/apis/core/validation ValidateReplicationControllerSpec (v1.36.3).
func Validate(rs *ReplicaSet) error {
	if rs == nil {
		return field.New("replicaSet", "", field.ErrRequired)
	}
	if rs.Kind != "" && rs.Kind != KindReplicaSet && rs.Kind != KindReplicationController {
		return field.New("kind", rs.Kind, field.ErrUnsupported)
	}
	if r := rs.Spec.Replicas; r != nil && *r < 0 {
		return field.Int("spec.replicas", int64(*r), field.ErrNegative)
	}
	if m := rs.Spec.MinReadySeconds; m < 0 {
		return field.Int("spec.minReadySeconds", int64(m), field.ErrNegative)
	}
	if rs.IsReplicationController() && rs.Spec.Selector != nil && len(rs.Spec.Selector.MatchExpressions) > 0 {
		return field.New("spec.selector.matchExpressions", rs.Spec.Selector.MatchExpressions[0].Key, field.ErrInvalid)
	}
	sel := rs.PodSelector()
	switch {
	case sel == nil:
		return field.New("spec.selector", "", field.ErrRequired)
	case sel.IsEmpty():
		return field.New("spec.selector", "", field.ErrInvalid)
	}
	if err := sel.Validate("spec.selector"); err != nil {
		return err
	}
	if !sel.Matches(rs.Spec.Template.Labels) {
		return field.New("spec.template.metadata.labels", "", field.ErrInvalid)
	}
	return nil
}

// validatePods returns a *field.Error naming path[i] for a nil pod, and
// path[i].metadata.uid for a non-empty UID seen twice when unique is set.
func validatePods(path string, pods []*podstatus.Pod, unique bool) error {
	var seen uidset.Set
	if unique {
		seen = uidset.New(len(pods))
	}
	for i, p := range pods {
		if p == nil {
			return field.New(field.Index(path, i), "", field.ErrRequired)
		}
		if !unique || p.UID == "" {
			continue
		}
		if !seen.Add(p.UID) {
			return field.New(field.Child(field.Index(path, i), "metadata.uid"), p.UID, field.ErrDuplicate)
		}
	}
	return nil
}
