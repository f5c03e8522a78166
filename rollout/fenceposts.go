package rollout

import (
	"github.com/kubesem/kubesem/field"
	"github.com/kubesem/kubesem/intstr"
)

// Field paths of the rolling-update bounds, as API validation names them.
const (
	pathMaxSurge       = "spec.strategy.rollingUpdate.maxSurge"
	pathMaxUnavailable = "spec.strategy.rollingUpdate.maxUnavailable"
)

// Fenceposts returns how many pods a rolling update of replicas pods may run
// above (surge) and below (unavailable) the desired count: maxSurge scaled
// against replicas rounding up, maxUnavailable rounding down; if both come to
// 0, unavailable is 1, so that a rollout can always make progress even when
// surge pods cannot be created. Neither value is capped at replicas (see
// [Deployment.MaxUnavailable] for the cap).
//
// As upstream, the both-zero test looks at the untruncated values and the
// results are then converted to int32, keeping the low 32 bits: maxSurge
// "200%" of 2147483647 replicas is -2, and "400%" of 1073741824 with
// maxUnavailable 0 comes to 0 and 0 (2^32 is not zero before conversion).
//
// It returns a *field.Error naming spec.replicas (negative, which API
// validation rejects) or spec.strategy.rollingUpdate.maxSurge or
// .maxUnavailable and wrapping field.ErrInvalid (not a percentage),
// field.ErrNegative, or field.ErrOverflow (a percentage beyond int64, which
// the API accepts for maxSurge but upstream cannot parse: its controller
// fails the sync); the counts are then 0.
//
// Source: upstream pkg/controller/deployment/util/deployment_util.go
// ResolveFenceposts (v1.36.3); seed 000:L1983-1995; kubernetes/kubernetes#22516.
func Fenceposts(maxSurge, maxUnavailable intstr.Value, replicas int32) (surge, unavailable int32, err error) {
	if replicas < 0 {
		return 0, 0, field.Int("spec.replicas", int64(replicas), field.ErrNegative)
	}
	s, err := intstr.ScaledInt(maxSurge, replicas, intstr.Up)
	if err != nil {
		return 0, 0, field.At(err, pathMaxSurge)
	}
	u, err := intstr.ScaledInt(maxUnavailable, replicas, intstr.Down)
	if err != nil {
		return 0, 0, field.At(err, pathMaxUnavailable)
	}
	if s == 0 && u == 0 {
		u = 1
	}
	return int32(s), int32(u), nil
}

// rollingValues returns d's maxSurge and maxUnavailable with the API
// default (25%) for an unset value.
func rollingValues(d *Deployment) (maxSurge, maxUnavailable intstr.Value) {
	ru := d.Spec.Strategy.RollingUpdate
	if ru != nil && ru.MaxSurge != nil {
		maxSurge = *ru.MaxSurge
	} else {
		maxSurge = intstr.String("25%")
	}
	if ru != nil && ru.MaxUnavailable != nil {
		maxUnavailable = *ru.MaxUnavailable
	} else {
		maxUnavailable = intstr.String("25%")
	}
	return maxSurge, maxUnavailable
}

// isRolling reports whether d uses the RollingUpdate strategy (the default).
func isRolling(d *Deployment) bool {
	return d.Spec.Strategy.Type == RollingUpdateStrategy || d.Spec.Strategy.Type == ""
}

// MaxUnavailable returns how many of d's desired pods may be unavailable
// during a rolling update: the [Fenceposts] unavailable count capped at
// spec.replicas. It is 0 for the Recreate strategy and for 0 replicas.
//
// d should be valid ([Validate]); as upstream, invalid bounds count as 0.
//
// Source: upstream deployment_util.go MaxUnavailable (v1.36.3); seed 000:L1983.
func (d *Deployment) MaxUnavailable() int32 {
	replicas := d.Replicas()
	if !isRolling(d) || replicas == 0 {
		return 0
	}
	s, u := rollingValues(d)
	_, unavailable, _ := Fenceposts(s, u, replicas)
	return min(unavailable, replicas)
}

// MinAvailable returns how many of d's pods must stay available during a
// rolling update: spec.replicas - [Deployment.MaxUnavailable]. It is 0 for the Recreate
// strategy.
//
// Source: upstream deployment_util.go MinAvailable (v1.36.3); seed 000:L1985.
func (d *Deployment) MinAvailable() int32 {
	if !isRolling(d) {
		return 0
	}
	return d.Replicas() - d.MaxUnavailable()
}

// MaxSurge returns how many pods above spec.replicas a rolling update of d
// may create: the [Fenceposts] surge count, not capped. It is 0 for the
// Recreate strategy.
//
// d should be valid ([Validate]); as upstream, invalid bounds count as 0.
//
// Source: upstream deployment_util.go MaxSurge (v1.36.3); seed 000:L1991.
func (d *Deployment) MaxSurge() int32 {
	if !isRolling(d) {
		return 0
	}
	s, u := rollingValues(d)
	surge, _, _ := Fenceposts(s, u, d.Replicas())
	return surge
}

// Bounds returns the three numbers a rolling update of d keeps to:
// [Deployment.MaxSurge] pods above spec.replicas at most,
// [Deployment.MaxUnavailable] of them unavailable at most, and so
// [Deployment.MinAvailable] available at least (3 replicas at 25%/25%
// run between 3 and 4 pods). All three are 0 for the Recreate strategy.
//
// d should be valid ([Validate]); as upstream, invalid bounds count as 0.
//
// Source: upstream deployment_util.go MaxSurge, MaxUnavailable and
// MinAvailable (v1.36.3), which rolling.go reads together; seed
// 000:L1983-1995.
func (d *Deployment) Bounds() (maxSurge, maxUnavailable, minAvailable int32) {
	return d.MaxSurge(), d.MaxUnavailable(), d.MinAvailable()
}
