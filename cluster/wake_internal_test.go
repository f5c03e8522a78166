package cluster

import (
	"testing"
	"time"

	"github.com/kubesem/kubesem/intstr"
	"github.com/kubesem/kubesem/meta"
	"github.com/kubesem/kubesem/pdb"
	"github.com/kubesem/kubesem/plan"
	"github.com/kubesem/kubesem/podstatus"
)

// TestBudgetWake: a budget's wake fingerprint changes exactly when the
// budget, or the set or a write of the pods it selects (or of its
// namespace's stale DisruptionTarget pods), changed since it was taken.
func TestBudgetWake(t *testing.T) {
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	s := NewState()
	w := &World{State: s}
	apply := func(wr plan.Write) {
		t.Helper()
		if _, err := s.Apply(wr, now, DefaultNamer{}); err != nil {
			t.Fatalf("%s %s %s: %v", wr.Verb, wr.Resource, wr.Name, err)
		}
	}
	one := intstr.Int(1)
	apply(plan.Write{Verb: plan.VerbCreate, Resource: "poddisruptionbudgets", Namespace: "default", Object: &pdb.PodDisruptionBudget{
		ObjectMeta: meta.ObjectMeta{Name: "b", Namespace: "default"},
		Spec:       pdb.Spec{MinAvailable: &one, Selector: &meta.LabelSelector{MatchLabels: map[string]string{"app": "a"}}}}})
	pod := func(name, app string) *podstatus.Pod {
		return &podstatus.Pod{ObjectMeta: meta.ObjectMeta{Name: name, Namespace: "default", Labels: map[string]string{"app": app}},
			Spec: podstatus.Spec{Containers: []podstatus.Container{{Name: "c", Image: "i"}}}}
	}
	for _, p := range []*podstatus.Pod{pod("a1", "a"), pod("a2", "a"), pod("b1", "b"), pod("b2", "b")} {
		apply(plan.Write{Verb: plan.VerbCreate, Resource: "pods", Namespace: "default", Object: p})
	}
	k := Key{KindPodDisruptionBudget, "default", "b"}
	wake := disruptionController().wake
	fp := string(wake(w, k, nil))
	get := func(name string) *podstatus.Pod {
		return s.Get(Key{KindPod, "default", name}).(*podstatus.Pod)
	}
	update := func(p *podstatus.Pod) {
		apply(plan.Write{Verb: plan.VerbUpdate, Resource: "pods", Namespace: "default", Name: p.Name, Object: p})
	}
	check := func(what string, wantChange bool) {
		t.Helper()
		got := string(wake(w, k, nil))
		if (got != fp) != wantChange {
			t.Errorf("%s: fingerprint %q after %q; want a change: %v", what, got, fp, wantChange)
		}
		fp = got
	}
	check("nothing", false)

	p := *get("b1")
	p.Annotations = map[string]string{"x": "1"}
	update(&p)
	check("a pod it does not select written", false)

	p = *get("a1")
	p.Annotations = map[string]string{"x": "1"}
	update(&p)
	check("a pod it selects written", true)

	apply(plan.Write{Verb: plan.VerbDelete, Resource: "pods", Namespace: "default", Name: "a2"})
	check("a pod it selects removed", true)

	p = *get("b2")
	p.Labels = map[string]string{"app": "a"}
	update(&p)
	check("a pod comes to match", true)

	p = *get("b2")
	p.Labels = map[string]string{"app": "b"}
	update(&p)
	check("a pod no longer matches", true)

	// one selected pod leaves as another comes to match: the count stays
	p = *get("a1")
	p.Labels = map[string]string{"app": "b"}
	update(&p)
	p = *get("b1")
	p.Labels = map[string]string{"app": "a"}
	update(&p)
	check("one pod leaves as another comes", true)

	p = *get("b2")
	p.Status.Conditions = []podstatus.Condition{{Type: podstatus.DisruptionTarget, Status: meta.ConditionTrue}}
	apply(plan.Write{Verb: plan.VerbUpdate, Resource: "pods", Subresource: "status", Namespace: "default", Name: p.Name, Object: &p})
	check("a pod of its namespace turns a stale DisruptionTarget candidate", true)

	apply(plan.Write{Verb: plan.VerbCreate, Resource: "pods", Namespace: "other", Object: &podstatus.Pod{
		ObjectMeta: meta.ObjectMeta{Name: "a9", Namespace: "other", Labels: map[string]string{"app": "a"}}}})
	check("a matching pod of another namespace added", false)
}
