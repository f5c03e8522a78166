package pdb_test

import (
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/kubesem/kubesem/field"
	"github.com/kubesem/kubesem/intstr"
	"github.com/kubesem/kubesem/meta"
	"github.com/kubesem/kubesem/pdb"
	"github.com/kubesem/kubesem/plan"
	"github.com/kubesem/kubesem/podstatus"
)

func TestSelected(t *testing.T) {
	t.Parallel()
	other := readyPod("o", true, nil)
	other.Namespace = "other"
	unlabelled := readyPod("u", true, nil)
	unlabelled.Labels = nil
	pods := []*podstatus.Pod{readyPod("c", true, nil), other, nil, unlabelled, readyPod("a", true, nil)}
	names := func(ps []*podstatus.Pod) []string {
		var out []string
		for _, p := range ps {
			out = append(out, p.Name)
		}
		return out
	}
	b := budget(nil, nil)
	if got := names(pdb.Selected(b, pods)); !slices.Equal(got, []string{"a", "c"}) {
		t.Errorf("Selected = %v; want [a c]", got)
	}
	b.Spec.Selector = &meta.LabelSelector{}
	if got := names(pdb.Selected(b, pods)); !slices.Equal(got, []string{"a", "c", "u"}) {
		t.Errorf("Selected(empty selector) = %v; want [a c u]", got)
	}
	b.Spec.Selector = nil
	if got := pdb.Selected(b, pods); len(got) != 0 {
		t.Errorf("Selected(nil selector) = %v; want none", names(got))
	}
}

// upToDate is a budget whose status is what a sync over pods computes.
func upToDate(pods []*podstatus.Pod, cs []pdb.Controller) *pdb.PodDisruptionBudget {
	b := budget(ptr(intstr.Int(2)), nil)
	p, err := pdb.Step(b, pods, cs, now.Add(-time.Hour), pdb.Options{})
	if err != nil {
		panic(err)
	}
	b.Status = p.Status
	return b
}

func TestStep(t *testing.T) {
	t.Parallel()
	pods := []*podstatus.Pod{readyPod("a", true, rsRef("rs")), readyPod("b", true, rsRef("rs")), readyPod("c", true, rsRef("rs"))}
	cs := []pdb.Controller{rs("rs", 3)}

	// First sync: written, with the condition at now.
	b := budget(ptr(intstr.Int(2)), nil)
	p, err := pdb.Step(b, pods, cs, now, pdb.Options{})
	if err != nil || p.Outcome != pdb.ReasonSynced || !p.UpdateStatus || p.Status.DisruptionsAllowed != 1 || p.Status.ObservedGeneration != 1 {
		t.Fatalf("Step(first) = %+v, %v; want Synced, written, 1 allowed", p, err)
	}
	if c, _ := p.Status.Conditions.Find(pdb.DisruptionAllowed); c.Status != meta.ConditionTrue || !c.LastTransitionTime.Equal(now) {
		t.Errorf("Step(first) condition = %+v; want True at now", c)
	}
	if len(p.Events) != 0 || len(p.Requeue) != 0 || len(p.ResetDisruptionTarget) != 0 {
		t.Errorf("Step(first) = %+v; want no events, requeues or resets", p)
	}

	// Nothing changed: no write; a new generation: a write.
	b = upToDate(pods, cs)
	if p, _ := pdb.Step(b, pods, cs, now, pdb.Options{}); p.UpdateStatus {
		t.Errorf("Step(up to date) writes %+v; want no write", p.Status)
	}
	b.Generation = 2
	if p, _ := pdb.Step(b, pods, cs, now, pdb.Options{}); !p.UpdateStatus || p.Status.ObservedGeneration != 2 {
		t.Errorf("Step(new generation) = %+v; want written with observedGeneration 2", p.Status)
	}
	// A status change keeps the condition's transition time while its
	// status stays.
	b = upToDate(pods, cs)
	lost := slices.Clone(pods)
	lost[0] = readyPod("a", false, rsRef("rs"))
	p, _ = pdb.Step(b, lost, cs, now, pdb.Options{})
	if c, _ := p.Status.Conditions.Find(pdb.DisruptionAllowed); !p.UpdateStatus || c.Status != meta.ConditionFalse || !c.LastTransitionTime.Equal(now) {
		t.Errorf("Step(one pod unready) condition = %+v; want False at now", c)
	}

	// Recovery after a failed sync: reason and message replaced, the
	// transition time kept while the status stays False.
	b = budget(ptr(intstr.Int(5)), nil)
	b.Status = pdb.Status{ObservedGeneration: 1, Conditions: meta.Conditions{{Type: pdb.DisruptionAllowed, Status: meta.ConditionFalse,
		Reason: "SyncFailed", Message: "boom", LastTransitionTime: now.Add(-time.Hour)}}}
	p, _ = pdb.Step(b, pods, cs, now, pdb.Options{})
	if c, _ := p.Status.Conditions.Find(pdb.DisruptionAllowed); c.Reason != "InsufficientPods" || c.Message != "" || !c.LastTransitionTime.Equal(now.Add(-time.Hour)) {
		t.Errorf("Step(after a failed sync) condition = %+v; want InsufficientPods, no message, transition kept", c)
	}

	// No pods: a Normal NoPods event.
	p, _ = pdb.Step(budget(ptr(intstr.Int(1)), nil), nil, nil, now, pdb.Options{})
	if len(p.Events) != 1 || p.Events[0] != (plan.Event{Type: plan.Normal, Reason: pdb.ReasonNoPods, Message: "No matching pods found"}) {
		t.Errorf("Step(no pods) events = %+v; want one NoPods", p.Events)
	}

	// Unmanaged pods with a scale-based count: a warning, the sync goes on.
	p, _ = pdb.Step(budget(nil, ptr(intstr.Int(1))), append(slices.Clone(pods), readyPod("bare", true, nil)), cs, now, pdb.Options{})
	if p.Outcome != pdb.ReasonSynced || len(p.Events) != 1 || p.Events[0].Reason != pdb.ReasonUnmanagedPods || p.Events[0].Type != plan.Warning {
		t.Errorf("Step(unmanaged pod) = %+v; want Synced with one UnmanagedPods warning", p)
	}
}

func TestStepFailSafe(t *testing.T) {
	t.Parallel()
	b := budget(nil, ptr(intstr.Int(1)))
	b.Status = pdb.Status{ObservedGeneration: 1, DisruptionsAllowed: 3, CurrentHealthy: 4, DesiredHealthy: 1, ExpectedPods: 4,
		DisruptedPods: map[string]time.Time{"x": now}}
	p, err := pdb.Step(b, []*podstatus.Pod{readyPod("a", true, rsRef("gone"))}, nil, now, pdb.Options{})
	if err != nil || p.Outcome != pdb.ReasonSyncFailed || !p.UpdateStatus {
		t.Fatalf("Step(lost controller) = %+v, %v; want SyncFailed, written", p, err)
	}
	if p.Status.DisruptionsAllowed != 0 || p.Status.CurrentHealthy != 4 || p.Status.ExpectedPods != 4 || len(p.Status.DisruptedPods) != 1 {
		t.Errorf("Step(lost controller) status = %+v; want 0 allowed, the rest kept", p.Status)
	}
	c, _ := p.Status.Conditions.Find(pdb.DisruptionAllowed)
	msg := `found no controllers for pod "a"`
	if c.Status != meta.ConditionFalse || c.Reason != "SyncFailed" || c.Message != msg || !c.LastTransitionTime.Equal(now) {
		t.Errorf("Step(lost controller) condition = %+v; want False/SyncFailed %q at now", c, msg)
	}
	if len(p.Events) != 1 || p.Events[0].Reason != pdb.ReasonCalculateExpectedPodCountFailed ||
		p.Events[0].Message != "Failed to calculate the number of expected pods: "+msg {
		t.Errorf("Step(lost controller) events = %+v", p.Events)
	}
	if len(p.Requeue) != 0 {
		t.Errorf("Step(lost controller) requeue = %+v; want none (no recheck after a failed sync)", p.Requeue)
	}
	// An invalid budget is an input error, not a fail-safe.
	if _, err := pdb.Step(budget(ptr(intstr.Int(-1)), nil), nil, nil, now, pdb.Options{}); !errors.Is(err, field.ErrNegative) {
		t.Errorf("Step(minAvailable -1) = %v; want Negative", err)
	}
}

func TestStepRequeueAndResets(t *testing.T) {
	t.Parallel()
	stale := pdb.DefaultStalePodDisruptionTimeout
	withTarget := func(p *podstatus.Pod, since time.Time) *podstatus.Pod {
		p.Status.Conditions = append(p.Status.Conditions, podstatus.Condition{Type: podstatus.DisruptionTarget,
			Status: meta.ConditionTrue, Reason: podstatus.ReasonEvictionByEvictionAPI, LastTransitionTime: since})
		return p
	}
	otherNS := withTarget(readyPod("o", true, nil), now.Add(-time.Hour))
	otherNS.Namespace = "other"
	unselected := withTarget(readyPod("u", true, nil), now.Add(-time.Hour))
	unselected.Labels = nil
	pods := []*podstatus.Pod{
		withTarget(readyPod("z", true, nil), now.Add(-stale)),                // reset now
		withTarget(readyPod("b", true, nil), now.Add(-stale+30*time.Second)), // 30s to wait
		withTarget(readyPod("c", true, nil), now.Add(-stale+10*time.Second)), // 10s to wait: the requeue
		readyPod("d", true, nil), unselected, otherNS,
	}
	b := budget(ptr(intstr.Int(1)), nil)
	b.Status.DisruptedPods = map[string]time.Time{"d": now.Add(-time.Minute), "b": now.Add(-90 * time.Second)}
	p, err := pdb.Step(b, pods, nil, now, pdb.Options{})
	if err != nil {
		t.Fatal(err)
	}
	wantResets := []pdb.PodRef{{Name: "u", UID: "u-uid", Reason: pdb.ReasonStaleDisruptionTarget}, {Name: "z", UID: "z-uid", Reason: pdb.ReasonStaleDisruptionTarget}}
	if !slices.Equal(p.ResetDisruptionTarget, wantResets) {
		t.Errorf("Step resets = %+v; want %+v (the budget's namespace, selected or not, by name)", p.ResetDisruptionTarget, wantResets)
	}
	wantRequeue := []plan.Requeue{{After: 30 * time.Second, Reason: pdb.ReasonDisruptedPodExpiry}, {After: 10 * time.Second, Reason: pdb.ReasonStaleDisruptionTarget}}
	if !slices.Equal(p.Requeue, wantRequeue) {
		t.Errorf("Step requeue = %+v; want %+v (disrupted-pod expiry first)", p.Requeue, wantRequeue)
	}
	if p.Status.CurrentHealthy != 2 {
		t.Errorf("Step currentHealthy = %d; want 2 (b and d are disrupted)", p.Status.CurrentHealthy)
	}
}
