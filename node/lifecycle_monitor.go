package node

import (
	"cmp"
	"slices"
	"sort"
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
		z.queued, z.irregular = nil, !regularQueue(z.Queue)
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
