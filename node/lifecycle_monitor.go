package node

import (
	"maps"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/kubesem/kubesem/field"
	"github.com/kubesem/kubesem/plan"
	"github.com/kubesem/kubesem/podstatus"
)

// DefaultNodeMonitorPeriod is how often the node lifecycle controller runs
// its monitor pass (kube-controller-manager --node-monitor-period).
const DefaultNodeMonitorPeriod = 5 * time.Second

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
	order, err := validateStep(nodes, leases)
	if err != nil {
		return Plan{}, err
	}
	for i, q := range pods {
		if q == nil {
			return Plan{}, field.New(field.Index("pods", i), "", field.ErrRequired)
		}
	}
	s := newLifecycle(nodes, leases, order, mem, now, opts, Plan{Outcome: ReasonMonitored})
	s.allPods = pods
	s.run()
	p := s.p
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
	opts Options
	now  time.Time
	p    Plan // the Plan the pass makes
	// nodes are the nodes by name: the list given while it is in order
	// and the pass has written no node, else the pass's own list, whose
	// nodes are the input nodes until written (see own)
	nodes []*Node
	// orig[i] is the node as listed when nodes[i] is a private copy (nil
	// while nodes[i] is the input node); orig is nil while nodes may be
	// the list given
	orig []*Node
	// zid[i] indexes zkeys, the listed nodes' zone keys (Zone(nodes[i])
	// is zkeys[zid[i]]); zmem[j] is zones[zkeys[j]] (nil while absent),
	// kept in step with zones by ensureZone
	zid      []int32
	zkeys    []string
	zmem     []*ZoneMemory
	keyAt    map[string]int32 // zkeys[keyAt[k]] == k, once zkeys has more than zoneScan keys (nil before: see keyIndex)
	excluded []bool           // ExcludedFromDisruption(nodes[i])
	lease    []*Lease         // the lease of nodes[i] (nil: none)
	// prev holds the health records before the pass (read only); next
	// the records after it, each with its own copies of its times and
	// lease (from times and leases); hits counts the nodes with a record
	// in prev
	prev   map[string]Health
	next   map[string]Health
	hits   int
	times  []time.Time
	leases []SavedLease
	names  []string // the names of the nodes, the next Memory's Known
	// known[i] is whether nodes[i] was registered before the pass; gone
	// lists, sorted, the registered nodes no longer listed
	known []bool
	gone  []string
	zones zoneSet
	// allPods are the pods given; pods groups them by node, then namespace
	// and name, when a node first needs its pods (nil until then: most
	// passes mark no pod not ready)
	allPods []*podstatus.Pod
	pods    map[string][]*podstatus.Pod
}

// newLifecycle sets up a pass; order tells which lists are known to be
// sorted by name (the zero inOrder: none); the pass adds to p, s.p after it. It returns the lifecycle by
// value so that a caller's pass can keep it on the stack.
func newLifecycle(nodes []*Node, leases []Lease, order inOrder, mem Memory, now time.Time, opts Options, p Plan) lifecycle {
	s := lifecycle{opts: opts, now: now, p: p, nodes: nodes,
		prev: mem.Nodes}
	byName := func(a, b *Node) int { return strings.Compare(a.Name, b.Name) }
	if !order.nodes && !slices.IsSortedFunc(s.nodes, byName) {
		s.nodes = slices.Clone(nodes)
		slices.SortStableFunc(s.nodes, byName)
		s.orig = make([]*Node, len(s.nodes))
	}
	s.zid = make([]int32, len(s.nodes))
	s.excluded = make([]bool, len(s.nodes))
	s.lease = make([]*Lease, len(s.nodes))
	s.known = make([]bool, len(s.nodes))
	// One walk over the nodes (sorted, names unique) finds each node's
	// zone and matches it with its lease and its registration by name:
	// walking the leases and the registered nodes along when they are
	// sorted, else through a map.
	var leaseByName map[string]*Lease
	if !order.leases && !slices.IsSortedFunc(leases, func(a, b Lease) int { return strings.Compare(a.Name, b.Name) }) {
		leaseByName = make(map[string]*Lease, len(leases))
		for i := range leases {
			leaseByName[leases[i].Name] = &leases[i]
		}
	}
	var knownSet map[string]bool
	if !slices.IsSorted(mem.Known) {
		knownSet = make(map[string]bool, len(mem.Known))
		for _, k := range mem.Known {
			knownSet[k] = true
		}
	}
	// the zone of each node is found by (region, zone) in a table; a zone
	// key per (region, zone), each key once (distinct pairs could join to
	// one key)
	var zt zoneTable
	// (grown from one zone by append: most clusters have one or a few)
	zt.zones = make([]zoneCount, 0, min(len(s.nodes), 1))
	var pairKey []int32
	jl, jk := 0, 0
	for i, n := range s.nodes {
		region, zone, excluded := zoneLabels(n.Labels)
		s.excluded[i] = excluded
		j := zt.index(region, zone)
		if j == len(pairKey) {
			k := zoneKey(region, zone)
			at, ok := s.keyIndex(k)
			if !ok {
				at = int32(len(s.zkeys))
				s.zkeys = append(s.zkeys, k)
				if s.keyAt != nil {
					s.keyAt[k] = at
				} else if len(s.zkeys) > zoneScan {
					s.keyAt = make(map[string]int32, 2*len(s.zkeys))
					for a, k := range s.zkeys {
						s.keyAt[k] = int32(a)
					}
				}
			}
			pairKey = append(pairKey, at)
		}
		s.zid[i] = pairKey[j]

		name := n.Name
		if leaseByName != nil {
			s.lease[i] = leaseByName[name]
		} else {
			for jl < len(leases) && leases[jl].Name < name {
				jl++
			}
			if jl < len(leases) && leases[jl].Name == name {
				s.lease[i] = &leases[jl] // (the first of equal names; names are unique)
			}
		}
		if knownSet != nil {
			s.known[i] = knownSet[name]
			delete(knownSet, name)
		} else {
			for jk < len(mem.Known) && mem.Known[jk] < name {
				s.addGone(mem.Known[jk])
				jk++
			}
			for jk < len(mem.Known) && mem.Known[jk] == name {
				s.known[i] = true
				jk++
			}
		}
	}
	if knownSet != nil {
		for k := range knownSet {
			s.gone = append(s.gone, k)
		}
		sort.Strings(s.gone)
	} else {
		for ; jk < len(mem.Known); jk++ {
			s.addGone(mem.Known[jk])
		}
	}
	if len(mem.Zones) > 0 {
		// the pass's own copies of the zones, made in one list
		own := make([]ZoneMemory, 0, len(mem.Zones))
		s.zones = make(zoneSet, 0, len(mem.Zones)+1)
		for k, v := range mem.Zones {
			z := v
			z.Queue = slices.Clone(v.Queue)
			z.Done = slices.Clone(v.Done)
			z.queued, z.irregular = nil, !regularQueue(z.Queue)
			own = append(own, z)
			s.zones = append(s.zones, zoneEntry{key: k, z: &own[len(own)-1]})
		}
		slices.SortFunc(s.zones, func(a, b zoneEntry) int { return strings.Compare(a.key, b.key) })
	}
	s.zmem = make([]*ZoneMemory, len(s.zkeys))
	if len(s.zones) > 0 {
		for j, k := range s.zkeys {
			s.zmem[j] = s.zones.get(k)
		}
	}
	return s
}

// keyIndex returns the index of zone key k in s.zkeys: by a scan of a
// few keys, through keyAt beyond zoneScan.
func (s *lifecycle) keyIndex(k string) (int32, bool) {
	if s.keyAt != nil {
		j, ok := s.keyAt[k]
		return j, ok
	}
	for j, x := range s.zkeys {
		if x == k {
			return int32(j), true
		}
	}
	return 0, false
}

// addGone adds a registered node no longer listed to s.gone, given in
// order, once.
func (s *lifecycle) addGone(k string) {
	if len(s.gone) == 0 || s.gone[len(s.gone)-1] != k {
		s.gone = append(s.gone, k)
	}
}

// own returns a private copy of node i to write to.
func (s *lifecycle) own(i int) *Node {
	if s.orig == nil {
		// the first write of the pass: nodes becomes the pass's own list
		s.nodes = slices.Clone(s.nodes)
		s.orig = make([]*Node, len(s.nodes))
	}
	if s.orig[i] == nil {
		s.orig[i] = s.nodes[i]
		c := *s.nodes[i]
		c.Spec.Taints = slices.Clone(c.Spec.Taints)
		c.Status.Conditions = slices.Clone(c.Status.Conditions)
		s.nodes[i] = &c
	}
	return s.nodes[i]
}

// listed returns node i's taints as listed at the start of the pass.
func (s *lifecycle) listed(i int) []Taint {
	if s.orig == nil {
		return s.nodes[i].Spec.Taints
	}
	if o := s.orig[i]; o != nil {
		return o.Spec.Taints
	}
	return s.nodes[i].Spec.Taints
}

func (s *lifecycle) run() {
	// classifyNodes and registration.
	for i := range s.nodes {
		if s.known[i] {
			s.ensureZoneOf(i)
		}
	}
	for i, n := range s.nodes {
		if s.known[i] {
			continue
		}
		s.p.Events = append(s.p.Events, plan.Event{Type: plan.Normal, Reason: ReasonEventRegisteredNode, Object: n.Name})
		s.known[i] = true
		s.ensureZoneOf(i)
		s.markReachable(i, ReasonRegisteredNode)
	}
	for _, k := range s.gone {
		s.p.Events = append(s.p.Events, plan.Event{Type: plan.Normal, Reason: ReasonEventRemovingNode, Object: k})
	}

	// Health of each node, then taint-based eviction bookkeeping.
	counts := make([]readyCount, len(s.zkeys))
	s.times = make([]time.Time, 0, len(s.nodes))
	s.leases = make([]SavedLease, 0, len(s.nodes))
	s.names = make([]string, len(s.nodes))
	// next starts as a copy of prev, made last so that it is still in the
	// cache: each listed node's record is read there, then overwritten in
	// the slot the read brought into the cache (memory then gives the
	// records of unlisted nodes their own times and leases)
	if len(s.prev) > 0 {
		s.next = maps.Clone(s.prev)
	} else {
		s.next = make(map[string]Health, len(s.nodes))
	}
	for i := range s.nodes {
		n := s.nodes[i]
		s.names[i] = n.Name
		var mem *Health
		if h, ok := s.next[n.Name]; ok {
			mem = &h
			s.hits++
		}
		u, h, observed := updateHealth(n, s.lease[i], mem, s.now, s.opts)
		h = s.ownHealth(h)
		if observed && s.lease[i] != nil {
			h.Lease = s.keepLease(saveLease(s.lease[i]))
		}
		s.next[n.Name] = h
		if u.Write {
			n = s.own(i)
			n.Status.Conditions = u.Conditions
			s.p.Conditions = append(s.p.Conditions, ConditionWrite{Node: n.Name, Conditions: slices.Clone(u.Conditions)})
		}
		if !s.excluded[i] {
			if c := &counts[s.zid[i]]; u.Current != nil && u.Current.Status == ConditionTrue {
				c.ready++
			} else {
				c.notReady++
			}
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

	// the zones with a node that counts, by key
	zoneReady := make(map[string]readyCount, len(counts))
	for j, c := range counts {
		if c.ready+c.notReady > 0 {
			zoneReady[s.zkeys[j]] = c
		}
	}
	s.handleDisruption(zoneReady)
	s.noExecuteTaintingPass()
	for i := range s.nodes {
		s.noScheduleTaintingPass(i)
	}
	for _, k := range s.withState() {
		z := s.zones.get(k)
		c := zoneReady[k]
		s.p.Zones = append(s.p.Zones, ZoneReport{Zone: k, Size: c.size(), NotReady: c.notReady, State: z.State, Rate: z.Limiter.Rate})
	}
	if s.p.Zones == nil {
		s.p.Zones = []ZoneReport{}
	}
}
