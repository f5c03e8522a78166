package node

import (
	"cmp"
	"maps"
	"slices"
	"sort"
	"time"
)

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

	// queued indexes Queue by node name during a pass, once the queue is
	// long (nil otherwise, and in every Memory a pass returns).
	queued map[string]struct{}
	// irregular: the queue given was not in order or named a node twice;
	// the pass then keeps upstream's order by sorting after each change,
	// as a queue of any shape is kept (false in every Memory returned).
	irregular bool
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
		c := *z
		c.queued, c.irregular = nil, false
		m.Zones[k] = c
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

func sortedKeys[V any](m map[string]V) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}
