package podgc_test

import (
	"testing"
	"time"

	"github.com/kubesem/kubesem/meta"
	"github.com/kubesem/kubesem/node"
	"github.com/kubesem/kubesem/podgc"
	"github.com/kubesem/kubesem/podstatus"
)

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
