package cluster

import (
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/kubesem/kubesem/cronjob"
	"github.com/kubesem/kubesem/daemonset"
	"github.com/kubesem/kubesem/field"
	"github.com/kubesem/kubesem/job"
	"github.com/kubesem/kubesem/meta"
	"github.com/kubesem/kubesem/node"
	"github.com/kubesem/kubesem/plan"
	"github.com/kubesem/kubesem/podstatus"
	"github.com/kubesem/kubesem/replicaset"
	"github.com/kubesem/kubesem/rollout"
	"github.com/kubesem/kubesem/statefulset"
)

// Scenario is a world to run: the objects at Start (a dump of a real
// cluster converted by the CLI works), how the kubelet treats pods, and
// timed events. The CLI decodes it from YAML or JSON; the library holds the
// type and its validation.
type Scenario struct {
	// Start is the instant the scenario begins.
	Start time.Time `json:"start"`
	// Objects are the objects at Start, each a pointer to its kind's model
	// (*rollout.Deployment, *podstatus.Pod, *node.Node …).
	Objects []any `json:"objects"`
	// Pods are the kubelet's behaviours; a pod gets the first that matches
	// it, else the Options' kubelet timing.
	Pods []PodBehavior `json:"pods,omitempty"`
	// Events happen at Start+At, in order of At, then of the list.
	Events []Event `json:"events,omitempty"`
}

// PodBehavior says how the kubelet runs the pods it matches (in
// Namespace, or any when empty, whose labels Selector matches, or all).
type PodBehavior struct {
	Namespace string              `json:"namespace,omitempty"`
	Selector  *meta.LabelSelector `json:"selector,omitempty"`
	// StartDelay and ReadyDelay override KubeletOptions when set.
	StartDelay *time.Duration `json:"startDelay,omitempty"`
	ReadyDelay *time.Duration `json:"readyDelay,omitempty"`
	// NeverReady pods run but never become ready.
	NeverReady bool `json:"neverReady,omitempty"`
	// RunFor makes the containers exit with ExitCode after running that
	// long (a Job's pods); nil: they run until killed.
	RunFor   *time.Duration `json:"runFor,omitempty"`
	ExitCode int32          `json:"exitCode,omitempty"`
}

// EventKind is what a scenario event does.
type EventKind string

// The scenario events.
const (
	// EventScale sets spec.replicas of a Deployment, ReplicaSet,
	// ReplicationController or StatefulSet (Replicas) or spec.parallelism
	// of a Job.
	EventScale EventKind = "scale"
	// EventImage sets the image of every container of a workload's pod
	// template (Image): a Deployment's, ReplicaSet's,
	// ReplicationController's, StatefulSet's, DaemonSet's, Job's or
	// CronJob's.
	EventImage EventKind = "image"
	// EventTemplate replaces a workload's pod template (Template).
	EventTemplate EventKind = "template"
	// EventPause pauses a Deployment or suspends a Job or CronJob;
	// EventResume undoes it.
	EventPause  EventKind = "pause"
	EventResume EventKind = "resume"
	// EventCreate creates Object; EventUpdate replaces the object named
	// by Object's kind, namespace and name with it; EventDelete deletes
	// Target with PropagationPolicy, Background when empty, as kubectl
	// delete sends it (without it the API server would orphan a batch/v1
	// Job's pods); Orphan is `kubectl delete --cascade=orphan`.
	EventCreate EventKind = "create"
	EventUpdate EventKind = "update"
	EventDelete EventKind = "delete"
	// EventCordon and EventUncordon set spec.unschedulable of node Target.
	EventCordon   EventKind = "cordon"
	EventUncordon EventKind = "uncordon"
	// EventDrain cordons node Target and evicts its pods (not the
	// DaemonSet's) through the eviction subresource, retrying refused
	// evictions every 5 s as kubectl drain does, until none is left.
	EventDrain EventKind = "drain"
	// EventEvict evicts pod Target once.
	EventEvict EventKind = "evict"
	// EventStopNode stops node Target's kubelet (no heartbeats, no pod
	// changes); EventStartNode starts it again.
	EventStopNode  EventKind = "stopNode"
	EventStartNode EventKind = "startNode"
	// EventFailPod makes pod Target's running containers exit with
	// ExitCode (the kubelet then restarts them as the pod's policy says).
	EventFailPod EventKind = "failPod"
	// EventOrder makes the controllers named in Order sync first in every
	// round from its instant on, in that order, the others after them in
	// Sync's order (see Options.Order). It has no target: it is not a
	// write but one of the orders kube-controller-manager's concurrent
	// controllers may take (the model checker explores them).
	EventOrder EventKind = "order"
)

// Event is one timed scenario event.
type Event struct {
	At       time.Duration       `json:"at"`
	Kind     EventKind           `json:"kind"`
	Target   Key                 `json:"target,omitzero"`
	Replicas *int32              `json:"replicas,omitempty"`
	Image    string              `json:"image,omitempty"`
	Template *podstatus.Template `json:"template,omitempty"`
	Object   any                 `json:"object,omitempty"`
	ExitCode int32               `json:"exitCode,omitempty"`
	Order    []string            `json:"order,omitempty"`
	// PropagationPolicy is an EventDelete's: PropagationBackground
	// (also when empty), PropagationOrphan, or Foreground (taken as
	// Background).
	PropagationPolicy string `json:"propagationPolicy,omitempty"`
}

// targetKinds lists the kinds each event may target.
var targetKinds = map[EventKind][]Kind{
	EventScale:     {KindDeployment, KindReplicaSet, KindReplicationController, KindStatefulSet, KindJob},
	EventImage:     {KindDeployment, KindReplicaSet, KindReplicationController, KindStatefulSet, KindDaemonSet, KindJob, KindCronJob},
	EventTemplate:  {KindDeployment, KindReplicaSet, KindReplicationController, KindStatefulSet, KindDaemonSet, KindJob, KindCronJob},
	EventPause:     {KindDeployment, KindJob, KindCronJob},
	EventResume:    {KindDeployment, KindJob, KindCronJob},
	EventDelete:    kinds[:],
	EventCordon:    {KindNode},
	EventUncordon:  {KindNode},
	EventDrain:     {KindNode},
	EventEvict:     {KindPod},
	EventStopNode:  {KindNode},
	EventStartNode: {KindNode},
	EventFailPod:   {KindPod},
}

// Validate checks the scenario: every object a modelled kind with a name
// (and a namespace when namespaced), no two objects with one key or UID,
// events at non-negative offsets with a known kind, the target kind and
// name it needs, and its parameters. Errors are *field.Error naming the
// path (objects[2].metadata.name, events[1].target.kind …).
func (sc *Scenario) Validate() error {
	keys := map[Key]bool{}
	uids := map[string]bool{}
	for i, o := range sc.Objects {
		path := field.Index("objects", i)
		if err := validateObject(o, path); err != nil {
			return err
		}
		k, _ := KindOf(o)
		m := metaOf(o)
		key := Key{k, m.Namespace, m.Name}
		if keys[key] {
			return field.New(path+".metadata.name", m.Name, field.ErrDuplicate)
		}
		keys[key] = true
		if m.UID != "" {
			if uids[m.UID] {
				return field.New(path+".metadata.uid", m.UID, field.ErrDuplicate)
			}
			uids[m.UID] = true
		}
	}
	for i, b := range sc.Pods {
		path := field.Index("pods", i)
		for _, d := range []struct {
			n string
			v *time.Duration
		}{{"startDelay", b.StartDelay}, {"readyDelay", b.ReadyDelay}, {"runFor", b.RunFor}} {
			if d.v != nil && *d.v < 0 {
				return field.New(path+"."+d.n, d.v.String(), field.ErrNegative)
			}
		}
		if b.Selector != nil {
			if err := b.Selector.Validate(path + ".selector"); err != nil {
				return err
			}
		}
	}
	for i, e := range sc.Events {
		path := field.Index("events", i)
		if e.At < 0 {
			return field.New(path+".at", e.At.String(), field.ErrNegative)
		}
		switch e.Kind {
		case EventCreate, EventUpdate:
			if err := validateObject(e.Object, path+".object"); err != nil {
				return err
			}
			continue
		case EventOrder:
			if len(e.Order) == 0 {
				return field.New(path+".order", "", field.ErrRequired)
			}
			if err := validateOrder(e.Order, path+".order"); err != nil {
				return err
			}
			continue
		}
		allowed, ok := targetKinds[e.Kind]
		if !ok {
			return field.New(path+".kind", string(e.Kind), field.ErrUnsupported)
		}
		if !slices.Contains(allowed, e.Target.Kind) {
			return field.New(path+".target.kind", string(e.Target.Kind), field.ErrUnsupported)
		}
		if e.Target.Name == "" {
			return field.New(path+".target.name", "", field.ErrRequired)
		}
		if kindInfos[e.Target.Kind].namespaced && e.Target.Namespace == "" {
			return field.New(path+".target.namespace", "", field.ErrRequired)
		}
		switch e.Kind {
		case EventScale:
			if e.Replicas == nil {
				return field.New(path+".replicas", "", field.ErrRequired)
			}
			if *e.Replicas < 0 {
				return field.Int(path+".replicas", int64(*e.Replicas), field.ErrNegative)
			}
		case EventImage:
			if e.Image == "" {
				return field.New(path+".image", "", field.ErrRequired)
			}
		case EventTemplate:
			if e.Template == nil {
				return field.New(path+".template", "", field.ErrRequired)
			}
		case EventDelete:
			switch e.PropagationPolicy {
			case "", PropagationBackground, PropagationOrphan, "Foreground":
			default:
				return field.New(path+".propagationPolicy", e.PropagationPolicy, field.ErrUnsupported)
			}
		}
	}
	return nil
}

func validateObject(o any, path string) error {
	k, ok := KindOf(o)
	if !ok {
		return field.New(path, "", field.ErrUnsupported)
	}
	m := metaOf(o)
	if m.Name == "" && m.GenerateName == "" {
		return field.New(path+".metadata.name", "", field.ErrRequired)
	}
	if kindInfos[k].namespaced && m.Namespace == "" {
		return field.New(path+".metadata.namespace", "", field.ErrRequired)
	}
	return nil
}

// userEvents performs the scenario events due at now, each as the writes
// a user (kubectl) sends.
func (w *World) userEvents(now time.Time) {
	for len(w.events) > 0 && !w.Start.Add(w.events[0].At).After(now) {
		e := w.events[0]
		w.events = w.events[1:]
		w.userEvent(e, now)
	}
}

func (w *World) userEvent(e Event, now time.Time) {
	s := w.State
	obj := s.Get(e.Target)
	update := func(o any, reason plan.Reason) {
		m := metaOf(o)
		w.apply(CtlUser, plan.Write{Verb: plan.VerbUpdate, Resource: e.Target.Kind.Resource(),
			Namespace: m.Namespace, Name: m.Name, Object: o, Reason: reason}, now)
	}
	reason := plan.Reason(e.Kind)
	switch e.Kind {
	case EventCreate:
		k, _ := KindOf(e.Object)
		w.apply(CtlUser, plan.Write{Verb: plan.VerbCreate, Resource: k.Resource(), Namespace: metaOf(e.Object).Namespace,
			Object: e.Object, Reason: reason}, now)
		if n, ok := e.Object.(*node.Node); ok {
			w.nodeEnv(n.Name, n)
		}
		return
	case EventUpdate:
		k, _ := KindOf(e.Object)
		m := metaOf(e.Object)
		w.apply(CtlUser, plan.Write{Verb: plan.VerbUpdate, Resource: k.Resource(), Namespace: m.Namespace, Name: m.Name,
			Object: e.Object, Reason: reason}, now)
		return
	case EventOrder:
		w.ctls = ordered(w.ctls, e.Order)
		w.Trace = append(w.Trace, Entry{Time: now, Controller: CtlWorld, Reason: ReasonOrder,
			Event: &plan.Event{Type: plan.Normal, Reason: ReasonOrder, Message: "controllers sync in the order " + strings.Join(w.Order(), ", ")}})
		return
	case EventStopNode:
		w.nodeEnv(e.Target.Name, nil).stopped = true
		w.traceUser(e, now)
		return
	case EventStartNode:
		n := w.nodeEnv(e.Target.Name, nil)
		if n.stopped {
			n.stopped, n.nextRenew, n.lastReport = false, now, time.Time{}
		}
		w.traceUser(e, now)
		return
	case EventFailPod:
		if p, ok := obj.(*podstatus.Pod); ok {
			kp := w.kpods[p.UID]
			if kp == nil {
				kp = &kubeletPod{backoff: map[string]podstatus.BackoffEntry{}}
				w.kpods[p.UID] = kp
			}
			code := e.ExitCode
			kp.fail = &code
		}
		w.traceUser(e, now)
		return
	case EventDelete:
		policy := PropagationBackground
		if e.PropagationPolicy == PropagationOrphan {
			policy = PropagationOrphan
		}
		w.apply(CtlUser, plan.Write{Verb: plan.VerbDelete, Resource: e.Target.Kind.Resource(),
			Namespace: e.Target.Namespace, Name: e.Target.Name, PropagationPolicy: policy, Reason: reason}, now)
		return
	case EventEvict:
		w.apply(CtlUser, plan.Write{Verb: plan.VerbCreate, Resource: "pods", Subresource: "eviction",
			Namespace: e.Target.Namespace, Name: e.Target.Name, Reason: reason}, now)
		return
	case EventDrain:
		w.drains[e.Target.Name] = now
	}
	if obj == nil {
		w.Trace = append(w.Trace, Entry{Time: now, Controller: CtlUser, Object: e.Target, Reason: reason,
			Err: field.New("target.name", e.Target.Name, ErrNotFound).Error()})
		return
	}
	switch e.Kind {
	case EventCordon, EventUncordon, EventDrain:
		c := *obj.(*node.Node)
		c.Spec.Unschedulable = e.Kind != EventUncordon
		if c.Spec.Unschedulable != obj.(*node.Node).Spec.Unschedulable {
			update(&c, reason)
		}
	case EventScale:
		r := *e.Replicas
		switch o := obj.(type) {
		case *rollout.Deployment:
			c := *o
			c.Spec.Replicas = &r
			update(&c, reason)
		case *replicaset.ReplicaSet:
			c := *o
			c.Spec.Replicas = &r
			update(&c, reason)
		case *statefulset.StatefulSet:
			c := *o
			c.Spec.Replicas = &r
			update(&c, reason)
		case *job.Job:
			c := *o
			c.Spec.Parallelism = &r
			update(&c, reason)
		}
	case EventImage, EventTemplate:
		change := func(t podstatus.Template) podstatus.Template {
			if e.Kind == EventTemplate {
				return *e.Template
			}
			t.Spec.Containers = slices.Clone(t.Spec.Containers)
			for i := range t.Spec.Containers {
				t.Spec.Containers[i].Image = e.Image
			}
			return t
		}
		switch o := obj.(type) {
		case *rollout.Deployment:
			c := *o
			c.Spec.Template = change(o.Spec.Template)
			update(&c, reason)
		case *replicaset.ReplicaSet:
			c := *o
			c.Spec.Template = change(o.Spec.Template)
			update(&c, reason)
		case *statefulset.StatefulSet:
			c := *o
			c.Spec.Template = change(o.Spec.Template)
			update(&c, reason)
		case *daemonset.DaemonSet:
			c := *o
			c.Spec.Template = change(o.Spec.Template)
			update(&c, reason)
		case *job.Job:
			c := *o
			c.Spec.Template = change(o.Spec.Template)
			update(&c, reason)
		case *cronjob.CronJob:
			c := *o
			c.Spec.JobTemplate.Spec.Template = change(o.Spec.JobTemplate.Spec.Template)
			update(&c, reason)
		}
	case EventPause, EventResume:
		on := e.Kind == EventPause
		switch o := obj.(type) {
		case *rollout.Deployment:
			c := *o
			c.Spec.Paused = on
			update(&c, reason)
		case *job.Job:
			c := *o
			c.Spec.Suspend = &on
			update(&c, reason)
		case *cronjob.CronJob:
			c := *o
			c.Spec.Suspend = &on
			update(&c, reason)
		}
	}
}

func (w *World) traceUser(e Event, now time.Time) {
	w.Trace = append(w.Trace, Entry{Time: now, Controller: CtlUser, Object: e.Target, Reason: plan.Reason(e.Kind)})
	w.lastBusy = now
}

// drainRetry is kubectl drain's wait between refused evictions.
const drainRetry = 5 * time.Second

// drain evicts, for each draining node whose attempt is due, every pod
// bound to it that is not being deleted, not terminal and not owned by a
// DaemonSet; a node with no such pod left is drained.
func (w *World) drain(now time.Time) {
	names := make([]string, 0, len(w.drains))
	for n, at := range w.drains {
		if !at.After(now) {
			names = append(names, n)
		}
	}
	slices.Sort(names)
	for _, n := range names {
		left := false
		for _, p := range w.State.PodsOnNode(n) {
			if p.IsDeleting() || podstatus.IsTerminal(p) {
				continue
			}
			if ref := p.ControllerRef(); ref != nil && ref.Kind == string(KindDaemonSet) {
				continue
			}
			if _, err := w.apply(CtlUser, plan.Write{Verb: plan.VerbCreate, Resource: "pods", Subresource: "eviction",
				Namespace: p.Namespace, Name: p.Name, Reason: ReasonDrain}, now); err != nil {
				left = true
			}
		}
		if left {
			w.drains[n] = now.Add(drainRetry)
		} else {
			delete(w.drains, n)
		}
	}
}

var _ = strconv.Itoa
