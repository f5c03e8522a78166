package node

import (
	"cmp"
	"slices"
	"sort"
	"strings"
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
	// (unused) keeps ZoneMemory over 128 bytes, the most a Go map stores
	// in its slots: it stores larger values by pointer, so that the Zones
	// map of a Memory with a zone or two is a 208-byte group of eight
	// pointer slots and a value per zone, not a 1,280-byte group of eight
	// inline values (every pass makes a new Memory).
	_ uint64
}

// ownHealth returns h with its own copies of the heartbeat and the lease
// it points to (from s.times and s.leases), so that the Plan shares
// nothing with its inputs.
func (s *lifecycle) ownHealth(h Health) Health {
	if h.ReadyHeartbeat != nil {
		s.times = append(s.times, *h.ReadyHeartbeat)
		h.ReadyHeartbeat = &s.times[len(s.times)-1]
	}
	if h.Lease != nil {
		h.Lease = s.keepLease(*h.Lease)
	}
	return h
}

// keepLease returns a pointer to a copy of l in s.leases.
func (s *lifecycle) keepLease(l SavedLease) *SavedLease {
	s.leases = append(s.leases, l)
	return &s.leases[len(s.leases)-1]
}

// memory returns the controller memory after the pass: the health
// records of the listed nodes, which the pass wrote, and those of
// mem.Nodes for nodes no longer listed (kept for deleted nodes), each
// with its own times and lease.
func (s *lifecycle) memory() Memory {
	m := Memory{Nodes: s.next, Zones: make(map[string]ZoneMemory, len(s.zones))}
	if s.hits < len(s.prev) {
		// records of nodes no longer listed
		n := len(s.prev) - s.hits
		s.times = make([]time.Time, 0, n)
		s.leases = make([]SavedLease, 0, n)
		for k, h := range s.prev {
			if _, listed := slices.BinarySearchFunc(s.nodes, k, func(n *Node, name string) int { return cmp.Compare(n.Name, name) }); !listed {
				m.Nodes[k] = s.ownHealth(h)
			}
		}
	}
	// the registered nodes after the pass are the nodes listed
	m.Known = s.names
	for _, e := range s.zones {
		k, z := e.key, e.z
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
	if z := s.zmem[s.zid[i]]; z != nil {
		return z
	}
	return s.ensureZone(s.zkeys[s.zid[i]])
}

// ensureZoneOf is ensureZone for node i's zone.
func (s *lifecycle) ensureZoneOf(i int) *ZoneMemory {
	if z := s.zmem[s.zid[i]]; z != nil && z.State != "" {
		return z
	}
	return s.ensureZone(s.zkeys[s.zid[i]])
}

// ensureZone gives a zone without a state a new state, rate limiter and
// queue (upstream addPodEvictorForNewZone).
func (s *lifecycle) ensureZone(k string) *ZoneMemory {
	z := s.zones.get(k)
	if z == nil || z.State == "" {
		z = &ZoneMemory{State: ZoneInitial, Limiter: newLimiter(s.opts.evictionRate())}
		s.zones.set(k, z)
		if j, ok := s.keyIndex(k); ok {
			s.zmem[j] = z
		}
	}
	return z
}

// withState lists, by key, the zones that have a state.
func (s *lifecycle) withState() []string {
	var ks []string
	for _, e := range s.zones {
		if e.z.State != "" {
			ks = append(ks, e.key)
		}
	}
	return ks
}

// zoneSet is a pass's zones in key order (a cluster has few zones: a
// sorted list, searched by bisection).
type zoneSet []zoneEntry

type zoneEntry struct {
	key string
	z   *ZoneMemory
}

func compareZoneEntry(e zoneEntry, k string) int { return strings.Compare(e.key, k) }

// get returns the zone of key k, nil when absent.
func (t zoneSet) get(k string) *ZoneMemory {
	if i, ok := slices.BinarySearchFunc(t, k, compareZoneEntry); ok {
		return t[i].z
	}
	return nil
}

// set makes z the zone of key k.
func (t *zoneSet) set(k string, z *ZoneMemory) {
	i, ok := slices.BinarySearchFunc(*t, k, compareZoneEntry)
	if ok {
		(*t)[i].z = z
		return
	}
	*t = slices.Insert(*t, i, zoneEntry{key: k, z: z})
}

func sortedKeys[V any](m map[string]V) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}
