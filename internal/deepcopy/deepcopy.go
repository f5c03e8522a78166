// Package deepcopy copies kubesem's API model values so that the copy shares
// no pointer, slice or map with the original: the one copier the packages
// use when a Plan or a write must not alias its inputs.
//
// It walks values by reflection; unexported fields (a template's
// unmodelled rest, held as JSON values) are copied too, through their own
// structure. Time values are copied as values (time.Time holds no data a
// caller can modify).
package deepcopy

import (
	"reflect"
	"time"
	"unsafe"
)

// Copy returns a deep copy of v.
func Copy[T any](v T) T {
	var out T
	src := reflect.ValueOf(&v).Elem()
	dst := reflect.ValueOf(&out).Elem()
	copyValue(dst, src)
	return out
}

var timeType = reflect.TypeFor[time.Time]()

// isOpaque reports whether values of t are copied as values: time.Time,
// whose location pointer is shared by design.
func isOpaque(t reflect.Type) bool { return t == timeType }

// writable returns v made settable and readable even when it was reached
// through an unexported field (v must be addressable).
func writable(v reflect.Value) reflect.Value {
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

func copyValue(dst, src reflect.Value) {
	switch src.Kind() {
	case reflect.Pointer:
		if src.IsNil() {
			return
		}
		n := reflect.New(src.Type().Elem())
		copyValue(n.Elem(), writable(src.Elem()))
		dst.Set(n)
	case reflect.Slice:
		if src.IsNil() {
			return
		}
		n := reflect.MakeSlice(src.Type(), src.Len(), src.Len())
		for i := 0; i < src.Len(); i++ {
			copyValue(n.Index(i), addressable(src.Index(i)))
		}
		dst.Set(n)
	case reflect.Map:
		if src.IsNil() {
			return
		}
		n := reflect.MakeMapWithSize(src.Type(), src.Len())
		it := src.MapRange()
		for it.Next() {
			v := reflect.New(src.Type().Elem()).Elem()
			copyValue(v, addressable(it.Value()))
			n.SetMapIndex(it.Key(), v)
		}
		dst.Set(n)
	case reflect.Interface:
		if src.IsNil() {
			return
		}
		v := reflect.New(src.Elem().Type()).Elem()
		copyValue(v, addressable(src.Elem()))
		dst.Set(v)
	case reflect.Struct:
		if isOpaque(src.Type()) {
			dst.Set(src)
			return
		}
		src = addressable(src)
		for i := 0; i < src.NumField(); i++ {
			copyValue(writable(dst.Field(i)), writable(src.Field(i)))
		}
	default:
		dst.Set(src)
	}
}
