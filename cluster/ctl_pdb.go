package cluster

import (
	"strconv"
	"time"

	"github.com/kubesem/kubesem/meta"
	"github.com/kubesem/kubesem/pdb"
	"github.com/kubesem/kubesem/podstatus"
	"github.com/kubesem/kubesem/replicaset"
	"github.com/kubesem/kubesem/rollout"
	"github.com/kubesem/kubesem/statefulset"
)

// disruptionController runs pdb.Step on each budget with the pods of its
// namespace it reads (budgetPods) and the controllers their controller
// references name (found by UID, with their own controller references for
// a ReplicaSet's Deployment); pdb.Plan.Writes makes the writes.
func disruptionController() controller {
	return controller{
		name:  CtlDisruption,
		reads: []Kind{KindPodDisruptionBudget, KindPod, KindDeployment, KindReplicaSet, KindReplicationController, KindStatefulSet},
		keys:  func(w *World) []Key { return w.State.Keys(KindPodDisruptionBudget) },
		// A budget syncs when it changed, or one of the pods its
		// selector matches was written, added or removed, or a pod of
		// its namespace the stale-condition worker would take
		// (staleCandidate) changed, or at its requeue: upstream's
		// handlers enqueue a budget on its own events and on the events
		// of a pod it selects (getPdbForPod), not on its pods'
		// controllers' (a Deployment scaled whose pods did not change
		// leaves the budget's expectedPods as it was until they do). The
		// simplifications: a pod two budgets select wakes both, where
		// upstream enqueues the first its lister returns; and a stale
		// candidate's change (or its requeue) syncs the budgets of its
		// namespace, where upstream's stale-pod worker handles the pod
		// alone (a budget whose sync fails then writes its fail-safe
		// status once more).
		//
		// The fingerprint is the budget's stamp, the number of those pods
		// and their newest stamp: stamps are the State's write counter,
		// so a pod written, added or come to match since the last sync
		// carries a stamp newer than that sync's newest, and a pod gone
		// or no longer matching, with none new, lowers the number.
		wake: func(w *World, k Key, buf []byte) []byte {
			b, _ := w.State.Get(k).(*pdb.PodDisruptionBudget)
			if b == nil {
				return buf
			}
			buf = strconv.AppendUint(buf, w.State.stamp(k), 10)
			selects := b.Spec.Selector.Matcher() // (a nil selector selects nothing)
			x := w.podIndex()
			var n, newest uint64
			for _, i := range x.budgetAt(b) {
				p := x.pods[i]
				if !x.stale[i] && !selects(p.Labels) {
					continue
				}
				n++
				newest = max(newest, x.stamps[i])
			}
			buf = append(buf, ' ')
			buf = strconv.AppendUint(buf, n, 10)
			buf = append(buf, ' ')
			return strconv.AppendUint(buf, newest, 10)
		},
		step: func(w *World, k Key, now time.Time) stepOut {
			b, _ := w.State.Get(k).(*pdb.PodDisruptionBudget)
			if b == nil {
				return stepOut{}
			}
			pods := w.budgetPods(b)
			ctls := w.pdbControllers(pods)
			p, err := pdb.Step(b, pods, ctls, now, w.Opts.PDB)
			var call *StepCall
			if w.Opts.OnStep != nil {
				call = &StepCall{Decision: "pdb.Step", Options: w.Opts.PDB,
					Input: map[string]any{"budget": b, "pods": pods, "controllers": ctls, "now": now}}
			}
			if err != nil {
				return stepOut{plan: p, err: err, call: call}
			}
			writes, err := p.Writes(b, pods, now)
			return stepOut{plan: keepPlan(w, p), writes: writes, err: err, events: p.Events, requeue: p.Requeue, call: call}
		},
	}
}

// pdbControllers returns the controllers the pods' controller references
// name, and the Deployments of those that are ReplicaSets.
func (w *World) pdbControllers(pods []*podstatus.Pod) []pdb.Controller {
	seen := map[string]bool{}
	var out []pdb.Controller
	var add func(uid string)
	add = func(uid string) {
		if seen[uid] {
			return
		}
		seen[uid] = true
		k, ok := w.State.ByUID(uid)
		if !ok {
			return
		}
		c := pdb.Controller{APIVersion: kindInfos[k.Kind].apiVersion, Kind: string(k.Kind)}
		switch o := w.State.Get(k).(type) {
		case *rollout.Deployment:
			c.ObjectMeta, c.Spec.Replicas = o.ObjectMeta, replicasOrOne(o.Spec.Replicas)
		case *replicaset.ReplicaSet:
			c.ObjectMeta, c.Spec.Replicas = o.ObjectMeta, replicasOrOne(o.Spec.Replicas)
			if ref := o.ControllerRef(); ref != nil {
				add(ref.UID)
			}
		case *statefulset.StatefulSet:
			c.ObjectMeta, c.Spec.Replicas = o.ObjectMeta, replicasOrOne(o.Spec.Replicas)
		default:
			c.ObjectMeta = *metaOf(o)
		}
		out = append(out, c)
	}
	for _, p := range pods {
		if ref := p.ControllerRef(); ref != nil {
			add(ref.UID)
		}
	}
	return out
}

// staleCandidate reports whether the disruption controller's pod handlers
// would queue pod p for its stale-condition worker: not being deleted, with
// a DisruptionTarget=True condition.
//
// Source: upstream pkg/controller/disruption/disruption.go
// nonTerminatingPodHasStaleDisruptionCondition (v1.36.3).
func staleCandidate(p *podstatus.Pod) bool {
	if p.DeletionTimestamp != nil {
		return false
	}
	c := p.Condition(podstatus.DisruptionTarget)
	return c != nil && c.Status == meta.ConditionTrue
}

func replicasOrOne(r *int32) *int32 {
	if r != nil {
		return r
	}
	one := int32(1)
	return &one
}

// pdbIndex indexes the pods by namespace and label for the disruption
// controller, built once per version of the State's pods, so that a sync of
// many budgets over many pods takes time near-linear in the pods (each
// budget looks its pods up instead of scanning its namespace). Its lists
// hold positions in pods, in order (pods is by namespace and name).
type pdbIndex struct {
	state   *State
	version uint64
	pods    []*podstatus.Pod                 // the State's pods (its shared list)
	stamps  []uint64                         // their stamps
	byLabel map[string]map[[2]string][]int32 // namespace → label → pods
	byNS    map[string][]int32
	targets map[string][]int32 // namespace → pods with DisruptionTarget=True
	stale   []bool             // whether the pod at i is a staleCandidate
}

// podIndex returns the disruption controller's index of the State's pods
// at their version, built when the pods changed.
func (w *World) podIndex() *pdbIndex {
	x := w.pdbIdx
	if x != nil && x.state == w.State && x.version == w.State.version(KindPod) {
		return x
	}
	x = &pdbIndex{state: w.State, version: w.State.version(KindPod), pods: w.State.sharedPods(), stamps: w.State.sortedStamps(KindPod),
		byLabel: map[string]map[[2]string][]int32{}, byNS: map[string][]int32{}, targets: map[string][]int32{}}
	x.stale = make([]bool, len(x.pods))
	for i, p := range x.pods {
		at := int32(i)
		x.byNS[p.Namespace] = append(x.byNS[p.Namespace], at)
		m := x.byLabel[p.Namespace]
		if m == nil {
			m = map[[2]string][]int32{}
			x.byLabel[p.Namespace] = m
		}
		for k, v := range p.Labels {
			m[[2]string{k, v}] = append(m[[2]string{k, v}], at)
		}
		if c := p.Condition(podstatus.DisruptionTarget); c != nil && c.Status == meta.ConditionTrue {
			x.targets[p.Namespace] = append(x.targets[p.Namespace], at)
			x.stale[i] = staleCandidate(p)
		}
	}
	w.pdbIdx = x
	return x
}

// budgetAt returns the positions of what pdb.Step reads of b's namespace:
// the pods b's selector may match (a superset found through the label
// index; pdb.Step matches again) and the pods with a DisruptionTarget=True
// condition (pdb.Step resets the stale ones whatever the selector), in
// order. The other pods of the namespace change nothing in the Plan.
func (x *pdbIndex) budgetAt(b *pdb.PodDisruptionBudget) []int32 {
	cand := x.byNS[b.Namespace]
	if sel := b.Spec.Selector; sel == nil {
		cand = nil
	} else {
		for k, v := range sel.MatchLabels {
			if l := x.byLabel[b.Namespace][[2]string{k, v}]; len(l) < len(cand) {
				cand = l
			}
		}
	}
	t := x.targets[b.Namespace]
	if len(t) == 0 {
		return cand
	}
	// (the union of the two ordered lists)
	out := make([]int32, 0, len(cand)+len(t))
	for len(cand) > 0 || len(t) > 0 {
		switch {
		case len(t) == 0 || len(cand) > 0 && cand[0] < t[0]:
			out, cand = append(out, cand[0]), cand[1:]
		case len(cand) == 0 || t[0] < cand[0]:
			out, t = append(out, t[0]), t[1:]
		default:
			out, cand, t = append(out, cand[0]), cand[1:], t[1:]
		}
	}
	return out
}

// budgetPods returns the pods at budgetAt(b), by name.
func (w *World) budgetPods(b *pdb.PodDisruptionBudget) []*podstatus.Pod {
	x := w.podIndex()
	at := x.budgetAt(b)
	out := make([]*podstatus.Pod, len(at))
	for i, j := range at {
		out[i] = x.pods[j]
	}
	return out
}
