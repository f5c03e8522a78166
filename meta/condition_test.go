package meta_test

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/kubesem/kubesem/meta"
)

func TestConditions(t *testing.T) {
	t.Parallel()
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	t1 := t0.Add(time.Hour)
	cs := meta.Conditions{
		{Type: "A", Status: meta.ConditionTrue, Reason: "R", LastTransitionTime: t0},
		{Type: "B", Status: meta.ConditionFalse},
	}
	if c, ok := cs.Find("B"); !ok || c.Status != meta.ConditionFalse {
		t.Errorf("Find(B) = %v, %v", c, ok)
	}
	if _, ok := cs.Find("C"); ok {
		t.Error("Find(C): ok")
	}
	if !cs.IsTrue("A") || cs.IsTrue("B") || cs.IsTrue("C") {
		t.Error("IsTrue wrong")
	}
	// Same status and reason: unchanged.
	if out, changed := cs.Set(meta.Condition{Type: "A", Status: meta.ConditionTrue, Reason: "R", LastTransitionTime: t1}); changed || &out[0] != &cs[0] {
		t.Error("Set(same) changed")
	}
	// New reason, same status: keeps the transition time, moves to the end.
	out, changed := cs.Set(meta.Condition{Type: "A", Status: meta.ConditionTrue, Reason: "S", LastTransitionTime: t1})
	want := meta.Conditions{cs[1], {Type: "A", Status: meta.ConditionTrue, Reason: "S", LastTransitionTime: t0}}
	if !changed || !cmp.Equal(want, out) {
		t.Errorf("Set(new reason) (-want +got):\n%s", cmp.Diff(want, out))
	}
	// New status: takes the new transition time.
	out, _ = cs.Set(meta.Condition{Type: "A", Status: meta.ConditionFalse, LastTransitionTime: t1})
	if out[1].LastTransitionTime != t1 {
		t.Errorf("Set(new status) kept %v", out[1].LastTransitionTime)
	}
	if cs[0].Reason != "R" || len(cs) != 2 {
		t.Error("Set modified its receiver")
	}
	if got := cs.Remove("A"); len(got) != 1 || got[0].Type != "B" {
		t.Errorf("Remove(A) = %v", got)
	}
	if got := cs.Remove("C"); &got[0] != &cs[0] {
		t.Error("Remove(absent) copied the list")
	}
	if got := (meta.Conditions{{Type: "A"}}).Remove("A"); got != nil {
		t.Errorf("Remove(only) = %#v; want nil", got)
	}
}
