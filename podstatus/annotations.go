package podstatus

import "math"

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
	return parseCost(v)
}

// parseCost reads a deletion cost as upstream does (strconv.ParseInt with
// bitSize 32, after refusing a leading '+' or a leading zero other than "0"
// itself): an optional '-', then decimal digits, within int32.
func parseCost(v string) (int32, bool) {
	if v == "" {
		return 0, false
	}
	digits := v
	neg := v[0] == '-'
	switch {
	case neg:
		digits = v[1:]
	case v[0] == '0':
		return 0, v == "0"
	}
	if digits == "" {
		return 0, false
	}
	var n int64
	for i := 0; i < len(digits); i++ {
		d := digits[i] - '0'
		if d > 9 {
			return 0, false
		}
		n = n*10 + int64(d)
		if n > 1<<31 {
			return 0, false
		}
	}
	if neg {
		n = -n
	}
	if n > math.MaxInt32 {
		return 0, false
	}
	return int32(n), true
}
