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
	if len(add) > 0 || len(remove) > 0 {
		s.swap(i, add, remove, ReasonConditionTaints)
	}
	// (then, for the same node, the label reconciliation)
	if l := ReconcileLabels(s.nodes[i]); len(l) > 0 {
		s.p.Labels = append(s.p.Labels, LabelWrite{Node: s.nodes[i].Name, Labels: l})
	}
}

// Node labels the controller reconciles: the beta OS and architecture
// labels follow the stable ones.
const (
	LabelOS         = "kubernetes.io/os"
	LabelArch       = "kubernetes.io/arch"
	LabelOSBeta     = "beta.kubernetes.io/os"
	LabelArchBeta   = "beta.kubernetes.io/arch"
	ReasonNodeLabel = Reason("ReconcileLabels")
)

// ReconcileLabels returns the labels the node lifecycle controller's node
// worker sets on n (nil: none): beta.kubernetes.io/os and
// beta.kubernetes.io/arch take the values of kubernetes.io/os and
// kubernetes.io/arch where those exist and the beta label is missing or
// differs.
//
// Source: upstream pkg/controller/nodelifecycle Controller.reconcileNodeLabels,
// labelReconcileInfo (v1.36.3).
func ReconcileLabels(n *Node) map[string]string {
	if n == nil || n.Labels == nil {
		return nil
	}
	var out map[string]string
	for _, r := range [...][2]string{{LabelOS, LabelOSBeta}, {LabelArch, LabelArchBeta}} {
		v, ok := n.Labels[r[0]]
		if !ok {
			continue
		}
		if b, ok := n.Labels[r[1]]; !ok || b != v {
			if out == nil {
				out = map[string]string{}
			}
			out[r[1]] = v
		}
	}
	return out
}
