package cluster

import "time"

// ForceDue makes a requeue of a controller that does not exist due at at:
// nothing ever consumes it (a stuck world, for TestStuckWorldStops).
func ForceDue(w *World, at time.Time) {
	w.requeue[ctlKey{"no-such-controller", Key{}}] = requeue{at: at}
}

// MetaOf is metaOf, for tests that edit objects of any kind.
var MetaOf = metaOf

// Shallow is shallow: a copy of obj whose metadata may be reassigned.
var Shallow = shallow

// NoPassMemo makes w run every node monitor pass (no memo, nodememo.go).
func NoPassMemo(w *World) { w.passes = nil }

// PassMemoHits is how many node monitor passes w's memo has given.
func PassMemoHits(w *World) int { return w.passes.hits }
