package node

import (
	"cmp"
	"slices"
	"time"
)

// notReadyTaint and unreachableTaint are the NoExecute taints the
// controller manages (TimeAdded is set when it adds them).
var (
	notReadyTaint    = Taint{Key: TaintNotReady, Effect: NoExecute}
	unreachableTaint = Taint{Key: TaintUnreachable, Effect: NoExecute}
)

// taintBasedEviction mirrors processTaintBaseEviction: its checks read the
// node as listed at the start of the pass.
func (s *lifecycle) taintBasedEviction(i int, status ConditionStatus) {
	listed := s.listed(i)
	n := s.nodes[i]
	z := s.zoneOf(i)
	switch status {
	case ConditionFalse:
		if hasTaint(listed, unreachableTaint) {
			s.swap(i, []Taint{notReadyTaint}, []Taint{unreachableTaint}, ReasonSwapTaint)
			return
		}
		if !hasTaint(listed, notReadyTaint) {
			z.remove(n.Name)
		}
		z.add(n.Name, s.now)
	case ConditionUnknown:
		if hasTaint(listed, notReadyTaint) {
			s.swap(i, []Taint{unreachableTaint}, []Taint{notReadyTaint}, ReasonSwapTaint)
			return
		}
		if !hasTaint(listed, unreachableTaint) {
			z.remove(n.Name)
		}
		z.add(n.Name, s.now)
	case ConditionTrue:
		s.markReachable(i, ReasonNodeReady)
	}
}

// markReachable removes the not-ready and unreachable taints and takes the
// node out of its zone's queue (upstream markNodeAsReachable). Like
// RemoveTaintOffNode, it only looks for a taint the node had as listed at
// the start of the pass: a taint added earlier in the pass stays.
func (s *lifecycle) markReachable(i int, reason Reason) {
	listed := s.listed(i)
	if len(listed) > 0 {
		var remove []Taint
		if hasTaint(listed, unreachableTaint) {
			remove = append(remove, unreachableTaint)
		}
		if hasTaint(listed, notReadyTaint) {
			remove = append(remove, notReadyTaint)
		}
		s.swap(i, nil, remove, reason)
	}
	s.zoneOf(i).remove(s.nodes[i].Name)
}

// noExecuteTaintingPass runs each zone's rate-limited tainter once, at now
// (upstream doNoExecuteTaintingPass, which runs every 100 ms).
func (s *lifecycle) noExecuteTaintingPass() {
	// (by index: the pass adds no zone once its nodes are registered)
	for j := range s.zones {
		z := s.zones[j].z
		for len(z.Queue) > 0 {
			head := z.Queue[0]
			if !z.Limiter.TryAccept(s.now) {
				break
			}
			if s.now.Before(head.ProcessAt) {
				break
			}
			i, ok := slices.BinarySearchFunc(s.nodes, head.Node, func(n *Node, name string) int { return cmp.Compare(n.Name, name) })
			if !ok {
				z.finish(head.Node)
				continue
			}
			n := s.nodes[i]
			ri := conditionIndex(n.Status.Conditions, Ready)
			if ri < 0 {
				z.Queue[0].ProcessAt = s.now.Add(50*time.Millisecond + 1)
				z.sortQueue()
				continue
			}
			switch n.Status.Conditions[ri].Status {
			case ConditionFalse:
				s.swap(i, []Taint{notReadyTaint}, []Taint{unreachableTaint}, ReasonTaintNode)
			case ConditionUnknown:
				s.swap(i, []Taint{unreachableTaint}, []Taint{notReadyTaint}, ReasonTaintNode)
			}
			z.finish(head.Node)
		}
	}
}
