package node

import (
	"cmp"
	"fmt"
	"slices"
	"time"

	"github.com/kubesem/kubesem/field"
	"github.com/kubesem/kubesem/plan"
	"github.com/kubesem/kubesem/podstatus"
)

// ScheduledEviction is a pod deletion the taint-eviction controller has
// scheduled: created when it was first decided, firing at FireAt.
type ScheduledEviction struct {
	Pod       string    `json:"pod"`
	CreatedAt time.Time `json:"createdAt"`
	FireAt    time.Time `json:"fireAt"`
}

// EvictionPlan is one taint-eviction pass over a node's pods.
type EvictionPlan struct {
	Outcome Reason `json:"outcome"`
	// Decisions is each pod's eviction, in pod-name order.
	Decisions []PodEviction `json:"decisions"`
	// Delete lists the pods deleted now (their eviction is due).
	Delete []plan.Deletion `json:"delete"`
	// Events are the TaintManagerEviction events, by pod name: a pod's
	// "Cancelling deletion of Pod <ns>/<name>" when its scheduled eviction
	// is cancelled or replaced, then its "Marking for deletion Pod
	// <ns>/<name>" when it is deleted.
	Events []plan.Event `json:"events"`
	// Requeue is when the next scheduled eviction fires.
	Requeue []plan.Requeue `json:"requeue"`
	// Memory is the controller's memory after the pass: the evictions
	// still pending, by pod name (the next pass's scheduled argument).
	Memory []ScheduledEviction `json:"memory"`
}

// MarshalJSON encodes the plan with [plan.Encode].
func (p EvictionPlan) MarshalJSON() ([]byte, error) { return plan.Encode(p) }

// PodEviction is one pod's answer.
type PodEviction struct {
	Pod string `json:"pod"`
	Eviction
	// Kept is true when an earlier scheduled eviction stays in place (its
	// fire time unchanged, even if the tolerations changed).
	Kept bool `json:"kept,omitempty"`
}

// EvictionStep is the taint-eviction controller handling node n's update
// at now for the pods bound to it (pods of other nodes are ignored), with
// scheduled the evictions it had scheduled before: without NoExecute taints
// every scheduled eviction is cancelled; otherwise each pod gets
// [EvictionFor] at now, except that a pod whose eviction was scheduled
// before now keeps it when its tolerations still give a time, even a time
// of 0 (upstream keeps the earlier work whenever it was created earlier),
// an untolerated taint replaces it by an immediate deletion, and
// tolerations without tolerationSeconds (or whose time wraps negative)
// cancel it. Pods whose eviction is due (fire time ≤ now) are deleted.
// Cancelling or replacing a scheduled eviction, and deleting a pod, each
// record a TaintManagerEviction event. A pod whose eviction fired is not
// in Memory (upstream's queue forgets work once it ran), so a later pass
// over it evicts it again: callers pass only the pods upstream would
// process (see the cluster package). Scheduled evictions of pods not
// passed stay in Memory unchanged and do not count for Requeue. Pods are
// keyed by name: two pods of the node with one name (in two namespaces)
// are an error (field.ErrDuplicate), never a merged answer.
//
// Source: upstream pkg/controller/tainteviction Controller.handleNodeUpdate
// and processPodOnNode, cancelWorkWithEvent, emitPodDeletionEvent and
// emitCancelPodDeletionEvent (v1.36.3).
func EvictionStep(n *Node, pods []*podstatus.Pod, scheduled []ScheduledEviction, now time.Time, opts Options) (EvictionPlan, error) {
	if n == nil {
		return EvictionPlan{}, field.New("node", "", field.ErrRequired)
	}
	for i, p := range pods {
		if p == nil {
			return EvictionPlan{}, field.New(field.Index("pods", i), "", field.ErrRequired)
		}
	}
	prev := map[string]ScheduledEviction{}
	for _, s := range scheduled {
		prev[s.Pod] = s
	}
	var mine []*podstatus.Pod
	names := map[string]bool{}
	for i, p := range pods {
		if p.Spec.NodeName == n.Name {
			if names[p.Name] {
				// Memory and decisions are keyed by pod name: two pods of
				// one name (in two namespaces) cannot be told apart.
				return EvictionPlan{}, field.New(field.Index("pods", i)+".metadata.name", p.Name,
					fmt.Errorf("%w: two pods of node %s have this name (EvictionStep keys pods by name; pass one namespace's pods at a time)", field.ErrDuplicate, n.Name))
			}
			names[p.Name] = true
			mine = append(mine, p)
		}
	}
	slices.SortStableFunc(mine, func(a, b *podstatus.Pod) int { return cmp.Compare(a.Name, b.Name) })
	out := EvictionPlan{Outcome: ReasonEvictionsProcessed, Decisions: []PodEviction{}, Delete: []plan.Deletion{}, Events: []plan.Event{}, Requeue: []plan.Requeue{}, Memory: []ScheduledEviction{}}
	cancelled := map[string]bool{}
	noExec := false
	for _, t := range n.Spec.Taints {
		if t.Effect == NoExecute {
			noExec = true
		}
	}
	next := map[string]ScheduledEviction{}
	for _, s := range scheduled {
		next[s.Pod] = s
	}
	onNode := map[string]bool{}
	for _, p := range mine {
		onNode[p.Name] = true
		_, had := prev[p.Name]
		if !noExec {
			cancelled[p.Name] = had
			delete(next, p.Name)
			out.Decisions = append(out.Decisions, PodEviction{Pod: p.Name, Eviction: Eviction{Kind: NotEvicted}})
			continue
		}
		e, untolerated := evictionFor(p.Spec.Tolerations, n.Spec.Taints, now, opts)
		d := PodEviction{Pod: p.Name, Eviction: e}
		switch {
		case e.Kind == NotEvicted:
			cancelled[p.Name] = had
			delete(next, p.Name)
		case untolerated:
			cancelled[p.Name] = had
			next[p.Name] = ScheduledEviction{Pod: p.Name, CreatedAt: now, FireAt: now}
		default:
			// A toleration time, zero included: an eviction scheduled
			// earlier stays.
			if old, ok := prev[p.Name]; ok && old.CreatedAt.Add(e.After).Before(now.Add(e.After)) {
				d.Eviction = Eviction{Kind: EvictAt, At: old.FireAt, After: old.FireAt.Sub(old.CreatedAt)}
				if !old.FireAt.After(now) {
					d.Eviction.Kind = EvictNow
				}
				d.Kept = true
				break
			} else if ok {
				cancelled[p.Name] = true
				next[p.Name] = ScheduledEviction{Pod: p.Name, CreatedAt: old.CreatedAt, FireAt: e.At}
				break
			}
			next[p.Name] = ScheduledEviction{Pod: p.Name, CreatedAt: now, FireAt: e.At}
		}
		out.Decisions = append(out.Decisions, d)
	}
	var first time.Duration = -1
	deleted := map[string]bool{}
	for _, k := range sortedKeys(next) {
		s := next[k]
		if onNode[k] && !s.FireAt.After(now) {
			out.Delete = append(out.Delete, plan.Deletion{Name: k, Reason: ReasonTaintEviction})
			deleted[k] = true
			continue
		}
		out.Memory = append(out.Memory, s)
		if onNode[k] {
			if d := s.FireAt.Sub(now); first < 0 || d < first {
				first = d
			}
		}
	}
	if first >= 0 {
		out.Requeue = append(out.Requeue, plan.Requeue{After: first, Reason: ReasonEvictionDue})
	}
	for _, p := range mine {
		ref := p.Namespace + "/" + p.Name
		if cancelled[p.Name] {
			out.Events = append(out.Events, plan.Event{Type: plan.Normal, Reason: ReasonTaintEviction, Object: p.Name, Message: "Cancelling deletion of Pod " + ref})
		}
		if deleted[p.Name] {
			out.Events = append(out.Events, plan.Event{Type: plan.Normal, Reason: ReasonTaintEviction, Object: p.Name, Message: "Marking for deletion Pod " + ref})
		}
	}
	return out, nil
}
