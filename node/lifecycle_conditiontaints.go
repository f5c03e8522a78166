package node

// conditionTaintKey maps a node condition and status to the NoSchedule
// taint it calls for (upstream nodeConditionToTaintKeyStatusMap).
func conditionTaintKey(t ConditionType, st ConditionStatus) string {
	switch t {
	case Ready:
		switch st {
		case ConditionFalse:
			return TaintNotReady
		case ConditionUnknown:
			return TaintUnreachable
		}
	case MemoryPressure:
		if st == ConditionTrue {
			return TaintMemoryPressure
		}
	case DiskPressure:
		if st == ConditionTrue {
			return TaintDiskPressure
		}
	case NetworkUnavailable:
		if st == ConditionTrue {
			return TaintNetworkUnavailable
		}
	case PIDPressure:
		if st == ConditionTrue {
			return TaintPIDPressure
		}
	}
	return ""
}

func conditionTaintKeyKnown(key string) bool {
	switch key {
	case TaintNotReady, TaintUnreachable, TaintNetworkUnavailable, TaintMemoryPressure, TaintDiskPressure, TaintPIDPressure, TaintUnschedulable:
		return true
	}
	return false
}

// ConditionTaints returns the NoSchedule taints a node's conditions and
// spec.unschedulable call for, in condition order, then unschedulable:
// Ready False → not-ready, Ready Unknown → unreachable, MemoryPressure,
// DiskPressure, PIDPressure or NetworkUnavailable True → the matching
// pressure taint, unschedulable → node.kubernetes.io/unschedulable.
//
// Source: upstream Controller.doNoScheduleTaintingPass (v1.36.3).
func ConditionTaints(n *Node) []Taint {
	var out []Taint
	for _, c := range n.Status.Conditions {
		if k := conditionTaintKey(c.Type, c.Status); k != "" {
			out = append(out, Taint{Key: k, Effect: NoSchedule})
		}
	}
	if n.Spec.Unschedulable {
		out = append(out, Taint{Key: TaintUnschedulable, Effect: NoSchedule})
	}
	return out
}

// ConditionTaintDiff returns the NoSchedule condition taints to add to n
// and those to remove from it: the node's NoSchedule taints with a
// condition key or the unschedulable key, against [ConditionTaints], by key
// and effect.
//
// Source: upstream Controller.doNoScheduleTaintingPass with
// taints.TaintSetDiff (v1.36.3).
func ConditionTaintDiff(n *Node) (add, remove []Taint) {
	want := ConditionTaints(n)
	var have []Taint
	for _, t := range n.Spec.Taints {
		if t.Effect == NoSchedule && conditionTaintKeyKnown(t.Key) {
			have = append(have, t)
		}
	}
	for _, t := range want {
		if !hasTaint(have, t) {
			add = append(add, t)
		}
	}
	for _, t := range have {
		if !hasTaint(want, t) {
			remove = append(remove, t)
		}
	}
	return add, remove
}

func (s *lifecycle) noScheduleTaintingPass(i int) {
	add, remove := ConditionTaintDiff(s.nodes[i])
	if len(add) == 0 && len(remove) == 0 {
		return
	}
	s.swap(i, add, remove, ReasonConditionTaints)
}
