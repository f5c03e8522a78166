package podgc_test

import (
	"errors"
	"testing"
	"time"

	"github.com/kubesem/kubesem/field"
	"github.com/kubesem/kubesem/meta"
	"github.com/kubesem/kubesem/node"
	"github.com/kubesem/kubesem/plan"
	"github.com/kubesem/kubesem/podgc"
	"github.com/kubesem/kubesem/podstatus"
)

// An orphan that is running is patched Failed with DisruptionTarget (in
// place of its old condition), then force-deleted; a terminal pod beyond
// the threshold is only deleted. Inputs stay as they were.
func TestWrites(t *testing.T) {
	t.Parallel()
	orphan := gcPod("o", "gone", podstatus.Running, 0)
	orphan.UID = "uid-o"
	orphan.Status.Conditions = []podstatus.Condition{{Type: podstatus.DisruptionTarget, Status: meta.ConditionFalse, Reason: "Old"}, {Type: podstatus.Ready, Status: meta.ConditionTrue}}
	done := gcPod("d", "n", podstatus.Succeeded, 0)
	done.Namespace = "kube-system"
	pods := []*podstatus.Pod{orphan, done}
	th := 1
	mem := podgc.Memory{Quarantine: []podgc.Quarantined{{Node: "gone", ReadyAt: t0}}}
	nodes := []*node.Node{gcNode("n", "True", false)}
	p := mustStep(t, pods, nodes, nil, mem, t0, podgc.Options{TerminatedPodThreshold: &th})
	ws, err := p.Writes(pods)
	if err != nil {
		t.Fatal(err)
	}
	type short struct {
		verb      plan.Verb
		sub, ns   string
		name, uid string
		grace     int64
		reason    podgc.Reason
	}
	var got []short
	for _, w := range ws {
		s := short{w.Verb, w.Subresource, w.Namespace, w.Name, w.UID, -1, w.Reason}
		if w.GracePeriodSeconds != nil {
			s.grace = *w.GracePeriodSeconds
		}
		if w.Resource != "pods" {
			t.Errorf("write %+v: resource %q", w, w.Resource)
		}
		got = append(got, s)
	}
	want := []short{
		{plan.VerbPatch, "status", "default", "o", "uid-o", -1, podgc.ReasonOrphaned},
		{plan.VerbDelete, "", "default", "o", "", 0, podgc.ReasonOrphaned},
	}
	// the orphan step comes after the terminated step only if the
	// terminated one deletes: threshold 1 with one terminated pod deletes none
	if len(got) != len(want) {
		t.Fatalf("writes %+v; want %+v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("write %d = %+v; want %+v", i, got[i], want[i])
		}
	}
	obj := ws[0].Object.(*podstatus.Pod)
	if obj.Status.Phase != podstatus.Failed || len(obj.Status.Conditions) != 2 ||
		obj.Status.Conditions[0].Reason != podstatus.ReasonDeletionByPodGC || !obj.Status.Conditions[0].LastTransitionTime.Equal(t0) ||
		obj.Status.Conditions[1].Type != podstatus.Ready {
		t.Errorf("patched pod %+v", obj.Status)
	}
	if orphan.Status.Phase != podstatus.Running || orphan.Status.Conditions[0].Reason != "Old" || obj == orphan {
		t.Errorf("input modified or aliased: %+v", orphan.Status)
	}
	if ws[1].Object != nil {
		t.Errorf("a delete carries no object: %+v", ws[1])
	}

	// a second terminated pod, older: deleted first, without a patch
	x := gcPod("x", "n", podstatus.Failed, -time.Hour)
	p = mustStep(t, append(pods, x), nodes, nil, mem, t0, podgc.Options{TerminatedPodThreshold: &th})
	ws, err = p.Writes(append(pods, x))
	if err != nil || len(ws) != 3 || ws[0].Verb != plan.VerbDelete || ws[0].Name != "x" || ws[0].Reason != podgc.ReasonTerminated || ws[1].Verb != plan.VerbPatch {
		t.Errorf("terminated then orphan: %+v, %v", ws, err)
	}
	if ws, err = p.Writes(pods); err == nil {
		t.Errorf("a deletion of a pod not given: writes %+v", ws)
	}

	// a Plan entry naming no input pod is an error at its path
	bad := podgc.Plan{Delete: []plan.Deletion{{Name: "o", Namespace: "default"}, {Name: "nope"}}}
	_, err = bad.Writes(pods)
	var fe *field.Error
	if !errors.As(err, &fe) || fe.Path != "delete[1].name" {
		t.Errorf("unknown deletion: %v", err)
	}
	bad = podgc.Plan{Patch: []podgc.PodPatch{{Name: "d", Namespace: "kube-system", Phase: podstatus.Failed}}}
	if _, err = bad.Writes(pods); !errors.As(err, &fe) || fe.Path != "patch[0].name" {
		t.Errorf("patch without deletion: %v", err)
	}
}
