// Package deepcopy copies kubesem's API model values so that the copy shares
// no pointer, slice or map with the original: the one copier the packages
// use when a Plan or a write must not alias its inputs.
//
// It walks values by reflection; unexported fields are copied too,
// through their own structure. Time values are copied as values (time.Time
// holds no data a caller can modify), and so are [Frozen] values (data no
// one modifies once built, such as a decoded template's unmodelled JSON),
// which copies share.
package deepcopy

import (
	"maps"
	"reflect"
	"slices"
	"time"
	"unsafe"
)

// Copy returns a deep copy of v.
func Copy[T any](v T) T {
	// v is the caller's shallow copy already: its references are replaced
	// in place by copies of what they point to
	own(reflect.ValueOf(&v).Elem())
	return v
}

// New returns a pointer to a deep copy of *v: Copy without the copy
// moving to the heap a second time when the caller wants a pointer.
func New[T any](v *T) *T {
	c := new(T)
	*c = *v
	own(reflect.ValueOf(c).Elem())
	return c
}

// own makes v, which is addressable and settable, share nothing with
// what it shares with before: copyValue with v as both the shallow copy
// and the original (copyValue reads each reference of src before it sets
// the same field of dst, and never writes what src points to).
func own(v reflect.Value) { copyValue(v, v) }

// Frozen holds a value that is never modified once built (a decoded
// template's unmodelled JSON): copies of what holds it share it.
type Frozen[T any] struct{ v T }

// Freeze returns v frozen: its holder promises never to modify it.
func Freeze[T any](v T) Frozen[T] { return Frozen[T]{v} }

// Get returns the frozen value; the caller must not modify it.
func (f Frozen[T]) Get() T { return f.v }

func (Frozen[T]) frozen() {}

var (
	timeType   = reflect.TypeFor[time.Time]()
	frozenType = reflect.TypeFor[interface{ frozen() }]()
)

// writable returns v made settable and readable even when it was reached
// through an unexported field (v must be addressable).
func writable(v reflect.Value) reflect.Value {
	if v.CanSet() {
		return v
	}
	return reflect.NewAt(v.Type(), unsafe.Pointer(v.UnsafeAddr())).Elem()
}

// addressable returns v, or an addressable copy of it.
func addressable(v reflect.Value) reflect.Value {
	if v.CanAddr() {
		return writable(v)
	}
	c := reflect.New(v.Type()).Elem()
	c.Set(v)
	return c
}

// holdsReferences reports whether values of kind k may point to data a
// shallow copy would share.
func holdsReferences(k reflect.Kind) bool {
	switch k {
	case reflect.Pointer, reflect.Slice, reflect.Map, reflect.Interface, reflect.Struct, reflect.Array:
		return true
	}
	return false
}

// copyValue makes dst, which already holds a shallow copy of src (equal
// scalars, shared references), share nothing with src.
func copyValue(dst, src reflect.Value) {
	switch src.Kind() {
	case reflect.Pointer:
		if src.IsNil() {
			return
		}
		n := reflect.New(src.Type().Elem())
		e := writable(src.Elem())
		n.Elem().Set(e)
		copyValue(n.Elem(), e)
		dst.Set(n)
	case reflect.Slice:
		if src.IsNil() {
			return
		}
		// (through pointers, which an interface holds without
		// allocating; src and dst are always addressable here)
		switch s := src.Addr().Interface().(type) {
		case *[]string:
			*dst.Addr().Interface().(*[]string) = slices.Clone(*s)
			return
		case *[]int32:
			*dst.Addr().Interface().(*[]int32) = slices.Clone(*s)
			return
		}
		n := reflect.MakeSlice(src.Type(), src.Len(), src.Len())
		reflect.Copy(n, src)
		if holdsReferences(src.Type().Elem().Kind()) {
			for i := 0; i < src.Len(); i++ {
				copyValue(n.Index(i), writable(src.Index(i)))
			}
		}
		dst.Set(n)
	case reflect.Map:
		if src.IsNil() {
			return
		}
		if m, ok := src.Interface().(map[string]string); ok {
			dst.Set(reflect.ValueOf(maps.Clone(m)))
			return
		}
		n := reflect.MakeMapWithSize(src.Type(), src.Len())
		deep := holdsReferences(src.Type().Elem().Kind())
		it := src.MapRange()
		for it.Next() {
			v := it.Value()
			if deep {
				c := reflect.New(src.Type().Elem()).Elem()
				c.Set(v)
				copyValue(c, addressable(v))
				v = c
			}
			n.SetMapIndex(it.Key(), v)
		}
		dst.Set(n)
	case reflect.Interface:
		if src.IsNil() {
			return
		}
		e := src.Elem()
		if !holdsReferences(e.Kind()) {
			return // a scalar in an interface is immutable: shared
		}
		v := reflect.New(e.Type()).Elem()
		v.Set(e)
		copyValue(v, addressable(e))
		dst.Set(v)
	case reflect.Struct:
		t := src.Type()
		if t == timeType || t.Implements(frozenType) {
			return // dst holds it already
		}
		src = addressable(src)
		for i := 0; i < src.NumField(); i++ {
			if f := src.Field(i); holdsReferences(f.Kind()) {
				copyValue(writable(dst.Field(i)), writable(f))
			}
		}
	case reflect.Array:
		src = addressable(src)
		if holdsReferences(src.Type().Elem().Kind()) {
			for i := 0; i < src.Len(); i++ {
				copyValue(writable(dst.Index(i)), writable(src.Index(i)))
			}
		}
	}
}
