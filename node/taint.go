package node

// ToleratesTaint reports whether toleration t tolerates taint: an empty
// effect matches every effect and an empty key every key; then Equal (or
// no operator) needs equal values, Exists matches any value, Lt and Gt
// compare decimal integers only when opts.TaintTolerationComparisonOperators
// is set, and any other operator tolerates nothing.
//
// Source: upstream k8s.io/api core/v1 Toleration.ToleratesTaint (v1.36.3).
func ToleratesTaint(t *Toleration, taint *Taint, opts Options) bool {
	if t.Effect != "" && t.Effect != string(taint.Effect) {
		return false
	}
	if t.Key != "" && t.Key != taint.Key {
		return false
	}
	switch t.Operator {
	case "", OpEqual:
		return t.Value == taint.Value
	case OpExists:
		return true
	case OpLt, OpGt:
		if !opts.TaintTolerationComparisonOperators {
			return false
		}
		tv, ok := parseDecimal(t.Value)
		if !ok {
			return false
		}
		nv, ok := parseDecimal(taint.Value)
		if !ok {
			return false
		}
		if t.Operator == OpLt {
			return nv < tv
		}
		return nv > tv
	}
	return false
}

// Tolerates reports whether any of tolerations tolerates taint.
//
// Source: upstream k8s.io/component-helpers scheduling/corev1
// TolerationsTolerateTaint (v1.36.3).
func Tolerates(tolerations []Toleration, taint *Taint, opts Options) bool {
	for i := range tolerations {
		if ToleratesTaint(&tolerations[i], taint, opts) {
			return true
		}
	}
	return false
}

// TaintFilter selects the taints a predicate considers; nil selects all.
type TaintFilter func(*Taint) bool

// EffectFilter returns a TaintFilter selecting the taints with one of
// effects.
//
// Source: the inclusion filter upstream passes to
// pkg/apis/core/v1/helper FindMatchingUntoleratedTaint (v1.36.3).
func EffectFilter(effects ...TaintEffect) TaintFilter {
	return func(t *Taint) bool {
		for _, e := range effects {
			if t.Effect == e {
				return true
			}
		}
		return false
	}
}

// NoScheduleOrNoExecute selects NoSchedule and NoExecute taints, the ones
// the scheduler's and the DaemonSet controller's taint predicate checks.
//
// Source: upstream pkg/controller/daemon predicates and
// pkg/scheduler/framework/plugins/helper DoNotScheduleTaintsFilterFunc
// (v1.36.3).
func NoScheduleOrNoExecute(t *Taint) bool {
	return t.Effect == NoSchedule || t.Effect == NoExecute
}

// OnlyNoExecute selects NoExecute taints, the ones that decide whether a
// scheduled daemon pod keeps running.
//
// Source: upstream pkg/controller/daemon NodeShouldRunDaemonPod (v1.36.3).
func OnlyNoExecute(t *Taint) bool { return t.Effect == NoExecute }

// FindUntoleratedTaint returns the first of taints (in the node's order)
// that filter selects and no toleration tolerates; ok is false when every
// selected taint is tolerated.
//
// Source: upstream k8s.io/component-helpers scheduling/corev1
// FindMatchingUntoleratedTaint (v1.36.3).
func FindUntoleratedTaint(taints []Taint, tolerations []Toleration, filter TaintFilter, opts Options) (taint Taint, ok bool) {
	for i := range taints {
		if filter != nil && !filter(&taints[i]) {
			continue
		}
		if !Tolerates(tolerations, &taints[i], opts) {
			return taints[i], true
		}
	}
	return Taint{}, false
}

// parseDecimal parses a decimal integer the way upstream's comparison
// operators accept it: an optional leading '-', then digits with no leading
// zero (content.IsDecimalInteger), within int64.
func parseDecimal(s string) (int64, bool) {
	if s == "" {
		return 0, false
	}
	neg := false
	d := s
	if d[0] == '-' {
		neg = true
		d = d[1:]
	}
	if d == "" || (len(d) > 1 && d[0] == '0') {
		return 0, false
	}
	if neg && d == "0" {
		return 0, false
	}
	var v uint64
	for i := 0; i < len(d); i++ {
		c := d[i]
		if c < '0' || c > '9' {
			return 0, false
		}
		if v > (1<<63-uint64(c-'0'))/10 {
			return 0, false
		}
		v = v*10 + uint64(c-'0')
	}
	if neg {
		return -int64(v), true
	}
	if v > 1<<63-1 {
		return 0, false
	}
	return int64(v), true
}
