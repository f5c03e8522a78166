package conformance

import (
	"encoding/json"
	"reflect"
	"sort"
	"strings"
	"time"

	"github.com/kubesem/kubesem/internal/jsontag"
	"github.com/kubesem/kubesem/intstr"
	"github.com/kubesem/kubesem/node"
	"github.com/kubesem/kubesem/podstatus"
)

// Schemas returns the JSON Schema (draft 2020-12) of d's input, options and
// output, generated from the Go types the decision decodes and encodes.
// Input schemas are strict about the input's own keys (additionalProperties
// false) and open inside the Kubernetes objects they hold, as decide reads
// them; output schemas describe what kubesem writes (no key is required:
// vectors list only the keys they check). An input schema lists as
// required, and not nullable, the keys decide refuses to go without (the
// request's own keys declared without omitempty: see [requireKeys]).
func Schemas(d Decision) (input, options, output map[string]any) {
	return schemaDoc(d.Name+" input", d.Input, true, true), schemaDoc(d.Name+" options", d.Options, true, false), schemaDoc(d.Name+" output", d.Output, false, false)
}

func schemaDoc(title string, t reflect.Type, strictTop, input bool) map[string]any {
	g := &schemaGen{defs: map[string]any{}, names: map[reflect.Type]string{}, input: input}
	root := g.schema(t, strictTop)
	doc := map[string]any{"$schema": "https://json-schema.org/draft/2020-12/schema", "title": title}
	for k, v := range root {
		doc[k] = v
	}
	if len(g.defs) > 0 {
		doc["$defs"] = g.defs
	}
	return doc
}

type schemaGen struct {
	defs  map[string]any
	names map[reflect.Type]string
	input bool // list the request's required keys
}

var (
	durationT   = reflect.TypeFor[time.Duration]()
	intstrT     = reflect.TypeFor[intstr.Value]()
	templateT   = reflect.TypeFor[podstatus.Template]()
	rawT        = reflect.TypeFor[json.RawMessage]()
	savedLeaseT = reflect.TypeFor[node.SavedLease]()
	// savedLeaseForm is node.SavedLease's JSON form, a Lease's.
	savedLeaseForm = reflect.TypeFor[struct {
		Metadata struct {
			Name string `json:"name,omitempty"`
		} `json:"metadata"`
		Spec struct {
			RenewTime *time.Time `json:"renewTime,omitempty"`
		} `json:"spec"`
	}]()
	marshalerT   = reflect.TypeFor[json.Marshaler]()
	unmarshalerT = reflect.TypeFor[json.Unmarshaler]()
)

// schema returns t's schema; strict says whether t, a struct, admits keys
// it does not declare. Every value may be null: encoding/json reads null as
// "leave the zero value", and a vector's want uses null for "absent".
func (g *schemaGen) schema(t reflect.Type, strict bool) map[string]any {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	s := g.plain(t, strict)
	return nullable(s)
}

// nullable admits null besides what s admits.
func nullable(s map[string]any) map[string]any {
	switch tv := s["type"].(type) {
	case string:
		s["type"] = []any{tv, "null"}
	case []any:
		s["type"] = append(tv, "null")
	default:
		if len(s) == 0 {
			return s
		}
		s = map[string]any{"anyOf": []any{s, map[string]any{"type": "null"}}}
	}
	return s
}

func (g *schemaGen) plain(t reflect.Type, strict bool) map[string]any {
	switch t {
	case timeType:
		return map[string]any{"type": "string", "format": "date-time"}
	case durationT:
		return map[string]any{"type": []any{"string", "integer"}, "description": "a Go duration (\"1m30s\") or nanoseconds"}
	case intstrT:
		return map[string]any{"type": []any{"integer", "string"}, "description": "an integer or a percentage (\"25%\")"}
	case templateT:
		return map[string]any{"type": "object", "description": "a pod template, as the API writes it; every field is kept"}
	case rawT:
		return map[string]any{}
	case savedLeaseT:
		return g.def(t, func() map[string]any { return g.object(savedLeaseForm, false) })
	}
	// Types with their own JSON form: any value, except structs written
	// with plan.Encode (Plans), whose form follows their fields.
	custom := reflect.PointerTo(t).Implements(unmarshalerT) || t.Implements(marshalerT)
	if custom && (t.Kind() != reflect.Struct || reflect.PointerTo(t).Implements(unmarshalerT)) {
		return map[string]any{}
	}
	switch t.Kind() {
	case reflect.Bool:
		return map[string]any{"type": "boolean"}
	case reflect.String:
		return map[string]any{"type": "string"}
	case reflect.Int8, reflect.Int16, reflect.Int32:
		return map[string]any{"type": "integer", "minimum": -(1 << (t.Bits() - 1)), "maximum": 1<<(t.Bits()-1) - 1}
	case reflect.Int, reflect.Int64, reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return map[string]any{"type": "integer"}
	case reflect.Float32, reflect.Float64:
		return map[string]any{"type": "number"}
	case reflect.Slice, reflect.Array:
		return map[string]any{"type": "array", "items": g.schema(t.Elem(), false)}
	case reflect.Map:
		return map[string]any{"type": "object", "additionalProperties": g.schema(t.Elem(), false)}
	case reflect.Interface:
		return map[string]any{}
	case reflect.Struct:
		if t.Name() == "" || strict {
			return g.object(t, strict)
		}
		return g.def(t, func() map[string]any { return g.object(t, false) })
	}
	return map[string]any{}
}

// def returns a reference to the definition of the named type t, which
// build gives the first time t is met.
func (g *schemaGen) def(t reflect.Type, build func() map[string]any) map[string]any {
	name, ok := g.names[t]
	if !ok {
		name = strings.ReplaceAll(t.String(), ".", "_")
		g.names[t] = name
		g.defs[name] = map[string]any{} // placeholder for recursion
		g.defs[name] = build()
	}
	return map[string]any{"$ref": "#/$defs/" + name}
}

// object is a struct's schema: its fields by JSON key, embedded structs
// flattened.
func (g *schemaGen) object(t reflect.Type, strict bool) map[string]any {
	props := map[string]any{}
	g.fields(t, props)
	s := map[string]any{"type": "object", "properties": props}
	if strict {
		s["additionalProperties"] = false
	}
	if g.input && t.PkgPath() == thisPackage {
		var required []any
		for _, f := range requiredFields(t) {
			if f.required {
				required = append(required, f.key)
				ft := f.typ
				for ft.Kind() == reflect.Pointer {
					ft = ft.Elem()
				}
				props[f.key] = g.plain(ft, false)
			}
		}
		if len(required) > 0 {
			s["required"] = required
		}
	}
	return s
}

func (g *schemaGen) fields(t reflect.Type, props map[string]any) {
	for _, f := range jsontag.Fields(t) {
		props[f.Name] = g.schema(f.Type, false)
	}
}

// schemaKeys returns m's keys, sorted.
func schemaKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
