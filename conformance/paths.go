package conformance

import (
	"encoding/json"
	"errors"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/kubesem/kubesem/daemonset"
	"github.com/kubesem/kubesem/field"
	"github.com/kubesem/kubesem/intstr"
	"github.com/kubesem/kubesem/node"
	"github.com/kubesem/kubesem/pdb"
	"github.com/kubesem/kubesem/statefulset"
)

// jsonKeys returns the JSON keys of struct type t's fields (embedded
// structs contribute their own keys), with each key's field type.
func jsonKeys(t reflect.Type) map[string]reflect.Type {
	keys := map[string]reflect.Type{}
	if t.Kind() != reflect.Struct {
		return keys
	}
	for i := range t.NumField() {
		f := t.Field(i)
		tag := f.Tag.Get("json")
		name, _, _ := strings.Cut(tag, ",")
		if name == "-" {
			continue
		}
		if f.Anonymous && name == "" {
			ft := f.Type
			if ft.Kind() == reflect.Pointer {
				ft = ft.Elem()
			}
			for k, v := range jsonKeys(ft) {
				keys[k] = v
			}
			continue
		}
		if !f.IsExported() {
			continue
		}
		if name == "" {
			name = f.Name
		}
		keys[name] = f.Type
	}
	return keys
}

// opaque reports types whose JSON is decoded by their own UnmarshalJSON or
// is a scalar: the path walk stops there.
func opaque(t reflect.Type) bool {
	if t == reflect.TypeFor[time.Time]() || t == reflect.TypeFor[intstr.Value]() || t == reflect.TypeFor[time.Duration]() {
		return true
	}
	return reflect.PointerTo(t).Implements(reflect.TypeFor[json.Unmarshaler]()) && !fieldsJSON[t]
}

// fieldsJSON lists the types whose UnmarshalJSON reads the struct's own
// fields as encoding/json does and only adds an API form next to them (a
// statefulset.Pod also reads spec.volumes; a claim, revision, lease or
// controller its metadata and spec): their keys are their fields'.
var fieldsJSON = map[reflect.Type]bool{
	reflect.TypeFor[statefulset.Claim]():    true,
	reflect.TypeFor[statefulset.Revision](): true,
	reflect.TypeFor[daemonset.Revision]():   true,
	reflect.TypeFor[node.Lease]():           true,
	reflect.TypeFor[pdb.Controller]():       true,
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

// unknownField returns the path from the top of raw, decoded as t, to the
// first key t does not have ("deployment.spec.bogus"), or "" when there is
// none. encoding/json names only the key itself.
func unknownField(raw json.RawMessage, t reflect.Type, name string) string {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if opaque(t) {
		return ""
	}
	switch t.Kind() {
	case reflect.Struct:
		var obj map[string]json.RawMessage
		if json.Unmarshal(raw, &obj) != nil {
			return ""
		}
		keys := jsonKeys(t)
		// Walk keys in a fixed order so the answer is deterministic.
		names := make([]string, 0, len(obj))
		for k := range obj {
			names = append(names, k)
		}
		slices.Sort(names)
		for _, k := range names {
			ft, ok := matchKey(keys, k)
			if !ok {
				if k == name || name == "" {
					return k
				}
				continue
			}
			if p := unknownField(obj[k], ft, name); p != "" {
				return joinPath(k, p)
			}
		}
	case reflect.Slice, reflect.Array:
		var elems []json.RawMessage
		if json.Unmarshal(raw, &elems) != nil {
			return ""
		}
		for i, e := range elems {
			if p := unknownField(e, t.Elem(), name); p != "" {
				return joinPath("["+strconv.Itoa(i)+"]", p)
			}
		}
	case reflect.Map:
		var obj map[string]json.RawMessage
		if json.Unmarshal(raw, &obj) != nil {
			return ""
		}
		names := make([]string, 0, len(obj))
		for k := range obj {
			names = append(names, k)
		}
		slices.Sort(names)
		for _, k := range names {
			if p := unknownField(obj[k], t.Elem(), name); p != "" {
				return joinPath(k, p)
			}
		}
	}
	return ""
}

// matchKey finds k among keys as encoding/json does: exactly, else
// case-insensitively.
func matchKey(keys map[string]reflect.Type, k string) (reflect.Type, bool) {
	if t, ok := keys[k]; ok {
		return t, true
	}
	for name, t := range keys {
		if strings.EqualFold(name, k) {
			return t, true
		}
	}
	return nil, false
}

func joinPath(a, b string) string {
	if strings.HasPrefix(b, "[") {
		return a + b
	}
	return a + "." + b
}
