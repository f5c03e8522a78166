package cluster

import (
	"slices"
	"time"

	"github.com/kubesem/kubesem/daemonset"
	"github.com/kubesem/kubesem/job"
	"github.com/kubesem/kubesem/node"
	"github.com/kubesem/kubesem/plan"
	"github.com/kubesem/kubesem/podgc"
	"github.com/kubesem/kubesem/podstatus"
)

// This file holds what a model checker (package check) needs of a World
// beyond running it: the next due instant, one event injected at a chosen
// instant, and the world's memory besides its State, to tell two worlds
// apart. None of it changes how a world runs.

// NextDue returns the earliest instant anything is due (a scenario event,
// a requeue, a kubelet, heartbeat or drain timer, a pending garbage
// collection): the instant World.Step would run next. ok is false when
// nothing is due.
func (w *World) NextDue() (time.Time, bool) { return w.nextDue() }

// NextBusy returns the earliest instant something other than periodic
// work (heartbeats, the node monitor's and pod GC's passes) is due: ok is
// false when only periodic work is due, as in a settled world.
func (w *World) NextBusy() (time.Time, bool) { return w.nextBusy() }

// Inject adds e to the world's pending scenario events, as if the scenario
// had listed it: it happens at Start+e.At (at once, if that is not after
// Now, when the world next steps), after the pending events due at the
// same instant. A world built from the scenario with e among its events
// runs the same way, so a sequence of injections replays as a scenario.
func (w *World) Inject(e Event) {
	i := len(w.events)
	for i > 0 && w.events[i-1].At > e.At {
		i--
	}
	w.events = slices.Insert(slices.Clip(w.events), i, e)
}

// Memory is what a World keeps besides its State and Trace: the pending
// scenario events, the controllers' requeues and memory, and the
// environment's timers. Two worlds with equal States and equal Memory at
// the same instant run the same way. The maps and slices are the world's
// own (TaintSeen excepted): read them, never modify them, and do not keep
// them past the world's next step.
type Memory struct {
	Events   []Event   `json:"events,omitempty"`
	Requeues []Requeue `json:"requeues,omitempty"`
	// Dirty lists the controllers whose watched kinds changed since their
	// last pass (they sync at the next instant).
	Dirty            []string                            `json:"dirty,omitempty"`
	JobBackoff       map[Key]job.BackoffRecord           `json:"jobBackoff,omitempty"`
	DaemonSetBackoff map[Key]daemonset.Backoff           `json:"daemonSetBackoff,omitempty"`
	Node             node.Memory                         `json:"node"`
	PodGC            podgc.Memory                        `json:"podGC"`
	Evictions        map[string][]node.ScheduledEviction `json:"evictions,omitempty"`
	TaintSeen        map[string]TaintView                `json:"taintSeen,omitempty"`
	Nodes            map[string]NodeTimers               `json:"nodes,omitempty"`
	Kubelet          map[string]KubeletPod               `json:"kubelet,omitempty"` // by pod UID
	Drains           map[string]time.Time                `json:"drains,omitempty"`
	Garbage          []string                            `json:"garbage,omitempty"` // UIDs of removed owners and of owners to orphan dependents of
}

// Requeue is a due instant of one controller for one object, with the
// failures its rate limiter counts.
type Requeue struct {
	Controller string    `json:"controller"`
	Object     Key       `json:"object"`
	At         time.Time `json:"at"`
	Periodic   bool      `json:"periodic,omitempty"`
	Failures   int       `json:"failures,omitempty"`
}

// TaintView is what the taint-eviction controller last saw of a node: its
// NoExecute taints and its pods' UIDs and tolerations, by pod name.
type TaintView struct {
	Taints []node.Taint         `json:"taints,omitempty"`
	Pods   map[string]PodTaints `json:"pods,omitempty"`
}

// PodTaints is one pod of a TaintView.
type PodTaints struct {
	UID         string                 `json:"uid"`
	Tolerations []podstatus.Toleration `json:"tolerations,omitempty"`
}

// NodeTimers is the environment's view of a node: whether its kubelet
// runs, when it renews its lease next and when it last reported status.
type NodeTimers struct {
	Stopped    bool      `json:"stopped,omitempty"`
	NextRenew  time.Time `json:"nextRenew"`
	LastReport time.Time `json:"lastReport"`
}

// KubeletPod is the kubelet's memory of a pod: each container's restart
// backoff, when a crash-looping container restarts, and a pending
// failure's exit code.
type KubeletPod struct {
	Backoff   map[string]podstatus.BackoffEntry `json:"backoff,omitempty"`
	RestartAt time.Time                         `json:"restartAt"`
	Fail      *int32                            `json:"fail,omitempty"`
}

// Memory returns the world's memory besides its State (see [Memory]):
// requeues by controller and object, dirty controllers by name.
func (w *World) Memory() Memory {
	m := Memory{Events: w.events, JobBackoff: w.jobBackoff, DaemonSetBackoff: w.dsBackoff, Node: w.nodeMem,
		PodGC: w.podgcMem, Evictions: w.evictions, Drains: w.drains, Garbage: w.gc}
	for ck, r := range w.requeue {
		m.Requeues = append(m.Requeues, Requeue{Controller: ck.ctl, Object: ck.obj, At: r.at, Periodic: r.periodic, Failures: w.fails[ck]})
	}
	for ck, n := range w.fails {
		if _, ok := w.requeue[ck]; !ok && n > 0 {
			m.Requeues = append(m.Requeues, Requeue{Controller: ck.ctl, Object: ck.obj, Failures: n})
		}
	}
	slices.SortFunc(m.Requeues, func(a, b Requeue) int {
		if a.Controller != b.Controller {
			if a.Controller < b.Controller {
				return -1
			}
			return 1
		}
		return compareKeys(a.Object, b.Object)
	})
	for _, c := range w.ctls {
		if w.changedFor(c) {
			m.Dirty = append(m.Dirty, c.name)
		}
	}
	if len(w.taintSeen) > 0 {
		m.TaintSeen = make(map[string]TaintView, len(w.taintSeen))
		for n, ts := range w.taintSeen {
			v := TaintView{Taints: ts.taints, Pods: make(map[string]PodTaints, len(ts.pods))}
			for p, ps := range ts.pods {
				v.Pods[p] = PodTaints{UID: ps.uid, Tolerations: ps.tolerations}
			}
			m.TaintSeen[n] = v
		}
	}
	m.Nodes = make(map[string]NodeTimers, len(w.nodes))
	for n, e := range w.nodes {
		m.Nodes[n] = NodeTimers{Stopped: e.stopped, NextRenew: e.nextRenew, LastReport: e.lastReport}
	}
	if len(w.kpods) > 0 {
		m.Kubelet = make(map[string]KubeletPod, len(w.kpods))
		for uid, kp := range w.kpods {
			m.Kubelet[uid] = KubeletPod{Backoff: kp.backoff, RestartAt: kp.restartAt, Fail: kp.fail}
		}
	}
	return m
}

// Rewrite, when Options.Rewrite is set, replaces the writes a controller's
// Plan became before they are applied: a test's mutation of a rule (the
// check package's mutation tests make a controller break its guarantee
// and see the property fail). It is given the controller's name, the
// object synced and the writes; it must not modify them in place, and it
// must keep the writes it is given at their indexes (it may append): the
// Job controller completes a write from the results of those before it.
type Rewrite func(ctl string, obj Key, writes []plan.Write) []plan.Write
