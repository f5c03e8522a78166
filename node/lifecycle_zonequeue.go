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
