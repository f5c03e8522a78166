package podstatus

import "strconv"

// DeletionCostAnnotation is the annotation a pod carries to ask that it be
// deleted later (higher cost) or sooner (lower cost) on scale-down.
const DeletionCostAnnotation = "controller.kubernetes.io/pod-deletion-cost"

// DeletionCost returns the pod's deletion cost and whether the annotation
// parsed. A missing annotation is cost 0 and valid; an invalid one (empty, a
// leading '+', leading zeros such as "008", not a number, or beyond int32) is
// cost 0 and invalid. A leading '-' is accepted as written ("-007" is -7).
//
// Source: upstream pkg/apis/core/helper/helpers.go
// GetDeletionCostFromPodAnnotations (v1.36.3); seed 000 ReplicaSet
// pod-deletion-cost.
func DeletionCost(p *Pod) (cost int32, valid bool) {
	v, ok := p.Annotations[DeletionCostAnnotation]
	if !ok {
		return 0, true
	}
	if v == "" || !(v[0] == '-' || v == "0" || (v[0] >= '1' && v[0] <= '9')) {
		return 0, false
	}
	n, err := strconv.ParseInt(v, 10, 32)
	if err != nil {
		return 0, false
	}
	return int32(n), true
}
