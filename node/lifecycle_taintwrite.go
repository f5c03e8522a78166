package node

import (
	"slices"
)

func hasTaint(ts []Taint, t Taint) bool {
	for _, x := range ts {
		if x.MatchTaint(t) {
			return true
		}
	}
	return false
}

// swap adds add (stamped now) and removes remove on the working node, and
// records the write. It mirrors SwapNodeControllerTaint: an added taint
// replaces one with the same key and effect in place.
func (s *lifecycle) swap(i int, add, remove []Taint, reason Reason) {
	n := s.nodes[i]
	needed := len(add) > 0
	for _, t := range remove {
		needed = needed || hasTaint(n.Spec.Taints, t)
	}
	if !needed {
		return
	}
	n = s.own(i)
	w := TaintWrite{Node: n.Name, Reason: reason}
	for _, t := range add {
		at := s.now
		t.TimeAdded = &at
		replaced := false
		for i := range n.Spec.Taints {
			if n.Spec.Taints[i].MatchTaint(t) {
				n.Spec.Taints[i] = t
				replaced = true
				break
			}
		}
		if !replaced {
			n.Spec.Taints = append(n.Spec.Taints, t)
		}
		w.Add = append(w.Add, t)
	}
	for _, t := range remove {
		if !hasTaint(n.Spec.Taints, t) {
			continue
		}
		n.Spec.Taints = slices.DeleteFunc(n.Spec.Taints, func(x Taint) bool { return x.MatchTaint(t) })
		w.Remove = append(w.Remove, t)
	}
	if len(w.Add) > 0 || len(w.Remove) > 0 {
		s.p.Taints = append(s.p.Taints, w)
	}
}
