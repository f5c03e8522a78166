package node

import (
	"errors"
	"testing"
	"time"

	"github.com/kubesem/kubesem/field"
	"github.com/kubesem/kubesem/plan"
	"github.com/kubesem/kubesem/podstatus"
)

// Writes: the DisruptionTarget status patch, then the delete with the
// pod's own grace period; no patch when the pod already has the condition.
func TestEvictionPlanWrites(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	n := &Node{}
	n.Name = "n"
	n.Spec.Taints = []Taint{{Key: TaintUnreachable, Effect: NoExecute}}
	pod := evictPod("p", "n", nil)
	pod.Spec.Tolerations = nil
	pod.UID = "uid-p"
	p, err := EvictionStep(n, []*podstatus.Pod{pod}, nil, now, Options{})
	if err != nil {
		t.Fatal(err)
	}
	ws, err := p.Writes(n, []*podstatus.Pod{pod}, now)
	if err != nil || len(ws) != 2 {
		t.Fatalf("writes %+v, %v", ws, err)
	}
	if w := ws[0]; w.Verb != plan.VerbPatch || w.Resource != "pods" || w.Subresource != "status" || w.UID != "uid-p" || w.Namespace != "default" {
		t.Errorf("patch %+v", w)
	}
	obj := ws[0].Object.(*podstatus.Pod)
	c := obj.Condition(podstatus.DisruptionTarget)
	if c == nil || c.Status != "True" || c.Reason != podstatus.ReasonDeletionByTaintManager || c.Message != TaintEvictionMessage || !c.LastTransitionTime.Equal(now) {
		t.Errorf("condition %+v", c)
	}
	if pod.Condition(podstatus.DisruptionTarget) != nil {
		t.Error("input modified")
	}
	if w := ws[1]; w.Verb != plan.VerbDelete || w.Name != "p" || w.GracePeriodSeconds != nil || w.UID != "" || w.Object != nil {
		t.Errorf("delete %+v", w)
	}
	// already marked: only the delete
	marked := obj
	ws, err = p.Writes(n, []*podstatus.Pod{marked}, now.Add(time.Minute))
	if err != nil || len(ws) != 1 || ws[0].Verb != plan.VerbDelete {
		t.Errorf("already marked: %+v, %v", ws, err)
	}
	// a deletion naming no pod on the node
	other := evictPod("p", "m", nil)
	var fe *field.Error
	if _, err := p.Writes(n, []*podstatus.Pod{other}, now); !errors.As(err, &fe) || fe.Path != "delete[0].name" {
		t.Errorf("pod elsewhere: %v", err)
	}
	if _, err := p.Writes(nil, nil, now); err == nil {
		t.Error("nil node: want an error")
	}
}
