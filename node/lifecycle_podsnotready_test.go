package node

import (
	"testing"

	"github.com/kubesem/kubesem/meta"
	"github.com/kubesem/kubesem/podstatus"
	"github.com/stretchr/testify/require"
)

func notReadyPod(ns, name, node string, ready meta.ConditionStatus) *podstatus.Pod {
	q := &podstatus.Pod{}
	q.Namespace, q.Name, q.Spec.NodeName = ns, name, node
	if ready != "" {
		q.Status.Conditions = []podstatus.Condition{{Type: podstatus.Ready, Status: ready}}
	}
	return q
}

// Pods are grouped by node (unbound pods dropped), by namespace then
// name; a pod is marked when it has a Ready condition that is not False.
func TestMarkedNotReady(t *testing.T) {
	t.Parallel()
	pods := []*podstatus.Pod{
		notReadyPod("b", "p", "n1", meta.ConditionTrue),
		notReadyPod("a", "q", "n1", meta.ConditionUnknown),
		notReadyPod("a", "p", "n1", meta.ConditionFalse),
		notReadyPod("a", "r", "n1", ""),
		notReadyPod("a", "s", "", meta.ConditionTrue),
		notReadyPod("a", "t", "n2", meta.ConditionTrue),
	}
	by := podsByNode(pods)
	require.Len(t, by, 2)
	var names []string
	for _, q := range markedNotReady(by["n1"]) {
		names = append(names, q.Namespace+"/"+q.Name)
	}
	require.Equal(t, []string{"a/q", "b/p"}, names)
}
