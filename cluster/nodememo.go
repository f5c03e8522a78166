package cluster

import (
	"math"
	"reflect"
	"slices"
	"sync"
	"time"

	"github.com/kubesem/kubesem/node"
)

// A world and its clones often run the same node monitor pass: a state
// that differs from another only in a Deployment leaves the pass's input
// as it was, and an exploration runs each instant in many such states.
// node.Step is a pure function of its input, so a pass whose input equals
// one already run has that run's Plan. passMemo keeps the passes run, by
// their input as node.Step reads it:
//
//   - the nodes, by content: equal nodes have one representative, and a
//     node's pointer its representative (stored objects are never
//     modified: the State copies on write);
//   - the leases, by what node.Step reads of them (validateStep,
//     updateHealth): each one's name and spec.renewTime;
//   - the memory, by its class: the memo interns each Memory a pass makes
//     (equal Memories, field by field, are one class, whose first Memory
//     every world of the class then holds); a world's memory is replaced,
//     never modified, by each pass;
//   - now, and the options.
//
// The pods are read only when a node's Ready condition leaves True (the
// pods to mark not ready and their events, podsOn); only passes that mark
// no pod are kept, so the pods they were given are no part of their input.
//
// The memo is made by a world's first Clone and shared by the world and
// its clones (its lock lets clones run on other goroutines): a world never
// cloned runs every pass. It is bounded; a pass not found is run as
// before.
type passMemo struct {
	mu      sync.Mutex
	m       map[passKey][]*nodePass
	n       int
	classes map[uint64][]*memClass
	cn      int
	hits    int // passes found (for tests)
	// rep maps each node met to its representative; byHash lists the
	// representatives by hashNode; reps is find's buffer.
	rep    map[*node.Node]*node.Node
	byHash map[uint64][]*node.Node
	reps   []*node.Node
}

// memClass is a class of equal Memories; mem is its first.
type memClass struct {
	mem node.Memory
}

// passKey is the part of a pass's input the memo is indexed by.
type passKey struct {
	now int64
	mem *memClass
}

// nodePass is one monitor pass: its input (the memory by its class, nil
// for the zero Memory) and its Plan, whose Memory is its class's (out).
type nodePass struct {
	now    time.Time
	mem    *memClass
	out    *memClass
	nodes  []*node.Node
	leases []leaseRead
	opts   node.Options
	plan   node.Plan
}

// leaseRead is what node.Step reads of a lease.
type leaseRead struct {
	name  string
	renew time.Time
	has   bool
}

// passMemoLimit bounds what the memo keeps, counted in nodes (of the
// passes kept, of the Memories interned, of the nodes met): past it, each
// part starts afresh.
const passMemoLimit = 1 << 16

// passChainLimit bounds the passes kept under one key.
const passChainLimit = 8

func readLeases(ls []node.Lease, buf []leaseRead) []leaseRead {
	for i := range ls {
		r := leaseRead{name: ls[i].Name}
		if t := ls[i].Spec.RenewTime; t != nil {
			r.renew, r.has = *t, true
		}
		buf = append(buf, r)
	}
	return buf
}

// sameNodeOptions reports whether a and b are the same options, what
// their pointers point to compared.
func sameNodeOptions(a, b node.Options) bool {
	return a.TaintTolerationComparisonOperators == b.TaintTolerationComparisonOperators &&
		a.NodeMonitorGracePeriod == b.NodeMonitorGracePeriod && a.NodeStartupGracePeriod == b.NodeStartupGracePeriod &&
		samePtr(a.EvictionRate, b.EvictionRate) && samePtr(a.SecondaryEvictionRate, b.SecondaryEvictionRate) &&
		samePtr(a.LargeClusterThreshold, b.LargeClusterThreshold) && samePtr(a.UnhealthyZoneThreshold, b.UnhealthyZoneThreshold)
}

func samePtr[T comparable](a, b *T) bool {
	if a == nil || b == nil {
		return a == b
	}
	return *a == *b
}

// matches reports whether the pass had the input given (nodes by their
// representatives).
func (p *nodePass) matches(now time.Time, mem *memClass, nodes []*node.Node, leases []node.Lease, opts node.Options) bool {
	if p.now != now || p.mem != mem || len(p.nodes) != len(nodes) || len(p.leases) != len(leases) || !sameNodeOptions(p.opts, opts) {
		return false
	}
	for i, n := range nodes {
		if p.nodes[i] != n {
			return false
		}
	}
	for i := range leases {
		r := p.leases[i]
		l := &leases[i]
		if r.name != l.Name || r.has != (l.Spec.RenewTime != nil) || r.has && r.renew != *l.Spec.RenewTime {
			return false
		}
	}
	return true
}

// find returns the pass with the input given, nil when none is kept.
func (m *passMemo) find(now time.Time, mem *memClass, nodes []*node.Node, leases []node.Lease, opts node.Options) *nodePass {
	m.mu.Lock()
	defer m.mu.Unlock()
	reps := m.represent(nodes)
	for _, p := range m.m[passKey{now.UnixNano(), mem}] {
		if p.matches(now, mem, reps, leases, opts) {
			m.hits++
			return p
		}
	}
	return nil
}

// represent returns the representatives of nodes (in m.reps, reused).
// Equal nodes (reflect.DeepEqual: node.Step reads nothing else of them,
// and a Node holds no float) have one representative, the first met;
// a stored node is never modified, so a pointer keeps its representative.
func (m *passMemo) represent(nodes []*node.Node) []*node.Node {
	if m.rep == nil || len(m.rep) >= passMemoLimit {
		m.rep, m.byHash = map[*node.Node]*node.Node{}, map[uint64][]*node.Node{}
	}
	m.reps = m.reps[:0]
	for _, n := range nodes {
		r, ok := m.rep[n]
		if !ok {
			r = n
			h := hashNode(n)
			for _, x := range m.byHash[h] {
				if reflect.DeepEqual(x, n) {
					r = x
					break
				}
			}
			if r == n {
				m.byHash[h] = append(m.byHash[h], n)
			}
			m.rep[n] = r
		}
		m.reps = append(m.reps, r)
	}
	return m.reps
}

// representatives returns a new list of the representatives of nodes.
func (m *passMemo) representatives(nodes []*node.Node) []*node.Node {
	m.mu.Lock()
	defer m.mu.Unlock()
	return slices.Clone(m.represent(nodes))
}

// hashNode hashes some of what reflect.DeepEqual compares of a node.
func hashNode(n *node.Node) uint64 {
	h := uint64(len(n.Name))<<32 | uint64(len(n.Spec.Taints))<<16 | uint64(len(n.Status.Conditions))
	for _, c := range n.Status.Conditions {
		h = h*0x9e3779b97f4a7c15 ^ uint64(c.LastHeartbeatTime.UnixNano()) ^ uint64(c.LastTransitionTime.UnixNano())<<1 ^ uint64(len(c.Status))
	}
	for i := 0; i < len(n.Name); i++ {
		h = h*1099511628211 ^ uint64(n.Name[i])
	}
	return h
}

// add keeps p, a pass that marked no pod not ready; it returns p.
func (m *passMemo) add(p *nodePass) *nodePass {
	m.mu.Lock()
	defer m.mu.Unlock()
	k := passKey{p.now.UnixNano(), p.mem}
	if m.m == nil || m.n >= passMemoLimit {
		m.m, m.n = map[passKey][]*nodePass{}, 0
	}
	if m.cn >= passMemoLimit {
		m.classes, m.cn = nil, 0
	}
	if len(m.m[k]) < passChainLimit {
		m.m[k] = append(m.m[k], p)
		m.n += len(p.nodes) + 1
	}
	return p
}

// class returns the class of mem, a Memory a pass returned: an equal
// Memory's class, or a new one (held by the memo until it starts afresh).
func (m *passMemo) class(mem node.Memory) *memClass {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.classes == nil {
		m.classes = map[uint64][]*memClass{}
	}
	h := hashMemory(mem)
	for _, c := range m.classes[h] {
		if sameMemory(c.mem, mem) {
			return c
		}
	}
	c := &memClass{mem: mem}
	m.classes[h] = append(m.classes[h], c)
	m.cn += len(mem.Nodes) + 1
	return c
}

// hashMemory hashes what sameMemory compares (the maps' entries summed:
// their order is none), deterministically (FNV-1a over strings: the
// package draws no random seed).
func hashMemory(m node.Memory) uint64 {
	str := func(s string) uint64 {
		h := uint64(14695981039346656037)
		for i := 0; i < len(s); i++ {
			h = (h ^ uint64(s[i])) * 1099511628211
		}
		return h
	}
	tm := func(t time.Time) uint64 { return uint64(t.UnixNano()) * 0x9e3779b97f4a7c15 }
	var h uint64
	for k, x := range m.Nodes {
		e := str(k) ^ tm(x.ProbeTime)*3
		if x.ReadyHeartbeat != nil {
			e ^= tm(*x.ReadyHeartbeat) * 5
		}
		if x.Lease != nil {
			e ^= (str(x.Lease.Name) + tm(x.Lease.RenewTime)) * 7
		}
		h += e * 0xbf58476d1ce4e5b9
	}
	for _, k := range m.Known {
		h = h*31 + str(k)
	}
	for k, z := range m.Zones {
		e := str(k) ^ str(string(z.State))*3 ^ uint64(len(z.Queue))*5 ^ uint64(len(z.Done))*7 ^ math.Float64bits(z.Limiter.Tokens)
		h += e * 0x94d049bb133111eb
	}
	return h
}

// sameMemory reports whether a and b, Memories passes returned, are equal
// field by field: instants and floats as they are represented (==, and
// floats bit by bit), so that equal Memories behave alike in every use
// (their unexported fields are empty in every Memory a pass returns).
func sameMemory(a, b node.Memory) bool {
	if len(a.Nodes) != len(b.Nodes) || (a.Nodes == nil) != (b.Nodes == nil) || len(a.Known) != len(b.Known) || (a.Known == nil) != (b.Known == nil) ||
		len(a.Zones) != len(b.Zones) || (a.Zones == nil) != (b.Zones == nil) {
		return false
	}
	for k, x := range a.Nodes {
		y, ok := b.Nodes[k]
		if !ok || x.ProbeTime != y.ProbeTime || x.Known != y.Known || !samePtr(x.ReadyHeartbeat, y.ReadyHeartbeat) || !samePtr(x.Lease, y.Lease) {
			return false
		}
	}
	for i := range a.Known {
		if a.Known[i] != b.Known[i] {
			return false
		}
	}
	for k, x := range a.Zones {
		y, ok := b.Zones[k]
		if !ok || x.State != y.State || !sameLimiter(x.Limiter, y.Limiter) ||
			len(x.Queue) != len(y.Queue) || (x.Queue == nil) != (y.Queue == nil) || len(x.Done) != len(y.Done) || (x.Done == nil) != (y.Done == nil) {
			return false
		}
		for i := range x.Queue {
			if x.Queue[i] != y.Queue[i] {
				return false
			}
		}
		for i := range x.Done {
			if x.Done[i] != y.Done[i] {
				return false
			}
		}
	}
	return true
}

func sameLimiter(a, b node.Limiter) bool {
	return math.Float32bits(a.Rate) == math.Float32bits(b.Rate) && math.Float64bits(a.Tokens) == math.Float64bits(b.Tokens) &&
		a.Last == b.Last && a.Bucket == b.Bucket
}
