package plan

import (
	"bytes"
	"encoding"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/kubesem/kubesem/internal/jsontag"
)

var (
	durationType  = reflect.TypeFor[time.Duration]()
	timeType      = reflect.TypeFor[time.Time]()
	marshalerType = reflect.TypeFor[json.Marshaler]()
	textType      = reflect.TypeFor[encoding.TextMarshaler]()
)

// Encode returns v as JSON the way every kubesem output is written: struct
// fields named and omitted by their json tags (omitempty, omitzero, "-",
// embedded structs inlined, a name two fields claim resolved as
// encoding/json resolves it), in declaration order; time.Duration as a Go
// duration string ("1m30s"); time.Time as RFC 3339 with fractional seconds
// when present, in UTC; nil slices as [] and nil maps as {} unless omitted;
// map keys sorted. A value below the top that implements json.Marshaler
// encodes itself; the top value's own MarshalJSON is not called, so a type
// may implement MarshalJSON with Encode.
//
// It returns an error for values JSON cannot hold (channels, functions,
// complex numbers, NaN and infinite floats).
func Encode(v any) ([]byte, error) {
	var b bytes.Buffer
	if err := encode(&b, reflect.ValueOf(v), true); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

func encode(b *bytes.Buffer, v reflect.Value, top bool) error {
	if !v.IsValid() {
		b.WriteString("null")
		return nil
	}
	t := v.Type()
	switch {
	case t == durationType:
		writeString(b, time.Duration(v.Int()).String())
		return nil
	case t == timeType:
		tm := v.Interface().(time.Time)
		writeString(b, tm.UTC().Format(time.RFC3339Nano))
		return nil
	case !top && t.Implements(marshalerType) && !(t.Kind() == reflect.Pointer && v.IsNil()):
		raw, err := v.Interface().(json.Marshaler).MarshalJSON()
		if err != nil {
			return err
		}
		return json.Compact(b, raw)
	}
	switch t.Kind() {
	case reflect.Pointer, reflect.Interface:
		if v.IsNil() {
			b.WriteString("null")
			return nil
		}
		return encode(b, v.Elem(), false)
	case reflect.Bool:
		b.WriteString(strconv.FormatBool(v.Bool()))
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		b.WriteString(strconv.FormatInt(v.Int(), 10))
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		b.WriteString(strconv.FormatUint(v.Uint(), 10))
	case reflect.Float32, reflect.Float64:
		raw, err := json.Marshal(v.Interface())
		if err != nil {
			return err
		}
		b.Write(raw)
	case reflect.String:
		writeString(b, v.String())
	case reflect.Slice, reflect.Array:
		b.WriteByte('[')
		for i := range v.Len() {
			if i > 0 {
				b.WriteByte(',')
			}
			if err := encode(b, v.Index(i), false); err != nil {
				return err
			}
		}
		b.WriteByte(']')
	case reflect.Map:
		return encodeMap(b, v)
	case reflect.Struct:
		return encodeStruct(b, v)
	default:
		return fmt.Errorf("plan: cannot encode %s as JSON", t)
	}
	return nil
}

func encodeMap(b *bytes.Buffer, v reflect.Value) error {
	type entry struct {
		key string
		val reflect.Value
	}
	entries := make([]entry, 0, v.Len())
	for it := v.MapRange(); it.Next(); {
		k, err := mapKey(it.Key())
		if err != nil {
			return err
		}
		entries = append(entries, entry{k, it.Value()})
	}
	slices.SortFunc(entries, func(x, y entry) int { return strings.Compare(x.key, y.key) })
	b.WriteByte('{')
	for i, e := range entries {
		if i > 0 {
			b.WriteByte(',')
		}
		writeString(b, e.key)
		b.WriteByte(':')
		if err := encode(b, e.val, false); err != nil {
			return err
		}
	}
	b.WriteByte('}')
	return nil
}

func mapKey(k reflect.Value) (string, error) {
	if k.Kind() == reflect.String {
		return k.String(), nil
	}
	if k.Type().Implements(textType) {
		raw, err := k.Interface().(encoding.TextMarshaler).MarshalText()
		return string(raw), err
	}
	switch k.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return strconv.FormatInt(k.Int(), 10), nil
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return strconv.FormatUint(k.Uint(), 10), nil
	}
	return "", fmt.Errorf("plan: cannot encode map key of type %s", k.Type())
}

// encodeStruct writes v's JSON members (internal/jsontag: named by their
// json tags, untagged embedded structs inlined, those behind a nil pointer
// left out).
func encodeStruct(b *bytes.Buffer, v reflect.Value) error {
	b.WriteByte('{')
	first := true
	fields := jsontag.Fields(v.Type())
	for i := range fields {
		f := &fields[i]
		fv, ok := f.Value(v)
		if !ok || f.Optional() && omitted(fv, f.OmitEmpty, f.OmitZero) {
			continue
		}
		if !first {
			b.WriteByte(',')
		}
		first = false
		writeString(b, f.Name)
		b.WriteByte(':')
		if (fv.Kind() == reflect.Slice) && fv.IsNil() {
			b.WriteString("[]")
			continue
		}
		if fv.Kind() == reflect.Map && fv.IsNil() {
			b.WriteString("{}")
			continue
		}
		if err := encode(b, fv, false); err != nil {
			return err
		}
	}
	b.WriteByte('}')
	return nil
}

// omitted reports whether v is left out under the omitempty and omitzero
// options.
func omitted(v reflect.Value, omitEmpty, omitZero bool) bool {
	if omitEmpty {
		switch v.Kind() {
		case reflect.Array, reflect.Map, reflect.Slice, reflect.String:
			if v.Len() == 0 {
				return true
			}
		case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
			reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
			reflect.Float32, reflect.Float64, reflect.Interface, reflect.Pointer:
			if v.IsZero() {
				return true
			}
		}
	}
	if omitZero {
		if z, ok := v.Interface().(interface{ IsZero() bool }); ok {
			if v.Kind() == reflect.Pointer && v.IsNil() {
				return true
			}
			if z.IsZero() {
				return true
			}
		} else if v.IsZero() {
			return true
		}
	}
	return false
}

func writeString(b *bytes.Buffer, s string) {
	enc := json.NewEncoder(b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s)       // a string always encodes
	b.Truncate(b.Len() - 1) // drop Encode's newline
}
