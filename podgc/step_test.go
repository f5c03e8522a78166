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

func TestStepQuarantineBoundary(t *testing.T) {
	t.Parallel()
	pods := []*podstatus.Pod{gcPod("a", "gone", podstatus.Running, 0)}
	// first sight: quarantined until now + 40s, nothing deleted
	p := mustStep(t, pods, nil, nil, podgc.Memory{}, t0, podgc.Options{})
	if len(p.Delete) != 0 || len(p.Memory.Quarantine) != 1 || !p.Memory.Quarantine[0].ReadyAt.Equal(t0.Add(podgc.QuarantineTime)) {
		t.Fatalf("first pass: %+v", p)
	}
	mem := p.Memory
	// 1 ns before the quarantine ends: still waiting, the earlier entry kept
	at := t0.Add(podgc.QuarantineTime)
	p = mustStep(t, pods, nil, nil, mem, at.Add(-1), podgc.Options{})
	if len(p.Delete) != 0 || !p.Memory.Quarantine[0].ReadyAt.Equal(at) {
		t.Fatalf("before the end: %+v", p)
	}
	// exactly at the end: orphan deleted, patched Failed with the condition
	p = mustStep(t, pods, nil, nil, mem, at, podgc.Options{})
	if !same(names(p.Delete), []string{"a:Orphaned"}) || len(p.Patch) != 1 || p.Patch[0].Phase != podstatus.Failed || p.Patch[0].Condition == nil ||
		p.Patch[0].Condition.Reason != podstatus.ReasonDeletionByPodGC || p.Patch[0].Condition.Message != podgc.OrphanMessage || !p.Patch[0].Condition.LastTransitionTime.Equal(at) {
		t.Fatalf("at the end: %+v", p)
	}
	// ... and the node is quarantined again from now
	if len(p.Memory.Quarantine) != 1 || !p.Memory.Quarantine[0].ReadyAt.Equal(at.Add(podgc.QuarantineTime)) {
		t.Fatalf("requeued node: %+v", p.Memory)
	}
	// a node back in the cache (or only in the API) saves its pods
	if p = mustStep(t, pods, []*node.Node{gcNode("gone", "True", false)}, nil, mem, at, podgc.Options{}); len(p.Delete) != 0 {
		t.Fatalf("node in the cache: %+v", p)
	}
	if p = mustStep(t, pods, nil, []string{"gone"}, mem, at, podgc.Options{}); len(p.Delete) != 0 {
		t.Fatalf("node only in the API: %+v", p)
	}
	// a custom quarantine
	p = mustStep(t, pods, nil, nil, podgc.Memory{}, t0, podgc.Options{Quarantine: time.Second})
	if !p.Memory.Quarantine[0].ReadyAt.Equal(t0.Add(time.Second)) {
		t.Fatalf("custom quarantine: %+v", p.Memory)
	}
	// a non-positive quarantine checks at once
	p = mustStep(t, pods, nil, nil, podgc.Memory{}, t0, podgc.Options{Quarantine: -1})
	if len(p.Delete) != 1 || len(p.Memory.Quarantine) != 0 {
		t.Fatalf("no quarantine: %+v", p)
	}
	// an earlier entry in memory wins over now + quarantine
	early := podgc.Memory{Quarantine: []podgc.Quarantined{{Node: "gone", ReadyAt: t0.Add(time.Second)}}}
	p = mustStep(t, pods, nil, nil, early, t0, podgc.Options{})
	if !p.Memory.Quarantine[0].ReadyAt.Equal(t0.Add(time.Second)) {
		t.Fatalf("earlier entry: %+v", p.Memory)
	}
	// a node whose pods are gone leaves the queue once its time comes
	p = mustStep(t, nil, nil, nil, early, t0.Add(time.Second), podgc.Options{})
	if len(p.Memory.Quarantine) != 0 || p.Memory.Quarantine == nil {
		t.Fatalf("expired entry: %+v", p.Memory)
	}
}

func TestStepOrphanConditionKept(t *testing.T) {
	t.Parallel()
	p0 := gcPod("a", "gone", podstatus.Running, 0)
	old := t0.Add(-time.Hour)
	p0.Status.Conditions = []podstatus.Condition{{Type: podstatus.DisruptionTarget, Status: meta.ConditionTrue, Reason: "X", LastTransitionTime: old}}
	mem := podgc.Memory{Quarantine: []podgc.Quarantined{{Node: "gone", ReadyAt: t0}}}
	p := mustStep(t, []*podstatus.Pod{p0}, nil, nil, mem, t0, podgc.Options{})
	if len(p.Patch) != 1 || !p.Patch[0].Condition.LastTransitionTime.Equal(old) || p.Patch[0].Condition.Reason != podstatus.ReasonDeletionByPodGC {
		t.Fatalf("kept transition time: %+v", p.Patch)
	}
	p0.Status.Conditions[0].Status = meta.ConditionFalse
	p = mustStep(t, []*podstatus.Pod{p0}, nil, nil, mem, t0, podgc.Options{})
	if !p.Patch[0].Condition.LastTransitionTime.Equal(t0) {
		t.Fatalf("False condition: %+v", p.Patch)
	}
	// a terminal orphan is deleted without a patch
	p0.Status.Phase = podstatus.Succeeded
	p = mustStep(t, []*podstatus.Pod{p0}, nil, nil, mem, t0, podgc.Options{})
	if len(p.Patch) != 0 || len(p.Delete) != 1 {
		t.Fatalf("terminal orphan: %+v", p)
	}
}

func TestStepTerminatedThreshold(t *testing.T) {
	t.Parallel()
	n := []*node.Node{gcNode("n", "True", false)}
	evicted := gcPod("e", "n", podstatus.Failed, 3*time.Hour)
	evicted.Status.Reason = podgc.EvictedReason
	pods := []*podstatus.Pod{gcPod("b", "n", podstatus.Succeeded, time.Hour), gcPod("a", "n", podstatus.Failed, time.Hour), evicted,
		gcPod("c", "n", "", 0), gcPod("r", "n", podstatus.Running, 0), gcPod("u", "n", podstatus.Unknown, 0)}
	two := 2
	p := mustStep(t, pods, n, nil, podgc.Memory{}, t0, podgc.Options{TerminatedPodThreshold: &two})
	// 4 terminated (e, a, b, c — empty phase counts), 2 kept: evicted first, then oldest
	if !same(names(p.Delete), []string{"e:Terminated", "c:Terminated"}) {
		t.Fatalf("deleted %v", names(p.Delete))
	}
	// the empty phase is patched Failed; terminal ones are not
	if len(p.Patch) != 1 || p.Patch[0].Name != "c" || p.Patch[0].Condition != nil {
		t.Fatalf("patches %+v", p.Patch)
	}
	three := 3
	p = mustStep(t, pods, n, nil, podgc.Memory{}, t0, podgc.Options{TerminatedPodThreshold: &three})
	if !same(names(p.Delete), []string{"e:Terminated"}) {
		t.Fatalf("threshold 3: %v", names(p.Delete))
	}
	// same creation time: by name
	four := 1
	p = mustStep(t, pods[:2], n, nil, podgc.Memory{}, t0, podgc.Options{TerminatedPodThreshold: &four})
	if !same(names(p.Delete), []string{"a:Terminated"}) {
		t.Fatalf("tie: %v", names(p.Delete))
	}
	for _, off := range []int{0, -1} {
		p = mustStep(t, pods, n, nil, podgc.Memory{}, t0, podgc.Options{TerminatedPodThreshold: &off})
		if len(p.Delete) != 0 {
			t.Fatalf("threshold %d: %v", off, names(p.Delete))
		}
	}
	// the default threshold is 12500
	if p = mustStep(t, pods, n, nil, podgc.Memory{}, t0, podgc.Options{}); len(p.Delete) != 0 {
		t.Fatalf("default threshold: %v", names(p.Delete))
	}
	if len(p.Requeue) != 1 || p.Requeue[0].After != podgc.CheckPeriod || p.Requeue[0].Reason != podgc.ReasonPeriodic || p.Outcome != podgc.ReasonGarbageCollected {
		t.Fatalf("requeue/outcome: %+v", p)
	}
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
