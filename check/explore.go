package check

import (
	"slices"
	"time"

	"github.com/kubesem/kubesem/cluster"
	"github.com/kubesem/kubesem/podstatus"
)

// Explore explores every path of the world of sc, from its first state,
// breadth first: at each state the world's next instant runs (a tick), or
// one event of the alphabet happens first. It checks props on every state
// and write and returns what held, what did not with a shortest
// counterexample, and how much was explored. props nil means every
// builtin (see [Builtins]); properties that do not apply to the scenario
// (Property.Applies) are left out.
//
// The transitions of a state s at instant now:
//
//   - a tick: the world runs its due instants (package cluster: scenario
//     events, then rounds of environment and every controller's sync,
//     each controller in its fixed order, until a round writes nothing)
//     until one of them writes something other than a heartbeat, or until
//     nothing has happened for Options.Quiet;
//   - an event of the alphabet whose bound is not spent (a pod failure of a
//     running pod, a node outage of a running node, a node's return, an
//     eviction, a drain, each user event once), happening at the world's
//     next due instant, before anything else due then, which then runs.
//     Only the order of events among the world's happenings is explored;
//     the exact instants are the world's own (its timers: ready delays,
//     grace periods, requeues, heartbeats every 10s).
//
// Paths are bounded by Options.MaxDepth transitions and by
// Options.Horizon (no event happens later); states are told apart by
// their canonical form (canon.go) with the alphabet's spent bounds.
// Liveness properties are checked on the graph of ticks, continued past
// the bounds by ticks alone (see [Property]).
//
// Unless Options.FromStart, the world first runs with no event until it
// settles (within Options.Horizon; a world that does not, a CronJob's, is
// explored from its start), and the exploration starts there; a
// counterexample's events are offsets from sc.Start, so the world of
// [Counterexample.Scenario] replays it.
//
// It returns a *field.Error for an invalid scenario, alphabet or options.
func Explore(sc cluster.Scenario, a Alphabet, props []Property, opts Options) (*Report, error) {
	if err := validate(a, opts); err != nil {
		return nil, err
	}
	root, err := cluster.New(sc, opts.World)
	if err != nil {
		return nil, err
	}
	if !opts.FromStart {
		// A world that does not settle (a CronJob's schedule) is explored
		// from its start.
		if w := root.Clone(); settle(w, opts.horizon()) {
			root = w
		}
	}
	if props == nil {
		props = Builtins()
	}
	e := newExplorer(sc, a, props, opts, root)
	e.run()
	return e.report(), nil
}

// settle runs w with no event until it settles, at most limit; it
// reports whether it did.
func settle(w *cluster.World, limit time.Duration) bool {
	_, ok := w.RunUntilSettled(w.Now.Sub(w.Start) + limit)
	return ok && w.Err == nil
}

// budget is what the path has spent of the alphabet.
type budget struct {
	podFailures, nodeOutages, evictions, drains, orders uint8
	fired                                               uint32 // the alphabet's user events that happened
}

func (b budget) key() uint64 {
	return mix(mix(uint64(b.podFailures)|uint64(b.nodeOutages)<<8|uint64(b.evictions)<<16|uint64(b.drains)<<24|uint64(b.orders)<<32, 77), uint64(b.fired))
}

// gnode is one state of the graph.
type gnode struct {
	hash    uint64
	parent  int32
	ev      *cluster.Event // the transition from parent: nil is a tick
	depth   int32
	tick    int32 // the tick's successor; -1 not known, -2 nothing due
	dt      int64 // the tick's duration
	now     int64 // the instant of the state, as first reached
	applies uint32
	good    uint32
	b       budget
	// quiet is whether the transition to the state wrote nothing but
	// heartbeats: no event happens in such a state (see moves).
	quiet bool
}

const (
	tickUnknown = -1
	tickNone    = -2
)

// entry is a state of the frontier with its world.
type entry struct {
	w   *cluster.World
	idx int32
	v   view
	// eventsOnly: the state was expanded (its tick) when reached quietly;
	// only its events remain.
	eventsOnly bool
}

type explorer struct {
	sc    cluster.Scenario
	a     Alphabet
	o     Options
	props []Property
	root  *cluster.World
	canon *canon
	end   time.Time
	// trace is the trace buffer a transition's world writes into, reused
	// from one transition to the next (a transition's trace is read, then
	// dropped, before the next one runs).
	trace []cluster.Entry

	nodes       []gnode
	seen        map[uint64]int32
	transitions int
	complete    bool
	deepest     int
	viol        map[int]*violation
	checked     []int
	leftovers   []entry
	liveIdx     []int // props index of each liveness bit
	// level, when set, is called after each level of the search with the
	// frontier (a benchmark's memory probe).
	level func(frontier int)
}

// violation is the first (shortest) violation of a property: at node
// idx, or on the transition ev from node idx (write properties).
type violation struct {
	msg   string
	idx   int32
	ev    *cluster.Event
	trans bool
}

func newExplorer(sc cluster.Scenario, a Alphabet, props []Property, o Options, root *cluster.World) *explorer {
	cp := o.TimeCap
	if cp <= 0 {
		cp = timeCap(sc, a, o.World)
	}
	e := &explorer{sc: sc, a: a, o: o, root: root,
		canon:    newCanon(!o.NoSymmetry, cp, hasCronJob(sc, a)),
		end:      root.Now.Add(o.horizon()),
		seen:     map[uint64]int32{},
		viol:     map[int]*violation{},
		complete: true,
	}
	w := root.Clone()
	w.Trace = nil
	s0 := snapshot(w, false, sc.Pods)
	for _, p := range props {
		if p.Applies == nil || p.Applies(s0, a) {
			e.props = append(e.props, p)
		}
	}
	e.checked = make([]int, len(e.props))
	for i, p := range e.props {
		if p.Wants != nil && len(e.liveIdx) < 32 {
			e.liveIdx = append(e.liveIdx, i)
		}
	}
	e.leftovers = nil
	return e
}

func (e *explorer) run() {
	w := e.root.Clone()
	w.Trace = nil
	v := e.canon.view(w)
	e.add(w, v, -1, nil, budget{}, 0)
	frontier := []entry{{w: w, idx: 0, v: v}}
	split := e.o.Shard.Count <= 1
	for depth := 0; len(frontier) > 0; depth++ {
		e.deepest = depth
		if depth >= e.o.maxDepth() {
			e.leftovers = append(e.leftovers, frontier...)
			break
		}
		var next []entry
		for i, it := range frontier {
			if len(e.nodes) >= e.o.maxStates() {
				e.complete = false
				e.leftovers = append(e.leftovers, frontier[i:]...)
				break
			}
			if it.w.Now.After(e.end) {
				e.leftovers = append(e.leftovers, it)
				continue
			}
			next = e.expand(it, next)
			frontier[i] = entry{}
		}
		width := e.o.Shard.Width
		if width <= 0 {
			width = 16 * e.o.Shard.Count
		}
		if !split && len(next) >= width {
			split = true
			kept := next[:0:0]
			for _, it := range next {
				if int(e.nodes[it.idx].hash%uint64(e.o.Shard.Count)) == e.o.Shard.Index {
					kept = append(kept, it)
				} else {
					e.leftovers = append(e.leftovers, it)
				}
			}
			next = kept
		}
		frontier = next
		e.canon.age()
		if e.level != nil {
			e.level(len(frontier))
		}
	}
	e.continueTicks()
}

// add records a new state and checks the state properties on it.
func (e *explorer) add(w *cluster.World, v view, parent int32, ev *cluster.Event, b budget, dt int64) int32 {
	idx := int32(len(e.nodes))
	depth := int32(0)
	if parent >= 0 {
		depth = e.nodes[parent].depth + 1
	}
	n := gnode{hash: v.hash, parent: parent, ev: ev, depth: depth, tick: tickUnknown, now: w.Now.UnixNano(), b: b}
	s := snapshotOf(w, v.mem, e.failed(b), e.sc.Pods)
	for i, p := range e.props {
		if p.Holds == nil {
			continue
		}
		e.checked[i]++
		if e.viol[i] != nil {
			continue
		}
		if msg := p.Holds(s); msg != "" {
			e.viol[i] = &violation{msg: msg, idx: idx}
		}
	}
	if w.Err != nil && e.viol[-1] == nil {
		e.viol[-1] = &violation{msg: w.Err.Error(), idx: idx}
	}
	for bit, i := range e.liveIdx {
		applies, good := e.props[i].Wants(s)
		if applies {
			n.applies |= 1 << bit
		}
		if good {
			n.good |= 1 << bit
		}
	}
	e.nodes = append(e.nodes, n)
	e.seen[mix(v.hash, b.key())] = idx
	return idx
}

// failed reports whether b spent any failure of the alphabet.
func (e *explorer) failed(b budget) bool {
	if b.podFailures+b.nodeOutages+b.evictions+b.drains > 0 {
		return true
	}
	for i, ev := range e.a.Events {
		if b.fired&(1<<i) != 0 && isFailure(ev.Kind) {
			return true
		}
	}
	return false
}

func isFailure(k cluster.EventKind) bool {
	switch k {
	case cluster.EventFailPod, cluster.EventStopNode, cluster.EventEvict, cluster.EventDrain, cluster.EventDelete:
		return true
	}
	return false
}

// move is one transition of a state: its event (nil: a tick) and the
// budget after it.
type move struct {
	ev *cluster.Event
	b  budget
}

// expand explores the transitions of it, appending the new states.
func (e *explorer) expand(it entry, next []entry) []entry {
	b := e.nodes[it.idx].b
	for _, m := range e.moves(it, b) {
		c := it.w.Clone()
		c.Trace = append(e.trace[:0], c.Trace...)
		ok := e.advance(c, m.ev)
		if !ok {
			e.dropTrace(c)
			if m.ev == nil {
				e.nodes[it.idx].tick = tickNone
			}
			continue
		}
		e.transitions++
		e.checkWrites(it, c, m)
		quiet := !happened(c.Trace)
		if m.ev == nil && quiet && settled(c) {
			// Settled: nothing happened for Quiet, and nothing but
			// periodic work is due. The state is final.
			e.dropTrace(c)
			e.nodes[it.idx].tick = tickNone
			continue
		}
		e.dropTrace(c)
		v := e.canon.view(c)
		key := mix(v.hash, m.b.key())
		j, old := e.seen[key]
		if !old {
			j = e.add(c, v, it.idx, m.ev, m.b, 0)
			e.nodes[j].quiet = quiet
			next = append(next, entry{w: c, idx: j, v: v})
		} else if !quiet && e.nodes[j].quiet {
			// Reached again after a happening: its events are due too.
			e.nodes[j].quiet = false
			next = append(next, entry{w: c, idx: j, v: v, eventsOnly: true})
		}
		if m.ev == nil {
			e.nodes[it.idx].tick = j
			e.nodes[it.idx].dt = int64(c.Now.Sub(it.w.Now))
		}
	}
	return next
}

// dropTrace empties c's trace, keeping its buffer for the next
// transition.
func (e *explorer) dropTrace(c *cluster.World) {
	clear(c.Trace)
	e.trace, c.Trace = c.Trace[:0], nil
}

// advance performs one transition on w in place: a tick (ev nil) or the
// event ev at the world's next due instant. It returns false when the
// transition cannot happen (nothing is due; the event's instant is past
// the horizon or not after now).
func (e *explorer) advance(w *cluster.World, ev *cluster.Event) bool {
	if ev == nil {
		return tick(w, e.o.quiet())
	}
	t, ok := w.NextDue()
	if !ok {
		t = w.Now.Add(time.Second)
	}
	if !t.After(w.Now) || t.After(e.end) {
		return false
	}
	x := *ev
	x.At = t.Sub(w.Start)
	w.Inject(x)
	w.Step(t)
	return true
}

// tick runs w's due instants until one writes something other than a
// heartbeat, or nothing happened for quiet.
func tick(w *cluster.World, quiet time.Duration) bool {
	start := w.Now
	steps := 0
	for {
		t, ok := w.NextDue()
		if !ok || (steps > 0 && t.Sub(start) > quiet) {
			break
		}
		n := len(w.Trace)
		if !w.Step(t) {
			break
		}
		steps++
		if w.Err != nil || happened(w.Trace[n:]) {
			break
		}
	}
	return steps > 0
}

// settled reports whether nothing but periodic work is due in w, and no
// controller has a change to look at.
func settled(w *cluster.World) bool {
	_, busy := w.NextBusy()
	return !busy && len(w.Memory().Dirty) == 0
}

// happened reports whether es hold a write the API server accepted other
// than a heartbeat, or a user's event (a node stopping …). A refused write
// (a drain's eviction the budget refuses again) changes nothing, nor does
// an event a controller records.
func happened(es []cluster.Entry) bool {
	for _, x := range es {
		if x.Reason == cluster.ReasonHeartbeat || x.Err != "" {
			continue
		}
		if x.Write != nil || (x.Event == nil && x.Controller == cluster.CtlUser) {
			return true
		}
	}
	return false
}

// moves lists the transitions of it: the tick, then the events whose
// bound is not spent, one per class of interchangeable targets.
func (e *explorer) moves(it entry, b budget) []move {
	var out []move
	if !it.eventsOnly {
		out = append(out, move{b: b})
	}
	if e.nodes[it.idx].quiet {
		return out
	}
	w := it.w
	a := e.a
	mem := it.v.mem
	stopped := func(n string) bool { return mem.Nodes[n].Stopped }
	if int(b.podFailures) < a.PodFailures || int(b.evictions) < a.Evictions {
		fail, evict := map[uint64]bool{}, map[uint64]bool{}
		for _, p := range w.State.Pods() {
			if !podstatus.IsActive(p) || p.Spec.NodeName == "" {
				continue
			}
			cls := it.v.podClass[podName{p.Namespace, p.Name}]
			k := cluster.Key{Kind: cluster.KindPod, Namespace: p.Namespace, Name: p.Name}
			if int(b.podFailures) < a.PodFailures && p.Status.Phase == podstatus.Running && !stopped(p.Spec.NodeName) && !fail[cls] {
				fail[cls] = true
				nb := b
				nb.podFailures++
				out = append(out, move{ev: &cluster.Event{Kind: cluster.EventFailPod, Target: k, ExitCode: 1}, b: nb})
			}
			if int(b.evictions) < a.Evictions && !evict[cls] {
				evict[cls] = true
				nb := b
				nb.evictions++
				out = append(out, move{ev: &cluster.Event{Kind: cluster.EventEvict, Target: k}, b: nb})
			}
		}
	}
	if int(b.nodeOutages) < a.NodeOutages || a.NodeReturns || int(b.drains) < a.Drains {
		stop, drain := map[uint64]bool{}, map[uint64]bool{}
		for _, n := range w.State.Nodes() {
			k := cluster.Key{Kind: cluster.KindNode, Name: n.Name}
			cls := it.v.nodeClass[n.Name]
			switch {
			case stopped(n.Name):
				if a.NodeReturns && !stop[cls] {
					stop[cls] = true
					out = append(out, move{ev: &cluster.Event{Kind: cluster.EventStartNode, Target: k}, b: b})
				}
			case int(b.nodeOutages) < a.NodeOutages && !stop[cls]:
				stop[cls] = true
				nb := b
				nb.nodeOutages++
				out = append(out, move{ev: &cluster.Event{Kind: cluster.EventStopNode, Target: k}, b: nb})
			}
			if _, draining := mem.Drains[n.Name]; int(b.drains) < a.Drains && !draining && !drain[cls] {
				drain[cls] = true
				nb := b
				nb.drains++
				out = append(out, move{ev: &cluster.Event{Kind: cluster.EventDrain, Target: k}, b: nb})
			}
		}
	}
	if int(b.orders) < a.Orders {
		order := w.Order()
		for _, c := range order[1:] {
			if hasWork(w.State, c) {
				nb := b
				nb.orders++
				out = append(out, move{ev: &cluster.Event{Kind: cluster.EventOrder, Order: []string{c}}, b: nb})
			}
		}
	}
	for i := range a.Events {
		if b.fired&(1<<i) == 0 {
			nb := b
			nb.fired |= 1 << i
			out = append(out, move{ev: &a.Events[i], b: nb})
		}
	}
	return out
}

// hasWork reports whether controller c has an object to sync in s: an
// order in which it moves first differs from the current one only then.
func hasWork(s *cluster.State, c string) bool {
	var kinds []cluster.Kind
	switch c {
	case cluster.CtlDeployment:
		kinds = []cluster.Kind{cluster.KindDeployment}
	case cluster.CtlReplicaSet:
		kinds = []cluster.Kind{cluster.KindReplicaSet}
	case cluster.CtlRC:
		kinds = []cluster.Kind{cluster.KindReplicationController}
	case cluster.CtlStatefulSet:
		kinds = []cluster.Kind{cluster.KindStatefulSet}
	case cluster.CtlDaemonSet:
		kinds = []cluster.Kind{cluster.KindDaemonSet}
	case cluster.CtlJob, cluster.CtlTTL:
		kinds = []cluster.Kind{cluster.KindJob}
	case cluster.CtlCronJob:
		kinds = []cluster.Kind{cluster.KindCronJob}
	case cluster.CtlDisruption:
		kinds = []cluster.Kind{cluster.KindPodDisruptionBudget}
	case cluster.CtlPodGC:
		kinds = []cluster.Kind{cluster.KindPod}
	default: // node-lifecycle, taint-eviction
		kinds = []cluster.Kind{cluster.KindNode}
	}
	for _, k := range kinds {
		if len(s.Keys(k)) > 0 {
			return true
		}
	}
	return false
}

// checkWrites checks the write properties on the writes of the transition
// from parent to c (c.Trace holds them), replaying them on a copy of the
// parent's State to give each the State before it.
func (e *explorer) checkWrites(it entry, c *cluster.World, m move) {
	parent, from := it.w, it.idx
	var props []int
	for i, p := range e.props {
		if p.Allows != nil && e.viol[i] == nil {
			props = append(props, i)
		}
	}
	if len(props) == 0 {
		return
	}
	var s *cluster.State
	applied := 0
	base := snapshotOf(parent, it.v.mem, e.failed(m.b), e.sc.Pods)
	for n, x := range c.Trace {
		if x.Write == nil {
			continue
		}
		for _, i := range props {
			p := e.props[i]
			if e.viol[i] != nil || (p.Sees != nil && !p.Sees(x)) {
				continue
			}
			if s == nil {
				s = parent.State.Clone()
			}
			for ; applied < n; applied++ {
				if y := c.Trace[applied]; y.Write != nil {
					s.Apply(*y.Write, y.Time, c.Opts.Namer)
				}
			}
			e.checked[i]++
			snap := base
			snap.State, snap.Now = s, x.Time
			if msg := p.Allows(snap, x); msg != "" {
				e.viol[i] = &violation{msg: msg, idx: from, ev: m.ev, trans: true}
			}
		}
	}
}

// continueTicks runs ticks alone from the states left unexpanded (past
// the depth, the horizon, the states bound or another shard's part) for
// the liveness properties, until each chain meets a known state or runs
// past the window and the time cap.
func (e *explorer) continueTicks() {
	if len(e.liveIdx) == 0 {
		return
	}
	limit := e.o.window() + e.canon.cap + 10*time.Minute
	for _, lo := range e.leftovers {
		w, idx := lo.w, lo.idx
		start := w.Now
		for e.nodes[idx].tick == tickUnknown && w.Now.Sub(start) <= limit {
			c := w.Clone()
			if !tick(c, e.o.quiet()) || (!happened(c.Trace) && settled(c)) {
				e.nodes[idx].tick = tickNone
				break
			}
			e.transitions++
			c.Trace = nil
			v := e.canon.view(c)
			b := e.nodes[idx].b
			j, old := e.seen[mix(v.hash, b.key())]
			if !old {
				j = e.add(c, v, idx, nil, b, 0)
			}
			e.nodes[idx].tick, e.nodes[idx].dt = j, int64(c.Now.Sub(w.Now))
			idx, w = j, c
			if old {
				break
			}
		}
	}
	e.leftovers = nil
}

// timeCap is the default Options.TimeCap: the longest duration a rule
// reads in the scenario (a Deployment's progress deadline, a toleration,
// minReadySeconds, the Job backoff cap), plus a minute, at least 11
// minutes.
func timeCap(sc cluster.Scenario, a Alphabet, o cluster.Options) time.Duration {
	longest := 10 * time.Minute
	if o.Job.BackoffCap > longest {
		longest = o.Job.BackoffCap
	}
	objs := slices.Clone(sc.Objects)
	for _, ev := range a.Events {
		if ev.Object != nil {
			objs = append(objs, ev.Object)
		}
	}
	for _, obj := range objs {
		for _, d := range durationsOf(obj) {
			longest = max(longest, d)
		}
	}
	return longest + time.Minute
}

func hasCronJob(sc cluster.Scenario, a Alphabet) bool {
	for _, o := range sc.Objects {
		if k, _ := cluster.KindOf(o); k == cluster.KindCronJob {
			return true
		}
	}
	for _, ev := range a.Events {
		if k, _ := cluster.KindOf(ev.Object); k == cluster.KindCronJob {
			return true
		}
	}
	return false
}
