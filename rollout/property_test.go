package rollout_test

import (
	"errors"
	"fmt"
	"reflect"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"

	"github.com/kubesem/kubesem/field"
	"github.com/kubesem/kubesem/internal/deepcopy"
	"github.com/kubesem/kubesem/intstr"
	"github.com/kubesem/kubesem/meta"
	"github.com/kubesem/kubesem/replicaset"
	"github.com/kubesem/kubesem/rollout"
)

// boundGen draws a valid maxSurge or maxUnavailable.
func boundGen(t *rapid.T, label string) string {
	if rapid.Bool().Draw(t, label+"IsPercent") {
		return fmt.Sprintf("%d%%", rapid.IntRange(0, 100).Draw(t, label))
	}
	return fmt.Sprint(rapid.IntRange(0, 5).Draw(t, label))
}

// checkRollingBounds simulates a rolling update with random readiness and
// checks the surge and unavailability bounds after every sync, then that the
// rollout converges and that a converged Step does nothing.
func checkRollingBounds(t *rapid.T) {
	n := rapid.Int32Range(1, 30).Draw(t, "replicas")
	s, u := boundGen(t, "maxSurge"), boundGen(t, "maxUnavailable")
	if s == "0" || s == "0%" {
		if u == "0" || u == "0%" {
			u = "1"
		}
	}
	w := rolloutWorld(n, s, u)
	maxTotal := n + w.d.MaxSurge()
	minAvailable := w.d.MinAvailable()
	for i := 0; i < 300; i++ {
		if _, err := w.tick(); err != nil {
			t.Fatalf("tick %d: %v", i, err)
		}
		var total, available int32
		for _, r := range w.rss {
			total += r.Replicas()
			available += min(r.Status.AvailableReplicas, r.Replicas())
		}
		if total > maxTotal {
			t.Fatalf("tick %d: %d pods; want at most replicas+maxSurge = %d", i, total, maxTotal)
		}
		if available < minAvailable {
			t.Fatalf("tick %d: %d available; want at least %d", i, available, minAvailable)
		}
		ready := rapid.Int32Range(0, 3).Draw(t, fmt.Sprintf("ready%d", i))
		if i > 100 {
			ready = max(ready, 1)
		}
		w.settle(func(*replicaset.ReplicaSet) int32 { return ready })
	}
	for _, r := range w.rss {
		isNew := r.Spec.Template.Spec.Containers[0].Image == "app:v2"
		if isNew && r.Replicas() != n || !isNew && r.Replicas() != 0 {
			t.Fatalf("not converged: %s has %d replicas", r.Name, r.Replicas())
		}
	}
	if _, err := w.tick(); err != nil {
		t.Fatal(err)
	}
	p, err := rollout.Step(w.d, w.rss, nil, w.now, rollout.Options{})
	if err != nil || writes(p) != 0 {
		t.Fatalf("converged Step = %+v, %v; want no writes", p, err)
	}
}

func TestRollingBounds(t *testing.T) { rapid.Check(t, checkRollingBounds) }

// checkProportionalConserves checks that proportional scaling of several
// active ReplicaSets brings their total to replicas + maxSurge, unless the
// largest had to be clamped at 0.
func checkProportionalConserves(t *rapid.T) {
	before := rapid.Int32Range(1, 40).Draw(t, "before")
	d := deploy(rapid.Int32Range(0, 60).Draw(t, "replicas"), boundGen(t, "maxSurge"), "1")
	allowed := int32(0)
	if d.Replicas() > 0 {
		allowed = d.Replicas() + d.MaxSurge()
	}
	k := rapid.IntRange(2, 6).Draw(t, "k")
	var old []*replicaset.ReplicaSet
	for i := 0; i < k; i++ {
		r := rs(fmt.Sprintf("rs%d", i), rapid.Int32Range(1, 20).Draw(t, fmt.Sprintf("size%d", i)), 0, rapid.IntRange(0, 3).Draw(t, fmt.Sprintf("age%d", i)))
		old = append(old, annotated(r, "1", fmt.Sprint(before)))
	}
	scales := rollout.Proportional(d, nil, old)
	var sum int32
	clamped := false
	for _, s := range scales {
		if s.Replicas < 0 {
			t.Fatalf("%s scaled to %d", s.ReplicaSet.Name, s.Replicas)
		}
		clamped = clamped || s.Replicas == 0
		sum += s.Replicas
	}
	if len(scales) != k || (sum != allowed && !clamped) {
		t.Fatalf("Proportional total = %d over %d ReplicaSets; want %d over %d", sum, len(scales), allowed, k)
	}
}

func TestProportionalConserves(t *testing.T) { rapid.Check(t, checkProportionalConserves) }

// checkStepTotal drives Step with arbitrary, often invalid, input: it must
// not panic, must return only *field.Error, a plan's scales must be
// non-negative unless the surge wraps int32, and shuffling the ReplicaSets must give the same Plan.
func checkStepTotal(t *rapid.T) {
	words := []string{"", "0", "1", "25%", "0%", "100%", "150%", "abc", "-1", "2147483647", "99999999999%"}
	surge := rapid.SampledFrom(words).Draw(t, "maxSurge")
	d := deploy(rapid.Int32Range(-2, 40).Draw(t, "replicas"), surge, rapid.SampledFrom(words).Draw(t, "maxUnavailable"))
	// A surge near int32's top wraps upstream's proportional arithmetic: 2
	// replicas with maxSurge 99999999999% over a ReplicaSet without a
	// max-replicas annotation scale it to -2000000002 in v1.36.3 too
	// (TestRolloutProportionalDifferential draws such surges). Only then
	// may a scale be negative.
	wraps := surge == "2147483647" || surge == "99999999999%"
	d.Spec.Strategy.Type = rapid.SampledFrom([]rollout.StrategyType{"", rollout.RollingUpdateStrategy, rollout.RecreateStrategy, "Other"}).Draw(t, "strategy")
	d.Spec.Paused = rapid.Bool().Draw(t, "paused")
	d.TemplateHash = rapid.SampledFrom([]string{"", "h0", "h1"}).Draw(t, "hash")
	if rapid.Bool().Draw(t, "history") {
		d.Annotations = map[string]string{rollout.RevisionAnnotation: "1"}
		d.Status.Conditions = meta.Conditions{{Type: rollout.Progressing, Status: meta.ConditionTrue,
			Reason: rapid.SampledFrom([]string{rollout.ReasonDeploymentPaused, rollout.ReasonNewReplicaSetAvailable, rollout.ReasonReplicaSetUpdated}).Draw(t, "reason")}}
	}
	var rss []*replicaset.ReplicaSet
	for i := range rapid.IntRange(0, 5).Draw(t, "k") {
		if rapid.IntRange(0, 20).Draw(t, fmt.Sprintf("nil%d", i)) == 0 {
			rss = append(rss, nil)
			continue
		}
		r := rs(fmt.Sprintf("foo-h%d", rapid.IntRange(0, 4).Draw(t, fmt.Sprintf("name%d", i))), rapid.Int32Range(-1, 30).Draw(t, fmt.Sprintf("size%d", i)), rapid.Int32Range(0, 30).Draw(t, fmt.Sprintf("avl%d", i)), i)
		r.Spec.Template.Labels = map[string]string{rollout.HashLabel: fmt.Sprintf("h%d", i%2)}
		// mostly d's; else an orphan, another controller's, or one d
		// controls but does not select (claimed by Step)
		r.Labels = map[string]string{"app": "foo"}
		switch rapid.IntRange(0, 6).Draw(t, fmt.Sprintf("owner%d", i)) {
		case 0:
		case 1:
			r.OwnerReferences = []meta.OwnerReference{meta.NewControllerRef("apps/v1", "Deployment", "other", "other-uid")}
		case 2:
			r.Labels = nil
			fallthrough
		default:
			r.OwnerReferences = []meta.OwnerReference{meta.NewControllerRef("apps/v1", "Deployment", d.Name, d.UID)}
		}
		annotated(r, rapid.SampledFrom(words).Draw(t, fmt.Sprintf("desired%d", i)), rapid.SampledFrom(words).Draw(t, fmt.Sprintf("max%d", i)))
		rss = append(rss, r)
	}
	p, err := rollout.Step(d, rss, nil, t0, rollout.Options{})
	if err != nil {
		var fe *field.Error
		if !errors.As(err, &fe) || field.Kind(err) == "" {
			t.Fatalf("Step error %v is not a *field.Error with a kind", err)
		}
		return
	}
	for _, r := range p.Scale {
		if r.Replicas < 0 && !wraps {
			t.Fatalf("resize %+v has negative replicas", r)
		}
	}
	_ = p.Apply(rss, t0)
	shuffled := slices.Clone(rss)
	for i := len(shuffled) - 1; i > 0; i-- {
		k := rapid.IntRange(0, i).Draw(t, "swap")
		shuffled[i], shuffled[k] = shuffled[k], shuffled[i]
	}
	q, err := rollout.Step(d, shuffled, nil, t0, rollout.Options{})
	if err != nil {
		t.Fatalf("Step(shuffled) = %v; Step = ok", err)
	}
	if !reflect.DeepEqual(p, q) {
		t.Fatalf("Step depends on the order of ReplicaSets:\n%s", cmp.Diff(p, q))
	}
	before := deepcopy.Copy(struct {
		D   *rollout.Deployment
		RSS []*replicaset.ReplicaSet
		P   rollout.Plan
	}{d, rss, p})
	ws, err := p.Writes(d, rss, nil, t0)
	if err != nil {
		t.Fatalf("Writes = %v", err)
	}
	if ws2, _ := q.Writes(d, shuffled, nil, t0); !reflect.DeepEqual(ws, ws2) {
		t.Fatalf("Writes depends on the order of ReplicaSets")
	}
	// Writes neither modifies nor aliases its inputs: changing every
	// written object's maps and lists leaves them as they were.
	for _, w := range ws {
		switch o := w.Object.(type) {
		case *rollout.Deployment:
			scribble(&o.ObjectMeta)
			for i := range o.Status.Conditions {
				o.Status.Conditions[i].Reason = "scribbled"
			}
			o.Spec.Template.Labels = map[string]string{"scribbled": "x"}
		case *replicaset.ReplicaSet:
			scribble(&o.ObjectMeta)
			for k := range o.Spec.Template.Labels {
				o.Spec.Template.Labels[k] = "scribbled"
			}
		}
	}
	if !reflect.DeepEqual(before.D, d) || !reflect.DeepEqual(before.RSS, rss) || !reflect.DeepEqual(before.P, p) {
		t.Fatalf("Writes' objects alias its inputs")
	}
}

func TestStepTotal(t *testing.T) { rapid.Check(t, checkStepTotal) }

// scribble changes m's maps and lists in place.
func scribble(m *meta.ObjectMeta) {
	for k := range m.Annotations {
		m.Annotations[k] = "scribbled"
	}
	for k := range m.Labels {
		m.Labels[k] = "scribbled"
	}
	for i := range m.OwnerReferences {
		m.OwnerReferences[i].Name = "scribbled"
	}
}

// Keep intstr imported for boundGen's callers in other files.
var _ = intstr.Int
