package podgc_test

import (
	"testing"
	"time"

	"github.com/kubesem/kubesem/meta"
	"github.com/kubesem/kubesem/node"
	"github.com/kubesem/kubesem/plan"
	"github.com/kubesem/kubesem/podgc"
	"github.com/kubesem/kubesem/podstatus"
)

func gcPod(name, node string, phase podstatus.Phase, created time.Duration) *podstatus.Pod {
	p := &podstatus.Pod{}
	p.Name, p.Namespace, p.Spec.NodeName, p.Status.Phase = name, "default", node, phase
	p.CreationTimestamp = t0.Add(created)
	return p
}

func gcNode(name string, ready meta.ConditionStatus, oos bool) *node.Node {
	n := &node.Node{}
	n.Name = name
	if ready != "" {
		n.Status.Conditions = []node.Condition{{Type: node.Ready, Status: ready}}
	}
	if oos {
		n.Spec.Taints = []node.Taint{{Key: podgc.OutOfServiceTaint, Effect: node.NoSchedule, Value: "x"}}
	}
	return n
}

func names(ds []plan.Deletion) []string {
	var out []string
	for _, d := range ds {
		out = append(out, d.Name+":"+string(d.Reason))
	}
	return out
}

func same(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func TestStepTerminating(t *testing.T) {
	t.Parallel()
	deleting := func(p *podstatus.Pod) *podstatus.Pod {
		ts := t0
		p.DeletionTimestamp = &ts
		return p
	}
	nodes := []*node.Node{gcNode("oos", "False", true), gcNode("ready-oos", "True", true), gcNode("notready", "False", false), gcNode("unknown-oos", "", true)}
	pods := []*podstatus.Pod{
		deleting(gcPod("a", "oos", podstatus.Running, 0)),
		gcPod("b", "oos", podstatus.Running, 0), // not terminating
		deleting(gcPod("c", "ready-oos", podstatus.Running, 0)),
		deleting(gcPod("d", "notready", podstatus.Running, 0)),
		deleting(gcPod("e", "unknown-oos", podstatus.Succeeded, 0)),
		deleting(gcPod("f", "", podstatus.Pending, 0)),
		gcPod("g", "", podstatus.Pending, 0),
	}
	off := -1
	p := mustStep(t, pods, nodes, nil, podgc.Memory{}, t0, podgc.Options{TerminatedPodThreshold: &off})
	if !same(names(p.Delete), []string{"a:TerminatingOutOfService", "e:TerminatingOutOfService", "f:TerminatingUnscheduled"}) {
		t.Fatalf("deleted %v", names(p.Delete))
	}
	// a and f are patched (not terminal), e is not
	if len(p.Patch) != 2 || p.Patch[0].Name != "a" || p.Patch[1].Name != "f" {
		t.Fatalf("patches %+v", p.Patch)
	}
	// a pod several steps select is deleted once, by the first
	one := 1
	dup := []*podstatus.Pod{deleting(gcPod("x", "", podstatus.Failed, 0)), gcPod("y", "oos", podstatus.Failed, time.Hour)}
	p = mustStep(t, dup, nodes, nil, podgc.Memory{}, t0, podgc.Options{TerminatedPodThreshold: &one})
	if !same(names(p.Delete), []string{"x:Terminated"}) {
		t.Fatalf("once: %v", names(p.Delete))
	}
}

var t0 = time.Date(2025, 1, 1, 12, 0, 0, 0, time.UTC)

// mustStep is podgc.Step on inputs the test knows valid.
func mustStep(t interface{ Fatalf(string, ...any) }, pods []*podstatus.Pod, nodes []*node.Node, unlisted []string, mem podgc.Memory, now time.Time, o podgc.Options) podgc.Plan {
	p, err := podgc.Step(pods, nodes, unlisted, mem, now, o)
	if err != nil {
		t.Fatalf("Step: %v", err)
	}
	return p
}
