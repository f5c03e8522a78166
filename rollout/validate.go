package rollout

import (
	"github.com/kubesem/kubesem/field"
	"github.com/kubesem/kubesem/intstr"
	"github.com/kubesem/kubesem/podstatus"
	"github.com/kubesem/kubesem/replicaset"
)

// Validate returns the first reason [Step] cannot decide for d, its
// ReplicaSets and its pods, as a *field.Error:
//
//   - a nil Deployment ("deployment", field.ErrRequired), ReplicaSet
//     ("replicaSets[i]") or pod ("pods[i]");
//   - a negative spec.replicas, minReadySeconds or revisionHistoryLimit
//     (field.ErrNegative), a progressDeadlineSeconds (600 when unset, as
//     defaulted) not above minReadySeconds (field.ErrInvalid);
//   - a missing, empty or malformed spec.selector, or one that does not select the
//     template's labels (spec.template.metadata.labels, field.ErrInvalid);
//   - spec.strategy.rollingUpdate with type Recreate (field.ErrForbidden);
//   - a strategy type other than RollingUpdate or Recreate
//     (at spec.strategy, as upstream reports it; field.ErrUnsupported);
//   - for RollingUpdate, a maxSurge or maxUnavailable that is negative, not
//     a percentage, above 100% (maxUnavailable only), or both 0
//     (maxUnavailable, field.ErrInvalid);
//   - a ReplicaSet with a negative spec.replicas or status count, or a name
//     used twice (field.ErrDuplicate).
//
// These are the API server's rules for the fields kubesem reads. Sizes
// that add up beyond int32 (a Deployment of 2147483647 replicas with
// maxSurge 1, ReplicaSets summing past 2^31) are valid: the rules then wrap
// as upstream's int32 arithmetic does.
//
// Source: upstream pkg/apis/apps/validation/validation.go
// ValidateDeploymentSpec, ValidateRollingUpdateDeployment (v1.36.3).
func Validate(d *Deployment, replicaSets []*replicaset.ReplicaSet, pods []*podstatus.Pod) error {
	if d == nil {
		return field.New("deployment", "", field.ErrRequired)
	}
	if err := validateSelector(d); err != nil {
		return err
	}
	if err := ValidateCounts(d, replicaSets); err != nil {
		return err
	}
	for i, p := range pods {
		if p == nil {
			return field.New(field.Index("pods", i), "", field.ErrRequired)
		}
	}
	return nil
}

// ValidateCounts is [Validate] restricted to the fields the scaling,
// fencepost and status rules read: d's spec.replicas, minReadySeconds,
// revisionHistoryLimit, progressDeadlineSeconds and strategy, and the
// ReplicaSets' counts and names (not the selector, the template or pods).
// The decisions of the conformance registry that take such partial views
// check their input with it, so that a value the API server rejects is an
// error, never a number.
//
// Source: upstream pkg/apis/apps/validation/validation.go
// ValidateDeploymentSpec, ValidateRollingUpdateDeployment (v1.36.3).
func ValidateCounts(d *Deployment, replicaSets []*replicaset.ReplicaSet) error {
	if d == nil {
		return field.New("deployment", "", field.ErrRequired)
	}
	if err := validateSpec(d); err != nil {
		return err
	}
	return ValidateReplicaSets(replicaSets)
}

// ValidateReplicaSets is the ReplicaSet part of [ValidateCounts]: every
// ReplicaSet present, spec.replicas and status counts non-negative, names
// unique ("replicaSets[i]" paths).
//
// Source: upstream pkg/apis/apps/validation/validation.go
// ValidateReplicaSetSpec, ValidateReplicaSetStatus (v1.36.3).
func ValidateReplicaSets(replicaSets []*replicaset.ReplicaSet) error {
	for i, rs := range replicaSets {
		if rs == nil {
			return field.New(field.Index("replicaSets", i), "", field.ErrRequired)
		}
		if err := validateReplicaSet(rs, i); err != nil {
			return err
		}
		for j := range i {
			if replicaSets[j].Name == rs.Name {
				return field.New(field.Index("replicaSets", i)+".metadata.name", rs.Name, field.ErrDuplicate)
			}
		}
	}
	return nil
}

// validateSelector checks spec.selector and that it selects the template's labels.
func validateSelector(d *Deployment) error {
	sp := &d.Spec
	if sp.Selector == nil {
		return field.New("spec.selector", "", field.ErrRequired)
	}
	if err := sp.Selector.Validate("spec.selector"); err != nil {
		return err
	}
	if sp.Selector.IsEmpty() {
		// The controller has a branch for such selectors (SelectingAll),
		// reachable only by objects that predate this validation.
		return field.New("spec.selector", "", field.ErrInvalid)
	}
	if !sp.Selector.Matches(sp.Template.Labels) {
		return field.New("spec.template.metadata.labels", "", field.ErrInvalid)
	}
	return nil
}

func validateSpec(d *Deployment) error {
	sp := &d.Spec
	replicas := d.Replicas()
	if replicas < 0 {
		return field.Int("spec.replicas", int64(replicas), field.ErrNegative)
	}
	if sp.MinReadySeconds < 0 {
		return field.Int("spec.minReadySeconds", int64(sp.MinReadySeconds), field.ErrNegative)
	}
	if sp.RevisionHistoryLimit != nil && *sp.RevisionHistoryLimit < 0 {
		return field.Int("spec.revisionHistoryLimit", int64(*sp.RevisionHistoryLimit), field.ErrNegative)
	}
	// An unset progressDeadlineSeconds is defaulted to 600 before validation.
	if p := progressDeadline(d); p <= sp.MinReadySeconds {
		return field.Int("spec.progressDeadlineSeconds", int64(p), field.ErrInvalid)
	}
	switch sp.Strategy.Type {
	case RecreateStrategy:
		if sp.Strategy.RollingUpdate != nil {
			return field.New("spec.strategy.rollingUpdate", "", field.ErrForbidden)
		}
		return nil
	case RollingUpdateStrategy, "":
	default:
		return field.New("spec.strategy", string(sp.Strategy.Type), field.ErrUnsupported) // upstream reports it at spec.strategy
	}
	s, u := rollingValues(d)
	if err := intstr.Validate(s, pathMaxSurge); err != nil {
		return err
	}
	if err := intstr.ValidateAtMost100Percent(u, pathMaxUnavailable); err != nil {
		return err
	}
	if isZero(s) && isZero(u) {
		return field.New(pathMaxUnavailable, u.String(), field.ErrInvalid)
	}
	return nil
}

// isZero reports whether v is 0 or "0%" (any number of zero digits).
func isZero(v intstr.Value) bool {
	if !v.IsString() {
		return v.IntValue() == 0
	}
	n, err := intstr.Scaled(v, 100, intstr.Up)
	return err == nil && n == 0
}

// validateReplicaSet checks the counts of replicaSets[i]; the path is built
// only on error.
func validateReplicaSet(rs *replicaset.ReplicaSet, i int) error {
	name, n := "", int32(0)
	switch {
	case rs.Replicas() < 0:
		name, n = "spec.replicas", rs.Replicas()
	case rs.Status.Replicas < 0:
		name, n = "status.replicas", rs.Status.Replicas
	case rs.Status.ReadyReplicas < 0:
		name, n = "status.readyReplicas", rs.Status.ReadyReplicas
	case rs.Status.AvailableReplicas < 0:
		name, n = "status.availableReplicas", rs.Status.AvailableReplicas
	default:
		return nil
	}
	return field.Int(field.Index("replicaSets", i)+"."+name, int64(n), field.ErrNegative)
}
