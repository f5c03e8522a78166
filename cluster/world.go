package cluster

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/kubesem/kubesem/cronjob"
	"github.com/kubesem/kubesem/daemonset"
	"github.com/kubesem/kubesem/job"
	"github.com/kubesem/kubesem/node"
	"github.com/kubesem/kubesem/pdb"
	"github.com/kubesem/kubesem/plan"
	"github.com/kubesem/kubesem/podgc"
	"github.com/kubesem/kubesem/podstatus"
	"github.com/kubesem/kubesem/replicaset"
	"github.com/kubesem/kubesem/rollout"
	"github.com/kubesem/kubesem/statefulset"
)

// Options configure a World. The zero value is v1.36.3's controllers with
// default flags and gates, [DefaultNamer], the [FewestPods] scheduler and
// a kubelet that starts containers and makes them ready at once.
type Options struct {
	// Namer names created objects and hashes templates; nil: DefaultNamer.
	Namer Namer `json:"-"`
	// Scheduler picks a node for an unscheduled pod; nil: FewestPods.
	Scheduler Scheduler `json:"-"`
	// Kubelet is the kubelet model's timing.
	Kubelet KubeletOptions `json:"kubelet"`
	// Controllers lists the controllers that run, by name (see
	// ControllerNames); nil runs them all.
	Controllers []string `json:"controllers,omitempty"`
	// Order lists controllers (by name) that sync first in every round, in
	// this order; the others follow in Sync's order. nil: Sync's order.
	// kube-controller-manager runs its controllers concurrently, so any
	// order is one Kubernetes may take; EventOrder changes it during a
	// scenario.
	Order []string `json:"order,omitempty"`
	// MaxRounds bounds the rounds of environment and sync at one instant
	// (each round runs when the previous one wrote anything); 0 means 16.
	MaxRounds int `json:"maxRounds,omitempty"`
	// MaxSteps bounds how many times in a row Step may run one instant
	// (each time at most MaxRounds rounds); 0 means 8. A world that would
	// run an instant once more is stuck: see World.Err.
	MaxSteps int `json:"maxSteps,omitempty"`
	// SettleQuiet is how long the world must go without a write other than
	// heartbeats to count as settled; 0 means 1 minute (longer than the node
	// monitor grace period, so a node that stopped heartbeating is noticed).
	SettleQuiet time.Duration `json:"settleQuiet,omitempty"`
	// Rewrite, when set, replaces the writes of each controller's Plan
	// (a mutation for tests, see [Rewrite]); nil: none.
	Rewrite Rewrite `json:"-"`
	// OnStep, when set, receives every decision the world makes as a
	// conformance vector states it (see [StepCall]); nil: none.
	OnStep OnStep `json:"-"`

	Rollout     rollout.Options     `json:"rollout"`
	ReplicaSet  replicaset.Options  `json:"replicaSet"`
	StatefulSet statefulset.Options `json:"statefulSet"`
	DaemonSet   daemonset.Options   `json:"daemonSet"`
	Job         job.Options         `json:"job"`
	CronJob     cronjob.Options     `json:"cronJob"`
	PDB         pdb.Options         `json:"pdb"`
	PodGC       podgc.Options       `json:"podGC"`
	Node        node.Options        `json:"node"`
	Pod         podstatus.Options   `json:"pod"`
}

// Entry is one line of the trace: at Time, Controller (a controller's
// name, "scheduler", "kubelet/<node>", "garbage-collector", "user" …)
// wrote Write, or recorded Event, about Object; Err is the API server's
// refusal of the write, if any.
type Entry struct {
	Time       time.Time   `json:"time"`
	Controller string      `json:"controller"`
	Object     Key         `json:"object"`
	Write      *plan.Write `json:"write,omitempty"`
	Event      *plan.Event `json:"event,omitempty"`
	Reason     plan.Reason `json:"reason,omitempty"`
	Err        string      `json:"error,omitempty"`
}

// Decision is one controller Step on one object: the Plan it returned,
// the writes the Plan became, the Step's error (Err: the Step could not
// decide), and the API server's refusal of one of the writes (Refused,
// under "writes[i]": that write and the ones after it were not applied;
// the controller retries, rate-limited, as upstream's sync returns the
// error).
type Decision struct {
	Controller string       `json:"controller"`
	Object     Key          `json:"object"`
	Plan       any          `json:"plan"`
	Writes     []plan.Write `json:"writes"`
	Err        error        `json:"-"`
	Refused    error        `json:"-"`
}

// ctlKey names one object of one controller, for requeues and memory.
type ctlKey struct {
	ctl string
	obj Key
}

// requeue is a due instant of a controller for an object.
type requeue struct {
	at       time.Time
	periodic bool
}

// World is a cluster over time: its State, the controllers' memory
// between syncs, the environment (scheduler, kubelets, heartbeats, users)
// and the trace of every write. Build one with [New]; advance it with
// [World.Run], [World.RunUntilSettled] or [World.Step].
type World struct {
	State *State
	Now   time.Time
	Start time.Time
	Opts  Options
	Trace []Entry
	// Err is set when the world stopped because it was stuck: something
	// stayed due at one instant after Options.MaxSteps steps of it (a
	// modelling error, never a behaviour of Kubernetes). The trace then
	// ends with an entry of Controller "world" and Reason "Stuck" whose
	// Err lists what was still due; Step does nothing more.
	Err error

	// last is the instant Step ran last and same how many times in a row.
	last time.Time
	same int

	events []Event // pending scenario events, by time then input order
	pods   []PodBehavior
	// anyRunFor is whether a PodBehavior has RunFor (pods then have a
	// timer while running).
	anyRunFor bool
	ctls      []controller
	requeue   map[ctlKey]requeue
	fails     map[ctlKey]int
	// seen is, per controller, the State's kind versions at its last sync.
	seen map[string]kindVersions
	// reqBuf and dueBuf are sync's working lists (never shared: a clone
	// starts without them).
	reqBuf []reqAt
	dueBuf []Key
	// woken is, per controller and object, the fingerprint of what its
	// informer handlers watch at its last sync (controller.wake).
	woken map[ctlKey]string

	jobBackoff map[Key]job.BackoffRecord
	dsBackoff  map[Key]daemonset.Backoff
	nodeMem    node.Memory
	// nodeMemBy is the class of nodeMem in passes (nil: the zero Memory,
	// unless nodeMemOwn: a Memory the memo does not hold); passes is the
	// memo of node monitor passes shared with clones (nodememo.go).
	nodeMemBy  *memClass
	nodeMemOwn bool
	passes     *passMemo
	// kubeletNames is "kubelet/<node>" by node name, for the nodes of the
	// scenario (made once: shared by clones, never modified).
	kubeletNames map[string]string
	// nodeMonitorAt is when the node lifecycle controller's next monitor
	// pass is due (zero: it has not run).
	nodeMonitorAt time.Time
	podgcMem      podgc.Memory
	evictions     map[string][]node.ScheduledEviction
	taintSeen     map[string]taintSeen // the taint-eviction controller's view, by node

	nodes    map[string]*nodeEnv
	kpods    map[string]*kubeletPod // by pod UID
	drains   map[string]time.Time   // draining node → next attempt
	gc       []string               // UIDs of removed objects whose dependents the GC checks
	pdbIdx   *pdbIndex              // the disruption controller's pod index (ctl_pdb.go)
	leases   leaseList              // the node leases node.Step was last given (ctl_node.go)
	lastBusy time.Time              // last instant with a write other than heartbeats
	// keepPlans is, while sync runs, whether a step's Plan is read (see
	// keepPlan); false otherwise.
	keepPlans bool
}

// New returns the world of scenario sc (validated first, see
// [Scenario.Validate]) at sc.Start: its objects stored as given, except
// that an object without a UID gets one from the namer (in key order) and
// one without a creationTimestamp gets sc.Start. Nothing runs until the
// world is advanced.
func New(sc Scenario, opts Options) (*World, error) {
	if err := sc.Validate(); err != nil {
		return nil, err
	}
	if err := validateOrder(opts.Order, "options.order"); err != nil {
		return nil, err
	}
	if opts.Namer == nil {
		opts.Namer = DefaultNamer{}
	}
	if opts.Scheduler == nil {
		opts.Scheduler = FewestPods
	}
	w := &World{
		State: NewState(), Now: sc.Start, Start: sc.Start, Opts: opts,
		requeue: map[ctlKey]requeue{}, fails: map[ctlKey]int{}, seen: map[string]kindVersions{}, woken: map[ctlKey]string{},
		jobBackoff: map[Key]job.BackoffRecord{}, dsBackoff: map[Key]daemonset.Backoff{},
		evictions: map[string][]node.ScheduledEviction{}, taintSeen: map[string]taintSeen{},
		nodes: map[string]*nodeEnv{}, kpods: map[string]*kubeletPod{}, drains: map[string]time.Time{},
		lastBusy: sc.Start,
	}
	// Objects are stored in key order, so the UIDs given to objects without
	// one do not depend on the order of sc.Objects.
	objs := slices.Clone(sc.Objects)
	slices.SortStableFunc(objs, func(a, b any) int { return compareKeys(keyOf(a), keyOf(b)) })
	for _, o := range objs {
		c := shallow(o)
		m := metaOf(c)
		if m.UID == "" {
			w.State.Counter++
			m.UID = opts.Namer.UID(w.State.Counter)
		}
		if m.CreationTimestamp.IsZero() {
			m.CreationTimestamp = sc.Start
		}
		if err := w.State.Put(c); err != nil {
			return nil, err
		}
	}
	w.events = slices.Clone(sc.Events)
	slices.SortStableFunc(w.events, func(a, b Event) int { return int(a.At - b.At) })
	w.pods = slices.Clone(sc.Pods)
	for _, b := range w.pods {
		if b.RunFor != nil {
			w.anyRunFor = true
		}
	}
	w.ctls = ordered(controllersFor(opts.Controllers), opts.Order)
	// A node that is not Ready at the start is taken as one whose kubelet
	// does not run (a dump of a cluster with a dead node); startNode
	// starts it.
	w.kubeletNames = map[string]string{}
	for _, n := range w.State.Nodes() {
		w.nodeEnv(n.Name, n).stopped = !n.IsReady()
		w.kubeletNames[n.Name] = CtlKubelet + n.Name
	}
	return w, nil
}

func keyOf(o any) Key {
	k, _ := KindOf(o)
	m := metaOf(o)
	return Key{k, m.Namespace, m.Name}
}

// Clone returns an independent copy of the world: advancing either never
// changes the other. The trace is copied; stored objects are shared (they
// are never modified), and so are the State's maps and the kubelet's
// backoff maps until either world writes them: Clone marks the receiver's
// too, so it must not run concurrently with anything else on w.
func (w *World) Clone() *World {
	if w.passes == nil {
		w.passes = &passMemo{}
	}
	c := *w
	c.State = w.State.Clone()
	if c.leases.state == w.State {
		// (the clone's leases are the same, at the same version)
		c.leases.state = c.State
	}
	c.Trace = slices.Clone(w.Trace)
	c.events = slices.Clone(w.events)
	c.requeue = cloneMap(w.requeue)
	c.fails = cloneMap(w.fails)
	c.woken = cloneMap(w.woken)
	c.seen = cloneMap(w.seen)
	c.reqBuf, c.dueBuf = nil, nil
	c.jobBackoff = cloneMap(w.jobBackoff)
	c.dsBackoff = cloneMap(w.dsBackoff)
	c.evictions = cloneMap(w.evictions)
	c.taintSeen = cloneMap(w.taintSeen)
	// (the copies of the node environments and kubelet pods are made in
	// one slice each; the backoff maps are shared until written, see
	// kubeletPod.backoffFor)
	c.nodes = make(map[string]*nodeEnv, len(w.nodes))
	envs := make([]nodeEnv, 0, len(w.nodes))
	for k, v := range w.nodes {
		envs = append(envs, *v)
		c.nodes[k] = &envs[len(envs)-1]
	}
	c.kpods = make(map[string]*kubeletPod, len(w.kpods))
	kps := make([]kubeletPod, 0, len(w.kpods))
	for k, v := range w.kpods {
		v.shared = true
		kps = append(kps, *v)
		c.kpods[k] = &kps[len(kps)-1]
	}
	c.drains = cloneMap(w.drains)
	c.gc = slices.Clone(w.gc)
	return &c
}

// apply applies one write at now for controller ctl, records it in the
// trace, and keeps what the garbage collector must look at.
func (w *World) apply(ctl string, wr plan.Write, now time.Time) (Result, error) {
	return w.applyKept(ctl, &wr, now)
}

// applyKept is apply with the write the trace keeps: *wr, which nothing
// may modify afterwards.
func (w *World) applyKept(ctl string, p *plan.Write, now time.Time) (Result, error) {
	wr := *p
	w.recordEviction(ctl, wr, now)
	if ctl == CtlUser {
		var err error
		switch wr.Verb {
		case plan.VerbUpdate, plan.VerbPatch:
			err = w.validateUserUpdate(&wr)
		case plan.VerbCreate:
			err = w.validateUserCreate(&wr)
		}
		if err != nil {
			k, _ := KindOfResource(wr.Resource)
			name := wr.Name
			if m := metaOf(wr.Object); name == "" && m != nil {
				name = m.Name
			}
			return w.refuse(ctl, wr, now, Key{k, wr.Namespace, name}, err)
		}
	}
	r, err := w.State.Apply(wr, now, w.Opts.Namer)
	e := Entry{Time: now, Controller: ctl, Object: r.Key, Write: p, Reason: wr.Reason}
	if r.Key == (Key{}) {
		k, _ := KindOfResource(wr.Resource)
		e.Object = Key{k, wr.Namespace, wr.Name}
		if e.Object.Name == "" && wr.Object != nil {
			if m := metaOf(wr.Object); m != nil {
				e.Object.Name = m.GenerateName
			}
		}
	}
	if err != nil {
		e.Err = err.Error()
	}
	w.Trace = append(w.Trace, e)
	if err == nil && r.UID != "" && (r.Removed || wr.Verb == plan.VerbDelete && isOrphaning(r.Object)) {
		w.gc = append(w.gc, r.UID)
	}
	if err == nil && wr.Reason != ReasonHeartbeat {
		w.lastBusy = now
	}
	return r, err
}

// refuse records wr refused by the API server with err, as apply records a
// write State.Apply refuses.
func (w *World) refuse(ctl string, wr plan.Write, now time.Time, k Key, err error) (Result, error) {
	w.Trace = append(w.Trace, Entry{Time: now, Controller: ctl, Object: k, Write: &wr, Reason: wr.Reason, Err: err.Error()})
	return Result{}, err
}

// event records a Plan's event in the trace.
func (w *World) event(ctl string, obj Key, ev plan.Event, now time.Time) {
	e := ev
	w.Trace = append(w.Trace, Entry{Time: now, Controller: ctl, Object: obj, Event: &e, Reason: ev.Reason})
}

// Step advances the world to its next due instant, if that is not after
// until, and runs it: scenario events due, then rounds of environment and
// control-plane sync until a round writes nothing (at most MaxRounds). It
// returns false when nothing is due by until (Now is then until), and
// when the world is stuck (see World.Err; Now then stays at the instant
// it could not leave): an instant is never run more than Options.MaxSteps
// times in a row, so Run and RunUntilSettled always end.
func (w *World) Step(until time.Time) bool {
	if w.Err != nil {
		return false
	}
	t, ok := w.nextDue()
	if !ok || t.After(until) {
		if until.After(w.Now) {
			w.Now = until
		}
		return false
	}
	if t.Before(w.Now) {
		t = w.Now
	}
	if t.Equal(w.last) && w.same > 0 {
		limit := w.Opts.MaxSteps
		if limit <= 0 {
			limit = 8
		}
		if w.same >= limit {
			w.Now = t
			w.stuck(t)
			return false
		}
		w.same++
	} else {
		w.last, w.same = t, 1
	}
	w.Now = t
	w.instant(t)
	return true
}

// CtlWorld is the trace's name for the world itself (ReasonStuck).
const CtlWorld = "world"

// ReasonStuck marks the trace entry of a world that stopped because
// something stayed due at one instant (see World.Err).
const ReasonStuck plan.Reason = "Stuck"

// ReasonOrder marks the trace entry of an EventOrder: the controllers'
// order changed.
const ReasonOrder plan.Reason = "Order"

// ErrStuck is the error of World.Err.
var ErrStuck = errors.New("the world is stuck: still due after the last step of this instant")

// stuck stops the world at t: the trace's last entry and Err say what was
// still due.
func (w *World) stuck(t time.Time) {
	due := strings.Join(w.dueList(t), ", ")
	w.Err = fmt.Errorf("%w (%s): %s", ErrStuck, t.Format(time.RFC3339Nano), due)
	w.Trace = append(w.Trace, Entry{Time: t, Controller: CtlWorld, Reason: ReasonStuck, Err: w.Err.Error()})
}

// dueList describes everything due at or before t, sorted.
func (w *World) dueList(t time.Time) []string {
	var out []string
	for _, e := range w.events {
		if !w.Start.Add(e.At).After(t) {
			out = append(out, fmt.Sprintf("event %s %s", e.Kind, e.Target))
		}
	}
	for ck, r := range w.requeue {
		if !r.at.After(t) {
			out = append(out, fmt.Sprintf("requeue %s %s", ck.ctl, ck.obj))
		}
	}
	for n, at := range w.drains {
		if !at.After(t) {
			out = append(out, "drain Node/"+n)
		}
	}
	if len(w.gc) > 0 {
		out = append(out, "garbage collection")
	}
	for name, e := range w.nodes {
		if e.stopped {
			continue
		}
		if !e.nextRenew.After(t) {
			out = append(out, "heartbeat Node/"+name)
		}
		for n := range w.State.onNode[name].m {
			p := w.State.objs[KindPod][n].obj.(*podstatus.Pod)
			if x, ok := w.podTimer(p); ok && !x.After(t) {
				out = append(out, fmt.Sprintf("kubelet/%s Pod/%s/%s", name, p.Namespace, p.Name))
			}
		}
	}
	slices.Sort(out)
	return out
}

// Run advances the world instant by instant until until.
func (w *World) Run(until time.Time) {
	for w.Step(until) {
	}
}

// RunUntilSettled advances the world until it is settled — no write
// other than heartbeats for Options.SettleQuiet, and nothing due but
// periodic work (heartbeats, the node monitor and pod GC passes) — or
// until Start+limit, or until it is stuck (World.Err; not settled). It returns when it settled (the last busy instant)
// and whether it did.
func (w *World) RunUntilSettled(limit time.Duration) (time.Time, bool) {
	end := w.Start.Add(limit)
	quiet := w.Opts.SettleQuiet
	if quiet <= 0 {
		quiet = time.Minute
	}
	for {
		if w.settled(quiet) {
			return w.lastBusy, true
		}
		t, ok := w.nextDue()
		if !ok {
			return w.lastBusy, true
		}
		if t.After(end) {
			w.Now = end
			return w.lastBusy, false
		}
		if !w.Step(end) && w.Err != nil {
			return w.lastBusy, false
		}
	}
}

func (w *World) settled(quiet time.Duration) bool {
	if w.Now.Sub(w.lastBusy) < quiet {
		return false
	}
	_, busy := w.nextBusy()
	return !busy
}

func (w *World) instant(now time.Time) {
	w.userEvents(now)
	rounds := w.Opts.MaxRounds
	if rounds <= 0 {
		rounds = 16
	}
	for range rounds {
		n := len(w.Trace)
		w.environment(now)
		w.sync(now, false)
		if len(w.Trace) == n && !w.dueAt(now) {
			break
		}
	}
}

// dueAt reports whether a requeue is due at or before now.
func (w *World) dueAt(now time.Time) bool {
	for _, r := range w.requeue {
		if !r.at.After(now) {
			return true
		}
	}
	return false
}

// nextDue is the earliest instant anything is due: a scenario event, a
// requeue, a kubelet or heartbeat timer, a drain retry, a pending
// garbage collection or a pod the scheduler can bind; periodic work
// (periodic requeues, heartbeats) included.
func (w *World) nextDue() (time.Time, bool) {
	return w.next(true)
}

// next is the earliest due instant, periodic ones included or not.
func (w *World) next(periodic bool) (time.Time, bool) {
	var t time.Time
	ok := false
	take := func(x time.Time) {
		if !ok || x.Before(t) {
			t, ok = x, true
		}
	}
	if len(w.events) > 0 {
		take(w.Start.Add(w.events[0].At))
	}
	for _, r := range w.requeue {
		if periodic || !r.periodic {
			take(r.at)
		}
	}
	for _, at := range w.drains {
		take(at)
	}
	if len(w.gc) > 0 {
		take(w.Now)
	}
	if x, xok := w.nextKubelet(); xok {
		take(x)
	}
	if periodic {
		for _, n := range w.nodes {
			if !n.stopped {
				take(n.nextRenew)
			}
		}
	}
	return t, ok
}

// nextBusy is the earliest non-periodic due instant.
func (w *World) nextBusy() (time.Time, bool) {
	return w.next(false)
}
