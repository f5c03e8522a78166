package check

import (
	"reflect"
	"time"

	"github.com/kubesem/kubesem/cluster"
	"github.com/kubesem/kubesem/node"
)

// The world's memory besides its State (cluster.Memory) changes at every
// step, so it is hashed directly rather than through cached shapes: its
// strings renamed and its instants read as they are met, its maps and
// its set-like lists (requeues, known nodes, garbage, quarantine) summed
// entry by entry, so that renaming nodes or pods does not reorder them.

// direct hashes v with strings renamed by r and instants read by k.
func direct(v reflect.Value, r *renamer, k *clock) uint64 {
	return final(directWalk(v, 0, r, k))
}

func directWalk(v reflect.Value, h uint64, r *renamer, k *clock) uint64 {
	switch v.Kind() {
	case reflect.Invalid:
		return mix(h, mNil)
	case reflect.Pointer:
		if v.IsNil() {
			return mix(h, mNil)
		}
		return directWalk(v.Elem(), mix(h, mPtr), r, k)
	case reflect.Interface:
		if v.IsNil() {
			return mix(h, mNil)
		}
		e := v.Elem()
		return directWalk(e, mix(mix(h, mIface), hashOf(e.Type().String())), r, k)
	case reflect.Struct:
		if v.Type() == timeType {
			return mix(mix(h, mTime), k.at(timeOf(v)))
		}
		h = mix(h, mStruct)
		t := v.Type()
		for i := range v.NumField() {
			f := v.Field(i)
			if f.Kind() == reflect.Interface && !t.Field(i).IsExported() {
				continue
			}
			h = directWalk(f, mix(h, uint64(i)), r, k)
		}
		return h
	case reflect.Slice, reflect.Array:
		if v.Kind() == reflect.Slice && v.IsNil() {
			return mix(h, mNil)
		}
		n := v.Len()
		h = mix(mix(h, mSlice), uint64(n))
		for i := range n {
			h = directWalk(v.Index(i), h, r, k)
		}
		return h
	case reflect.Map:
		if v.IsNil() {
			return mix(h, mNil)
		}
		var sum uint64
		mapRange(v, k, func(key, val reflect.Value) {
			e := directWalk(key, 0, r, k)
			sum += final(directWalk(val, e, r, k))
		})
		return mix(mix(mix(h, mMap), uint64(v.Len())), sum)
	case reflect.String:
		s := v.String()
		return mix(mix(h, mStr), r.str(s, hashOf(s)))
	case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
		reflect.Float32, reflect.Float64:
		return mixScalar(h, v)
	}
	return h
}

// set hashes the elements of a slice as a multiset.
func set(v reflect.Value, r *renamer, k *clock) uint64 {
	var sum uint64
	for i := range v.Len() {
		sum += direct(v.Index(i), r, k)
	}
	return mix(uint64(v.Len()), sum)
}

// memoryHash hashes the world's memory; the pending scenario events'
// offsets are read as instants (start+at).
func memoryHash(m cluster.Memory, start time.Time, r *renamer, k *clock) uint64 {
	h := uint64(len(m.Events))
	for _, e := range m.Events {
		at := e.At
		e.At = 0
		h = mix(mix(h, direct(reflect.ValueOf(e), r, k)), k.at(start.Add(at)))
	}
	h = mix(h, set(reflect.ValueOf(m.Requeues), r, k))
	h = mix(h, set(reflect.ValueOf(m.Dirty), r, k))
	h = mix(h, direct(reflect.ValueOf(m.JobBackoff), r, k))
	h = mix(h, direct(reflect.ValueOf(m.DaemonSetBackoff), r, k))
	h = mix(h, direct(reflect.ValueOf(m.Node.Nodes), r, k))
	h = mix(h, set(reflect.ValueOf(m.Node.Known), r, k))
	h = mix(h, direct(reflect.ValueOf(m.Node.Zones), r, k))
	h = mix(h, set(reflect.ValueOf(m.PodGC.Quarantine), r, k))
	h = mix(h, direct(reflect.ValueOf(m.Evictions), r, k))
	h = mix(h, direct(reflect.ValueOf(m.TaintSeen), r, k))
	h = mix(h, direct(reflect.ValueOf(m.Nodes), r, k))
	h = mix(h, direct(reflect.ValueOf(m.Kubelet), r, k))
	h = mix(h, direct(reflect.ValueOf(m.Drains), r, k))
	h = mix(h, set(reflect.ValueOf(m.Garbage), r, k))
	return final(h)
}

// nodeMemory hashes what the memory keeps of node n: its timers, the
// node lifecycle controller's health record, scheduled evictions, what
// the taint-eviction controller saw, a drain.
func nodeMemory(m cluster.Memory, n string, r *renamer, k *clock) uint64 {
	b := k.boxes()
	h := directIn(m.Nodes[n], &b.timers, r, k)
	if x, ok := m.Node.Nodes[n]; ok {
		h = mix(h, directIn(x, &b.health, r, k))
	}
	if x, ok := m.Evictions[n]; ok {
		h = mix(h, directIn(x, &b.evictions, r, k))
	}
	if x, ok := m.TaintSeen[n]; ok {
		h = mix(h, directIn(x, &b.taints, r, k))
	}
	if x, ok := m.Drains[n]; ok {
		h = mix(h, k.at(x))
	}
	return final(h)
}

// boxes holds values direct reads in place (directIn), so that they are
// not copied to the heap as reflect.ValueOf would copy them.
type boxes struct {
	timers    cluster.NodeTimers
	health    node.Health
	evictions []node.ScheduledEviction
	taints    cluster.TaintView
	kubelet   cluster.KubeletPod
}

// boxes returns k's boxes (new ones when it has none).
func (k *clock) boxes() *boxes {
	if k.box == nil {
		k.box = &boxes{}
	}
	return k.box
}

// directIn is direct(reflect.ValueOf(x)), with x read in box (emptied
// after).
func directIn[T any](x T, box *T, r *renamer, k *clock) uint64 {
	*box = x
	h := direct(reflect.ValueOf(box).Elem(), r, k)
	var zero T
	*box = zero
	return h
}

// memTimes notes every instant of the memory.
func memTimes(v reflect.Value, k *clock) {
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if !v.IsNil() {
			memTimes(v.Elem(), k)
		}
	case reflect.Struct:
		if v.Type() == timeType {
			if v.CanInterface() {
				k.noteOne(timeOf(v))
			}
			return
		}
		for i := range v.NumField() {
			memTimes(v.Field(i), k)
		}
	case reflect.Slice, reflect.Array:
		if v.Kind() == reflect.Slice && v.Type().Elem().Kind() == reflect.Uint8 {
			return
		}
		for i := range v.Len() {
			memTimes(v.Index(i), k)
		}
	case reflect.Map:
		mapRange(v, k, func(key, val reflect.Value) {
			memTimes(key, k)
			memTimes(val, k)
		})
	}
}

// mapRange calls f with each key and value of the map v, in no order. f
// must not keep them: when v's entries may be read as interfaces (v was
// not reached through an unexported field), they are read into two
// values kept in k's pool by map type and reused for every entry of
// every map of the type (a map of the type met while f runs gets its
// own), which MapIter.Key and Value would copy to the heap one by one.
func mapRange(v reflect.Value, k *clock, f func(key, val reflect.Value)) {
	it := v.MapRange()
	if v.Len() == 0 {
		return
	}
	if !v.CanInterface() {
		for it.Next() {
			f(it.Key(), it.Value())
		}
		return
	}
	t := v.Type()
	var slot *mapSlot
	if k.pool != nil {
		if slot = k.pool[t]; slot == nil {
			slot = &mapSlot{key: reflect.New(t.Key()).Elem(), val: reflect.New(t.Elem()).Elem()}
			k.pool[t] = slot
		}
	}
	if slot == nil || slot.busy {
		slot = &mapSlot{key: reflect.New(t.Key()).Elem(), val: reflect.New(t.Elem()).Elem()}
	}
	slot.busy = true
	key, val := slot.key, slot.val
	for it.Next() {
		key.SetIterKey(it)
		val.SetIterValue(it)
		f(key, val)
	}
	// (drop the references to the map's last entry)
	key.SetZero()
	val.SetZero()
	slot.busy = false
}

// mapSlot is a key and a value of one map type, for mapRange.
type mapSlot struct {
	key, val reflect.Value
	busy     bool
}
