package node

import (
	"cmp"
	"fmt"
	"slices"
	"testing"
	"time"

	"pgregory.net/rapid"
)

// refZone is the zone queue kept the plain way — a scan for membership,
// a sort after each addition, every entry of a name removed — which the
// indexed queue must match operation for operation.
type refZone struct {
	Queue []Queued
	Done  []string
}

func (z *refZone) has(name string) bool {
	if _, ok := slices.BinarySearch(z.Done, name); ok {
		return true
	}
	return slices.ContainsFunc(z.Queue, func(q Queued) bool { return q.Node == name })
}

func (z *refZone) sort() {
	slices.SortStableFunc(z.Queue, func(a, b Queued) int {
		if c := a.ProcessAt.Compare(b.ProcessAt); c != 0 {
			return c
		}
		return cmp.Compare(a.Node, b.Node)
	})
}

func (z *refZone) add(name string, now time.Time) {
	if !z.has(name) {
		z.Queue = append(z.Queue, Queued{Node: name, AddedAt: now, ProcessAt: now})
		z.sort()
	}
}

func (z *refZone) remove(name string) {
	if i, ok := slices.BinarySearch(z.Done, name); ok {
		z.Done = slices.Delete(z.Done, i, i+1)
	}
	z.Queue = slices.DeleteFunc(z.Queue, func(q Queued) bool { return q.Node == name })
}

func (z *refZone) finish(name string) {
	z.Queue = slices.DeleteFunc(z.Queue, func(q Queued) bool { return q.Node == name })
	if i, ok := slices.BinarySearch(z.Done, name); !ok {
		z.Done = slices.Insert(z.Done, i, name)
	}
}

// The indexed zone queue answers and orders as the plain one, from any
// queue a Memory may give (out of order, a name twice, long enough to be
// indexed), through any additions, removals, finishes and re-timed heads.
func TestPropertyZoneQueue(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
		name := rapid.Custom(func(t *rapid.T) string { return fmt.Sprintf("n%02d", rapid.IntRange(0, 40).Draw(t, "n")) })
		at := rapid.Custom(func(t *rapid.T) time.Time {
			return t0.Add(time.Duration(rapid.IntRange(0, 5).Draw(t, "s")) * time.Second)
		})
		var q []Queued
		for range rapid.IntRange(0, 30).Draw(t, "queue") {
			a := at.Draw(t, "at")
			q = append(q, Queued{Node: name.Draw(t, "name"), AddedAt: a, ProcessAt: a})
		}
		if rapid.Bool().Draw(t, "sorted") {
			slices.SortStableFunc(q, compareQueued)
		}
		done := rapid.SliceOfDistinct(name, func(s string) string { return s }).Draw(t, "done")
		slices.Sort(done)
		ref := &refZone{Queue: slices.Clone(q), Done: slices.Clone(done)}
		z := &ZoneMemory{Queue: slices.Clone(q), Done: slices.Clone(done), irregular: !regularQueue(q)}
		for i := range rapid.IntRange(0, 60).Draw(t, "ops") {
			n := name.Draw(t, "op name")
			switch rapid.IntRange(0, 4).Draw(t, "op") {
			case 0:
				now := at.Draw(t, "now")
				ref.add(n, now)
				z.add(n, now)
			case 1:
				ref.remove(n)
				z.remove(n)
			case 2:
				if len(ref.Queue) > 0 { // the tainter finishes its head
					n = ref.Queue[0].Node
				}
				ref.finish(n)
				z.finish(n)
			case 3:
				if len(ref.Queue) > 0 { // the tainter re-times its head
					later := at.Draw(t, "later")
					ref.Queue[0].ProcessAt, z.Queue[0].ProcessAt = later, later
					ref.sort()
					z.sortQueue()
				}
			case 4:
				if a, b := ref.has(n), z.has(n); a != b {
					t.Fatalf("op %d: has(%s) = %v, plain %v", i, n, b, a)
				}
			}
			if !slices.Equal(ref.Queue, z.Queue) || !slices.Equal(ref.Done, z.Done) {
				t.Fatalf("op %d: queue %v done %v; plain %v %v", i, z.Queue, z.Done, ref.Queue, ref.Done)
			}
		}
	})
}
