// Package semantic compares values as the API server's semantic equality
// (apimachinery's equality.Semantic.DeepEqual) compares decoded objects:
// deeply, with nil and empty slices and maps alike and times as instants.
package semantic

import (
	"reflect"
	"time"
)

var timeType = reflect.TypeFor[time.Time]()

// Equal reports whether a and b are deeply equal, with a nil and an empty
// slice or map equal and time.Time values compared with Time.Equal.
// Pointers are equal when both are nil or their targets are equal.
//
// Source: upstream apimachinery third_party/forked/golang/reflect
// Equalities.DeepEqual, pkg/api/equality Semantic (v0.36.3).
func Equal(a, b any) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	va, vb := reflect.ValueOf(a), reflect.ValueOf(b)
	if va.Type() != vb.Type() {
		return false
	}
	return equal(va, vb, 0)
}

// EqualValues is Equal of two values of one type, as reflect reaches them
// (through unexported fields too: a time.Time there is read through its
// address when it has one).
func EqualValues(a, b reflect.Value) bool {
	if a.Type() != b.Type() {
		return false
	}
	return equal(a, b, 0)
}

// timeOf reads a time.Time value, even one reached through unexported
// fields when it is addressable; ok is false for one it cannot read.
func timeOf(v reflect.Value) (t time.Time, ok bool) {
	if v.CanInterface() {
		return v.Interface().(time.Time), true
	}
	if !v.CanAddr() {
		return time.Time{}, false
	}
	return *(*time.Time)(v.Addr().UnsafePointer()), true
}

// maxDepth bounds the walk: API objects nest far less deeply; a cycle
// (which decoded objects never hold) compares unequal rather than hangs.
const maxDepth = 100

func equal(a, b reflect.Value, depth int) bool {
	if depth > maxDepth {
		return false
	}
	if a.Type() == timeType {
		if x, ok := timeOf(a); ok {
			if y, ok := timeOf(b); ok {
				return x.Equal(y)
			}
		}
		// (a time behind an unexported field of a value that is not
		// addressable: compared field by field below)
	}
	switch a.Kind() {
	case reflect.Pointer, reflect.Interface:
		if a.IsNil() || b.IsNil() {
			return a.IsNil() && b.IsNil()
		}
		ea, eb := a.Elem(), b.Elem()
		if ea.Type() != eb.Type() {
			return false
		}
		return equal(ea, eb, depth+1)
	case reflect.Slice, reflect.Array:
		if a.Len() != b.Len() {
			return false
		}
		for i := range a.Len() {
			if !equal(a.Index(i), b.Index(i), depth+1) {
				return false
			}
		}
		return true
	case reflect.Map:
		if a.Len() != b.Len() {
			return false
		}
		it := a.MapRange()
		for it.Next() {
			w := b.MapIndex(it.Key())
			if !w.IsValid() || !equal(it.Value(), w, depth+1) {
				return false
			}
		}
		return true
	case reflect.Struct:
		for i := range a.NumField() {
			if !equal(a.Field(i), b.Field(i), depth+1) {
				return false
			}
		}
		return true
	case reflect.Func:
		return a.IsNil() && b.IsNil()
	}
	// Scalars: compared as values (unexported fields included).
	eq, _ := EqualScalar(a, b)
	return eq
}

// EqualScalar compares two values of one scalar kind as reflect.DeepEqual
// does (booleans, integers, floats and complex numbers with ==, strings),
// unexported fields included; ok is false for any other kind.
func EqualScalar(a, b reflect.Value) (equal, ok bool) {
	switch a.Kind() {
	case reflect.Bool:
		return a.Bool() == b.Bool(), true
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return a.Int() == b.Int(), true
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return a.Uint() == b.Uint(), true
	case reflect.Float32, reflect.Float64:
		return a.Float() == b.Float(), true
	case reflect.String:
		return a.String() == b.String(), true
	case reflect.Complex64, reflect.Complex128:
		return a.Complex() == b.Complex(), true
	}
	return false, false
}
