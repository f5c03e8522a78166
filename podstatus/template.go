package podstatus

import (
	"bytes"
	"encoding/json"
	"reflect"
	"time"

	"github.com/kubesem/kubesem/internal/apijson"
	"github.com/kubesem/kubesem/internal/deepcopy"
	"github.com/kubesem/kubesem/internal/jsontag"
	"github.com/kubesem/kubesem/meta"
)

// Template is a pod template: the metadata and spec of the pods a workload
// creates.
//
// Only some fields are modelled, but a Template decoded from JSON keeps the
// rest of what it was given (env, resources, volumes, probes, fields added by
// later Kubernetes releases …) and writes it back in MarshalJSON, so that a
// created object carries the whole template. Every rule that compares or
// hashes templates (which ReplicaSet is new, whether a template changed)
// sees the unmodelled part too: a change anywhere in the template is a
// different template, never "no change" — read as the API server decodes it
// (see [Template.Comparable]: resources: {} is no resources, "0.5" CPU is
// "500m").
type Template struct {
	meta.ObjectMeta `json:"metadata"`
	Spec            Spec `json:"spec"`

	// rest is what the decoded JSON held besides the modelled fields, as
	// JSON values (map[string]any, []any, string, float64, bool); nil for a
	// template built in Go.
	rest deepcopy.Frozen[map[string]any]
	// norm is rest as the API server's decoding reads it (normal.go):
	// what comparisons and hashes see of the unmodelled part.
	norm deepcopy.Frozen[any]
}

// Comparable returns t as template comparisons see it: defaulted as the
// v1.36.3 API server defaults a Deployment's template (defaults.go;
// restartPolicy Always and terminationGracePeriodSeconds 30 among the
// modelled fields), and the unmodelled part read as its decoding reads it
// (null and zero scalars absent, empty lists, maps and value structs
// absent, quantities by value; see normal.go for exactly what is and is
// not normalised), not as it was spelt. Two templates upstream's
// EqualIgnoreHash compares equal after decoding compare equal here, field
// by field with nil and empty alike; the copy is for comparing and hashing
// only (MarshalJSON of it drops the unmodelled part).
//
// Source: upstream deployment_util.go EqualIgnoreHash (semantic DeepEqual of
// decoded objects), apimachinery resource.ParseQuantity (v1.36.3).
func (t *Template) Comparable() Template {
	c := *t
	if c.norm.Get() == nil {
		// Built in Go: its JSON is all there is to default.
		if b, err := json.Marshal(t); err == nil {
			if all, err := decodeNumbers(b); err == nil {
				c.norm = deepcopy.Freeze(normalised(all))
			}
		}
	}
	c.rest = deepcopy.Frozen[map[string]any]{}
	if c.Spec.RestartPolicy == "" {
		c.Spec.RestartPolicy = "Always"
	}
	if c.Spec.TerminationGracePeriodSeconds == nil {
		period := int64(30)
		c.Spec.TerminationGracePeriodSeconds = &period
	}
	return c
}

var templateFieldsType = reflect.TypeFor[templateFields]()

// templateFields is Template without its methods, for the encoding/json
// defaults.
type templateFields struct {
	meta.ObjectMeta `json:"metadata"`
	Spec            Spec `json:"spec"`
}

// UnmarshalJSON decodes the modelled fields as the API server reads them
// (keys case-sensitive, unknown fields do not fail, a repeated key does)
// and keeps every other field of the template.
func (t *Template) UnmarshalJSON(b []byte) error {
	var f templateFields
	if err := apijson.Unmarshal(b, &f); err != nil {
		return err
	}
	all, err := decodeNumbers(b)
	if err != nil {
		return err
	}
	rest, _ := residual(all, templateFieldsType).(map[string]any)
	again, _ := decodeNumbers(b) // rest shares values with all
	*t = Template{ObjectMeta: f.ObjectMeta, Spec: f.Spec, rest: deepcopy.Freeze(rest), norm: deepcopy.Freeze(normalised(again))}
	return nil
}

// MarshalJSON writes the modelled fields merged into the rest of the
// template as it was decoded.
func (t Template) MarshalJSON() ([]byte, error) {
	b, err := json.Marshal(templateFields{t.ObjectMeta, t.Spec})
	if err != nil || t.rest.Get() == nil {
		return b, err
	}
	modelled, err := decodeNumbers(b)
	if err != nil {
		return nil, err
	}
	return json.Marshal(merge(modelled, t.rest.Get()))
}

// decodeNumbers decodes a JSON value keeping numbers as json.Number, so
// that an int64 such as terminationGracePeriodSeconds survives the merge
// exactly.
func decodeNumbers(b []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	return v, nil
}

// HasUnmodelled reports whether t carries fields kubesem does not model.
func (t *Template) HasUnmodelled() bool { return len(t.rest.Get()) > 0 }

var (
	timeT        = reflect.TypeFor[time.Time]()
	unmarshalerT = reflect.TypeFor[json.Unmarshaler]()
)

// residual returns the part of the JSON value v that the Go type t does not
// model: keys t has no field for, recursively; nil when there is none.
// Nulls are dropped (encoding/json decodes them as absent).
func residual(v any, t reflect.Type) any {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if v == nil || t == timeT || reflect.PointerTo(t).Implements(unmarshalerT) {
		return nil
	}
	switch t.Kind() {
	case reflect.Struct:
		obj, ok := v.(map[string]any)
		if !ok {
			return nil
		}
		fields := fieldTypes(t)
		out := map[string]any{}
		for k, x := range obj {
			if x == nil {
				continue
			}
			ft, ok := fields[k]
			if !ok {
				out[k] = x
				continue
			}
			if r := residual(x, ft); r != nil {
				out[k] = r
			}
		}
		if len(out) == 0 {
			return nil
		}
		return out
	case reflect.Slice, reflect.Array:
		list, ok := v.([]any)
		if !ok {
			return nil
		}
		out := make([]any, len(list))
		found := false
		for i, x := range list {
			if r := residual(x, t.Elem()); r != nil {
				out[i], found = r, true
			}
		}
		if !found {
			return nil
		}
		return out
	case reflect.Map:
		obj, ok := v.(map[string]any)
		if !ok {
			return nil
		}
		out := map[string]any{}
		for k, x := range obj {
			if r := residual(x, t.Elem()); r != nil {
				out[k] = r
			}
		}
		if len(out) == 0 {
			return nil
		}
		return out
	}
	return nil
}

// fieldTypes maps the JSON keys of struct type t (embedded structs
// flattened, internal/jsontag) to their field types.
func fieldTypes(t reflect.Type) map[string]reflect.Type {
	fields := jsontag.Fields(t)
	out := make(map[string]reflect.Type, len(fields))
	for _, f := range fields {
		out[f.Name] = f.Type
	}
	return out
}

// merge returns the JSON value modelled with rest's values added where
// modelled has none: objects key by key, lists index by index (rest's
// entries beyond modelled's length are dropped, as the list was changed).
func merge(modelled, rest any) any {
	switch m := modelled.(type) {
	case map[string]any:
		r, ok := rest.(map[string]any)
		if !ok {
			return m
		}
		out := make(map[string]any, len(m)+len(r))
		for k, v := range r {
			out[k] = v
		}
		for k, v := range m {
			if rv, ok := r[k]; ok {
				out[k] = merge(v, rv)
			} else {
				out[k] = v
			}
		}
		return out
	case []any:
		r, ok := rest.([]any)
		if !ok {
			return m
		}
		out := make([]any, len(m))
		for i, v := range m {
			if i < len(r) && r[i] != nil {
				out[i] = merge(v, r[i])
			} else {
				out[i] = v
			}
		}
		return out
	case nil:
		return rest
	}
	return modelled
}
