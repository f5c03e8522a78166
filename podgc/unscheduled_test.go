package podgc_test

import (
	"testing"
	"time"

	"github.com/kubesem/kubesem/node"
	"github.com/kubesem/kubesem/podgc"
	"github.com/kubesem/kubesem/podstatus"
	"github.com/stretchr/testify/require"
)

// Terminating pods bound to no node are deleted by namespace, then name;
// a pod without a deletion timestamp, or bound to a node, is left alone.
func TestStepTerminatingUnscheduled(t *testing.T) {
	t.Parallel()
	deleting := func(ns, name, node string) *podstatus.Pod {
		p := gcPod(name, node, podstatus.Pending, 0)
		p.Namespace = ns
		ts := t0
		p.DeletionTimestamp = &ts
		return p
	}
	pods := []*podstatus.Pod{deleting("b", "a", ""), deleting("a", "z", ""), gcPod("live", "", podstatus.Pending, 0),
		deleting("a", "bound", "n"), deleting("a", "y", "")}
	p := mustStep(t, pods, []*node.Node{gcNode("n", "True", false)}, nil, podgc.Memory{}, t0.Add(time.Second), podgc.Options{})
	require.Equal(t, []string{"y:TerminatingUnscheduled", "z:TerminatingUnscheduled", "a:TerminatingUnscheduled"}, names(p.Delete))
	require.Len(t, p.Patch, 3, "Pending pods are patched Failed first")
}
