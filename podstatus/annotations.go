package podstatus

import "strconv"

// DeletionCostAnnotation is the annotation a pod carries to ask that it be
// deleted later (higher cost) or sooner (lower cost) on scale-down.
const DeletionCostAnnotation = "controller.kubernetes.io/pod-deletion-cost"

// DeletionCost returns the pod's deletion cost and whether the annotation
// parsed. A missing annotation (or a nil pod) is cost 0 and valid; an invalid
// one (empty, a leading '+', a leading zero such as "008", not a decimal
// number, or outside [-2147483648, 2147483647]) is cost 0 and invalid. A
// leading '-' is accepted as written ("-007" is -7, "-0" is 0).
//
// Source: upstream pkg/apis/core/helper/helpers.go
// GetDeletionCostFromPodAnnotations (v1.36.3); seed 000 ReplicaSet
// pod-deletion-cost (000:L2287-2291), whose range [-2147483647, 2147483647]
// is one short of what v1.36.3 accepts.
func DeletionCost(p *Pod) (cost int32, valid bool) {
	if p == nil {
		return 0, true
	}
	v, ok := p.Annotations[DeletionCostAnnotation]
	if !ok {
		return 0, true
	}
	if !validFirstByte(v) {
		return 0, false
	}
	n, err := strconv.ParseInt(v, 10, 32)
	if err != nil {
		return 0, false
	}
	return int32(n), true
}

// validFirstByte reports whether v starts as a deletion cost may: with '-',
// with a non-zero digit, or is exactly "0".
func validFirstByte(v string) bool {
	return v != "" && (v[0] == '-' || v == "0" || (v[0] >= '1' && v[0] <= '9'))
}
