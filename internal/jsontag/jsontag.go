// Package jsontag lists the members of a struct type's JSON object the
// way encoding/json names them, once for every kubesem walk over struct
// fields: the canonical encoder (plan.Encode), the pod template's
// unmodelled-field split (podstatus), the decoder (internal/apijson) and
// the conformance registry's shapes, schemas, required keys and error
// paths.
//
// The rules are encoding/json's (Go 1.26):
//
//   - An exported field is a member, named by its json tag or, without
//     one, by its Go name. A field tagged "-" is not a member; a tag "-,"
//     names the member "-". A tag name holding characters encoding/json
//     refuses counts as no tag name.
//   - An embedded struct (or pointer to one) without a tag name lends its
//     members, one level deeper, even when its type is unexported. An
//     embedded field with a tag name, or of a non-struct type, is an
//     ordinary field (ignored when unexported).
//   - Of several members with one name, the shallowest wins; at equal
//     depth a tagged one wins over untagged ones; a tie hides the name.
//   - Members come in declaration order, an embedded struct's members in
//     place of the field that embeds it.
package jsontag

import (
	"reflect"
	"strings"
	"sync"
	"unicode"
)

// Field is one member of a struct type's JSON object.
type Field struct {
	// Name is the member's key.
	Name string
	// Index is the field's index sequence in the struct type, as
	// reflect.Type.FieldByIndex and reflect.Value.FieldByIndexErr take it.
	Index []int
	// Type is the field's Go type.
	Type reflect.Type
	// Tagged is whether Name comes from the json tag.
	Tagged bool
	// OmitEmpty and OmitZero report the tag's omitempty and omitzero
	// options.
	OmitEmpty, OmitZero bool
}

// Optional reports whether the encoder may leave the member out: its tag
// has omitempty or omitzero.
func (f *Field) Optional() bool { return f.OmitEmpty || f.OmitZero }

// Value returns the member's value in v, a value of the struct type whose
// Fields f is one of; false when an embedded struct pointer on the way is
// nil (encoding/json then leaves the member out). It allocates nothing.
func (f *Field) Value(v reflect.Value) (reflect.Value, bool) {
	for i, x := range f.Index {
		if i > 0 && v.Kind() == reflect.Pointer {
			if v.IsNil() {
				return reflect.Value{}, false
			}
			v = v.Elem()
		}
		v = v.Field(x)
	}
	return v, true
}

// Fields returns the members of struct type t's JSON object, in order (see
// the package doc for the rules); nil when t is not a struct.
//
// The slice is computed once per type and shared: callers must not modify
// it or its Index slices.
func Fields(t reflect.Type) []Field {
	if t == nil || t.Kind() != reflect.Struct {
		return nil
	}
	if v, ok := cache.Load(t); ok {
		return v.([]Field)
	}
	v, _ := cache.LoadOrStore(t, resolve(t))
	return v.([]Field)
}

// cache holds Fields' answer per type. It holds facts about Go types only
// (as encoding/json's own cache does), never values, so it cannot change
// an answer; it keeps an encoder walking many values of one type from
// recomputing them.
var cache sync.Map

// candidate is a field that may become a member, before names conflict.
type candidate struct {
	Field
	depth int
}

// resolve computes Fields(t).
func resolve(t reflect.Type) []Field {
	var all []candidate
	collect(t, nil, 0, map[reflect.Type]bool{}, &all)

	// For each name, the depth and tagging of the member that wins.
	type best struct {
		depth         int
		count, tagged int
	}
	names := map[string]*best{}
	for _, c := range all {
		b := names[c.Name]
		if b == nil || c.depth < b.depth {
			b = &best{depth: c.depth}
			names[c.Name] = b
		}
		if c.depth == b.depth {
			b.count++
			if c.Tagged {
				b.tagged++
			}
		}
	}
	out := make([]Field, 0, len(all))
	for _, c := range all {
		b := names[c.Name]
		switch {
		case c.depth != b.depth:
		case b.count == 1, b.tagged == 1 && c.Tagged:
			out = append(out, c.Field)
		}
	}
	return out
}

// collect appends t's candidates in declaration order, descending into
// untagged embedded structs. onPath holds the struct types being walked,
// so that a type embedding itself (through a pointer) ends the descent:
// its members there would be deeper than the same members already found.
func collect(t reflect.Type, index []int, depth int, onPath map[reflect.Type]bool, all *[]candidate) {
	if onPath[t] {
		return
	}
	onPath[t] = true
	defer delete(onPath, t)
	for i := range t.NumField() {
		sf := t.Field(i)
		ft := sf.Type
		if ft.Name() == "" && ft.Kind() == reflect.Pointer {
			ft = ft.Elem()
		}
		if sf.Anonymous {
			if !sf.IsExported() && ft.Kind() != reflect.Struct {
				continue
			}
		} else if !sf.IsExported() {
			continue
		}
		tag := sf.Tag.Get("json")
		if tag == "-" {
			continue
		}
		name, opts, _ := strings.Cut(tag, ",")
		if !validName(name) {
			name = ""
		}
		at := append(index[:len(index):len(index)], i)
		if name == "" && sf.Anonymous && ft.Kind() == reflect.Struct {
			collect(ft, at, depth+1, onPath, all)
			continue
		}
		f := Field{Name: name, Index: at, Type: sf.Type, Tagged: name != ""}
		if name == "" {
			f.Name = sf.Name
		}
		for opt := range strings.SplitSeq(opts, ",") {
			switch opt {
			case "omitempty":
				f.OmitEmpty = true
			case "omitzero":
				f.OmitZero = true
			}
		}
		*all = append(*all, candidate{Field: f, depth: depth})
	}
}

// validName reports whether a tag name is one encoding/json accepts:
// letters, digits, and the punctuation it allows (not quotes, backslash
// or comma).
func validName(s string) bool {
	if s == "" {
		return false
	}
	for _, c := range s {
		switch {
		case strings.ContainsRune("!#$%&()*+-./:;<=>?@[]^_{|}~ ", c):
		case !unicode.IsLetter(c) && !unicode.IsDigit(c):
			return false
		}
	}
	return true
}
