package node

import (
	"cmp"
	"slices"

	"github.com/kubesem/kubesem/meta"
	"github.com/kubesem/kubesem/podstatus"
)

// PodNotReadyMessage is the message of the Warning NodeNotReady event
// recorded on each pod marked not ready.
const PodNotReadyMessage = "Node is not ready"

// podsOn returns the pods bound to the node, by namespace and name.
func (s *lifecycle) podsOn(node string) []*podstatus.Pod {
	if s.pods == nil {
		s.pods = podsByNode(s.allPods)
	}
	return s.pods[node]
}

// podsByNode groups pods by spec.nodeName, each group by namespace, then
// name.
func podsByNode(pods []*podstatus.Pod) map[string][]*podstatus.Pod {
	m := map[string][]*podstatus.Pod{}
	for _, q := range pods {
		if q.Spec.NodeName != "" {
			m[q.Spec.NodeName] = append(m[q.Spec.NodeName], q)
		}
	}
	for _, ps := range m {
		slices.SortFunc(ps, func(a, b *podstatus.Pod) int {
			return cmp.Or(cmp.Compare(a.Namespace, b.Namespace), cmp.Compare(a.Name, b.Name))
		})
	}
	return m
}

// markedNotReady returns the pods (of one node, in order) whose Ready
// condition marking the node's pods not ready changes: those with a Ready
// condition that is not already False.
//
// Source: upstream pkg/controller/util/node MarkPodsNotReady (v1.36.3).
func markedNotReady(pods []*podstatus.Pod) []*podstatus.Pod {
	var out []*podstatus.Pod
	for _, q := range pods {
		if c := q.Condition(podstatus.Ready); c != nil && c.Status != meta.ConditionFalse {
			out = append(out, q)
		}
	}
	return out
}
