package statefulset

import "github.com/kubesem/kubesem/intstr"

// MaxUnavailable returns how many pods a rolling update may have unavailable
// with the MaxUnavailableStatefulSet gate: maxUnavailable (1 when nil) scaled
// against replicas, percentages rounded down, at least 1.
//
// Errors are those of [intstr.ScaledInt] (values API validation rejects);
// the count is then 0.
//
// Source: upstream pkg/controller/statefulset stateful_set_utils.go
// getStatefulSetMaxUnavailable (v1.36.3); seed 002:L202-204.
func MaxUnavailable(v *intstr.Value, replicas int32) (int64, error) {
	val := intstr.Int(1)
	if v != nil {
		val = *v
	}
	n, err := intstr.ScaledInt(val, replicas, intstr.Down)
	if err != nil {
		return 0, err
	}
	return max(n, 1), nil
}
