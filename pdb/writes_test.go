package pdb_test

import (
	"errors"
	"testing"
	"time"

	"github.com/kubesem/kubesem/field"
	"github.com/kubesem/kubesem/intstr"
	"github.com/kubesem/kubesem/meta"
	"github.com/kubesem/kubesem/pdb"
	"github.com/kubesem/kubesem/plan"
	"github.com/kubesem/kubesem/podstatus"
)

// The budget's status update comes first, then each stale pod's status
// update with DisruptionTarget=False stamped now; inputs stay untouched.
func TestWrites(t *testing.T) {
	t.Parallel()
	stalePod := readyPod("z", true, nil)
	old := now.Add(-pdb.DefaultStalePodDisruptionTimeout)
	stalePod.Status.Conditions = append(stalePod.Status.Conditions, podstatus.Condition{Type: podstatus.DisruptionTarget,
		Status: meta.ConditionTrue, Reason: podstatus.ReasonEvictionByEvictionAPI, Message: "m", LastTransitionTime: old})
	pods := []*podstatus.Pod{readyPod("a", true, nil), stalePod}
	b := budget(ptr(intstr.Int(1)), nil)
	b.UID = "budget-uid"
	p, err := pdb.Step(b, pods, nil, now, pdb.Options{})
	if err != nil {
		t.Fatal(err)
	}
	ws, err := p.Writes(b, pods, now)
	if err != nil {
		t.Fatal(err)
	}
	if len(ws) != 2 {
		t.Fatalf("writes %+v; want the status update and one reset", ws)
	}
	w := ws[0]
	if w.Verb != plan.VerbUpdate || w.Resource != "poddisruptionbudgets" || w.Subresource != "status" || w.Name != "web" || w.Namespace != "default" || w.UID != "budget-uid" || w.Reason != pdb.ReasonSynced {
		t.Errorf("status write %+v", w)
	}
	if got := w.Object.(*pdb.PodDisruptionBudget); got.Status.ExpectedPods != p.Status.ExpectedPods || got.Spec.Selector == b.Spec.Selector || got.Name != "web" {
		t.Errorf("status object %+v (a copy with the Plan's status)", got)
	}
	w = ws[1]
	if w.Verb != plan.VerbUpdate || w.Resource != "pods" || w.Subresource != "status" || w.Name != "z" || w.UID != "z-uid" || w.Reason != pdb.ReasonStaleDisruptionTarget {
		t.Errorf("reset write %+v", w)
	}
	got := w.Object.(*podstatus.Pod)
	c := got.Condition(podstatus.DisruptionTarget)
	if len(got.Status.Conditions) != 2 || c.Status != meta.ConditionFalse || c.Reason != "" || c.Message != "" || !c.LastTransitionTime.Equal(now) {
		t.Errorf("reset pod conditions %+v", got.Status.Conditions)
	}
	if in := stalePod.Condition(podstatus.DisruptionTarget); in.Status != meta.ConditionTrue || !in.LastTransitionTime.Equal(old) {
		t.Errorf("input modified: %+v", in)
	}

	// nothing to write
	if ws, err := (pdb.Plan{}).Writes(b, pods, now); err != nil || len(ws) != 0 {
		t.Errorf("empty plan: %+v, %v", ws, err)
	}
	// a reset naming no pod of the budget's namespace
	bad := pdb.Plan{ResetDisruptionTarget: []pdb.PodRef{{Name: "z"}, {Name: "nope"}}}
	_, err = bad.Writes(b, pods, now.Add(time.Second))
	var fe *field.Error
	if !errors.As(err, &fe) || fe.Path != "resetDisruptionTarget[1].name" {
		t.Errorf("unknown pod: %v", err)
	}
	if _, err := p.Writes(nil, pods, now); err == nil {
		t.Error("nil budget: want an error")
	}
}
