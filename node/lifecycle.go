package node

import (
	"cmp"
	"maps"
	"slices"
	"sort"
	"time"

	"github.com/kubesem/kubesem/field"
	"github.com/kubesem/kubesem/meta"
	"github.com/kubesem/kubesem/plan"
	"github.com/kubesem/kubesem/podstatus"
)

// PodNotReadyMessage is the message of the Warning NodeNotReady event
// recorded on each pod marked not ready.
const PodNotReadyMessage = "Node is not ready"

// podsByNode groups pods by spec.nodeName, each group by namespace, then
// name.
func podsByNode(pods []*podstatus.Pod) map[string][]*podstatus.Pod {
	m := map[string][]*podstatus.Pod{}
	for _, q := range pods {
		if q.Spec.NodeName != "" {
			m[q.Spec.NodeName] = append(m[q.Spec.NodeName], q)
		}
	}
	for _, ps := range m {
		slices.SortFunc(ps, func(a, b *podstatus.Pod) int {
			return cmp.Or(cmp.Compare(a.Namespace, b.Namespace), cmp.Compare(a.Name, b.Name))
		})
	}
	return m
}

// markedNotReady returns the pods (of one node, in order) whose Ready
// condition marking the node's pods not ready changes: those with a Ready
// condition that is not already False.
//
// Source: upstream pkg/controller/util/node MarkPodsNotReady (v1.36.3).
func markedNotReady(pods []*podstatus.Pod) []*podstatus.Pod {
	var out []*podstatus.Pod
	for _, q := range pods {
		if c := q.Condition(podstatus.Ready); c != nil && c.Status != meta.ConditionFalse {
			out = append(out, q)
		}
	}
	return out
}

// DefaultNodeMonitorPeriod is how often the node lifecycle controller runs
// its monitor pass (kube-controller-manager --node-monitor-period).
const DefaultNodeMonitorPeriod = 5 * time.Second

// Memory is the node lifecycle controller's state carried between monitor
// passes: its health record per node and its state, rate limiter and
// tainting queue per zone. The zero Memory is a controller that has just
// started.
type Memory struct {
	// Nodes is the health record per node name (kept after a node is
	// deleted, as upstream keeps it).
	Nodes map[string]Health `json:"nodes,omitempty"`
	// Known lists the registered nodes, sorted.
	Known []string `json:"known,omitempty"`
	// Zones is the state per zone key (see [Zone]).
	Zones map[string]ZoneMemory `json:"zones,omitempty"`
}

// ZoneMemory is one zone's state, its NoExecute tainter's rate limiter
// and the nodes waiting in its queue. A zone whose nodes are all gone (or
// all excluded from disruption checks) loses its state ("") but keeps its
// tainter, which still runs; a node of that zone seen again gets the zone
// a new tainter.
type ZoneMemory struct {
	State   ZoneState `json:"state"`
	Limiter Limiter   `json:"limiter"`
	// Queue holds the nodes waiting to be tainted, in the order they are
	// processed (by process time, then name).
	Queue []Queued `json:"queue,omitempty"`
	// Done lists, sorted, the nodes the tainter has handled that stay in
	// the queue's set (so they are not queued again) until they become
	// Ready or lose their taint.
	Done []string `json:"done,omitempty"`
}

// Queued is a node waiting in a zone's tainting queue.
type Queued struct {
	Node      string    `json:"node"`
	AddedAt   time.Time `json:"addedAt"`
	ProcessAt time.Time `json:"processAt"`
}

// Limiter is a zone tainter's rate limiter: a token bucket with burst 1
// (upstream flowcontrol.NewTokenBucketRateLimiter(qps,
// EvictionRateLimiterBurst)), or, once the zone's rate has been set to 0 or
// less, the limiter that never accepts (flowcontrol.NewFakeNeverRateLimiter),
// whose Rate records the rate set and whose QPS reads 1.
type Limiter struct {
	Rate   float32   `json:"rate"`
	Tokens float64   `json:"tokens"`
	Last   time.Time `json:"last,omitzero"`
	// Bucket marks a token bucket whose rate is 0 or less (a new zone's
	// limiter when EvictionRate is 0 or less): it never refills, but spends
	// the token it starts with. A rate of 0 or less without Bucket is the
	// never-accepting limiter.
	Bucket bool `json:"bucket,omitempty"`
}

func newLimiter(rate float32) Limiter { return Limiter{Rate: rate, Tokens: 1, Bucket: rate <= 0} }

func (l *Limiter) never() bool { return l.Rate <= 0 && !l.Bucket }

// qps is the rate upstream's limiter reports.
func (l *Limiter) qps() float32 {
	if l.never() {
		return 1
	}
	return l.Rate
}

// TryAccept takes a token at now if one is available: the bucket holds at
// least one, or the wait for the missing fraction, (1 − tokens) / rate
// seconds, is less than a nanosecond (x/time/rate truncates it to whole
// nanoseconds, so a bucket a nanosecond short of full still accepts and
// goes slightly negative). A bucket whose rate is 0 or less only has the
// token it started with.
//
// Source: golang.org/x/time/rate Limiter.AllowN (reserveN, advance,
// durationFromTokens) behind flowcontrol.tokenBucketPassiveRateLimiter.
// TryAccept, and fakeNeverRateLimiter (v1.36.3 with x/time v0.14.0).
func (l *Limiter) TryAccept(now time.Time) bool {
	if l.never() {
		return false
	}
	tokens := l.available(now) - 1
	if tokens < 0 && (l.Rate <= 0 || -tokens/float64(l.Rate)*float64(time.Second) >= 1) {
		return false
	}
	l.Tokens = tokens
	l.Last = now
	return true
}

func (l *Limiter) available(now time.Time) float64 {
	if l.Rate <= 0 {
		return min(l.Tokens, 1)
	}
	last := l.Last
	if now.Before(last) {
		last = now
	}
	t := l.Tokens
	if !last.IsZero() {
		t += now.Sub(last).Seconds() * float64(l.Rate)
	} else {
		t = 1
	}
	if t > 1 {
		t = 1
	}
	return t
}

// swap replaces the limiter's rate the way upstream SwapLimiter does: a
// rate equal to the limiter's QPS (1 for the never-accepting limiter)
// keeps it; a rate of 0 or less installs the never-accepting limiter; a
// positive one a full bucket, emptied when the old limiter had no token to
// give.
func (l *Limiter) swap(rate float32, now time.Time) {
	if l.qps() == rate {
		return
	}
	if rate <= 0 {
		*l = Limiter{Rate: rate}
		return
	}
	had := l.TryAccept(now)
	*l = Limiter{Rate: rate, Tokens: 1, Last: now}
	if !had {
		l.Tokens = 0
	}
}

// ConditionWrite is a node status write: the node's full condition list.
type ConditionWrite struct {
	Node       string      `json:"node"`
	Conditions []Condition `json:"conditions"`
}

// TaintWrite adds and removes taints on one node.
type TaintWrite struct {
	Node   string  `json:"node"`
	Add    []Taint `json:"add,omitempty"`
	Remove []Taint `json:"remove,omitempty"`
	Reason Reason  `json:"reason"`
}

// ZoneReport is a zone's state after the pass.
type ZoneReport struct {
	Zone     string    `json:"zone"`
	Size     int       `json:"size"`
	NotReady int       `json:"notReady"`
	State    ZoneState `json:"state"`
	Rate     float32   `json:"rate"`
}

// Plan is one monitor pass of the node lifecycle controller.
type Plan struct {
	Outcome Reason `json:"outcome"`
	// Conditions are the node status writes, in node-name order.
	Conditions []ConditionWrite `json:"conditions"`
	// Taints are the taint writes, in the order the controller makes them.
	Taints []TaintWrite `json:"taints"`
	// MarkPodsNotReady names the nodes whose pods get Ready=False (the
	// node's Ready condition just left True).
	MarkPodsNotReady []string `json:"markPodsNotReady"`
	// Zones are the zones after the pass, by zone key.
	Zones []ZoneReport `json:"zones"`
	// Disrupted is whether every zone is fully disrupted (no eviction, no
	// NoExecute taints: "master disruption mode").
	Disrupted bool           `json:"disrupted"`
	Events    []plan.Event   `json:"events"`
	Requeue   []plan.Requeue `json:"requeue"`
	// Memory is the controller's memory for the next pass.
	Memory Memory `json:"memory"`
}

// MarshalJSON encodes the Plan with [plan.Encode].
func (p Plan) MarshalJSON() ([]byte, error) { return plan.Encode(p) }

// NotReadyTaint and UnreachableTaint are the NoExecute taints the
// controller manages (TimeAdded is set when it adds them).
var (
	notReadyTaint    = Taint{Key: TaintNotReady, Effect: NoExecute}
	unreachableTaint = Taint{Key: TaintUnreachable, Effect: NoExecute}
)

// Step is one monitor pass of the node lifecycle controller at now:
// register new nodes (removing their NoExecute condition taints), check
// each node's health ([UpdateHealth]) with its lease (leases are matched
// to nodes by name), put nodes whose Ready condition is False or Unknown
// in their zone's tainting queue (or swap not-ready and unreachable at
// once), remove both taints from Ready nodes, compute every zone's state
// ([ComputeZoneState]; excluded nodes do not count) and rate
// ([ZoneRate]), enter or leave master disruption mode when every zone is
// fully disrupted, run each zone's rate-limited tainter once at now, and
// reconcile the NoSchedule condition taints. Nodes are walked by name,
// zones by key. pods are the pods the controller's pod cache lists (nil:
// none): when a node's Ready condition leaves True, each pod bound to it
// whose Ready condition is not already False (by namespace, then name) gets
// a Warning NodeNotReady event, after the node's own NodeNotReady event.
// Inputs are not modified.
//
// Source: upstream pkg/controller/nodelifecycle Controller.monitorNodeHealth,
// processTaintBaseEviction, handleDisruption, doNoExecuteTaintingPass and
// doNoScheduleTaintingPass (v1.36.3).
func Step(nodes []*Node, leases []Lease, pods []*podstatus.Pod, mem Memory, now time.Time, opts Options) (Plan, error) {
	if err := validateStep(nodes, leases); err != nil {
		return Plan{}, err
	}
	for i, q := range pods {
		if q == nil {
			return Plan{}, field.New(field.Index("pods", i), "", field.ErrRequired)
		}
	}
	p := Plan{Outcome: ReasonMonitored}
	s := newLifecycle(nodes, leases, mem, now, opts, &p)
	s.allPods = pods
	s.run()
	p.Memory = s.memory()
	p.Requeue = []plan.Requeue{{After: DefaultNodeMonitorPeriod, Reason: ReasonNodeMonitorPeriod}}
	if p.Conditions == nil {
		p.Conditions = []ConditionWrite{}
	}
	if p.Taints == nil {
		p.Taints = []TaintWrite{}
	}
	if p.MarkPodsNotReady == nil {
		p.MarkPodsNotReady = []string{}
	}
	if p.Events == nil {
		p.Events = []plan.Event{}
	}
	return p, nil
}

type lifecycle struct {
	opts   Options
	now    time.Time
	p      *Plan
	nodes  []*Node   // by name; input nodes until written (see own)
	owned  []bool    // nodes[i] is a private copy
	listed [][]Taint // taints as listed at the start of the pass
	zkey   []string  // Zone(nodes[i])
	lease  []*Lease  // the lease of nodes[i] (nil: none)
	// health[i] is nodes[i]'s health record (when has[i]): read from
	// mem.Nodes (prev, read only), then written by the pass
	health []Health
	has    []bool
	hits   int // nodes with a record in prev
	prev   map[string]Health
	// known[i] is whether nodes[i] was registered before the pass; gone
	// lists, sorted, the registered nodes no longer listed
	known []bool
	gone  []string
	zones map[string]*ZoneMemory
	// allPods are the pods given; pods groups them by node, then namespace
	// and name, when a node first needs its pods (nil until then: most
	// passes mark no pod not ready)
	allPods []*podstatus.Pod
	pods    map[string][]*podstatus.Pod
}

// podsOn returns the pods bound to the node, by namespace and name.
func (s *lifecycle) podsOn(node string) []*podstatus.Pod {
	if s.pods == nil {
		s.pods = podsByNode(s.allPods)
	}
	return s.pods[node]
}

func newLifecycle(nodes []*Node, leases []Lease, mem Memory, now time.Time, opts Options, p *Plan) *lifecycle {
	s := &lifecycle{opts: opts, now: now, p: p, nodes: slices.Clone(nodes),
		prev: mem.Nodes, zones: map[string]*ZoneMemory{}}
	slices.SortStableFunc(s.nodes, func(a, b *Node) int { return cmp.Compare(a.Name, b.Name) })
	s.owned = make([]bool, len(s.nodes))
	s.listed = make([][]Taint, len(s.nodes))
	s.zkey = make([]string, len(s.nodes))
	// Zone(n) of each node, one string per zone: the nodes of a zone
	// share its key
	var zt zoneTable
	zt.init()
	var zkeys []string
	for i, n := range s.nodes {
		s.listed[i] = n.Spec.Taints
		region, zone := zoneParts(n.Labels)
		j := zt.index(region, zone)
		if j == len(zkeys) {
			zkeys = append(zkeys, Zone(n))
		}
		s.zkey[i] = zkeys[j]
	}
	// Nodes (sorted, names unique) are matched with leases and with the
	// registered nodes by name: walking both lists when they are sorted,
	// else through a map.
	s.health = make([]Health, len(s.nodes))
	s.has = make([]bool, len(s.nodes))
	for i, n := range s.nodes {
		if h, ok := mem.Nodes[n.Name]; ok {
			s.health[i], s.has[i] = h, true
			s.hits++
		}
	}
	s.lease = make([]*Lease, len(s.nodes))
	if slices.IsSortedFunc(leases, func(a, b Lease) int { return cmp.Compare(a.Name, b.Name) }) {
		j := 0
		for i, n := range s.nodes {
			for j < len(leases) && leases[j].Name < n.Name {
				j++
			}
			if j < len(leases) && leases[j].Name == n.Name {
				s.lease[i] = &leases[j] // (the first of equal names; names are unique)
			}
		}
	} else {
		byName := make(map[string]*Lease, len(leases))
		for i := range leases {
			byName[leases[i].Name] = &leases[i]
		}
		for i, n := range s.nodes {
			s.lease[i] = byName[n.Name]
		}
	}
	s.known = make([]bool, len(s.nodes))
	if slices.IsSorted(mem.Known) {
		j := 0
		for i, n := range s.nodes {
			for j < len(mem.Known) && mem.Known[j] < n.Name {
				if k := mem.Known[j]; len(s.gone) == 0 || s.gone[len(s.gone)-1] != k {
					s.gone = append(s.gone, k)
				}
				j++
			}
			for j < len(mem.Known) && mem.Known[j] == n.Name {
				s.known[i] = true
				j++
			}
		}
		for ; j < len(mem.Known); j++ {
			if k := mem.Known[j]; len(s.gone) == 0 || s.gone[len(s.gone)-1] != k {
				s.gone = append(s.gone, k)
			}
		}
	} else {
		known := make(map[string]bool, len(mem.Known))
		for _, k := range mem.Known {
			known[k] = true
		}
		for i, n := range s.nodes {
			s.known[i] = known[n.Name]
			delete(known, n.Name)
		}
		for k := range known {
			s.gone = append(s.gone, k)
		}
		sort.Strings(s.gone)
	}
	for k, v := range mem.Zones {
		z := v
		z.Queue = slices.Clone(v.Queue)
		z.Done = slices.Clone(v.Done)
		s.zones[k] = &z
	}
	return s
}

// own returns a private copy of node i to write to.
func (s *lifecycle) own(i int) *Node {
	if !s.owned[i] {
		c := *s.nodes[i]
		c.Spec.Taints = slices.Clone(c.Spec.Taints)
		c.Status.Conditions = slices.Clone(c.Status.Conditions)
		s.nodes[i] = &c
		s.owned[i] = true
	}
	return s.nodes[i]
}

// memory returns the controller memory, copying every time and lease it
// points to so the Plan shares nothing with its inputs.
func (s *lifecycle) memory() Memory {
	// every record of mem.Nodes (kept for deleted nodes), the listed
	// nodes' replaced by the pass's, each time and lease copied
	m := Memory{Nodes: maps.Clone(s.prev), Zones: make(map[string]ZoneMemory, len(s.zones))}
	if m.Nodes == nil {
		m.Nodes = make(map[string]Health, len(s.nodes))
	}
	n := len(s.prev) - s.hits + len(s.nodes) // the records own copies
	times := make([]time.Time, 0, 2*n)
	ls := make([]Lease, 0, n)
	own := func(h Health) Health {
		if h.ReadyHeartbeat != nil {
			times = append(times, *h.ReadyHeartbeat)
			h.ReadyHeartbeat = &times[len(times)-1]
		}
		if h.Lease != nil {
			var l Lease
			l.Name = h.Lease.Name
			if rt := h.Lease.Spec.RenewTime; rt != nil {
				times = append(times, *rt)
				l.Spec.RenewTime = &times[len(times)-1]
			}
			ls = append(ls, l)
			h.Lease = &ls[len(ls)-1]
		}
		return h
	}
	if s.hits < len(s.prev) {
		// records of nodes no longer listed
		for k, h := range s.prev {
			if _, listed := slices.BinarySearchFunc(s.nodes, k, func(n *Node, name string) int { return cmp.Compare(n.Name, name) }); !listed {
				m.Nodes[k] = own(h)
			}
		}
	}
	for i, n := range s.nodes {
		if s.has[i] {
			m.Nodes[n.Name] = own(s.health[i])
		}
	}
	// the registered nodes after the pass are the nodes listed
	m.Known = make([]string, len(s.nodes))
	for i, n := range s.nodes {
		m.Known[i] = n.Name
	}
	for k, z := range s.zones {
		if z.State == "" && len(z.Queue) == 0 {
			continue // a tainter with nothing to do, replaced if the zone comes back
		}
		m.Zones[k] = *z
	}
	return m
}

// zoneOf is node i's zone, which ensureZone created at the start of the pass.
func (s *lifecycle) zoneOf(i int) *ZoneMemory {
	z, ok := s.zones[s.zkey[i]]
	if !ok {
		z = s.ensureZone(s.zkey[i])
	}
	return z
}

// ensureZone gives a zone without a state a new state, rate limiter and
// queue (upstream addPodEvictorForNewZone).
func (s *lifecycle) ensureZone(k string) *ZoneMemory {
	z, ok := s.zones[k]
	if !ok || z.State == "" {
		z = &ZoneMemory{State: ZoneInitial, Limiter: newLimiter(s.opts.evictionRate())}
		s.zones[k] = z
	}
	return z
}

// withState lists, by key, the zones that have a state.
func (s *lifecycle) withState() []string {
	var ks []string
	for _, k := range sortedKeys(s.zones) {
		if s.zones[k].State != "" {
			ks = append(ks, k)
		}
	}
	return ks
}

// queue operations (upstream UniqueQueue)

func (z *ZoneMemory) has(name string) bool {
	if _, ok := slices.BinarySearch(z.Done, name); ok {
		return true
	}
	for _, q := range z.Queue {
		if q.Node == name {
			return true
		}
	}
	return false
}

func (z *ZoneMemory) add(name string, now time.Time) {
	if z.has(name) {
		return
	}
	z.Queue = append(z.Queue, Queued{Node: name, AddedAt: now, ProcessAt: now})
	z.sortQueue()
}

func (z *ZoneMemory) sortQueue() {
	slices.SortStableFunc(z.Queue, func(a, b Queued) int {
		if c := a.ProcessAt.Compare(b.ProcessAt); c != 0 {
			return c
		}
		return cmp.Compare(a.Node, b.Node)
	})
}

func (z *ZoneMemory) remove(name string) {
	if i, ok := slices.BinarySearch(z.Done, name); ok {
		z.Done = slices.Delete(z.Done, i, i+1)
	}
	z.Queue = slices.DeleteFunc(z.Queue, func(q Queued) bool { return q.Node == name })
}

func (z *ZoneMemory) finish(name string) {
	z.Queue = slices.DeleteFunc(z.Queue, func(q Queued) bool { return q.Node == name })
	if i, ok := slices.BinarySearch(z.Done, name); !ok {
		z.Done = slices.Insert(z.Done, i, name)
	}
}

// taint writes

func hasTaint(ts []Taint, t Taint) bool {
	for _, x := range ts {
		if x.MatchTaint(t) {
			return true
		}
	}
	return false
}

// swap adds add (stamped now) and removes remove on the working node, and
// records the write. It mirrors SwapNodeControllerTaint: an added taint
// replaces one with the same key and effect in place.
func (s *lifecycle) swap(i int, add, remove []Taint, reason Reason) {
	n := s.nodes[i]
	needed := len(add) > 0
	for _, t := range remove {
		needed = needed || hasTaint(n.Spec.Taints, t)
	}
	if !needed {
		return
	}
	n = s.own(i)
	w := TaintWrite{Node: n.Name, Reason: reason}
	for _, t := range add {
		at := s.now
		t.TimeAdded = &at
		replaced := false
		for i := range n.Spec.Taints {
			if n.Spec.Taints[i].MatchTaint(t) {
				n.Spec.Taints[i] = t
				replaced = true
				break
			}
		}
		if !replaced {
			n.Spec.Taints = append(n.Spec.Taints, t)
		}
		w.Add = append(w.Add, t)
	}
	for _, t := range remove {
		if !hasTaint(n.Spec.Taints, t) {
			continue
		}
		n.Spec.Taints = slices.DeleteFunc(n.Spec.Taints, func(x Taint) bool { return x.MatchTaint(t) })
		w.Remove = append(w.Remove, t)
	}
	if len(w.Add) > 0 || len(w.Remove) > 0 {
		s.p.Taints = append(s.p.Taints, w)
	}
}

// markReachable removes the not-ready and unreachable taints and takes the
// node out of its zone's queue (upstream markNodeAsReachable). Like
// RemoveTaintOffNode, it only looks for a taint the node had as listed at
// the start of the pass: a taint added earlier in the pass stays.
func (s *lifecycle) markReachable(i int, reason Reason) {
	var remove []Taint
	for _, t := range []Taint{unreachableTaint, notReadyTaint} {
		if hasTaint(s.listed[i], t) {
			remove = append(remove, t)
		}
	}
	s.swap(i, nil, remove, reason)
	s.zoneOf(i).remove(s.nodes[i].Name)
}

func (s *lifecycle) run() {
	// classifyNodes and registration.
	for i := range s.nodes {
		if s.known[i] {
			s.ensureZone(s.zkey[i])
		}
	}
	for i, n := range s.nodes {
		if s.known[i] {
			continue
		}
		s.p.Events = append(s.p.Events, plan.Event{Type: plan.Normal, Reason: ReasonEventRegisteredNode, Object: n.Name})
		s.known[i] = true
		s.ensureZone(s.zkey[i])
		s.markReachable(i, ReasonRegisteredNode)
	}
	for _, k := range s.gone {
		s.p.Events = append(s.p.Events, plan.Event{Type: plan.Normal, Reason: ReasonEventRemovingNode, Object: k})
	}

	// Health of each node, then taint-based eviction bookkeeping.
	zoneReady := map[string][]ConditionStatus{}
	for i := range s.nodes {
		n := s.nodes[i]
		var mem *Health
		if s.has[i] {
			h := s.health[i]
			mem = &h
		}
		u, h := updateHealth(n, s.lease[i], mem, s.now, s.opts)
		s.health[i], s.has[i] = h, true
		if u.Write {
			n = s.own(i)
			n.Status.Conditions = u.Conditions
			s.p.Conditions = append(s.p.Conditions, ConditionWrite{Node: n.Name, Conditions: slices.Clone(u.Conditions)})
		}
		if !ExcludedFromDisruption(n) {
			st := ConditionStatus("")
			if u.Current != nil {
				st = u.Current.Status
			}
			zoneReady[s.zkey[i]] = append(zoneReady[s.zkey[i]], st)
		}
		if u.Current == nil {
			continue
		}
		s.taintBasedEviction(i, u.Current.Status)
		if u.Current.Status != ConditionTrue && u.Observed.Status == ConditionTrue {
			s.p.Events = append(s.p.Events, plan.Event{Type: plan.Normal, Reason: ReasonEventNodeNotReady, Object: n.Name})
			s.p.MarkPodsNotReady = append(s.p.MarkPodsNotReady, n.Name)
			for _, q := range markedNotReady(s.podsOn(n.Name)) {
				s.p.Events = append(s.p.Events, plan.Event{Type: plan.Warning, Reason: ReasonEventNodeNotReady, Object: q.Name, Message: PodNotReadyMessage})
			}
		}
	}

	s.handleDisruption(zoneReady)
	s.noExecuteTaintingPass()
	for i := range s.nodes {
		s.noScheduleTaintingPass(i)
	}
	for _, k := range s.withState() {
		z := s.zones[k]
		notReady, _ := ComputeZoneState(zoneReady[k], s.opts)
		s.p.Zones = append(s.p.Zones, ZoneReport{Zone: k, Size: len(zoneReady[k]), NotReady: notReady, State: z.State, Rate: z.Limiter.Rate})
	}
	if s.p.Zones == nil {
		s.p.Zones = []ZoneReport{}
	}
}

func sortedKeys[V any](m map[string]V) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}

// taintBasedEviction mirrors processTaintBaseEviction: its checks read the
// node as listed at the start of the pass.
func (s *lifecycle) taintBasedEviction(i int, status ConditionStatus) {
	listed := s.listed[i]
	n := s.nodes[i]
	z := s.zoneOf(i)
	switch status {
	case ConditionFalse:
		if hasTaint(listed, unreachableTaint) {
			s.swap(i, []Taint{notReadyTaint}, []Taint{unreachableTaint}, ReasonSwapTaint)
			return
		}
		if !hasTaint(listed, notReadyTaint) {
			z.remove(n.Name)
		}
		z.add(n.Name, s.now)
	case ConditionUnknown:
		if hasTaint(listed, notReadyTaint) {
			s.swap(i, []Taint{unreachableTaint}, []Taint{notReadyTaint}, ReasonSwapTaint)
			return
		}
		if !hasTaint(listed, unreachableTaint) {
			z.remove(n.Name)
		}
		z.add(n.Name, s.now)
	case ConditionTrue:
		s.markReachable(i, ReasonNodeReady)
	}
}

// handleDisruption mirrors upstream handleDisruption.
func (s *lifecycle) handleDisruption(zoneReady map[string][]ConditionStatus) {
	newStates := map[string]ZoneState{}
	allAre := true
	for k, v := range zoneReady {
		_, st := ComputeZoneState(v, s.opts)
		if st != ZoneFullDisruption {
			allAre = false
		}
		newStates[k] = st
		if z, ok := s.zones[k]; !ok || z.State == "" {
			s.ensureZone(k)
		}
	}
	allWas := true
	for _, k := range s.withState() {
		if _, ok := zoneReady[k]; !ok {
			s.zones[k].State = "" // its tainter stays
			continue
		}
		if s.zones[k].State != ZoneFullDisruption {
			allWas = false
		}
	}
	s.p.Disrupted = allAre && allWas && len(zoneReady) > 0
	if allAre && allWas {
		return
	}
	if allAre {
		for i := range s.nodes {
			s.markReachable(i, ReasonMasterDisruption)
		}
		for _, k := range s.withState() {
			z := s.zones[k]
			z.Limiter.swap(0, s.now)
			z.State = ZoneFullDisruption
		}
		s.p.Disrupted = true
		return
	}
	if allWas {
		for i := range s.nodes {
			if s.has[i] {
				s.health[i].ProbeTime = s.now
			}
		}
		for _, k := range s.withState() {
			z := s.zones[k]
			if r, ok := ZoneRate(newStates[k], len(zoneReady[k]), s.opts); ok {
				z.Limiter.swap(r, s.now)
			}
			z.State = newStates[k]
		}
		return
	}
	for _, k := range s.withState() {
		z := s.zones[k]
		if z.State == newStates[k] {
			continue
		}
		if r, ok := ZoneRate(newStates[k], len(zoneReady[k]), s.opts); ok {
			z.Limiter.swap(r, s.now)
		}
		z.State = newStates[k]
	}
}

// noExecuteTaintingPass runs each zone's rate-limited tainter once, at now
// (upstream doNoExecuteTaintingPass, which runs every 100 ms).
func (s *lifecycle) noExecuteTaintingPass() {
	for _, k := range sortedKeys(s.zones) {
		z := s.zones[k]
		for len(z.Queue) > 0 {
			head := z.Queue[0]
			if !z.Limiter.TryAccept(s.now) {
				break
			}
			if s.now.Before(head.ProcessAt) {
				break
			}
			i, ok := slices.BinarySearchFunc(s.nodes, head.Node, func(n *Node, name string) int { return cmp.Compare(n.Name, name) })
			if !ok {
				z.finish(head.Node)
				continue
			}
			n := s.nodes[i]
			ri := conditionIndex(n.Status.Conditions, Ready)
			if ri < 0 {
				z.Queue[0].ProcessAt = s.now.Add(50*time.Millisecond + 1)
				z.sortQueue()
				continue
			}
			switch n.Status.Conditions[ri].Status {
			case ConditionFalse:
				s.swap(i, []Taint{notReadyTaint}, []Taint{unreachableTaint}, ReasonTaintNode)
			case ConditionUnknown:
				s.swap(i, []Taint{unreachableTaint}, []Taint{notReadyTaint}, ReasonTaintNode)
			}
			z.finish(head.Node)
		}
	}
}

// conditionTaintKey maps a node condition and status to the NoSchedule
// taint it calls for (upstream nodeConditionToTaintKeyStatusMap).
func conditionTaintKey(t ConditionType, st ConditionStatus) string {
	switch t {
	case Ready:
		switch st {
		case ConditionFalse:
			return TaintNotReady
		case ConditionUnknown:
			return TaintUnreachable
		}
	case MemoryPressure:
		if st == ConditionTrue {
			return TaintMemoryPressure
		}
	case DiskPressure:
		if st == ConditionTrue {
			return TaintDiskPressure
		}
	case NetworkUnavailable:
		if st == ConditionTrue {
			return TaintNetworkUnavailable
		}
	case PIDPressure:
		if st == ConditionTrue {
			return TaintPIDPressure
		}
	}
	return ""
}

func conditionTaintKeyKnown(key string) bool {
	switch key {
	case TaintNotReady, TaintUnreachable, TaintNetworkUnavailable, TaintMemoryPressure, TaintDiskPressure, TaintPIDPressure, TaintUnschedulable:
		return true
	}
	return false
}

// ConditionTaints returns the NoSchedule taints a node's conditions and
// spec.unschedulable call for, in condition order, then unschedulable:
// Ready False → not-ready, Ready Unknown → unreachable, MemoryPressure,
// DiskPressure, PIDPressure or NetworkUnavailable True → the matching
// pressure taint, unschedulable → node.kubernetes.io/unschedulable.
//
// Source: upstream Controller.doNoScheduleTaintingPass (v1.36.3).
func ConditionTaints(n *Node) []Taint {
	var out []Taint
	for _, c := range n.Status.Conditions {
		if k := conditionTaintKey(c.Type, c.Status); k != "" {
			out = append(out, Taint{Key: k, Effect: NoSchedule})
		}
	}
	if n.Spec.Unschedulable {
		out = append(out, Taint{Key: TaintUnschedulable, Effect: NoSchedule})
	}
	return out
}

// ConditionTaintDiff returns the NoSchedule condition taints to add to n
// and those to remove from it: the node's NoSchedule taints with a
// condition key or the unschedulable key, against [ConditionTaints], by key
// and effect.
//
// Source: upstream Controller.doNoScheduleTaintingPass with
// taints.TaintSetDiff (v1.36.3).
func ConditionTaintDiff(n *Node) (add, remove []Taint) {
	want := ConditionTaints(n)
	var have []Taint
	for _, t := range n.Spec.Taints {
		if t.Effect == NoSchedule && conditionTaintKeyKnown(t.Key) {
			have = append(have, t)
		}
	}
	for _, t := range want {
		if !hasTaint(have, t) {
			add = append(add, t)
		}
	}
	for _, t := range have {
		if !hasTaint(want, t) {
			remove = append(remove, t)
		}
	}
	return add, remove
}

func (s *lifecycle) noScheduleTaintingPass(i int) {
	add, remove := ConditionTaintDiff(s.nodes[i])
	if len(add) == 0 && len(remove) == 0 {
		return
	}
	s.swap(i, add, remove, ReasonConditionTaints)
}
