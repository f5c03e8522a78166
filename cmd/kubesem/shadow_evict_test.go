package main

import (
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/utils/ptr"

	"github.com/kubesem/kubesem/cluster"
	"github.com/kubesem/kubesem/job"
	"github.com/kubesem/kubesem/meta"
	"github.com/kubesem/kubesem/plan"
)

// guardedPods are three bare Ready pods on node-a under the budget guard
// (minAvailable 2) as the disruption controller leaves it: 3 healthy, 1
// disruption allowed.
func guardedPods() (objs []runtime.Object, budget *policyv1.PodDisruptionBudget) {
	for i, name := range []string{"guarded-0", "guarded-1", "guarded-2"} {
		objs = append(objs, &corev1.Pod{
			ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "default", UID: types.UID("00000000-0000-4000-8000-00000000000" + string(rune('1'+i))),
				Labels: map[string]string{"app": "guarded"}, CreationTimestamp: metav1.NewTime(shadowT0.Add(-time.Hour))},
			Spec: corev1.PodSpec{NodeName: "node-a", Containers: []corev1.Container{{Name: "nginx", Image: "nginx:1.14.2"}}},
			Status: corev1.PodStatus{Phase: corev1.PodRunning, Conditions: []corev1.PodCondition{
				{Type: corev1.PodReady, Status: corev1.ConditionTrue, LastTransitionTime: metav1.NewTime(shadowT0.Add(-time.Hour))},
			}},
		})
	}
	budget = &policyv1.PodDisruptionBudget{
		ObjectMeta: metav1.ObjectMeta{Name: "guard", Namespace: "default", UID: "00000000-0000-4000-8000-0000000000b1", Generation: 1,
			CreationTimestamp: metav1.NewTime(shadowT0.Add(-time.Hour))},
		Spec: policyv1.PodDisruptionBudgetSpec{
			MinAvailable: ptr.To(intstr.FromInt32(2)),
			Selector:     &metav1.LabelSelector{MatchLabels: map[string]string{"app": "guarded"}},
		},
		Status: policyv1.PodDisruptionBudgetStatus{
			ObservedGeneration: 1, DisruptionsAllowed: 1, CurrentHealthy: 3, DesiredHealthy: 2, ExpectedPods: 3,
			Conditions: []metav1.Condition{{Type: policyv1.DisruptionAllowedCondition, Status: metav1.ConditionTrue, Reason: policyv1.SufficientPodsReason,
				ObservedGeneration: 1, LastTransitionTime: metav1.NewTime(shadowT0.Add(-time.Hour))}},
		},
	}
	objs = append(objs, budget, readyAPINode())
	return objs, budget
}

// evictionWrites are the API server's writes for an allowed eviction of
// pod: the budget decremented with the pod in disruptedPods (allowed and
// condition as given), the pod's DisruptionTarget condition, the pod's
// deletion.
func evictionWrites(budget *policyv1.PodDisruptionBudget, pod *corev1.Pod, allowed int32, cond metav1.ConditionStatus, reason string, at time.Time) []runtime.Object {
	b := budget.DeepCopy()
	b.Status.DisruptionsAllowed = allowed
	b.Status.DisruptedPods = map[string]metav1.Time{pod.Name: metav1.NewTime(at)}
	b.Status.Conditions[0].Status, b.Status.Conditions[0].Reason = cond, reason
	p := pod.DeepCopy()
	p.Status.Conditions = append(p.Status.Conditions, corev1.PodCondition{Type: corev1.DisruptionTarget, Status: corev1.ConditionTrue,
		Reason: "EvictionByEvictionAPI", Message: "Eviction API: evicting", LastTransitionTime: metav1.NewTime(at)})
	d := p.DeepCopy()
	d.DeletionTimestamp, d.DeletionGracePeriodSeconds = ptr.To(metav1.NewTime(at.Add(30*time.Second))), ptr.To[int64](30)
	return []runtime.Object{b, p, d}
}

// TestShadowJudgesEvictions: the eviction API's writes for an allowed
// eviction are explained (the budget's decrement by pdb.Evict, the pod's
// condition and deletion as the request's); a decrement kubesem does not
// make (disruptionsAllowed left at 1) is an unexpected mismatch naming
// kubesem's decision.
func TestShadowJudgesEvictions(t *testing.T) {
	t.Parallel()
	objs, budget := guardedPods()
	pod := objs[0].(*corev1.Pod)

	ts := newTestShadow(t, objs, "")
	ts.advance(200 * time.Millisecond)
	for _, o := range evictionWrites(budget, pod, 0, metav1.ConditionFalse, policyv1.InsufficientPodsReason, ts.clock) {
		ts.event(t, o, false, false)
	}
	ts.advance(200 * time.Millisecond)
	if ts.observed != 1 || ts.explained != 1 || ts.mismatches != 0 {
		t.Errorf("an allowed eviction: %d observed, %d explained, %d mismatches:\n%s", ts.observed, ts.explained, ts.mismatches, ts.buf)
	}

	ts = newTestShadow(t, objs, "")
	ts.advance(200 * time.Millisecond)
	for _, o := range evictionWrites(budget, pod, 1, metav1.ConditionTrue, policyv1.SufficientPodsReason, ts.clock) {
		ts.event(t, o, false, false)
	}
	ts.advance(200 * time.Millisecond)
	if out := ts.buf.String(); ts.observed != 1 || ts.mismatches != 1 || !strings.Contains(out, "evict poddisruptionbudgets default/guard") ||
		!strings.Contains(out, "the eviction of guarded-0 is allowed") || !strings.Contains(out, "status.disruptionsAllowed: 0") {
		t.Errorf("a budget not decremented: %d observed, %d mismatches:\n%s", ts.observed, ts.mismatches, out)
	}

	// A budget already at 0: kubesem refuses the eviction, so a decrement
	// is unexpected.
	at0 := budget.DeepCopy()
	at0.Status.DisruptionsAllowed, at0.Status.CurrentHealthy = 0, 2
	at0.Status.Conditions[0].Status, at0.Status.Conditions[0].Reason = metav1.ConditionFalse, policyv1.InsufficientPodsReason
	objs[3] = at0
	ts = newTestShadow(t, objs, "")
	ts.advance(200 * time.Millisecond)
	ts.event(t, evictionWrites(at0, pod, -1, metav1.ConditionFalse, policyv1.InsufficientPodsReason, ts.clock)[0], false, false)
	ts.advance(200 * time.Millisecond)
	if out := ts.buf.String(); ts.mismatches != 1 || !strings.Contains(out, "the eviction of guarded-0 is refused") || !strings.Contains(out, "too many requests") {
		t.Errorf("a decrement kubesem refuses: %d mismatches:\n%s", ts.mismatches, out)
	}
}

// TestShadowUpdateMatchesAnyWriteOfTheSync: an observed update matches a
// write the sync makes before its last write of the object (the Job
// controller's status flush before it removes finalizers), and not a value
// no write of the sync has.
func TestShadowUpdateMatchesAnyWriteOfTheSync(t *testing.T) {
	t.Parallel()
	mk := func(succeeded int32, conds ...string) *job.Job {
		j := &job.Job{}
		j.Name, j.Namespace = "indexed", "default"
		j.Status.Succeeded = succeeded
		for _, c := range conds {
			j.Status.Conditions = append(j.Status.Conditions, job.Condition{Type: job.ConditionType(c), Status: meta.ConditionTrue})
		}
		return j
	}
	before := mk(2)
	flushed := mk(3, "SuccessCriteriaMet")
	final := mk(3, "SuccessCriteriaMet", "Complete")
	pre, post := cluster.NewState(), cluster.NewState()
	if err := pre.Put(before); err != nil {
		t.Fatal(err)
	}
	if err := post.Put(final); err != nil {
		t.Fatal(err)
	}
	k := cluster.Key{Kind: cluster.KindJob, Namespace: "default", Name: "indexed"}
	decs := []cluster.Decision{{Controller: "job", Object: k, Writes: []plan.Write{
		{Verb: plan.VerbUpdate, Resource: "jobs", Subresource: "status", Namespace: "default", Name: "indexed", Object: flushed},
		{Verb: plan.VerbUpdate, Resource: "jobs", Subresource: "status", Namespace: "default", Name: "indexed", Object: final},
	}}}
	for _, tc := range []struct {
		after *job.Job
		want  bool
	}{{flushed, true}, {final, true}, {mk(4, "SuccessCriteriaMet"), false}} {
		c := &change{key: k, what: "status", before: &item{model: before}, after: &item{model: tc.after}}
		if got := consistent(c, pre, post, decs); got != tc.want {
			t.Errorf("observed %+v: consistent = %v, want %v", tc.after.Status, got, tc.want)
		}
		if got := consistent(c, pre, post, nil); got != (tc.after == final) {
			t.Errorf("observed %+v without the sync's writes: consistent = %v", tc.after.Status, got)
		}
	}
}
