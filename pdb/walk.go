package pdb

import (
	"slices"
	"time"

	"github.com/kubesem/kubesem/meta"
	"github.com/kubesem/kubesem/plan"
	"github.com/kubesem/kubesem/podstatus"
)

// syncWalk is what one sync reads of the pods, gathered in one walk over
// them, each pod's fields read once: the stale DisruptionTarget conditions
// of the namespace's pods ([StaleDisruptionTarget]) and, of the selected
// pods ([Selected]), their number, the walk of [ExpectedScale] that needs
// no order, the disruptedPods entries kept ([DisruptedPods]) and the
// healthy count ([CurrentHealthy]).
//
// The healthy count reads the budget's old disruptedPods, not the entries
// kept: for a selected pod not being deleted the two agree (its entry is
// kept unless expired, and an expired entry does not make it unhealthy),
// and a pod being deleted is never healthy.
type syncWalk struct {
	selected int
	scale    anyOrderScale // (when countsScale)
	// reset: the pods whose stale condition is reset now, in pods' order;
	// next: how long until the earliest one still to come (0: none)
	reset []*podstatus.Pod
	next  time.Duration
	// kept: the disruptedPods entries kept, recheck the earliest expiry
	// among them, notDeleted the pods whose entry expired (sorted once
	// the walk is done)
	kept       map[string]time.Time
	recheck    time.Time
	notDeleted []string
	healthy    int32
}

// walkPods walks pods once for Step.
func walkPods(b *PodDisruptionBudget, pods []*podstatus.Pod, controllers []Controller, now time.Time, opts Options) *syncWalk {
	w := &syncWalk{scale: anyOrderScale{controllers: controllers}, kept: map[string]time.Time{}}
	matches := b.Spec.Selector.Matcher()
	scale := countsScale(b)
	old := b.Status.DisruptedPods
	deletion, stale := opts.deletionTimeout(), opts.staleTimeout()
	for _, p := range pods {
		if p == nil || p.Namespace != b.Namespace {
			continue
		}
		// (the controller reference first: its reads are the longest
		// chain, pod, references, UID)
		ref := p.ControllerRef()
		deleting := p.IsDeleting()
		ready, target := readyAndTarget(p)
		if target != nil && !deleting && target.Status == meta.ConditionTrue && target.Reason != "TerminationByKubelet" &&
			!podstatus.IsTerminal(p) {
			switch after := max(stale-now.Sub(target.LastTransitionTime), 0); {
			case after == 0:
				w.reset = append(w.reset, p)
			case w.next == 0 || after < w.next:
				w.next = after
			}
		}
		if !matches(p.Labels) {
			continue
		}
		w.selected++
		if scale {
			w.scale.addRef(p, ref)
		}
		if deleting {
			continue
		}
		disrupted := false
		if len(old) > 0 {
			if t, ok := old[p.Name]; ok {
				expiry := t.Add(deletion)
				if expiry.Before(now) {
					w.notDeleted = append(w.notDeleted, p.Name)
				} else {
					if w.recheck.IsZero() || expiry.Before(w.recheck) {
						w.recheck = expiry
					}
					w.kept[p.Name] = t
				}
				disrupted = expiry.After(now)
			}
		}
		if !disrupted && ready != nil && ready.Status == meta.ConditionTrue {
			w.healthy++
		}
	}
	slices.Sort(w.notDeleted)
	return w
}

// readyAndTarget returns p's first Ready and first DisruptionTarget
// conditions (nil when absent), reading its conditions once.
func readyAndTarget(p *podstatus.Pod) (ready, target *podstatus.Condition) {
	cs := p.Status.Conditions
	for i := range cs {
		switch c := &cs[i]; c.Type {
		case podstatus.Ready:
			if ready == nil {
				ready = c
			}
		case podstatus.DisruptionTarget:
			if target == nil {
				target = c
			}
		default:
			continue
		}
		if ready != nil && target != nil {
			break
		}
	}
	return ready, target
}

// resets returns the stale DisruptionTarget resets, by name, and the
// requeue for the earliest one still to come.
func (w *syncWalk) resets() ([]PodRef, []plan.Requeue) {
	var refs []PodRef
	for _, p := range sortedPods(w.reset) {
		refs = append(refs, PodRef{Name: p.Name, UID: p.UID, Reason: ReasonStaleDisruptionTarget})
	}
	if w.next > 0 {
		return refs, []plan.Requeue{{After: w.next, Reason: ReasonStaleDisruptionTarget}}
	}
	return refs, nil
}

// expected is [ExpectedPods] of b over its selected pods: from the walk,
// or, when the pods' order may change the scale, from the selected pods
// in name order.
func (w *syncWalk) expected(b *PodDisruptionBudget, pods []*podstatus.Pod, controllers []Controller) (Expected, error) {
	if !countsScale(b) {
		return expectedFrom(b, 0, nil, w.selected)
	}
	n, un, ok := w.scale.result()
	if !ok {
		var err error
		if n, un, err = expectedScaleInOrder(sortedPods(selected(b, pods)), controllers); err != nil {
			return Expected{}, err
		}
	}
	return expectedFrom(b, n, un, 0)
}
