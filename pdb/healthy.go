package pdb

import (
	"slices"
	"time"

	"github.com/kubesem/kubesem/meta"
	"github.com/kubesem/kubesem/podstatus"
)

// DisruptedPods returns the disruptedPods entries the controller keeps: those
// of selected pods not being deleted whose deletion is still expected (entry
// time + timeout not before now), the time of the earliest such expiry
// (zero when none), and the pods whose entry expired without a deletion
// (sorted; each gets a NotDeleted event).
//
// Source: upstream pkg/controller/disruption/disruption.go
// buildDisruptedPodMap (v1.36.3).
func DisruptedPods(old map[string]time.Time, pods []*podstatus.Pod, now time.Time, opts Options) (kept map[string]time.Time, recheck time.Time, notDeleted []string) {
	kept = map[string]time.Time{}
	if old == nil {
		return kept, time.Time{}, nil
	}
	// (any order: the kept entries and the earliest expiry do not depend
	// on it; the names not deleted are sorted)
	for _, p := range pods {
		if p == nil || p.IsDeleting() {
			continue
		}
		t, ok := old[p.Name]
		if !ok {
			continue
		}
		expiry := t.Add(opts.deletionTimeout())
		if expiry.Before(now) {
			notDeleted = append(notDeleted, p.Name)
			continue
		}
		if recheck.IsZero() || expiry.Before(recheck) {
			recheck = expiry
		}
		kept[p.Name] = t
	}
	slices.Sort(notDeleted)
	return kept, recheck, notDeleted
}

// IsHealthy reports whether a pod counts toward status.currentHealthy: it is
// Ready, not being deleted, and not recently disrupted (no disruptedPods
// entry whose time + timeout is after now).
//
// Source: upstream pkg/controller/disruption/disruption.go countHealthyPods
// (v1.36.3).
func IsHealthy(p *podstatus.Pod, disrupted map[string]time.Time, now time.Time, opts Options) bool {
	if p == nil || p.IsDeleting() {
		return false
	}
	if t, ok := disrupted[p.Name]; ok && t.Add(opts.deletionTimeout()).After(now) {
		return false
	}
	return podstatus.IsReady(p)
}

// CurrentHealthy counts the pods for which [IsHealthy] holds.
func CurrentHealthy(pods []*podstatus.Pod, disrupted map[string]time.Time, now time.Time, opts Options) int32 {
	var n int32
	for _, p := range pods {
		if IsHealthy(p, disrupted, now, opts) {
			n++
		}
	}
	return n
}

// DisruptionsAllowed is currentHealthy − desiredHealthy, or 0 when that is
// negative or when expected is 0 or less.
//
// Source: upstream pkg/controller/disruption/disruption.go updatePdbStatus
// (v1.36.3).
func DisruptionsAllowed(currentHealthy, desiredHealthy, expected int32) int32 {
	d := int64(currentHealthy) - int64(desiredHealthy)
	if expected <= 0 || d <= 0 {
		return 0
	}
	return int32(min(d, 1<<31-1))
}

// AllowedCondition returns the DisruptionAllowed condition for a status with
// disruptionsAllowed: True/SufficientPods when it is positive, else
// False/InsufficientPods. Its observedGeneration is left 0: upstream sets
// the status's observedGeneration, which Step and Evict fill in.
//
// Source: k8s.io/component-helpers apps/poddisruptionbudget/helpers.go
// UpdateDisruptionAllowedCondition (v0.36.3).
func AllowedCondition(disruptionsAllowed int32) meta.Condition {
	if disruptionsAllowed > 0 {
		return meta.Condition{Type: DisruptionAllowed, Status: meta.ConditionTrue, Reason: string(ReasonSufficientPods)}
	}
	return meta.Condition{Type: DisruptionAllowed, Status: meta.ConditionFalse, Reason: string(ReasonInsufficientPods)}
}

// ConditionsUpToDate reports whether b's DisruptionAllowed condition agrees
// with its status and its generation is observed.
//
// Source: k8s.io/component-helpers apps/poddisruptionbudget/helpers.go
// ConditionsAreUpToDate (v0.36.3).
func ConditionsUpToDate(b *PodDisruptionBudget) bool {
	c, ok := b.Status.Conditions.Find(DisruptionAllowed)
	if !ok || b.Status.ObservedGeneration != b.Generation {
		return false
	}
	want := AllowedCondition(b.Status.DisruptionsAllowed)
	return c.Status == want.Status && c.Reason == want.Reason
}

// setCondition sets c the way apimachinery's SetStatusCondition does: a new
// condition or a status change takes now as its transition time; otherwise
// reason, message and observed generation are replaced and the transition
// time kept.
func setCondition(cs meta.Conditions, c meta.Condition, now time.Time) meta.Conditions {
	out := make(meta.Conditions, 0, len(cs)+1)
	found := false
	for _, old := range cs {
		if old.Type != c.Type {
			out = append(out, old)
			continue
		}
		found = true
		if old.Status != c.Status {
			old.Status = c.Status
			old.LastTransitionTime = now
		}
		old.Reason, old.Message, old.ObservedGeneration = c.Reason, c.Message, c.ObservedGeneration
		out = append(out, old)
	}
	if !found {
		c.LastTransitionTime = now
		out = append(out, c)
	}
	return out
}

// StaleDisruptionTarget reports whether a pod carries a DisruptionTarget=True
// condition that the controller resets to False, and how long until it does
// (0: now): the pod is not being deleted, not terminal, and the condition's
// reason is not TerminationByKubelet; it is reset once it is older than the
// stale timeout.
//
// Source: upstream pkg/controller/disruption/disruption.go
// nonTerminatingPodHasStaleDisruptionCondition (v1.36.3).
func StaleDisruptionTarget(p *podstatus.Pod, now time.Time, opts Options) (stale bool, after time.Duration) {
	if p == nil || p.IsDeleting() || podstatus.IsTerminal(p) {
		return false, 0
	}
	c := p.Condition(podstatus.DisruptionTarget)
	if c == nil || c.Status != meta.ConditionTrue || c.Reason == "TerminationByKubelet" {
		return false, 0
	}
	wait := opts.staleTimeout() - now.Sub(c.LastTransitionTime)
	return true, max(wait, 0)
}
