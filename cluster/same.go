package cluster

import (
	"maps"
	"reflect"

	"github.com/kubesem/kubesem/internal/semantic"
)

// deepEqual is reflect.DeepEqual(a, b) for values that are trees, as
// stored objects are (nothing in them points back to what holds it),
// without DeepEqual's record of the pointers it follows, which allocates:
// pointers, slices and maps that share their target are equal without a
// walk, and the string maps of objects' metadata are compared as maps.
func deepEqual(a, b any) bool {
	if a == nil || b == nil {
		return a == b
	}
	x, y := reflect.ValueOf(a), reflect.ValueOf(b)
	return x.Type() == y.Type() && equalValue(x, y)
}

// equalValue is deepEqual of two values of one type.
func equalValue(a, b reflect.Value) bool {
	if eq, ok := semantic.EqualScalar(a, b); ok {
		return eq
	}
	switch a.Kind() {
	case reflect.Pointer:
		if a.Pointer() == b.Pointer() {
			return true
		}
		if a.IsNil() || b.IsNil() {
			return false
		}
		return equalValue(a.Elem(), b.Elem())
	case reflect.Interface:
		if a.IsNil() || b.IsNil() {
			return a.IsNil() == b.IsNil()
		}
		x, y := a.Elem(), b.Elem()
		return x.Type() == y.Type() && equalValue(x, y)
	case reflect.Slice:
		if a.IsNil() != b.IsNil() || a.Len() != b.Len() {
			return false
		}
		if a.Pointer() == b.Pointer() {
			return true
		}
		for i := range a.Len() {
			if !equalValue(a.Index(i), b.Index(i)) {
				return false
			}
		}
		return true
	case reflect.Array:
		for i := range a.Len() {
			if !equalValue(a.Index(i), b.Index(i)) {
				return false
			}
		}
		return true
	case reflect.Struct:
		for i := range a.NumField() {
			if !equalValue(a.Field(i), b.Field(i)) {
				return false
			}
		}
		return true
	case reflect.Map:
		if a.IsNil() != b.IsNil() || a.Len() != b.Len() {
			return false
		}
		if a.Pointer() == b.Pointer() {
			return true
		}
		if a.CanInterface() && b.CanInterface() {
			if x, ok := a.Interface().(map[string]string); ok {
				return maps.Equal(x, b.Interface().(map[string]string))
			}
		}
		it := a.MapRange()
		for it.Next() {
			y := b.MapIndex(it.Key())
			if !y.IsValid() || !equalValue(it.Value(), y) {
				return false
			}
		}
		return true
	case reflect.Chan, reflect.UnsafePointer:
		return a.Pointer() == b.Pointer()
	}
	// (a func: DeepEqual's, equal only when both are nil)
	return a.IsNil() && b.IsNil()
}
