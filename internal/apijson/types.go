package apijson

import (
	"reflect"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/kubesem/kubesem/internal/jsontag"
)

// kind is how the walk treats a Go type.
type kind uint8

const (
	kAny      kind = iota // interface: any JSON value, checked, passed on
	kOpaque               // its own UnmarshalJSON (or UnmarshalText) decodes it
	kStruct               // keys matched against the fields
	kMap                  // keys free, values of elem
	kSlice                // arrays of elem
	kBytes                // []byte: a base64 string
	kString               // strings
	kBool                 // true, false
	kInt                  // integers of bits bits
	kUint                 // non-negative integers of bits bits
	kFloat                // numbers
	kDuration             // a Go duration string or integer nanoseconds
	kOther                // what encoding/json cannot decode (chan, func, complex)
)

// typeInfo is what the walk needs to know of a Go type (pointers removed).
type typeInfo struct {
	t    reflect.Type
	kind kind
	bits int
	elem *ref // kMap, kSlice
	// fields maps each JSON key of a kStruct to its field's type, as
	// encoding/json resolves embedded structs and name conflicts.
	fields map[string]*ref
}

// ref is a type whose typeInfo is looked up once, when first needed (a
// type may hold itself).
type ref struct {
	t reflect.Type
	p atomic.Pointer[typeInfo]
}

func (r *ref) info() *typeInfo {
	if ti := r.p.Load(); ti != nil {
		return ti
	}
	ti := info(r.t)
	r.p.Store(ti)
	return ti
}

// infos caches typeInfo by reflect.Type. It holds facts about Go types
// only (as encoding/json's own cache does), never input, so it cannot
// change an answer; it keeps decoding 100,000 objects from recomputing
// them each time.
var infos sync.Map

var (
	anyInfo   = &typeInfo{kind: kAny}
	durationT = reflect.TypeFor[time.Duration]()
)

func info(t reflect.Type) *typeInfo {
	if t == nil {
		return anyInfo
	}
	if v, ok := infos.Load(t); ok {
		return v.(*typeInfo)
	}
	v, _ := infos.LoadOrStore(t, newInfo(t))
	return v.(*typeInfo)
}

func newInfo(t reflect.Type) *typeInfo {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	ti := &typeInfo{t: t}
	pt := reflect.PointerTo(t)
	switch {
	case pt.Implements(unmarshalerT) || pt.Implements(textUnmarshalerT):
		ti.kind = kOpaque
		return ti
	case t == durationT:
		ti.kind = kDuration
		return ti
	}
	switch t.Kind() {
	case reflect.Interface:
		ti.kind = kAny
	case reflect.Struct:
		ti.kind, ti.fields = kStruct, structFields(t)
	case reflect.Map:
		ti.kind, ti.elem = kMap, &ref{t: t.Elem()}
	case reflect.Slice:
		if t.Elem().Kind() == reflect.Uint8 && !reflect.PointerTo(t.Elem()).Implements(unmarshalerT) && !reflect.PointerTo(t.Elem()).Implements(textUnmarshalerT) {
			ti.kind = kBytes
		} else {
			ti.kind, ti.elem = kSlice, &ref{t: t.Elem()}
		}
	case reflect.Array:
		ti.kind, ti.elem = kSlice, &ref{t: t.Elem()}
	case reflect.String:
		ti.kind = kString
	case reflect.Bool:
		ti.kind = kBool
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		ti.kind, ti.bits = kInt, t.Bits()
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		ti.kind, ti.bits = kUint, t.Bits()
	case reflect.Float32, reflect.Float64:
		ti.kind, ti.bits = kFloat, t.Bits()
	default:
		ti.kind = kOther
	}
	return ti
}

// structFields returns the JSON keys of struct type t with their field
// types, resolved as encoding/json resolves them (internal/jsontag).
func structFields(t reflect.Type) map[string]*ref {
	fields := jsontag.Fields(t)
	out := make(map[string]*ref, len(fields))
	for _, f := range fields {
		out[f.Name] = &ref{t: f.Type}
	}
	return out
}

// caseVariant returns the field of ti that key names when case is
// ignored, for the message of an unknown key.
func (ti *typeInfo) caseVariant(key string) string {
	best := ""
	for name := range ti.fields {
		if strings.EqualFold(name, key) && (best == "" || name < best) {
			best = name
		}
	}
	return best
}
