package pdb

import (
	"fmt"
	"reflect"
	"testing"
	"time"

	"pgregory.net/rapid"

	"github.com/kubesem/kubesem/intstr"
	"github.com/kubesem/kubesem/meta"
	"github.com/kubesem/kubesem/plan"
	"github.com/kubesem/kubesem/podstatus"
)

// stepByRules is Step composed of the rules its doc names, one walk over
// the pods for each: the general path Step's single walk must equal.
func stepByRules(b *PodDisruptionBudget, pods []*podstatus.Pod, controllers []Controller, now time.Time, opts Options) (Plan, error) {
	if err := Validate(b); err != nil {
		return Plan{}, err
	}
	p := Plan{Outcome: ReasonSynced, Status: copyStatus(b.Status)}
	var reset []*podstatus.Pod
	var next time.Duration
	for _, pod := range pods {
		if pod == nil || pod.Namespace != b.Namespace {
			continue
		}
		switch stale, after := StaleDisruptionTarget(pod, now, opts); {
		case !stale:
		case after == 0:
			reset = append(reset, pod)
		case next == 0 || after < next:
			next = after
		}
	}
	for _, pod := range sortedPods(reset) {
		p.ResetDisruptionTarget = append(p.ResetDisruptionTarget, PodRef{Name: pod.Name, UID: pod.UID, Reason: ReasonStaleDisruptionTarget})
	}
	if next > 0 {
		p.Requeue = []plan.Requeue{{After: next, Reason: ReasonStaleDisruptionTarget}}
	}
	sel := Selected(b, pods)
	if len(sel) == 0 {
		p.Events = append(p.Events, plan.Event{Type: plan.Normal, Reason: ReasonNoPods, Message: "No matching pods found"})
	}
	e, err := ExpectedPods(b, sel, controllers)
	if err != nil {
		return finish(p, b, e, err, nil, time.Time{}, nil, 0, now)
	}
	kept, recheck, notDeleted := DisruptedPods(b.Status.DisruptedPods, sel, now, opts)
	healthy := CurrentHealthy(sel, kept, now, opts)
	return finish(p, b, e, nil, kept, recheck, notDeleted, healthy, now)
}

// Step, which reads the pods in one walk, plans what the rules it
// composes plan, each walking the pods: pods of other namespaces, not
// selected, nil, being deleted, terminal, with several Ready or
// DisruptionTarget conditions, stale or fresh DisruptionTarget conditions,
// duplicate names, disruptedPods entries expired, at their expiry or
// after, unmanaged pods, controllers missing, unscalable or owned by a
// Deployment, every kind of budget and selector.
func TestPropertyStepOneWalk(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		now := time.Date(2026, 1, 1, 0, 10, 0, 0, time.UTC)
		opts := Options{}
		if rapid.Bool().Draw(t, "opts") {
			opts.DeletionTimeout = time.Duration(rapid.IntRange(0, 3).Draw(t, "deletionTimeout")) * time.Minute
			opts.StalePodDisruptionTimeout = time.Duration(rapid.IntRange(0, 3).Draw(t, "staleTimeout")) * time.Minute
		}
		value := func(label string) *intstr.Value {
			switch rapid.IntRange(0, 2).Draw(t, label) {
			case 0:
				return nil
			case 1:
				return ptr(intstr.Int(int32(rapid.IntRange(0, 8).Draw(t, label+"Int"))))
			}
			return ptr(intstr.Percent(int32(rapid.IntRange(0, 100).Draw(t, label+"Percent"))))
		}
		b := &PodDisruptionBudget{}
		b.Name, b.Namespace, b.Generation = "b", "ns", int64(rapid.IntRange(1, 2).Draw(t, "generation"))
		if rapid.Bool().Draw(t, "min") {
			b.Spec.MinAvailable = value("minAvailable")
		} else {
			b.Spec.MaxUnavailable = value("maxUnavailable")
		}
		switch rapid.IntRange(0, 3).Draw(t, "selector") {
		case 0: // nil: none
		case 1:
			b.Spec.Selector = &meta.LabelSelector{}
		case 2:
			b.Spec.Selector = meta.SelectorFromSet(map[string]string{"app": "web"})
		default:
			b.Spec.Selector = &meta.LabelSelector{MatchExpressions: []meta.Requirement{{Key: "app", Operator: meta.OpIn, Values: []string{"web", "db"}}}}
		}
		b.Status.ObservedGeneration = int64(rapid.IntRange(0, 2).Draw(t, "observed"))
		b.Status.DisruptionsAllowed = int32(rapid.IntRange(0, 3).Draw(t, "allowed"))
		b.Status.CurrentHealthy = int32(rapid.IntRange(0, 3).Draw(t, "healthy"))
		b.Status.ExpectedPods = int32(rapid.IntRange(0, 3).Draw(t, "expected"))
		if rapid.Bool().Draw(t, "condition") {
			b.Status.Conditions = meta.Conditions{AllowedCondition(b.Status.DisruptionsAllowed)}
		}

		uids := []string{"u0", "u1", "u2", "u3"}
		names := []string{"a", "b", "c"}
		var cs []Controller
		for range rapid.IntRange(0, 4).Draw(t, "controllers") {
			kind := rapid.SampledFrom([]string{"ReplicaSet", "StatefulSet", "Deployment"}).Draw(t, "kind")
			c := Controller{APIVersion: "apps/v1", Kind: kind, ObjectMeta: meta.ObjectMeta{
				Name: rapid.SampledFrom(names).Draw(t, "name"), UID: rapid.SampledFrom(uids).Draw(t, "uid")}}
			if rapid.IntRange(0, 5).Draw(t, "noScale") > 0 {
				c.Spec.Replicas = ptr(int32(rapid.IntRange(0, 6).Draw(t, "replicas")))
			}
			if kind == "ReplicaSet" && rapid.IntRange(0, 3).Draw(t, "owned") == 0 {
				c.OwnerReferences = []meta.OwnerReference{{APIVersion: "apps/v1", Kind: "Deployment",
					Name: rapid.SampledFrom(names).Draw(t, "ownerName"), UID: rapid.SampledFrom(uids).Draw(t, "ownerUID"), Controller: ptr(true)}}
			}
			cs = append(cs, c)
		}

		conditions := []podstatus.ConditionType{podstatus.Ready, podstatus.DisruptionTarget, "Other"}
		statuses := []meta.ConditionStatus{meta.ConditionTrue, meta.ConditionFalse, meta.ConditionUnknown}
		var pods []*podstatus.Pod
		disrupted := map[string]time.Time{}
		for i := range rapid.IntRange(0, 12).Draw(t, "pods") {
			if rapid.IntRange(0, 12).Draw(t, "nil") == 0 {
				pods = append(pods, nil)
				continue
			}
			p := &podstatus.Pod{}
			p.Name = fmt.Sprintf("p%d", rapid.IntRange(0, i).Draw(t, "podName"))
			p.UID = fmt.Sprintf("pod-uid-%d", i)
			p.Namespace = rapid.SampledFrom([]string{"ns", "ns", "ns", "other"}).Draw(t, "namespace")
			if l := rapid.SampledFrom([]string{"web", "web", "db", "none", ""}).Draw(t, "label"); l != "" {
				p.Labels = map[string]string{"app": l}
			}
			if rapid.IntRange(0, 4).Draw(t, "deleting") == 0 {
				p.DeletionTimestamp = ptr(now.Add(-time.Second))
			}
			p.Status.Phase = rapid.SampledFrom([]podstatus.Phase{podstatus.Running, podstatus.Running, podstatus.Pending,
				podstatus.Succeeded, podstatus.Failed}).Draw(t, "phase")
			for range rapid.IntRange(0, 3).Draw(t, "conditions") {
				c := podstatus.Condition{Type: rapid.SampledFrom(conditions).Draw(t, "conditionType"),
					Status: rapid.SampledFrom(statuses).Draw(t, "conditionStatus")}
				if c.Type == podstatus.DisruptionTarget {
					c.Reason = rapid.SampledFrom([]string{"EvictionByEvictionAPI", "TerminationByKubelet"}).Draw(t, "reason")
					c.LastTransitionTime = now.Add(-time.Duration(rapid.IntRange(0, 240).Draw(t, "targetAge")) * time.Second)
				}
				p.Status.Conditions = append(p.Status.Conditions, c)
			}
			switch rapid.IntRange(0, 3).Draw(t, "ref") {
			case 0: // unmanaged
			case 1:
				if len(cs) > 0 {
					c := rapid.SampledFrom(cs).Draw(t, "of")
					p.OwnerReferences = []meta.OwnerReference{{APIVersion: c.APIVersion, Kind: c.Kind, Name: c.Name, UID: c.UID, Controller: ptr(true)}}
				}
			default:
				p.OwnerReferences = []meta.OwnerReference{{APIVersion: "apps/v1", Kind: rapid.SampledFrom([]string{"ReplicaSet", "StatefulSet"}).Draw(t, "refKind"),
					Name: rapid.SampledFrom(names).Draw(t, "refName"), UID: rapid.SampledFrom(uids).Draw(t, "refUID"), Controller: ptr(true)}}
			}
			if rapid.IntRange(0, 3).Draw(t, "disrupted") == 0 {
				// around the 2-minute timeout: expired, at the expiry, after
				disrupted[p.Name] = now.Add(-time.Duration(rapid.IntRange(100, 140).Draw(t, "ago")) * time.Second)
			}
			pods = append(pods, p)
		}
		if len(disrupted) > 0 || rapid.Bool().Draw(t, "emptyDisrupted") {
			b.Status.DisruptedPods = disrupted
		}

		got, err := Step(b, pods, cs, now, opts)
		want, werr := stepByRules(b, pods, cs, now, opts)
		if fmt.Sprint(err) != fmt.Sprint(werr) || !reflect.DeepEqual(got, want) {
			t.Fatalf("Step = %+v, %v\nby the rules: %+v, %v", got, err, want, werr)
		}
	})
}
