package apijson

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/kubesem/kubesem/field"
)

type spec struct {
	Replicas *int32            `json:"replicas"`
	Labels   map[string]string `json:"labels"`
	Every    time.Duration     `json:"every"`
	Items    []item            `json:"items"`
	Any      any               `json:"any"`
	Raw      json.RawMessage   `json:"raw"`
}

type item struct {
	Name string `json:"name"`
	N    int32  `json:"n"`
	V    *val   `json:"v"`
}

type object struct {
	Spec spec `json:"spec"`
}

// val fails on anything but a JSON number, with a path-less field error,
// as intstr.Value does.
type val struct{ n int }

func (v *val) UnmarshalJSON(b []byte) error {
	if err := Unmarshal(b, &v.n); err != nil {
		return field.New("", string(b), field.ErrInvalid)
	}
	return nil
}

func wantField(t *testing.T, err error, path string, sentinel error) *field.Error {
	t.Helper()
	var fe *field.Error
	if !errors.As(err, &fe) || fe.Path != path || !errors.Is(err, sentinel) {
		t.Fatalf("error = %#v (%v); want %v at %q", fe, err, sentinel, path)
	}
	return fe
}

func TestCaseSensitive(t *testing.T) {
	t.Parallel()
	for _, doc := range []string{
		`{"spec":{"replicas":3,"Replicas":100}}`,
		`{"spec":{"Replicas":100,"replicas":3}}`,
		`{"spec":{"REPLICAS":100,"replicas":3}, "Spec": {"replicas": 7}}`,
	} {
		var o object
		if err := Unmarshal([]byte(doc), &o); err != nil {
			t.Fatalf("%s: %v", doc, err)
		}
		if o.Spec.Replicas == nil || *o.Spec.Replicas != 3 {
			t.Errorf("%s: replicas = %v; want 3 (case-variant keys dropped)", doc, o.Spec.Replicas)
		}
	}
	var o object
	if err := Unmarshal([]byte(`{"spec":{"Replicas":100}}`), &o); err != nil || o.Spec.Replicas != nil {
		t.Errorf("only a case variant: replicas = %v, %v; want unset", o.Spec.Replicas, err)
	}
	// An escaped key is its unescaped self, as for the API server.
	if err := Unmarshal([]byte(`{"spec":{"\u0072eplicas":5}}`), &o); err != nil || *o.Spec.Replicas != 5 {
		t.Errorf("escaped key: replicas = %v, %v; want 5", o.Spec.Replicas, err)
	}
	err := UnmarshalStrict([]byte(`{"spec":{"Replicas":100}}`), &o)
	fe := wantField(t, err, "spec.Replicas", field.ErrUnsupported)
	if !strings.Contains(fe.Error(), `"replicas"`) {
		t.Errorf("strict case variant message %q; want it to name replicas", fe.Error())
	}
	// StrictTop: strict at the top only.
	if err := Decode([]byte(`{"spec":{"Replicas":1}}`), &o, StrictTop); err != nil {
		t.Errorf("StrictTop below the top: %v", err)
	}
	wantField(t, Decode([]byte(`{"Spec":{}}`), &o, StrictTop), "Spec", field.ErrUnsupported)
}

func TestDuplicateKeys(t *testing.T) {
	t.Parallel()
	for doc, path := range map[string]string{
		`{"spec":{"replicas":3,"replicas":3}}`:                                 "spec.replicas",
		`{"spec":{"labels":{"a":"1","a":"2"}}}`:                                "spec.labels.a",
		`{"spec":{"items":[{},{"name":"x","name":"y"}]}}`:                      "spec.items[1].name",
		`{"spec":{"any":{"x":[{"k":1,"k":2}]}}}`:                               "spec.any.x[0].k",
		`{"spec":{"raw":{"k":1,"k":2}}}`:                                       "spec.raw.k",
		`{"spec":{"Replicas":{"k":1,"k":2}}}`:                                  "spec.Replicas.k",
		`{"spec":{"items":[{"v":{"k":1,"k":2}}]}}`:                             "spec.items[0].v.k",
		`{"spec":{"labels":{"a":"1","\u0061":"2"}}}`:                           "spec.labels.a",
		`{"a":1,"b":2,"c":3,"d":4,"e":5,"f":6,"g":7,"h":8,"i":9,"j":10,"e":0}`: "e",
	} {
		var o object
		wantField(t, Unmarshal([]byte(doc), &o), path, field.ErrDuplicate)
	}
}

func TestSyntax(t *testing.T) {
	t.Parallel()
	for doc, want := range map[string]string{
		"{\n  \"spec\": {\"replicas\": ,\n}}": "line 2, column 24",
		`{"spec":{}} {}`:                      "line 1, column 13",
		`{"spec":{}}x`:                        "line 1, column 12",
		`{"spec":`:                            "unexpected end",
		``:                                    "unexpected end",
		`{"spec":{"replicas":01}}`:            "line 1, column 22",
		`{"spec":{"labels":{"a":"b\x"}}}`:     "escape",
		"{\"spec\":{\"labels\":{\"a\":\"\x01\"}}}": "string literal",
	} {
		var o object
		err := Unmarshal([]byte(doc), &o)
		var se *SyntaxError
		if !errors.As(err, &se) || !strings.Contains(err.Error(), want) || field.Kind(err) != "Invalid" {
			t.Errorf("%q: error %v; want a syntax error containing %q", doc, err, want)
		}
	}
	deep := strings.Repeat("[", MaxDepth+1) + strings.Repeat("]", MaxDepth+1)
	var x any
	if err := Unmarshal([]byte(deep), &x); err == nil || !strings.Contains(err.Error(), "nested too deep") {
		t.Errorf("nesting %d deep: %v; want an error", MaxDepth+1, err)
	}
	ok := strings.Repeat("[", 100) + strings.Repeat("]", 100)
	if err := Unmarshal([]byte(ok), &x); err != nil {
		t.Errorf("nesting 100 deep: %v", err)
	}
}

func TestTypesAndDurations(t *testing.T) {
	t.Parallel()
	var o object
	if err := Unmarshal([]byte(`{"spec":{"every":"1m30s"}}`), &o); err != nil || o.Spec.Every != 90*time.Second {
		t.Errorf("every \"1m30s\" = %v, %v", o.Spec.Every, err)
	}
	if err := Unmarshal([]byte(`{"spec":{"every":1500}}`), &o); err != nil || o.Spec.Every != 1500 {
		t.Errorf("every 1500 = %v, %v", o.Spec.Every, err)
	}
	for doc, path := range map[string]string{
		`{"spec":{"every":"90"}}`:                           "spec.every",
		`{"spec":{"every":1.5}}`:                            "spec.every",
		`{"spec":{"every":true}}`:                           "spec.every",
		`{"spec":{"replicas":"3"}}`:                         "spec.replicas",
		`{"spec":{"replicas":3000000000}}`:                  "spec.replicas",
		`{"spec":{"items":[{},{},{"n":1e3}]}}`:              "spec.items[2].n",
		`{"spec":{"items":{"kind":"List","items":[]}}}`:     "spec.items",
		`{"spec":{"labels":{"a":1}}}`:                       "spec.labels.a",
		`{"spec":[]}`:                                       "spec",
		`{"spec":{"items":[{"v":1},{"v":"x"}]}}`:            "spec.items[1].v",
		`{"spec":{"items":[{"v":1},{"v":{"a":"b"}}]}}`:      "spec.items[1].v",
		`{"spec":{"any":1, "items":[{"name":"a","v":[]}]}}`: "spec.items[0].v",
	} {
		wantField(t, Unmarshal([]byte(doc), &o), path, field.ErrInvalid)
	}
}

func TestTopLists(t *testing.T) {
	t.Parallel()
	type in struct {
		Items []item `json:"items"`
	}
	var x in
	if err := Decode([]byte(`{"items":{"kind":"List","apiVersion":"v1","items":[{"name":"a"}]}}`), &x, StrictTop|TopLists); err != nil || len(x.Items) != 1 || x.Items[0].Name != "a" {
		t.Errorf("List object = %+v, %v", x, err)
	}
	wantField(t, Decode([]byte(`{"items":{"kind":"List","items":[],"items":[]}}`), &x, StrictTop|TopLists), "items.items", field.ErrDuplicate)
	wantField(t, Decode([]byte(`{"items":{"kind":"List"}}`), &x, StrictTop|TopLists), "items", field.ErrInvalid)
}

// embedded is resolved as encoding/json resolves embedded structs.
type inner struct {
	A    string `json:"a"`
	B    string `json:"b"`
	Name string
}

type outer struct {
	inner
	B string `json:"b"`
}

func TestEmbedded(t *testing.T) {
	t.Parallel()
	var o outer
	if err := UnmarshalStrict([]byte(`{"a":"x","b":"y","Name":"n"}`), &o); err != nil || o.A != "x" || o.B != "y" || o.inner.B != "" || o.Name != "n" {
		t.Errorf("embedded = %+v, %v", o, err)
	}
	wantField(t, UnmarshalStrict([]byte(`{"name":"n"}`), &o), "name", field.ErrUnsupported)
}

func TestEchoBounded(t *testing.T) {
	t.Parallel()
	big := strings.Repeat("9", 1<<20)
	var o object
	for _, doc := range []string{
		`{"spec":{"replicas":` + big + `}}`,
		`{"spec":{"every":"` + big + `"}}`,
		`{"spec":{"items":[{"v":"` + big + `"}]}}`,
		`{"spec":{"` + big + `":1,"` + big + `":2}}`,
		`{"spec":{"replicas":"` + big + `"}}`,
	} {
		err := Unmarshal([]byte(doc), &o)
		if err == nil || len(err.Error()) > 4*EchoLimit {
			t.Errorf("error of %d bytes for a %d-byte value: %.300s", len(fmt.Sprint(err)), len(big), err)
		}
	}
	if got := Clip(strings.Repeat("é", 200)); !strings.HasSuffix(got, "…(400 bytes)") || len(got) > EchoLimit+20 {
		t.Errorf("Clip = %q", got)
	}
}

func TestValid(t *testing.T) {
	t.Parallel()
	if err := Valid([]byte(` {"a": [1, 2.5e-3, "x", true, false, null, {}]} `)); err != nil {
		t.Error(err)
	}
	wantField(t, Valid([]byte(`{"a":{"b":1,"b":2}}`)), "a.b", field.ErrDuplicate)
}

func FuzzUnmarshal(f *testing.F) {
	for _, s := range []string{`{"spec":{"replicas":3,"Replicas":100}}`, `{"spec":{"items":[{"v":1}]}}`, `[1,{"a":[]}]`, `"x"`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		var o object
		errO := Unmarshal(b, &o)
		var x any
		errX := Unmarshal(b, &x)
		// Syntax: accepted exactly when encoding/json accepts it and
		// no key is repeated.
		if errX == nil && !json.Valid(b) {
			t.Fatalf("accepted invalid JSON %q", b)
		}
		var se *SyntaxError
		if errors.As(errX, &se) && json.Valid(b) && se.Msg != "nested too deep" {
			t.Fatalf("rejected valid JSON %q: %v", b, errX)
		}
		if errX == nil {
			var y any
			if err := json.Unmarshal(b, &y); err != nil || !reflect.DeepEqual(x, y) {
				t.Fatalf("%q: decoded %v; encoding/json %v, %v", b, x, y, err)
			}
		}
		if errO != nil {
			var fe *field.Error
			if !errors.As(errO, &fe) {
				t.Fatalf("error %v is not a field error", errO)
			}
		}
	})
}

func TestSplit(t *testing.T) {
	t.Parallel()
	vals, err := Values([]byte(" {\"a\":1}\n[2] \"x\" "))
	if err != nil || len(vals) != 3 || string(vals[0]) != `{"a":1}` || string(vals[1]) != "[2]" || string(vals[2]) != `"x"` {
		t.Errorf("Values = %q, %v", vals, err)
	}
	if _, err := Values([]byte("{} {\"a\":1,\"a\":2}")); err == nil {
		t.Error("Values accepted a repeated key")
	}
	ms, ok, err := Members([]byte(` {"kind": "List", "items": [1, {"b": 2}]} `))
	if err != nil || !ok || len(ms) != 2 || ms[0].Key != "kind" || string(ms[1].Value) != `[1, {"b": 2}]` {
		t.Errorf("Members = %q, %v, %v", ms, ok, err)
	}
	if _, ok, err := Members([]byte(`[1]`)); ok || err != nil {
		t.Errorf("Members of an array = %v, %v", ok, err)
	}
	for _, bad := range []string{`{"a":1,"a":2}`, `{"a":1} x`, `{"a":{"b":1,"b":1}}`, `{"a"`, `[1,]`} {
		if _, _, err := Members([]byte(bad)); err == nil {
			t.Errorf("Members(%s) accepted", bad)
		}
		if _, _, err := Elements([]byte(bad)); err == nil {
			t.Errorf("Elements(%s) accepted", bad)
		}
	}
	es, ok, err := Elements([]byte(`[1, {"b": 2}, []]`))
	if err != nil || !ok || len(es) != 3 || string(es[1]) != `{"b": 2}` {
		t.Errorf("Elements = %q, %v, %v", es, ok, err)
	}
}

// reference filters v, decoded by encoding/json, as Decode reads it for
// t: keys no field of a struct names exactly are dropped, duration
// strings become nanoseconds.
func reference(v any, t reflect.Type) any {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch {
	case v == nil || reflect.PointerTo(t).Implements(unmarshalerT):
		return v
	case t == durationT:
		if s, ok := v.(string); ok {
			d, _ := time.ParseDuration(s)
			return float64(d)
		}
		return v
	}
	switch t.Kind() {
	case reflect.Struct:
		m, ok := v.(map[string]any)
		if !ok {
			return v
		}
		out := map[string]any{}
		fields := structFields(t)
		for k, x := range m {
			if f, ok := fields[k]; ok {
				out[k] = reference(x, f.t)
			}
		}
		return out
	case reflect.Map:
		m, ok := v.(map[string]any)
		if !ok {
			return v
		}
		out := map[string]any{}
		for k, x := range m {
			out[k] = reference(x, t.Elem())
		}
		return out
	case reflect.Slice:
		l, ok := v.([]any)
		if !ok {
			return v
		}
		out := make([]any, len(l))
		for i, x := range l {
			out[i] = reference(x, t.Elem())
		}
		return out
	}
	return v
}

// FuzzDecodeMatchesReference: what Decode reads into a struct is what
// encoding/json reads from the document with the unknown keys removed
// (and durations as nanoseconds), whenever Decode accepts it.
func FuzzDecodeMatchesReference(f *testing.F) {
	for _, s := range []string{
		`{"spec":{"replicas":3,"Replicas":100}}`,
		`{"Spec":{}, "spec":{"every":"1m","items":[{"name":"a","x":1,"n":2,"N":3}],"labels":{"A":"b"}} ,"z":[1]}`,
		` { "a" : 1 , "spec" : { "REPLICAS" : 2 , "replicas" : 1 , "any" : {"Q":1} } , "b" : 2 } `,
		`{"spec":{"items":[{"V":1,"v":2,"W":3}]}}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		var got object
		if Unmarshal(b, &got) != nil {
			return
		}
		var v any
		if err := json.Unmarshal(b, &v); err != nil {
			t.Fatalf("Decode accepted what encoding/json rejects: %q: %v", b, err)
		}
		ref, _ := json.Marshal(reference(v, reflect.TypeFor[object]()))
		var want object
		if err := json.Unmarshal(ref, &want); err != nil {
			return // a value encoding/json cannot read back (a float into int)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("%q:\n got %+v\nwant %+v (from %s)", b, got, want, ref)
		}
	})
}
