package cluster

import (
	"slices"
	"strings"
	"time"

	"github.com/kubesem/kubesem/meta"
	"github.com/kubesem/kubesem/node"
	"github.com/kubesem/kubesem/plan"
	"github.com/kubesem/kubesem/podstatus"
)

// The reasons of the environment's writes.
const (
	// ReasonHeartbeat marks a lease renewal or a periodic node status
	// report: the writes that do not keep the world from settling.
	ReasonHeartbeat plan.Reason = "Heartbeat"
	ReasonNodeReady plan.Reason = "NodeReady"
	ReasonScheduled plan.Reason = "Scheduled"
	ReasonStarted   plan.Reason = "Started"
	ReasonReady     plan.Reason = "Ready"
	ReasonExited    plan.Reason = "Exited"
	ReasonRestarted plan.Reason = "Restarted"
	ReasonKilled    plan.Reason = "Killing"
	ReasonGarbage   plan.Reason = "GarbageCollected"
	// ReasonOrphaned: the garbage collector removes an orphaning owner's
	// references from a dependent, then the owner's orphan finalizer.
	ReasonOrphaned plan.Reason = "Orphaned"
	ReasonDrain    plan.Reason = "Drain"
)

// PropagationBackground is the propagationPolicy of the user's and the
// garbage collector's deletes; PropagationOrphan leaves the dependents,
// without their references to the owner (see State.Apply and the
// garbage collector in the package doc).
const (
	PropagationBackground = "Background"
	PropagationOrphan     = "Orphan"
)

// FinalizerOrphan is the finalizer the API server puts on an object
// deleted with propagationPolicy Orphan, which the garbage collector
// removes once it has removed the object's references from its
// dependents (metav1.FinalizerOrphanDependents).
const FinalizerOrphan = "orphan"

// The environment's controller names in the trace.
const (
	CtlScheduler = "scheduler"
	CtlGC        = "garbage-collector"
	CtlUser      = "user"
	// CtlKubelet is the prefix of "kubelet/<node>".
	CtlKubelet = "kubelet/"
)

// KubeletOptions time the kubelet model.
type KubeletOptions struct {
	// StartDelay is the time from binding to running containers.
	StartDelay time.Duration `json:"startDelay,omitempty"`
	// ReadyDelay is the time from running to ready.
	ReadyDelay time.Duration `json:"readyDelay,omitempty"`
	// Backoff configures the crash-loop restart backoff.
	Backoff podstatus.BackoffOptions `json:"backoff"`
}

// Scheduler picks the node of an unscheduled pod among nodes (every node,
// by name), given the number of non-terminal pods bound to each (by node
// name); ok is false when no node fits.
type Scheduler func(p *podstatus.Pod, nodes []*node.Node, load map[string]int) (string, bool)

// FewestPods is the default scheduler: among the nodes whose Ready
// condition is True, that are not unschedulable (unless the pod tolerates
// the node.kubernetes.io/unschedulable:NoSchedule taint, as a DaemonSet's
// pods do: kube-scheduler's NodeUnschedulable filter), whose NoSchedule and
// NoExecute taints the pod tolerates (node.FindUntoleratedTaint) and
// that its nodeSelector and required node affinity match
// (node.MatchesNodeSelector), and that have room for one more pod
// (HasRoom), the one with the fewest non-terminal pods, ties by name. It
// is a documented simplification of kube-scheduler (no resources but the
// pod count, no scoring plugins, no pod affinity or spreading; and it
// requires the Ready condition, where kube-scheduler has no such filter
// and keeps pods off a node that is not ready through the
// node.kubernetes.io/not-ready and unreachable NoSchedule taints the node
// lifecycle controller adds, a moment later).
func FewestPods(p *podstatus.Pod, nodes []*node.Node, load map[string]int) (string, bool) {
	best, bestLoad := "", 0
	for _, n := range nodes {
		if !Fits(p, n) || !HasRoom(n, load[n.Name]) {
			continue
		}
		if l := load[n.Name]; best == "" || l < bestLoad {
			best, bestLoad = n.Name, l
		}
	}
	return best, best != ""
}

// Fits reports whether pod p may be scheduled to node n by the default
// scheduler's predicates (see FewestPods).
//
// Source (the unschedulable node): upstream
// pkg/scheduler/framework/plugins/nodeunschedulable/node_unschedulable.go
// NodeUnschedulable.Filter (v1.36.3).
func Fits(p *podstatus.Pod, n *node.Node) bool {
	if n == nil || n.IsDeleting() || !n.IsReady() {
		return false
	}
	if n.Spec.Unschedulable && !node.Tolerates(p.Spec.Tolerations, &node.Taint{Key: node.TaintUnschedulable, Effect: node.NoSchedule}, node.Options{}) {
		return false
	}
	if _, bad := node.FindUntoleratedTaint(n.Spec.Taints, p.Spec.Tolerations, node.NoScheduleOrNoExecute, node.Options{}); bad {
		return false
	}
	ok, _ := node.MatchesNodeSelector(p.Spec.NodeSelector, p.Spec.Affinity, n)
	return ok
}

// HasRoom reports whether node n, with pods non-terminal pods bound to it
// (terminating ones included), can take one more: pods+1 must not exceed
// status.allocatable.pods (node.Node.AllocatablePods). A node without
// allocatable pods is taken as unlimited (a simplification for scenarios
// written by hand; a real node always reports it); an unparsable value
// fits nothing.
//
// Source: upstream pkg/scheduler/framework/plugins/noderesources/fit.go
// fitsRequest ("Too many pods": len(nodeInfo.Pods)+1 > allowedPodNumber);
// the scheduler's cache holds the assigned pods that are not Succeeded or
// Failed (v1.36.3).
func HasRoom(n *node.Node, pods int) bool {
	limit, ok, err := n.AllocatablePods()
	if err != nil {
		return false
	}
	return !ok || int64(pods)+1 <= limit
}

// nodeEnv is the environment's view of a node: whether its kubelet runs
// (heartbeats), when it renews its lease next and when it last reported
// its status.
type nodeEnv struct {
	stopped    bool
	nextRenew  time.Time
	lastReport time.Time
}

func (w *World) nodeEnv(name string, n *node.Node) *nodeEnv {
	e := w.nodes[name]
	if e == nil {
		e = &nodeEnv{nextRenew: w.Now}
		if n != nil {
			if c, ok := n.Condition(node.Ready); ok {
				e.lastReport = c.LastHeartbeatTime
			}
		}
		w.nodes[name] = e
	}
	return e
}

// kubeletPod is the kubelet's memory of a pod: the restart backoff of
// each container, when a crash-looping container restarts, and whether a
// scenario failure is pending.
type kubeletPod struct {
	// backoff is read in place, written through backoffFor
	backoff map[string]podstatus.BackoffEntry
	// shared is set when backoff may be shared with a clone's kubeletPod.
	shared    bool
	restartAt time.Time
	fail      *int32
}

// environment runs, at now, what no controller does: the garbage
// collector, the scheduler, each running kubelet, heartbeats and drains.
func (w *World) environment(now time.Time) {
	w.collectGarbage(now)
	w.heartbeats(now)
	w.schedule(now)
	w.kubelets(now)
	w.drain(now)
}

// collectGarbage orphans the dependents of owners deleted with
// propagationPolicy Orphan and deletes the dependents whose every owner
// is gone (background propagation). The simplification: the garbage
// collector acts at the instant the owner is removed or marked, at once.
// An owner still stored, being deleted and holding FinalizerOrphan has
// each dependent (by kind, namespace and name) patched to remove its
// references to the owner's UID (the dependent's UID in the patch), then
// its finalizer removed by a patch, which removes it when no finalizer is
// left — upstream's attemptToOrphanWorker (orphanDependents, then
// removeFinalizer). A dependent of a removed owner is deleted with a
// DELETE carrying its uid as precondition and propagationPolicy
// Background (pods gracefully), as upstream's attemptToDeleteItem does
// for an object without a solid owner (the resourceVersion precondition
// it also sends is not modelled).
func (w *World) collectGarbage(now time.Time) {
	for len(w.gc) > 0 {
		uids := w.gc
		w.gc = nil
		slices.Sort(uids)
		uids = slices.Compact(uids)
		for _, uid := range uids {
			if k, ok := w.State.ByUID(uid); ok {
				if owner := w.State.Get(k); isOrphaning(owner) {
					w.orphanDependents(k, owner, now)
				}
				continue
			}
			for _, k := range w.State.Dependents(uid) {
				obj := w.State.Get(k)
				if obj == nil {
					continue
				}
				m := metaOf(obj)
				if m.IsDeleting() {
					continue
				}
				alive := false
				for _, r := range m.OwnerReferences {
					if _, ok := w.State.ByUID(r.UID); ok {
						alive = true
						break
					}
				}
				if alive {
					continue
				}
				w.apply(CtlGC, plan.Write{Verb: plan.VerbDelete, Resource: k.Kind.Resource(),
					Namespace: k.Namespace, Name: k.Name, UID: m.UID, PropagationPolicy: PropagationBackground, Reason: ReasonGarbage}, now)
			}
		}
	}
}

// isOrphaning reports whether obj is being deleted and holds
// FinalizerOrphan: its dependents are to be orphaned.
func isOrphaning(obj any) bool {
	m := metaOf(obj)
	return m != nil && m.IsDeleting() && slices.Contains(m.Finalizers, FinalizerOrphan)
}

// orphanDependents removes the references to owner (stored at k) from its
// dependents, then owner's FinalizerOrphan.
//
// Source: upstream pkg/controller/garbagecollector/garbagecollector.go
// attemptToOrphanWorker, orphanDependents; operations.go removeFinalizer
// (v1.36.3).
func (w *World) orphanDependents(k Key, owner any, now time.Time) {
	om := metaOf(owner)
	for _, dk := range w.State.Dependents(om.UID) {
		dep := w.State.Get(dk)
		if dep == nil {
			continue
		}
		c := shallow(dep)
		m := metaOf(c)
		m.OwnerReferences = meta.RemoveOwnerRef(slices.Clone(m.OwnerReferences), om.UID)
		w.apply(CtlGC, plan.Write{Verb: plan.VerbPatch, Resource: dk.Kind.Resource(), Namespace: dk.Namespace, Name: dk.Name,
			UID: m.UID, Object: c, Reason: ReasonOrphaned}, now)
	}
	owner = w.State.Get(k) // (unchanged by its dependents' patches)
	c := shallow(owner)
	m := metaOf(c)
	m.Finalizers = slices.DeleteFunc(slices.Clone(m.Finalizers), func(f string) bool { return f == FinalizerOrphan })
	if len(m.Finalizers) == 0 {
		m.Finalizers = nil
	}
	w.apply(CtlGC, plan.Write{Verb: plan.VerbPatch, Resource: k.Kind.Resource(), Namespace: k.Namespace, Name: k.Name,
		Object: c, Reason: ReasonOrphaned}, now)
}

// heartbeats renews the lease of every running node whose renewal is due
// (every node.LeaseRenewInterval) and posts its Ready condition when it
// is not True or the status report is due (node.StatusUpdate).
func (w *World) heartbeats(now time.Time) {
	var names []string
	for n, e := range w.nodes {
		if !e.stopped && !e.nextRenew.After(now) {
			names = append(names, n)
		}
	}
	slices.Sort(names)
	for _, name := range names {
		e := w.nodes[name]
		// The kubelet of a deleted node keeps its timer (it would renew
		// again if the node came back) but writes nothing.
		e.nextRenew = node.NextLeaseRenewal(now, 0)
		n := w.State.Node(name)
		if n == nil {
			continue
		}
		ctl := w.kubeletName(name)
		lease, _ := w.State.Get(Key{KindLease, leaseNamespace, name}).(*node.Lease)
		if lease == nil {
			t := now
			nl := &node.Lease{ObjectMeta: meta.ObjectMeta{Name: name, Namespace: leaseNamespace}, Spec: node.LeaseSpec{RenewTime: &t}}
			w.apply(ctl, plan.Write{Verb: plan.VerbCreate, Resource: "leases", Namespace: leaseNamespace, Object: nl, Reason: ReasonHeartbeat}, now)
		} else {
			// (the lease and its renew time in one allocation)
			nl := &renewedLease{lease: *lease, at: now}
			nl.lease.Spec.RenewTime = &nl.at
			w.apply(ctl, plan.Write{Verb: plan.VerbUpdate, Resource: "leases", Namespace: leaseNamespace, Name: name, Object: &nl.lease, Reason: ReasonHeartbeat}, now)
		}
		ready, _ := n.Condition(node.Ready)
		change := node.StatusChange(ready.Status != meta.ConditionTrue)
		if !node.StatusUpdate(change, e.lastReport, 0, 0, now).Patch {
			continue
		}
		e.lastReport = now
		c := *n
		c.Status.Conditions = setNodeReady(n.Status.Conditions, now)
		reason := ReasonHeartbeat
		if change == node.StatusChanged {
			reason = ReasonNodeReady
		}
		w.apply(ctl, plan.Write{Verb: plan.VerbUpdate, Resource: "nodes", Subresource: "status", Name: name, Object: &c, Reason: reason}, now)
	}
}

const leaseNamespace = "kube-node-lease"

// kubeletName is "kubelet/<node>", the trace's name for node's kubelet.
func (w *World) kubeletName(node string) string {
	if c, ok := w.kubeletNames[node]; ok {
		return c
	}
	return CtlKubelet + node
}

// renewedLease is a lease a heartbeat writes, with its renew time.
type renewedLease struct {
	lease node.Lease
	at    time.Time
}

func setNodeReady(conds []node.Condition, now time.Time) []node.Condition {
	out := make([]node.Condition, 0, len(conds)+1)
	found := false
	for _, c := range conds {
		if c.Type == node.Ready {
			found = true
			if c.Status != meta.ConditionTrue {
				c.LastTransitionTime = now
			}
			c.Status, c.LastHeartbeatTime, c.Reason, c.Message = meta.ConditionTrue, now, "KubeletReady", "kubelet is posting ready status"
		}
		out = append(out, c)
	}
	if !found {
		out = append(out, node.Condition{Type: node.Ready, Status: meta.ConditionTrue,
			LastHeartbeatTime: now, LastTransitionTime: now, Reason: "KubeletReady"})
	}
	return out
}

// schedule binds each unscheduled pod that is not being deleted, in
// (namespace, name) order, to the node the Scheduler picks.
func (w *World) schedule(now time.Time) {
	pending := w.State.PodsOnNode("")
	if len(pending) == 0 {
		return
	}
	nodes := w.State.Nodes()
	load := make(map[string]int, len(nodes))
	for _, n := range nodes {
		for p := range w.State.onNode[n.Name].m {
			if !podstatus.IsTerminal(w.State.objs[KindPod][p].obj.(*podstatus.Pod)) {
				load[n.Name]++
			}
		}
	}
	for _, p := range pending {
		if p.IsDeleting() || podstatus.IsTerminal(p) {
			continue
		}
		target, ok := w.Opts.Scheduler(p, nodes, load)
		if !ok {
			continue
		}
		load[target]++
		b := &podstatus.Pod{ObjectMeta: meta.ObjectMeta{Name: p.Name, Namespace: p.Namespace}}
		b.Spec.NodeName = target
		w.apply(CtlScheduler, plan.Write{Verb: plan.VerbCreate, Resource: "pods", Subresource: "binding",
			Namespace: p.Namespace, Name: p.Name, UID: p.UID, Object: b, Reason: ReasonScheduled}, now)
	}
}

// behavior returns the scenario's behaviour of pod p: the first PodBehavior
// that matches it, else the zero one.
func (w *World) behavior(p *podstatus.Pod) PodBehavior {
	for _, b := range w.pods {
		if b.Namespace != "" && b.Namespace != p.Namespace {
			continue
		}
		if b.Selector == nil || b.Selector.Matches(p.Labels) {
			return b
		}
	}
	return PodBehavior{}
}

func (w *World) startDelay(b PodBehavior) time.Duration {
	if b.StartDelay != nil {
		return *b.StartDelay
	}
	return w.Opts.Kubelet.StartDelay
}

func (w *World) readyDelay(b PodBehavior) time.Duration {
	if b.ReadyDelay != nil {
		return *b.ReadyDelay
	}
	return w.Opts.Kubelet.ReadyDelay
}

// podTimer is the next instant the kubelet acts on a pod of a running node
// by itself (ok false: not until something changes).
func (w *World) podTimer(p *podstatus.Pod) (time.Time, bool) {
	if p.IsDeleting() {
		// A pod the kubelet has killed and deleted with grace 0 waits
		// only for its finalizers: the kubelet has nothing left to do.
		if podstatus.IsTerminal(p) && p.DeletionGracePeriodSeconds != nil && *p.DeletionGracePeriodSeconds == 0 {
			return time.Time{}, false
		}
		return *p.DeletionTimestamp, true
	}
	if podstatus.IsTerminal(p) {
		return time.Time{}, false
	}
	kp := w.kpods[p.UID]
	if kp != nil && kp.fail != nil {
		return w.Now, true
	}
	if len(p.Status.ContainerStatuses) > 0 && (kp == nil || kp.restartAt.IsZero()) && !w.anyRunFor && allReady(p) {
		return time.Time{}, false // running and ready: nothing to do (fast path)
	}
	b := w.behavior(p)
	if len(p.Status.ContainerStatuses) == 0 {
		bound := p.CreationTimestamp
		if c := p.Condition(podstatus.PodScheduled); c != nil && c.Status == meta.ConditionTrue {
			bound = c.LastTransitionTime
		}
		return bound.Add(w.startDelay(b)), true
	}
	if kp != nil && !kp.restartAt.IsZero() {
		return kp.restartAt, true
	}
	start := runningSince(p)
	if start.IsZero() {
		return time.Time{}, false
	}
	var t time.Time
	ok := false
	if !b.NeverReady && !allReady(p) {
		t, ok = start.Add(w.readyDelay(b)), true
	}
	if b.RunFor != nil {
		if f := start.Add(*b.RunFor); !ok || f.Before(t) {
			t, ok = f, true
		}
	}
	return t, ok
}

// runningSince is when the pod's containers last started (the latest
// running container's startedAt), zero when none runs.
func runningSince(p *podstatus.Pod) time.Time {
	var t time.Time
	for _, c := range p.Status.ContainerStatuses {
		if c.State.Running != nil && c.State.Running.StartedAt.After(t) {
			t = c.State.Running.StartedAt
		}
	}
	return t
}

func allReady(p *podstatus.Pod) bool {
	for _, c := range p.Status.ContainerStatuses {
		if !c.Ready {
			return false
		}
	}
	return true
}

func (w *World) nextKubelet() (time.Time, bool) {
	var t time.Time
	ok := false
	// (the pods bound to a running node: one pass over the pods rather
	// than over each node's set, each pod looked up by name)
	for _, st := range w.State.objs[KindPod] {
		p := st.obj.(*podstatus.Pod)
		if p.Spec.NodeName == "" {
			continue
		}
		if e := w.nodes[p.Spec.NodeName]; e == nil || e.stopped {
			continue
		}
		if x, xok := w.podTimer(p); xok && (!ok || x.Before(t)) {
			t, ok = x, true
		}
	}
	return t, ok
}

// kubelets runs the kubelet of every running node over its pods whose
// timer is due, node by node (by name), pods by namespace and name.
func (w *World) kubelets(now time.Time) {
	type due struct {
		node string
		pod  name
	}
	var list []due
	for pn, st := range w.State.objs[KindPod] {
		p := st.obj.(*podstatus.Pod)
		n := p.Spec.NodeName
		if n == "" {
			continue
		}
		if e := w.nodes[n]; e == nil || e.stopped {
			continue
		}
		if at, ok := w.podTimer(p); ok && !at.After(now) {
			list = append(list, due{n, pn})
		}
	}
	slices.SortFunc(list, func(a, b due) int {
		if a.node != b.node {
			return strings.Compare(a.node, b.node)
		}
		return compareNames(a.pod, b.pod)
	})
	for _, d := range list {
		// An earlier sync may have changed or removed the pod.
		p, _ := w.State.objs[KindPod][d.pod].obj.(*podstatus.Pod)
		if p == nil || p.Spec.NodeName != d.node {
			continue
		}
		if at, ok := w.podTimer(p); ok && !at.After(now) {
			w.kubeletSync(w.kubeletName(d.node), p, now)
		}
	}
}

// kubeletSync is one kubelet sync of pod p at now: a deleting pod's
// containers, sidecars included, are killed (status with terminated
// containers, phase from podstatus) and the pod deleted with grace 0; a
// new pod's containers start; started containers become ready after the
// ready delay; a container that exits (RunFor, or a scenario failure) is
// restarted as podstatus.ShouldRestart and podstatus.RestartBackoff
// decide. When no regular container runs or will restart, the sidecars
// (restartable init containers) are killed too and the pod is terminal
// (the kubelet's computePodActions: nothing to keep, nothing to start →
// KillPod, no init container restarted; podstatus.KubeletPhase then gives
// Succeeded or Failed, sidecars never holding completion).
func (w *World) kubeletSync(ctl string, p *podstatus.Pod, now time.Time) {
	kp := w.kpods[p.UID]
	if kp == nil {
		kp = &kubeletPod{backoff: map[string]podstatus.BackoffEntry{}}
		w.kpods[p.UID] = kp
	}
	b := w.behavior(p)
	c := *p
	reason := plan.Reason("")
	terminal := false
	switch {
	case p.IsDeleting():
		if !podstatus.IsTerminal(p) {
			c.Status.ContainerStatuses = exitAll(p.Status.ContainerStatuses, p.Spec.Containers, 137, "Error", now)
			c.Status.InitContainerStatuses = killRunning(p.Status.InitContainerStatuses, now)
			w.writePodStatus(ctl, p, &c, podstatus.Observed{Terminal: true}, ReasonKilled, now)
		}
		zero := int64(0)
		w.apply(ctl, plan.Write{Verb: plan.VerbDelete, Resource: "pods", Namespace: p.Namespace, Name: p.Name,
			UID: p.UID, GracePeriodSeconds: &zero, Reason: ReasonKilled}, now)
		delete(w.kpods, p.UID)
		return
	case kp.fail != nil || (b.RunFor != nil && !runningSince(p).IsZero() && !runningSince(p).Add(*b.RunFor).After(now)):
		code := b.ExitCode
		if kp.fail != nil {
			code = *kp.fail
			kp.fail = nil
		}
		reason = ReasonExited
		c.Status.ContainerStatuses = w.exitAndRestart(kp, p, code, now)
		terminal = kp.restartAt.IsZero() && !anyRunning(c.Status.ContainerStatuses)
		if terminal {
			// No regular container runs or will restart: the kubelet
			// kills the pod, sidecars included, and starts none again.
			c.Status.InitContainerStatuses = killRunning(p.Status.InitContainerStatuses, now)
		}
	case len(p.Status.ContainerStatuses) == 0:
		reason = ReasonStarted
		ready := w.readyDelay(b) == 0 && !b.NeverReady
		t := now
		c.Status.StartTime = &t
		c.Status.InitContainerStatuses = initDone(p.Spec.InitContainers, now)
		c.Status.ContainerStatuses = make([]podstatus.ContainerStatus, len(p.Spec.Containers))
		for i, ct := range p.Spec.Containers {
			started := true
			c.Status.ContainerStatuses[i] = podstatus.ContainerStatus{Name: ct.Name, Image: ct.Image, Ready: ready,
				Started: &started, State: podstatus.ContainerState{Running: &podstatus.StateRunning{StartedAt: now}}}
		}
	case !kp.restartAt.IsZero() && !kp.restartAt.After(now):
		reason = ReasonRestarted
		kp.restartAt = time.Time{}
		ready := w.readyDelay(b) == 0 && !b.NeverReady
		cs := slices.Clone(p.Status.ContainerStatuses)
		for i := range cs {
			if cs[i].State.Waiting == nil || cs[i].LastTerminationState.Terminated == nil {
				continue
			}
			var ep *podstatus.BackoffEntry
			if e, ok := kp.backoff[cs[i].Name]; ok {
				ep = &e
			}
			d := podstatus.RestartBackoff(ep, cs[i].LastTerminationState.Terminated.FinishedAt, now, w.Opts.Kubelet.Backoff)
			if d.InBackoff {
				if kp.restartAt.IsZero() || d.Until.Before(kp.restartAt) {
					kp.restartAt = d.Until
				}
				continue
			}
			kp.backoffFor()[cs[i].Name] = d.Entry
			cs[i].State = podstatus.ContainerState{Running: &podstatus.StateRunning{StartedAt: now}}
			cs[i].Ready = ready
			cs[i].RestartCount++
		}
		c.Status.ContainerStatuses = cs
	default:
		reason = ReasonReady
		cs := slices.Clone(p.Status.ContainerStatuses)
		for i := range cs {
			if cs[i].State.Running != nil {
				cs[i].Ready = true
			}
		}
		c.Status.ContainerStatuses = cs
	}
	w.writePodStatus(ctl, p, &c, podstatus.Observed{Terminal: terminal}, reason, now)
}

// writePodStatus generates the pod's phase and conditions with
// podstatus.Generate, observing the pod's generation as the kubelet's
// status manager does, and writes the status when it changed.
func (w *World) writePodStatus(ctl string, old, c *podstatus.Pod, obs podstatus.Observed, reason plan.Reason, now time.Time) {
	g := podstatus.Generate(c, obs, now, w.Opts.Pod)
	c.Status.Phase, c.Status.Reason, c.Status.Message = g.Phase, g.Reason, g.Message
	c.Status.Conditions = g.Conditions
	// (the status manager's CalculatePodStatusObservedGeneration, gate
	// PodObservedGenerationTracking locked on)
	c.Status.ObservedGeneration = c.Generation
	w.apply(ctl, plan.Write{Verb: plan.VerbUpdate, Resource: "pods", Subresource: "status",
		Namespace: old.Namespace, Name: old.Name, UID: old.UID, Object: c, Reason: reason}, now)
}

func anyRunning(cs []podstatus.ContainerStatus) bool {
	for _, c := range cs {
		if c.State.Running != nil {
			return true
		}
	}
	return false
}

func initDone(ics []podstatus.Container, now time.Time) []podstatus.ContainerStatus {
	if len(ics) == 0 {
		return nil
	}
	out := make([]podstatus.ContainerStatus, len(ics))
	for i, ic := range ics {
		if podstatus.IsRestartableInit(&ic) {
			started := true
			out[i] = podstatus.ContainerStatus{Name: ic.Name, Image: ic.Image, Ready: true, Started: &started,
				State: podstatus.ContainerState{Running: &podstatus.StateRunning{StartedAt: now}}}
			continue
		}
		f := false
		out[i] = podstatus.ContainerStatus{Name: ic.Name, Image: ic.Image, Ready: true, Started: &f,
			State: podstatus.ContainerState{Terminated: &podstatus.StateTerminated{Reason: "Completed", StartedAt: now, FinishedAt: now}}}
	}
	return out
}

// killRunning terminates the running containers of cs (the kubelet's
// kill: exit 137) and leaves the others as they are.
func killRunning(cs []podstatus.ContainerStatus, now time.Time) []podstatus.ContainerStatus {
	out := slices.Clone(cs)
	for i := range out {
		if r := out[i].State.Running; r != nil {
			out[i].State = podstatus.ContainerState{Terminated: &podstatus.StateTerminated{ExitCode: 137, Reason: "Error", StartedAt: r.StartedAt, FinishedAt: now}}
			out[i].Ready = false
		}
	}
	return out
}

func exitAll(cs []podstatus.ContainerStatus, spec []podstatus.Container, code int32, why string, now time.Time) []podstatus.ContainerStatus {
	out := slices.Clone(cs)
	if len(out) == 0 {
		for _, ct := range spec {
			out = append(out, podstatus.ContainerStatus{Name: ct.Name, Image: ct.Image})
		}
	}
	for i := range out {
		var started time.Time
		if out[i].State.Running != nil {
			started = out[i].State.Running.StartedAt
		}
		if out[i].State.Terminated == nil {
			out[i].State = podstatus.ContainerState{Terminated: &podstatus.StateTerminated{ExitCode: code, Reason: why, StartedAt: started, FinishedAt: now}}
		}
		out[i].Ready = false
	}
	return out
}

// exitAndRestart makes every running container exit with code at now and
// decides each one's restart (podstatus.ShouldRestart): restarted at once
// or held in CrashLoopBackOff until podstatus.RestartBackoff allows it.
func (w *World) exitAndRestart(kp *kubeletPod, p *podstatus.Pod, code int32, now time.Time) []podstatus.ContainerStatus {
	why := "Completed"
	if code != 0 {
		why = "Error"
	}
	ready := w.readyDelay(w.behavior(p)) == 0 && !w.behavior(p).NeverReady
	cs := slices.Clone(p.Status.ContainerStatuses)
	for i := range cs {
		if cs[i].State.Running == nil {
			continue
		}
		term := podstatus.ContainerState{Terminated: &podstatus.StateTerminated{ExitCode: code, Reason: why,
			StartedAt: cs[i].State.Running.StartedAt, FinishedAt: now}}
		spec := containerSpec(p, cs[i].Name)
		cs[i].Ready = false
		if spec == nil || !podstatus.ShouldRestart(spec, p.Spec.RestartPolicy, code) {
			cs[i].State = term
			continue
		}
		var ep *podstatus.BackoffEntry
		if e, ok := kp.backoff[cs[i].Name]; ok {
			ep = &e
		}
		d := podstatus.RestartBackoff(ep, now, now, w.Opts.Kubelet.Backoff)
		kp.backoffFor()[cs[i].Name] = d.Entry
		cs[i].LastTerminationState = term
		if d.InBackoff {
			cs[i].State = podstatus.ContainerState{Waiting: &podstatus.StateWaiting{Reason: "CrashLoopBackOff"}}
			if kp.restartAt.IsZero() || d.Until.Before(kp.restartAt) {
				kp.restartAt = d.Until
			}
			continue
		}
		cs[i].State = podstatus.ContainerState{Running: &podstatus.StateRunning{StartedAt: now}}
		cs[i].RestartCount++
		cs[i].Ready = ready
	}
	return cs
}

func containerSpec(p *podstatus.Pod, name string) *podstatus.Container {
	for i := range p.Spec.Containers {
		if p.Spec.Containers[i].Name == name {
			return &p.Spec.Containers[i]
		}
	}
	return nil
}

// backoffFor returns kp.backoff for writing: copied first when it may be
// shared with a clone (World.Clone marks both kubeletPods shared).
func (kp *kubeletPod) backoffFor() map[string]podstatus.BackoffEntry {
	if kp.shared {
		kp.backoff = cloneMap(kp.backoff)
		kp.shared = false
	}
	return kp.backoff
}
