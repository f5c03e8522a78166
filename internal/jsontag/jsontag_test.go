package jsontag_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"testing"

	"pgregory.net/rapid"

	"github.com/kubesem/kubesem/internal/jsontag"
)

type Inner struct {
	A int `json:"a"`
	B int
}

type inner struct{ C int }

type Named int

type named int

type Self struct {
	*Self
	S int `json:"s"`
}

type Deep struct{ Inner }

type tableCase struct {
	name   string
	reason string
	v      any
	want   []string // "name@i.j" (the index), "name?@i" for an optional member
}

var tableCases = []tableCase{
	{"plain", "exported fields by tag or Go name, in declaration order", struct {
		X int `json:"x"`
		Y int
	}{}, []string{"x@0", "Y@1"}},
	{"dash", `"-" is no member; "-," names the member "-"`, struct {
		X int `json:"-"`
		Y int `json:"-,"`
	}{}, []string{"-@1"}},
	{"unexported", "unexported fields are no members", struct {
		x int
		y int
		Z int
	}{}, []string{"Z@2"}},
	{"options", "omitempty and omitzero make a member optional; other options do not", struct {
		E int `json:"e,omitempty"`
		Z int `json:"z,omitzero"`
		S int `json:"s,string"`
		N int `json:",omitempty"`
	}{}, []string{"e?@0", "z?@1", "s@2", "N?@3"}},
	{"invalid tag name", "a name with a quote is no tag name: the Go name stands", struct {
		Q int `json:"a'b"`
		U int `json:"ünï cødé"`
	}{}, []string{"Q@0", "ünï cødé@1"}},
	{"embedded", "an untagged embedded struct lends its members in place", struct {
		X int
		Inner
		Y int
	}{}, []string{"X@0", "a@1.0", "B@1.1", "Y@2"}},
	{"embedded pointer", "a pointer to a struct lends too", struct{ *Inner }{}, []string{"a@0.0", "B@0.1"}},
	{"embedded unexported", "an unexported embedded struct lends its exported members", struct{ inner }{}, []string{"C@0.0"}},
	{"embedded tagged", "an embedded struct with a tag name is one member", struct {
		Inner `json:"in"`
	}{}, []string{"in@0"}},
	{"embedded non-struct", "an exported embedded non-struct is a member by its type name; an unexported one is none", struct {
		Named
		named
	}{}, []string{"Named@0"}},
	{"shallow wins", "the outer field hides the embedded one of the same name", struct {
		Inner
		B string
	}{}, []string{"a@0.0", "B@1"}},
	{"tagged wins", "at equal depth a tagged member hides an untagged one", struct {
		Inner
		Deep
		X int `json:"B"`
	}{}, []string{"a@0.0", "B@2"}},
	{"tie hides", "two untagged members at one depth hide each other", struct {
		Inner
		inner
		Other struct{ C int }
	}{}, []string{"a@0.0", "B@0.1", "C@1.0", "Other@2"}},
	{"tie hides tagged", "two tagged members at one depth hide each other", struct {
		Inner
		X struct {
			A int `json:"a"`
		}
	}{}, []string{"a@0.0", "B@0.1", "X@1"}},
	{"same type twice", "one struct type embedded at one depth twice hides all its members", struct {
		Inner
		Deep
		D2 struct{ Inner }
	}{}, []string{"a@0.0", "B@0.1", "D2@2"}},
	{"self", "a struct embedding itself ends the descent", Self{}, []string{"s@1"}},
}

func describe(fs []jsontag.Field) []string {
	var out []string
	for _, f := range fs {
		s := f.Name
		if f.Optional() {
			s += "?"
		}
		s += "@" + fmt.Sprint(f.Index[0])
		for _, i := range f.Index[1:] {
			s += "." + fmt.Sprint(i)
		}
		out = append(out, s)
	}
	return out
}

// TestFields: the members of each case's type, with their options and
// indexes.
func TestFields(t *testing.T) {
	t.Parallel()
	for _, c := range tableCases {
		if c.reason == "" {
			t.Fatalf("%s: no reason", c.name)
		}
		got := describe(jsontag.Fields(reflect.TypeOf(c.v)))
		if !slices.Equal(got, c.want) {
			t.Errorf("%s (%s): Fields = %q; want %q", c.name, c.reason, got, c.want)
		}
	}
}

// TestFieldsAgreeWithEncodingJSON: for each case, encoding/json writes
// exactly the members Fields lists, in its order.
func TestFieldsAgreeWithEncodingJSON(t *testing.T) {
	t.Parallel()
	for _, c := range tableCases {
		v := reflect.New(reflect.TypeOf(c.v)).Elem()
		fill(v, 2)
		if got, want := jsonKeys(t, v.Interface()), names(jsontag.Fields(v.Type())); !slices.Equal(got, want) {
			t.Errorf("%s: encoding/json writes %q; Fields names %q", c.name, got, want)
		}
	}
}

// TestValue: a member behind a nil embedded pointer has no value; one
// behind a set pointer reads through it.
func TestValue(t *testing.T) {
	t.Parallel()
	type T struct {
		*Inner
		X int
	}
	fields := jsontag.Fields(reflect.TypeFor[T]())
	if _, ok := fields[0].Value(reflect.ValueOf(T{})); ok {
		t.Errorf("Value(%s) behind a nil pointer: ok; want none", fields[0].Name)
	}
	v := reflect.ValueOf(T{Inner: &Inner{A: 7}, X: 8})
	if got, ok := fields[0].Value(v); !ok || got.Int() != 7 {
		t.Errorf("Value(%s) = %v, %v; want 7, true", fields[0].Name, got, ok)
	}
	if got, ok := fields[2].Value(v); !ok || got.Int() != 8 {
		t.Errorf("Value(%s) = %v, %v; want 8, true", fields[2].Name, got, ok)
	}
}

func TestFieldsOfNonStruct(t *testing.T) {
	t.Parallel()
	for _, typ := range []reflect.Type{nil, reflect.TypeFor[int](), reflect.TypeFor[*Inner](), reflect.TypeFor[[]Inner]()} {
		if got := jsontag.Fields(typ); got != nil {
			t.Errorf("Fields(%v) = %v; want nil", typ, got)
		}
	}
}

// TestFieldsProperty: for random struct types (tags, options, embedded
// structs and pointers to them, name clashes at every depth), the keys
// encoding/json writes for a value with every member set are Fields'
// names, in order, and each Index reaches a field of the member's type.
func TestFieldsProperty(t *testing.T) {
	t.Parallel()
	rapid.Check(t, func(t *rapid.T) {
		typ := genStruct(t, 3)
		v := reflect.New(typ).Elem()
		fill(v, 4)
		fields := jsontag.Fields(typ)
		if got, want := jsonKeys(t, v.Interface()), names(fields); !slices.Equal(got, want) {
			t.Fatalf("%v: encoding/json writes %q; Fields names %q", typ, got, want)
		}
		for _, f := range fields {
			fv, ok := f.Value(v)
			if !ok || fv.Type() != f.Type {
				t.Fatalf("%v: %s at %v: Value = %v, %v", typ, f.Name, f.Index, fv, ok)
			}
		}
	})
}

var tagChoices = []string{"", "", `json:"a"`, `json:"b"`, `json:"-"`, `json:"-,"`, `json:"a,omitempty"`, `json:",omitzero"`, `json:"x'y"`}

func genStruct(t *rapid.T, depth int) reflect.Type {
	n := rapid.IntRange(0, 4).Draw(t, "fields")
	var fs []reflect.StructField
	for i := range n {
		f := reflect.StructField{
			Name: []string{"A", "B", "C"}[rapid.IntRange(0, 2).Draw(t, "name")] + fmt.Sprint(i),
			Type: reflect.TypeFor[int](),
			Tag:  reflect.StructTag(rapid.SampledFrom(tagChoices).Draw(t, "tag")),
		}
		if depth > 0 && rapid.IntRange(0, 2).Draw(t, "embed") == 0 {
			f.Type = genStruct(t, depth-1)
			f.Anonymous = true
			if rapid.Bool().Draw(t, "pointer") {
				f.Type = reflect.PointerTo(f.Type)
			}
		}
		fs = append(fs, f)
	}
	return reflect.StructOf(fs)
}

// fill sets every int to 1 and allocates every struct pointer, so that no
// member is omitted.
func fill(v reflect.Value, depth int) {
	switch v.Kind() {
	case reflect.Int:
		if v.CanSet() {
			v.SetInt(1)
		}
	case reflect.Pointer:
		if depth > 0 && v.CanSet() && v.Type().Elem().Kind() == reflect.Struct {
			v.Set(reflect.New(v.Type().Elem()))
			fill(v.Elem(), depth-1)
		}
	case reflect.Struct:
		for i := range v.NumField() {
			fill(v.Field(i), depth)
		}
	}
}

func names(fs []jsontag.Field) []string {
	out := []string{}
	for _, f := range fs {
		out = append(out, f.Name)
	}
	return out
}

// jsonKeys returns the top-level keys encoding/json writes for v, in
// order.
func jsonKeys(t interface{ Fatalf(string, ...any) }, v any) []string {
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatalf("Marshal: %v", err)
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	keys := []string{}
	if _, err := dec.Token(); err != nil { // {
		t.Fatalf("%s: %v", b, err)
	}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			t.Fatalf("%s: %v", b, err)
		}
		keys = append(keys, tok.(string))
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			t.Fatalf("%s: %v", b, err)
		}
	}
	return keys
}
