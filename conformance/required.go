package conformance

import (
	"fmt"
	"reflect"
	"strconv"
	"strings"

	"github.com/kubesem/kubesem/field"
	"github.com/kubesem/kubesem/internal/apijson"
	"github.com/kubesem/kubesem/internal/jsontag"
)

// Required inputs are declared once, by the request's own Go types: a
// field of a struct declared in this package (a decision's input, or an
// object of the request's own shape inside it) is required when its type
// is not a pointer and its json tag has no omitempty — exactly the fields
// `kubesem decisions -v` prints without "?" ([Shape]). A request that
// leaves one out, or gives it as null, is refused with a Required error
// naming the key (`input.replicas`), rather than answered from the zero
// value. Objects of the API's own shape (a Deployment, a Pod) are read as
// the API server reads them: an absent field is its default there, and
// the library's validation names what the API server would refuse.
var thisPackage = reflect.TypeFor[Decision]().PkgPath()

// requireKeys checks that raw, the JSON of a value of type t, holds every
// required key of t's own-shape structs, at every depth; path names raw.
// raw has already been decoded into t without error; an absent input
// (raw empty) is read as {}.
func requireKeys(t reflect.Type, raw []byte, path string) error {
	if len(raw) == 0 {
		raw = []byte("{}")
	}
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.Slice, reflect.Array:
		if !ownShape(t.Elem()) {
			return nil
		}
		elems, ok, err := apijson.Elements(raw)
		if err != nil || !ok {
			return nil // null, or a List object: decoding has judged it
		}
		for i, e := range elems {
			if err := requireKeys(t.Elem(), e, path+"["+strconv.Itoa(i)+"]"); err != nil {
				return err
			}
		}
	case reflect.Map:
		if !ownShape(t.Elem()) {
			return nil
		}
		members, ok, err := apijson.Members(raw)
		if err != nil || !ok {
			return nil
		}
		for _, m := range members {
			if err := requireKeys(t.Elem(), m.Value, join(path, apijson.Clip(m.Key))); err != nil {
				return err
			}
		}
	case reflect.Struct:
		if t.PkgPath() != thisPackage {
			return nil
		}
		members, ok, err := apijson.Members(raw)
		if err != nil {
			return nil
		}
		present := map[string][]byte{}
		if ok {
			for _, m := range members {
				if v := strings.TrimSpace(string(m.Value)); v != "null" {
					present[m.Key] = m.Value
				}
			}
		}
		for _, f := range requiredFields(t) {
			v, ok := present[f.key]
			if !ok && f.required {
				return field.New(join(path, f.key), "", fmt.Errorf("%w: the input has no %q", field.ErrRequired, f.key))
			}
			if ok {
				if err := requireKeys(f.typ, v, join(path, f.key)); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// ownShape reports whether t (through pointers, slices and maps) holds a
// struct declared in this package.
func ownShape(t reflect.Type) bool {
	for {
		switch t.Kind() {
		case reflect.Pointer, reflect.Slice, reflect.Array, reflect.Map:
			t = t.Elem()
		case reflect.Struct:
			return t.PkgPath() == thisPackage
		default:
			return false
		}
	}
}

type keyField struct {
	key      string
	typ      reflect.Type
	required bool
}

// requiredFields lists the JSON keys of struct t with, for each, whether
// the rule above makes it required.
func requiredFields(t reflect.Type) []keyField {
	var out []keyField
	for _, f := range jsontag.Fields(t) {
		optional := f.Optional() || f.Type.Kind() == reflect.Pointer
		out = append(out, keyField{key: f.Name, typ: f.Type, required: !optional})
	}
	return out
}

func join(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}
