package pdb_test

import (
	"errors"
	"strconv"
	"testing"
	"time"

	"github.com/kubesem/kubesem/field"
	"github.com/kubesem/kubesem/intstr"
	"github.com/kubesem/kubesem/meta"
	"github.com/kubesem/kubesem/pdb"
	"github.com/kubesem/kubesem/podstatus"
)

func TestIgnoresBudget(t *testing.T) {
	t.Parallel()
	tests := []struct {
		phase    podstatus.Phase
		deleting bool
		want     bool
	}{
		{podstatus.Running, false, false},
		{podstatus.Unknown, false, false},
		{"", false, false},
		{podstatus.Pending, false, true},
		{podstatus.Succeeded, false, true},
		{podstatus.Failed, false, true},
		{podstatus.Running, true, true},
	}
	for _, tc := range tests {
		p := readyPod("a", true, nil)
		p.Status.Phase = tc.phase
		if tc.deleting {
			deleting(p)
		}
		if got := pdb.IgnoresBudget(p); got != tc.want {
			t.Errorf("IgnoresBudget(%q, deleting %v) = %v; want %v", tc.phase, tc.deleting, got, tc.want)
		}
	}
}

func named(name string, b *pdb.PodDisruptionBudget) pdb.PodDisruptionBudget {
	b.Name = name
	return *b
}

func TestBudgets(t *testing.T) {
	t.Parallel()
	other := named("other-ns", budget(nil, nil))
	other.Namespace = "other"
	nilSel := named("nil-selector", budget(nil, nil))
	nilSel.Spec.Selector = nil
	badSel := named("bad-selector", budget(nil, nil))
	badSel.Spec.Selector = &meta.LabelSelector{MatchExpressions: []meta.Requirement{{Key: "app", Operator: "Near"}}}
	otherLabels := named("other-labels", budget(nil, nil))
	otherLabels.Spec.Selector = meta.SelectorFromSet(map[string]string{"app": "db"})
	empty := named("b-empty", budget(nil, nil))
	empty.Spec.Selector = &meta.LabelSelector{}
	bs := []pdb.PodDisruptionBudget{named("c", budget(nil, nil)), other, nilSel, badSel, otherLabels, empty, named("a", budget(nil, nil))}
	got := pdb.Budgets(readyPod("p", true, nil), bs)
	var names []string
	for _, b := range got {
		names = append(names, b.Name)
	}
	if want := []string{"a", "b-empty", "c"}; !equalStrings(names, want) {
		t.Errorf("Budgets = %v; want %v (namespace, valid matching selector, by name)", names, want)
	}
	if got[0] != &bs[6] {
		t.Errorf("Budgets returns copies; want pointers into the input")
	}
}

func equalStrings(a, b []string) bool {
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

func TestUnhealthyEvictable(t *testing.T) {
	t.Parallel()
	tests := []struct {
		policy           pdb.EvictionPolicy
		current, desired int32
		want             bool
		reason           pdb.Reason
	}{
		{pdb.AlwaysAllow, 0, 5, true, pdb.ReasonUnhealthyAlwaysAllow},
		{pdb.IfHealthyBudget, 3, 3, true, pdb.ReasonUnhealthyHealthyBudget},
		{pdb.IfHealthyBudget, 4, 3, true, pdb.ReasonUnhealthyHealthyBudget},
		{pdb.IfHealthyBudget, 2, 3, false, ""},
		{pdb.IfHealthyBudget, 3, 0, false, ""}, // desires none
		{"", 3, 3, true, pdb.ReasonUnhealthyHealthyBudget},
	}
	for _, tc := range tests {
		b := budget(nil, nil)
		if tc.policy != "" {
			b.Spec.UnhealthyPodEvictionPolicy = &tc.policy
		}
		b.Status.CurrentHealthy, b.Status.DesiredHealthy = tc.current, tc.desired
		if ok, r := pdb.UnhealthyEvictable(b); ok != tc.want || r != tc.reason {
			t.Errorf("UnhealthyEvictable(%q, %d/%d) = %v, %q; want %v, %q", tc.policy, tc.current, tc.desired, ok, r, tc.want, tc.reason)
		}
	}
}

// ready budget: generation observed, allowed disruptions, healthy counts.
func decBudget(allowed int32) *pdb.PodDisruptionBudget {
	b := budget(ptr(intstr.Int(2)), nil)
	b.Status = pdb.Status{ObservedGeneration: 1, DisruptionsAllowed: allowed, CurrentHealthy: 3, DesiredHealthy: 2,
		Conditions: meta.Conditions{{Type: pdb.DisruptionAllowed, Status: meta.ConditionTrue, Reason: "SufficientPods", LastTransitionTime: now.Add(-time.Hour)}}}
	return b
}

func TestDecrement(t *testing.T) {
	t.Parallel()
	b := decBudget(2)
	d, s := pdb.Decrement(b, "p", now)
	if !d.Allowed || d.Code != 200 || d.Reason != pdb.ReasonBudgetDecremented || d.Budget != "web" {
		t.Errorf("Decrement(2 allowed) = %+v; want allowed", d)
	}
	if s.DisruptionsAllowed != 1 || !s.DisruptedPods["p"].Equal(now) || len(s.DisruptedPods) != 1 {
		t.Errorf("Decrement(2 allowed) status = %+v; want 1 allowed, p disrupted now", s)
	}
	if c, _ := s.Conditions.Find(pdb.DisruptionAllowed); c.Status != meta.ConditionTrue {
		t.Errorf("Decrement(2 allowed) condition = %+v; want still True", c)
	}
	if b.Status.DisruptionsAllowed != 2 || b.Status.DisruptedPods != nil {
		t.Errorf("Decrement modified its budget: %+v", b.Status)
	}
	// The last disruption turns the condition False at now.
	_, s = pdb.Decrement(decBudget(1), "p", now)
	if c, _ := s.Conditions.Find(pdb.DisruptionAllowed); s.DisruptionsAllowed != 0 || c.Status != meta.ConditionFalse ||
		c.Reason != "InsufficientPods" || !c.LastTransitionTime.Equal(now) {
		t.Errorf("Decrement(1 allowed) = %+v; want 0 allowed, condition False/InsufficientPods at now", s)
	}

	unobserved := decBudget(1)
	unobserved.Generation = 2
	negative := decBudget(-1)
	full, over := decBudget(1), decBudget(1)
	full.Status.DisruptedPods, over.Status.DisruptedPods = map[string]time.Time{}, map[string]time.Time{}
	for i := range pdb.MaxDisruptedPods {
		full.Status.DisruptedPods["d"+strconv.Itoa(i)] = now
		over.Status.DisruptedPods["d"+strconv.Itoa(i)] = now
	}
	over.Status.DisruptedPods["one-more"] = now
	tests := []struct {
		name    string
		b       *pdb.PodDisruptionBudget
		allowed bool
		code    int32
		reason  pdb.Reason
		retry   int32
	}{
		{"generation not observed", unobserved, false, 429, pdb.ReasonGenerationNotObserved, 10},
		{"negative budget", negative, false, 403, pdb.ReasonNegativeBudget, 0},
		{"exactly MaxDisruptedPods entries", full, true, 200, pdb.ReasonBudgetDecremented, 0},
		{"one entry past MaxDisruptedPods", over, false, 403, pdb.ReasonTooManyDisruptedPods, 0},
		{"none allowed", decBudget(0), false, 429, pdb.ReasonNoDisruptionsAllowed, 0},
	}
	for _, tc := range tests {
		d, _ := pdb.Decrement(tc.b, "p", now)
		if d.Allowed != tc.allowed || d.Code != tc.code || d.Reason != tc.reason || d.RetryAfterSeconds != tc.retry {
			t.Errorf("Decrement(%s) = %+v; want allowed %v, %d %s, retry %d", tc.name, d, tc.allowed, tc.code, tc.reason, tc.retry)
		}
	}
}

func TestDecrementMessages(t *testing.T) {
	t.Parallel()
	withCond := func(current, desired int32, status meta.ConditionStatus, reason, msg string) *pdb.PodDisruptionBudget {
		b := decBudget(0)
		b.Status.CurrentHealthy, b.Status.DesiredHealthy = current, desired
		b.Status.Conditions = meta.Conditions{{Type: pdb.DisruptionAllowed, Status: status, Reason: reason, Message: msg}}
		return b
	}
	tests := []struct {
		name string
		b    *pdb.PodDisruptionBudget
		want string
	}{
		{"sync failed", withCond(3, 2, meta.ConditionFalse, "SyncFailed", "boom"),
			"The disruption budget web does not allow evicting pods currently because it failed sync: boom"},
		{"sync failed without a message: the healthy counts", withCond(2, 2, meta.ConditionFalse, "SyncFailed", ""),
			"The disruption budget web needs 2 healthy pods and has 2 currently"},
		{"too few healthy", withCond(1, 2, meta.ConditionFalse, "InsufficientPods", ""),
			"The disruption budget web needs 2 healthy pods and has 1 currently"},
		{"other False reason with a message", withCond(3, 2, meta.ConditionFalse, "Other", "why"),
			"The disruption budget web does not allow evicting pods currently (Other): why"},
		{"condition True", withCond(3, 2, meta.ConditionTrue, "SufficientPods", "ignored"),
			"The disruption budget web does not allow evicting pods currently"},
	}
	for _, tc := range tests {
		if d, _ := pdb.Decrement(tc.b, "p", now); d.Message != tc.want {
			t.Errorf("Decrement(%s).Message = %q; want %q", tc.name, d.Message, tc.want)
		}
	}
}

func TestEvict(t *testing.T) {
	t.Parallel()
	if _, err := pdb.Evict(nil, nil, pdb.Request{}, now); !errors.Is(err, field.ErrRequired) {
		t.Errorf("Evict(nil pod) = %v; want Required", err)
	}
	budgets := []pdb.PodDisruptionBudget{*decBudget(1)}
	tests := []struct {
		name      string
		pod       *podstatus.Pod
		budgets   []pdb.PodDisruptionBudget
		dryRun    bool
		allowed   bool
		code      int32
		reason    pdb.Reason
		update    bool
		target    bool
		hasStatus bool
	}{
		{"ready pod, budget allows", readyPod("p", true, nil), budgets, false, true, 200, pdb.ReasonBudgetDecremented, true, true, true},
		{"ready pod, budget allows, dry run", readyPod("p", true, nil), budgets, true, true, 200, pdb.ReasonBudgetDecremented, false, false, true},
		{"no budget", readyPod("p", true, nil), nil, false, true, 200, pdb.ReasonNoBudget, false, true, false},
		{"pending pod ignores the budget", func() *podstatus.Pod { p := readyPod("p", true, nil); p.Status.Phase = podstatus.Pending; return p }(),
			[]pdb.PodDisruptionBudget{*decBudget(0)}, false, true, 200, pdb.ReasonIgnoresBudget, false, true, false},
		{"two budgets", readyPod("p", true, nil), []pdb.PodDisruptionBudget{named("a", decBudget(1)), named("b", decBudget(1))},
			false, false, 500, pdb.ReasonTooManyBudgets, false, false, false},
		{"unready pod, healthy budget", readyPod("p", false, nil), []pdb.PodDisruptionBudget{*decBudget(0)}, false, true, 200, pdb.ReasonUnhealthyHealthyBudget, false, true, false},
		{"ready pod, none allowed", readyPod("p", true, nil), []pdb.PodDisruptionBudget{*decBudget(0)}, false, false, 429, pdb.ReasonNoDisruptionsAllowed, false, false, false},
	}
	for _, tc := range tests {
		d, err := pdb.Evict(tc.pod, tc.budgets, pdb.Request{DryRun: tc.dryRun}, now)
		if err != nil || d.Allowed != tc.allowed || d.Code != tc.code || d.Reason != tc.reason || d.UpdateStatus != tc.update ||
			d.DisruptionTarget != tc.target || (d.Status != nil) != tc.hasStatus {
			t.Errorf("Evict(%s) = %+v, %v; want allowed %v, %d %s, update %v, target %v, status %v", tc.name, d, err, tc.allowed, tc.code, tc.reason, tc.update, tc.target, tc.hasStatus)
		}
	}
	// A dry run reports the decremented status without recording the pod.
	d, _ := pdb.Evict(readyPod("p", true, nil), budgets, pdb.Request{DryRun: true}, now)
	if d.Status.DisruptionsAllowed != 0 || len(d.Status.DisruptedPods) != 0 {
		t.Errorf("Evict(dry run).Status = %+v; want 0 allowed, no disrupted pod", *d.Status)
	}
	if budgets[0].Status.DisruptionsAllowed != 1 {
		t.Errorf("Evict modified its budgets")
	}
}
