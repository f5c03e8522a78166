package cluster

import (
	"bytes"
	"slices"
	"time"

	"github.com/kubesem/kubesem/daemonset"
	"github.com/kubesem/kubesem/history"
	"github.com/kubesem/kubesem/meta"
	"github.com/kubesem/kubesem/plan"
	"github.com/kubesem/kubesem/podstatus"
)

// availableRequeue is the DaemonSet's wake-up for its pods that are ready
// but not yet available: minReadySeconds + 1 s after the earliest such
// pod became ready. Upstream's updatePod enqueues the DaemonSet that long
// after a pod changes to ready (syncDaemonSet's own requeue only covers
// a status whose numberReady and numberAvailable differ, which counts one
// pod per node: with maxSurge the old available pod hides the new one).
//
// Source: upstream pkg/controller/daemon/daemon_controller.go updatePod
// (changedToReady && MinReadySeconds > 0: enqueueDaemonSetAfter) (v1.36.3).
func availableRequeue(ds *daemonset.DaemonSet, pods []*podstatus.Pod, now time.Time) (plan.Requeue, bool) {
	if ds.Spec.MinReadySeconds <= 0 {
		return plan.Requeue{}, false
	}
	wait := time.Duration(ds.Spec.MinReadySeconds) * time.Second
	var first time.Time
	for _, p := range pods {
		c := p.Condition(podstatus.Ready)
		if p.IsDeleting() || c == nil || c.Status != meta.ConditionTrue || podstatus.IsAvailable(p, ds.Spec.MinReadySeconds, now) {
			continue
		}
		if at := c.LastTransitionTime.Add(wait + time.Second); at.After(now) && (first.IsZero() || at.Before(first)) {
			first = at
		}
	}
	if first.IsZero() {
		return plan.Requeue{}, false
	}
	return plan.Requeue{After: first.Sub(now), Reason: daemonset.ReasonMinReadySeconds}, true
}

// daemonSetController runs daemonset.Step on each DaemonSet with every
// node, the pods and ControllerRevisions it controls and the namespace's
// orphans it would adopt (daemonset.ClaimPod, ClaimRevision; upstream
// lists every orphan of the namespace but claims no other, so leaving
// those out changes no Plan), the hash of its current template, and its
// failed-pod backoff kept in the World; daemonset.Plan.Writes makes the
// writes. The hash is that of the newest revision it claims holding
// spec.template (equalRevision; its label, or its whole
// name when unlabelled: daemonset.RevisionHash), else the pod-template-hash
// of the template and status.collisionCount (upstream names a DaemonSet's
// revisions by controller.ComputeHash, the Deployment's hash:
// Namer.PodTemplateHash), else, when the namer has none, Namer.RevisionHash;
// the other claimed revisions holding the template under another hash are
// its History.Same (sameTemplate).
func daemonSetController() controller {
	return controller{
		name:  CtlDaemonSet,
		reads: []Kind{KindDaemonSet, KindPod, KindNode, KindControllerRevision},
		keys:  func(w *World) []Key { return w.State.Keys(KindDaemonSet) },
		step: func(w *World, k Key, now time.Time) stepOut {
			ds, _ := w.State.Get(k).(*daemonset.DaemonSet)
			if ds == nil {
				return stepOut{}
			}
			pods := controlled[*podstatus.Pod](w.State, KindPod, ds.UID)
			owned := controlled[*history.ControllerRevision](w.State, KindControllerRevision, ds.UID)
			if !ds.IsDeleting() {
				var adopt []*podstatus.Pod
				for _, p := range w.State.orphanPods(ds.Namespace) {
					if daemonset.ClaimPod(ds, p) == daemonset.Adopt {
						adopt = append(adopt, p)
					}
				}
				pods = mergePods(pods, adopt)
				for _, r := range orphans[*history.ControllerRevision](w.State, KindControllerRevision, ds.Namespace) {
					if daemonset.ClaimRevision(ds, r) == daemonset.Adopt {
						owned = append(owned, r)
					}
				}
			}
			// (the current template's revision is among those it claims)
			claimed := owned
			if slices.ContainsFunc(owned, func(r *history.ControllerRevision) bool { return daemonset.ClaimRevision(ds, r) == daemonset.Release }) {
				claimed = slices.DeleteFunc(slices.Clone(owned), func(r *history.ControllerRevision) bool {
					return daemonset.ClaimRevision(ds, r) == daemonset.Release
				})
			}
			var h daemonset.History
			if eq := equalRevision(w.State, claimed, ds, &ds.Spec.Template); eq != nil {
				h.Hash = daemonset.RevisionHash(eq)
				h.Same = sameTemplate(w.State, claimed, ds, h.Hash)
			} else if h.Hash = w.Opts.Namer.PodTemplateHash(&ds.Spec.Template, ds.Status.CollisionCount); h.Hash == "" {
				h.Hash = w.Opts.Namer.RevisionHash(&ds.Spec.Template, ds.Status.CollisionCount)
			}
			for _, r := range owned {
				h.Revisions = append(h.Revisions, *r)
			}
			p, err := daemonset.Step(ds, w.State.Nodes(), pods, h, w.dsBackoff[k], now, w.Opts.DaemonSet)
			var call *StepCall
			if w.Opts.OnStep != nil {
				call = &StepCall{Decision: "daemonset.Step", Options: w.Opts.DaemonSet,
					Input: map[string]any{"daemonSet": ds, "nodes": w.State.Nodes(), "pods": pods, "history": h, "memory": w.dsBackoff[k], "now": now}}
			}
			if err != nil {
				return stepOut{plan: p, err: err, call: call}
			}
			writes, err := p.Writes(ds, pods, h)
			requeue := p.Requeue
			if r, ok := availableRequeue(ds, pods, now); ok {
				requeue = append(slices.Clone(requeue), r)
			}
			return stepOut{plan: keepPlan(w, p), writes: writes, err: err, events: p.Events, requeue: requeue, call: call,
				after: func() { w.dsBackoff[k] = p.Memory }}
		},
	}
}

// sameTemplate returns the names of the revisions among claimed that hold
// ds's template (by the JSON encoding equalRevision compares) under a hash
// other than hash: to upstream, which compares data, duplicates of the
// current revision (daemonset.History.Same).
func sameTemplate(s *State, claimed []*history.ControllerRevision, ds *daemonset.DaemonSet, hash string) []string {
	var out []string
	want := s.templateKey(ds, &ds.Spec.Template)
	for _, r := range claimed {
		if r.Data == nil || daemonset.RevisionHash(r) == hash {
			continue
		}
		if b := s.templateKey(r, &r.Data.Template); b != nil && bytes.Equal(b, want) {
			out = append(out, r.Name)
		}
	}
	return out
}
