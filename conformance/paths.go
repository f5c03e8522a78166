package conformance

import (
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"time"

	"github.com/kubesem/kubesem/field"
	"github.com/kubesem/kubesem/internal/jsontag"
	"github.com/kubesem/kubesem/intstr"
)

// jsonKeys returns the JSON keys of struct type t's fields (embedded
// structs contribute their own keys, internal/jsontag), with each key's
// field type; none when t is not a struct.
func jsonKeys(t reflect.Type) map[string]reflect.Type {
	fields := jsontag.Fields(t)
	keys := make(map[string]reflect.Type, len(fields))
	for _, f := range fields {
		keys[f.Name] = f.Type
	}
	return keys
}

// opaque reports types whose JSON is decoded by their own UnmarshalJSON or
// is a scalar: the path walk stops there.
func opaque(t reflect.Type) bool {
	if t == reflect.TypeFor[time.Time]() || t == reflect.TypeFor[intstr.Value]() || t == reflect.TypeFor[time.Duration]() {
		return true
	}
	return reflect.PointerTo(t).Implements(reflect.TypeFor[json.Unmarshaler]())
}

// objectKey returns the JSON key of In's one object field (a struct, or a
// pointer to one, that is not opaque), or "" when In has none or several.
// A rule's error names a path inside that object ("spec.replicas"); the
// decision's error names it from the input ("deployment.spec.replicas").
func objectKey(in reflect.Type) string {
	var structs, objects []string
	for k, t := range jsonKeys(in) {
		if t.Kind() == reflect.Pointer {
			t = t.Elem()
		}
		if t.Kind() != reflect.Struct || opaque(t) {
			continue
		}
		structs = append(structs, k)
		if _, ok := jsonKeys(t)["metadata"]; ok {
			objects = append(objects, k)
		}
	}
	switch {
	case len(structs) == 1:
		return structs[0]
	case len(objects) == 1:
		// One API object among other structs (a Job and its backoff record).
		return objects[0]
	}
	return ""
}

// inputPath places a rule's error path under the input key of the object
// it names: paths that already start with one of In's keys are kept.
func inputPath(in reflect.Type, err error) error {
	var fe *field.Error
	if !errors.As(err, &fe) || fe != err {
		return err
	}
	first := fe.Path
	if i := strings.IndexAny(first, ".["); i >= 0 {
		first = first[:i]
	}
	keys := jsonKeys(in)
	if _, ok := keys[first]; ok {
		return err
	}
	return field.Under(objectKey(in), err)
}
