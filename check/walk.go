package check

import (
	"math"
	"math/bits"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"time"
)

// This file turns a stored object into a shape: a hash of its structure
// and scalars, with its strings and instants set aside in walk order, so
// that the canonical form (canon.go) can rename strings (generated names,
// UIDs, node names) and read instants relative to the world's now without
// walking the object again. Stored objects are never modified (package
// cluster copies on write), so a shape is computed once per object.

// shape is an object with its strings and instants left out.
type shape struct {
	sum  uint64
	strs []string
	strH []uint64 // hashOf(strs[i])
	// nameH and uidH are the hashes of the object's name and UID (of a
	// stored object's metadata).
	nameH, uidH uint64
	times       []time.Time
	// keys is stringMap's buffer (in the scratch shape only).
	keys []string
}

// The mixing function: a multiply-rotate step, and the splitmix64
// finaliser. Deterministic across processes (shards compare hashes).
// mixScalar mixes a bool, integer or float value into h (the hashers'
// shared leaves).
func mixScalar(h uint64, v reflect.Value) uint64 {
	switch v.Kind() {
	case reflect.Bool:
		if v.Bool() {
			return mix(h, 2)
		}
		return mix(h, 1)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return mix(h, uint64(v.Int()))
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return mix(h, v.Uint())
	case reflect.Float32, reflect.Float64:
		return mix(h, math.Float64bits(v.Float()))
	}
	return h
}

func mix(h, x uint64) uint64 {
	h ^= x * 0x9e3779b97f4a7c15
	return bits.RotateLeft64(h, 27) * 0x94d049bb133111eb
}

func final(h uint64) uint64 {
	h ^= h >> 30
	h *= 0xbf58476d1ce4e5b9
	h ^= h >> 27
	h *= 0x94d049bb133111eb
	return h ^ h>>31
}

// hashOf is FNV-1a over s, finalised.
func hashOf(s string) uint64 {
	h := uint64(14695981039346656037)
	for i := 0; i < len(s); i++ {
		h ^= uint64(s[i])
		h *= 1099511628211
	}
	return final(h ^ uint64(len(s)))
}

// Markers keep the structure's hash apart from the values it holds.
const (
	mNil uint64 = iota + 1
	mPtr
	mStr
	mTime
	mMap
	mSlice
	mStruct
	mIface
)

var timeType = reflect.TypeFor[time.Time]()

// shapeOf walks v.
func shapeOf(v any) *shape {
	return shapeInto(v, &shape{})
}

// shapeInto walks v into scratch (whose slices are reused, emptied first)
// and returns the shape with slices of their exact lengths, so that a
// cached shape holds no spare capacity; scratch keeps the grown slices.
func shapeInto(v any, scratch *shape) *shape {
	scratch.strs, scratch.strH, scratch.times = scratch.strs[:0], scratch.strH[:0], scratch.times[:0]
	h := scratch.walk(reflect.ValueOf(v), 0)
	s := &shape{sum: final(h)}
	if len(scratch.strs) > 0 {
		s.strs = slices.Clone(scratch.strs)
		s.strH = slices.Clone(scratch.strH)
	}
	if len(scratch.times) > 0 {
		s.times = slices.Clone(scratch.times)
	}
	clear(scratch.strs) // (drop the references to the object's strings)
	return s
}

// timeOf reads the time.Time v holds (the zero time when v is an
// unexported field), without copying it to the heap when v is addressable.
func timeOf(v reflect.Value) time.Time {
	switch {
	case !v.CanInterface():
		return time.Time{}
	case v.CanAddr():
		return *v.Addr().Interface().(*time.Time)
	}
	return v.Interface().(time.Time)
}

func (s *shape) str(h uint64, x string) uint64 {
	s.strs = append(s.strs, x)
	s.strH = append(s.strH, hashOf(x))
	return mix(h, mStr)
}

func (s *shape) walk(v reflect.Value, h uint64) uint64 {
	switch v.Kind() {
	case reflect.Invalid:
		return mix(h, mNil)
	case reflect.Pointer:
		if v.IsNil() {
			return mix(h, mNil)
		}
		return s.walk(v.Elem(), mix(h, mPtr))
	case reflect.Interface:
		if v.IsNil() {
			return mix(h, mNil)
		}
		e := v.Elem()
		return s.walk(e, mix(mix(h, mIface), hashOf(e.Type().String())))
	case reflect.Struct:
		if v.Type() == timeType {
			s.times = append(s.times, timeOf(v))
			return mix(h, mTime)
		}
		h = mix(h, mStruct)
		t := v.Type()
		for i := range v.NumField() {
			f := v.Field(i)
			// An unexported interface is a cache (podstatus.Template's
			// normalised rest): what it caches is walked elsewhere.
			if f.Kind() == reflect.Interface && !t.Field(i).IsExported() {
				continue
			}
			h = s.walk(f, mix(h, uint64(i)))
		}
		return h
	case reflect.Slice, reflect.Array:
		if v.Kind() == reflect.Slice && v.IsNil() {
			return mix(h, mNil)
		}
		if v.Type().Elem().Kind() == reflect.Uint8 {
			return mix(mix(h, mSlice), hashOf(string(v.Bytes())))
		}
		n := v.Len()
		h = mix(mix(h, mSlice), uint64(n))
		for i := range n {
			h = s.walk(v.Index(i), h)
		}
		return h
	case reflect.Map:
		if v.IsNil() {
			return mix(h, mNil)
		}
		if v.CanInterface() {
			if m, ok := v.Interface().(map[string]string); ok {
				// (labels, annotations: read without a reflect.Value per
				// key and value, in the same order and to the same hash)
				return s.stringMap(h, m)
			}
		}
		keys := v.MapKeys()
		sortKeys(keys)
		h = mix(mix(h, mMap), uint64(len(keys)))
		for _, k := range keys {
			h = s.walk(k, h)
			h = s.walk(v.MapIndex(k), h)
		}
		return h
	case reflect.String:
		return s.str(h, v.String())
	case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
		reflect.Float32, reflect.Float64:
		return mixScalar(h, v)
	}
	// Funcs and channels hold no state of the cluster.
	return h
}

// stringMap walks m as walk walks a map of strings: its length, then
// each key and its value, keys in order.
func (s *shape) stringMap(h uint64, m map[string]string) uint64 {
	keys := s.keys[:0]
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	h = mix(mix(h, mMap), uint64(len(keys)))
	for _, k := range keys {
		h = s.str(h, k)
		h = s.str(h, m[k])
	}
	clear(keys)
	s.keys = keys[:0]
	return h
}

// sortKeys orders map keys deterministically: strings and numbers by
// value, anything else by its printed form.
func sortKeys(keys []reflect.Value) {
	if len(keys) < 2 {
		return
	}
	switch keys[0].Kind() {
	case reflect.String:
		slices.SortFunc(keys, func(a, b reflect.Value) int { return strings.Compare(a.String(), b.String()) })
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		slices.SortFunc(keys, func(a, b reflect.Value) int { return cmpInt(a.Int(), b.Int()) })
	default:
		str := func(v reflect.Value) string {
			var b strings.Builder
			keyString(&b, v)
			return b.String()
		}
		slices.SortFunc(keys, func(a, b reflect.Value) int { return strings.Compare(str(a), str(b)) })
	}
}

func keyString(b *strings.Builder, v reflect.Value) {
	switch v.Kind() {
	case reflect.String:
		b.WriteString(v.String())
	case reflect.Struct:
		for i := range v.NumField() {
			keyString(b, v.Field(i))
			b.WriteByte(0)
		}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		b.WriteString(strconv.FormatInt(v.Int(), 10))
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		b.WriteString(strconv.FormatUint(v.Uint(), 10))
	case reflect.Bool:
		b.WriteString(strconv.FormatBool(v.Bool()))
	default:
		b.WriteString(v.Type().String())
	}
}

func cmpInt(a, b int64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}
