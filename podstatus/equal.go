package podstatus

import (
	"reflect"
	"time"
)

// Equal reports whether a and b are the same pod template to v1.36.3: their
// Comparable forms (defaulted as the API server defaults a template, the
// unmodelled part read as its decoding reads it) are equal as upstream's
// semantic equality compares objects — nil and empty lists and maps alike,
// times as instants, a JSON string never equal to a JSON number.
//
// Source: upstream deployment_util.go EqualIgnoreHash (equality.Semantic
// .DeepEqual of decoded, defaulted templates), v1.36.3.
func Equal(a, b *Template) bool {
	ca, cb := a.Comparable(), b.Comparable()
	return deepEqual(reflect.ValueOf(&ca).Elem(), reflect.ValueOf(&cb).Elem())
}

// deepEqual is reflect.DeepEqual with nil equal to empty for slices and maps
// and time.Time compared with Equal. Templates hold no cycles.
func deepEqual(a, b reflect.Value) bool {
	if a.Type() == timeT {
		return timeOf(a).Equal(timeOf(b))
	}
	switch a.Kind() {
	case reflect.Pointer, reflect.Interface:
		if a.IsNil() || b.IsNil() {
			return a.IsNil() == b.IsNil()
		}
		if a.Elem().Type() != b.Elem().Type() {
			return false // a JSON string and a JSON number, say
		}
		return deepEqual(a.Elem(), b.Elem())
	case reflect.Struct:
		for i := range a.NumField() {
			if !deepEqual(a.Field(i), b.Field(i)) {
				return false
			}
		}
		return true
	case reflect.Slice, reflect.Array:
		if a.Len() != b.Len() {
			return false
		}
		for i := range a.Len() {
			if !deepEqual(a.Index(i), b.Index(i)) {
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
			if !w.IsValid() || !deepEqual(it.Value(), w) {
				return false
			}
		}
		return true
	case reflect.String:
		return a.String() == b.String()
	case reflect.Bool:
		return a.Bool() == b.Bool()
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return a.Int() == b.Int()
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return a.Uint() == b.Uint()
	case reflect.Float32, reflect.Float64:
		return a.Float() == b.Float()
	}
	return true
}

// timeOf reads a time.Time value, even one reached through unexported fields.
func timeOf(v reflect.Value) time.Time {
	if v.CanInterface() {
		return v.Interface().(time.Time)
	}
	c := reflect.New(timeT).Elem()
	c.Set(reflect.NewAt(timeT, v.Addr().UnsafePointer()).Elem())
	return c.Interface().(time.Time)
}
