package pdb

import (
	"errors"
	"maps"
	"slices"
	"time"

	"github.com/kubesem/kubesem/meta"
	"github.com/kubesem/kubesem/plan"
	"github.com/kubesem/kubesem/podstatus"
)

// PodRef names a pod a Plan writes to.
type PodRef struct {
	Name   string `json:"name"`
	UID    string `json:"uid,omitempty"`
	Reason Reason `json:"reason"`
}

// Plan is what one disruption controller sync of a budget decides.
type Plan struct {
	// Outcome is Synced, or SyncFailed when the expected count could not be
	// computed (the fail-safe status is written).
	Outcome Reason `json:"outcome"`
	// ResetDisruptionTarget lists the pods whose stale DisruptionTarget=True
	// condition is set to False now, in name order.
	ResetDisruptionTarget []PodRef `json:"resetDisruptionTarget"`
	// Status is the budget status after the sync.
	Status Status `json:"status"`
	// UpdateStatus is whether the controller writes Status.
	UpdateStatus bool `json:"updateStatus"`
	// Events are the events recorded, in order.
	Events []plan.Event `json:"events"`
	// Requeue: the earliest disruptedPods expiry, and the earliest stale
	// DisruptionTarget condition still to be reset.
	Requeue []plan.Requeue `json:"requeue"`
}

// MarshalJSON encodes the Plan with [plan.Encode].
func (p Plan) MarshalJSON() ([]byte, error) { return plan.Encode(p) }

// Selected returns the pods of b's namespace that b's selector matches (a nil
// selector matches none, an empty one all), in name order.
//
// Source: upstream pkg/controller/disruption/disruption.go getPodsForPdb
// (v1.36.3).
func Selected(b *PodDisruptionBudget, pods []*podstatus.Pod) []*podstatus.Pod {
	// (filtered, then sorted: the stable sort of the pods kept is the
	// pods kept of the stable sort of all)
	return sortedPods(selected(b, pods))
}

// selected is Selected in the order of pods.
func selected(b *PodDisruptionBudget, pods []*podstatus.Pod) []*podstatus.Pod {
	var out []*podstatus.Pod
	matches := b.Spec.Selector.Matcher()
	for _, p := range pods {
		if p != nil && p.Namespace == b.Namespace && matches(p.Labels) {
			out = append(out, p)
		}
	}
	return out
}

func copyStatus(s Status) Status {
	s.DisruptedPods = maps.Clone(s.DisruptedPods)
	s.Conditions = slices.Clone(s.Conditions)
	return s
}

func sameDisrupted(a, b map[string]time.Time) bool {
	if len(a) != len(b) {
		return false
	}
	for k, t := range a {
		u, ok := b[k]
		if !ok || !t.Equal(u) {
			return false
		}
	}
	return true
}

// Step is one sync of budget b by the disruption controller at now: select
// the pods, compute expected pods and desired healthy ([ExpectedPods]), keep
// the unexpired disruptedPods ([DisruptedPods]), count current healthy
// ([CurrentHealthy]) and disruptions allowed ([DisruptionsAllowed]), and
// write the status with the DisruptionAllowed condition unless nothing
// changed. When the expected count fails, the fail-safe status (0
// disruptions allowed, DisruptionAllowed False/SyncFailed with the error) is
// written. Pods of b's namespace with a stale DisruptionTarget condition are
// reset (or requeued) as the controller's stale-pod worker does.
//
// Source: upstream pkg/controller/disruption/disruption.go sync, trySync,
// failSafe, updatePdbStatus, syncStalePodDisruption (v1.36.3).
func Step(b *PodDisruptionBudget, pods []*podstatus.Pod, controllers []Controller, now time.Time, opts Options) (Plan, error) {
	if err := Validate(b); err != nil {
		return Plan{}, err
	}
	p := Plan{Outcome: ReasonSynced, Status: copyStatus(b.Status)}
	w := walkPods(b, pods, controllers, now, opts)
	p.ResetDisruptionTarget, p.Requeue = w.resets()
	if w.selected == 0 {
		p.Events = append(p.Events, plan.Event{Type: plan.Normal, Reason: ReasonNoPods, Message: "No matching pods found"})
	}
	e, err := w.expected(b, pods, controllers)
	return finish(p, b, e, err, w.kept, w.recheck, w.notDeleted, w.healthy, now)
}

// finish completes a sync's Plan p from what the pods gave: the expected
// count e (or its error: the fail-safe status), the disruptedPods entries
// kept, the earliest expiry to recheck, the entries whose pods were not
// deleted in time, and the healthy count.
func finish(p Plan, b *PodDisruptionBudget, e Expected, err error, kept map[string]time.Time, recheck time.Time,
	notDeleted []string, healthy int32, now time.Time) (Plan, error) {
	if err != nil {
		var se *ScaleError
		if !errors.As(err, &se) {
			return Plan{}, err
		}
		p.Events = append(p.Events, plan.Event{Type: plan.Warning, Reason: ReasonCalculateExpectedPodCountFailed,
			Message: "Failed to calculate the number of expected pods: " + se.Message})
		p.Outcome = ReasonSyncFailed
		p.Status.DisruptionsAllowed = 0
		p.Status.Conditions = setCondition(p.Status.Conditions, meta.Condition{Type: DisruptionAllowed,
			Status: meta.ConditionFalse, Reason: string(ReasonSyncFailed), Message: se.Message,
			ObservedGeneration: p.Status.ObservedGeneration}, now)
		p.UpdateStatus = true
		return p, nil
	}
	if len(e.Unmanaged) > 0 {
		p.Events = append(p.Events, plan.Event{Type: plan.Warning, Reason: ReasonUnmanagedPods})
	}
	for _, name := range notDeleted {
		p.Events = append(p.Events, plan.Event{Type: plan.Warning, Reason: ReasonNotDeleted, Object: name})
	}
	allowed := DisruptionsAllowed(healthy, e.DesiredHealthy, e.Count)
	if !recheck.IsZero() {
		p.Requeue = append([]plan.Requeue{{After: recheck.Sub(now), Reason: ReasonDisruptedPodExpiry}}, p.Requeue...)
	}
	s := b.Status
	if s.CurrentHealthy == healthy && s.DesiredHealthy == e.DesiredHealthy && s.ExpectedPods == e.Count &&
		s.DisruptionsAllowed == allowed && sameDisrupted(s.DisruptedPods, kept) &&
		s.ObservedGeneration == b.Generation && ConditionsUpToDate(b) {
		return p, nil
	}
	if len(kept) == 0 {
		kept = nil
	}
	c := AllowedCondition(allowed)
	c.ObservedGeneration = b.Generation // (the status's new observedGeneration)
	p.Status = Status{
		ObservedGeneration: b.Generation,
		DisruptedPods:      kept,
		DisruptionsAllowed: allowed,
		CurrentHealthy:     healthy,
		DesiredHealthy:     e.DesiredHealthy,
		ExpectedPods:       e.Count,
		Conditions:         setCondition(b.Status.Conditions, c, now),
	}
	p.UpdateStatus = true
	return p, nil
}
