package node

import (
	"cmp"
	"slices"
	"time"
)

// Queued is a node waiting in a zone's tainting queue.
type Queued struct {
	Node      string    `json:"node"`
	AddedAt   time.Time `json:"addedAt"`
	ProcessAt time.Time `json:"processAt"`
}

// queue operations (upstream UniqueQueue: a set of names, and a queue
// ordered by process time, then name). A pass may queue thousands of
// nodes of one zone, so each operation costs a map lookup and at most one
// move of the queue, not a scan or a sort of it.

// queueIndex is the least length of the queue indexed by name.
const queueIndex = 16

// regularQueue reports whether q is in order with each name once.
func regularQueue(q []Queued) bool {
	if len(q) < 2 {
		return true
	}
	if !slices.IsSortedFunc(q, compareQueued) {
		return false
	}
	if len(q) < queueIndex {
		for i := range q {
			for j := range i {
				if q[i].Node == q[j].Node {
					return false
				}
			}
		}
		return true
	}
	names := make(map[string]struct{}, len(q))
	for _, e := range q {
		if _, dup := names[e.Node]; dup {
			return false
		}
		names[e.Node] = struct{}{}
	}
	return true
}

// inQueue reports whether name is in the queue.
func (z *ZoneMemory) inQueue(name string) bool {
	if z.queued == nil {
		if len(z.Queue) < queueIndex || z.irregular {
			for _, q := range z.Queue {
				if q.Node == name {
					return true
				}
			}
			return false
		}
		z.queued = make(map[string]struct{}, 2*len(z.Queue))
		for _, q := range z.Queue {
			z.queued[q.Node] = struct{}{}
		}
	}
	_, ok := z.queued[name]
	return ok
}

func (z *ZoneMemory) has(name string) bool {
	if _, ok := slices.BinarySearch(z.Done, name); ok {
		return true
	}
	return z.inQueue(name)
}

func compareQueued(a, b Queued) int {
	if c := a.ProcessAt.Compare(b.ProcessAt); c != 0 {
		return c
	}
	return cmp.Compare(a.Node, b.Node)
}

func (z *ZoneMemory) add(name string, now time.Time) {
	if z.has(name) {
		return
	}
	q := Queued{Node: name, AddedAt: now, ProcessAt: now}
	if z.irregular {
		z.Queue = append(z.Queue, q)
		z.sortQueue()
		return
	}
	// (names are unique in the queue: its place is after every entry
	// ordered before it; usually the end)
	if n := len(z.Queue); n == 0 || compareQueued(z.Queue[n-1], q) < 0 {
		z.Queue = append(z.Queue, q)
	} else {
		i, _ := slices.BinarySearchFunc(z.Queue, q, compareQueued)
		z.Queue = slices.Insert(z.Queue, i, q)
	}
	if z.queued != nil {
		z.queued[name] = struct{}{}
	}
}

func (z *ZoneMemory) sortQueue() {
	slices.SortStableFunc(z.Queue, compareQueued)
}

// dequeue takes name out of the queue.
func (z *ZoneMemory) dequeue(name string) {
	if !z.inQueue(name) {
		return
	}
	if z.Queue[0].Node == name && !z.irregular {
		z.Queue = z.Queue[1:]
	} else {
		z.Queue = slices.DeleteFunc(z.Queue, func(q Queued) bool { return q.Node == name })
	}
	if z.queued != nil {
		delete(z.queued, name)
	}
}

func (z *ZoneMemory) remove(name string) {
	if i, ok := slices.BinarySearch(z.Done, name); ok {
		z.Done = slices.Delete(z.Done, i, i+1)
	}
	z.dequeue(name)
}

func (z *ZoneMemory) finish(name string) {
	z.dequeue(name)
	if i, ok := slices.BinarySearch(z.Done, name); !ok {
		z.Done = slices.Insert(z.Done, i, name)
	}
}
