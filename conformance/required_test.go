package conformance

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	root "github.com/kubesem/kubesem"
	"github.com/kubesem/kubesem/internal/apijson"
	"github.com/kubesem/kubesem/internal/jsontag"
)

// TestRequiredKeysRefused: for every shipped vector answered with an
// output, leaving out any one required key of its input (or giving it as
// null) makes the decision refuse the request with a Required error at
// that key, never an answer from the zero value. Every decision's
// required keys are exactly those [Shape] prints without "?".
func TestRequiredKeysRefused(t *testing.T) {
	t.Parallel()
	k := Kubesem()
	byName := map[string]Decision{}
	for _, d := range Registry() {
		byName[d.Name] = d
		in := d.Input
		for in.Kind() == reflect.Pointer {
			in = in.Elem()
		}
		req := map[string]bool{}
		for _, f := range requiredFields(in) {
			req[f.key] = f.required
		}
		for _, f := range jsontag.Fields(in) {
			sf := in.Field(f.Index[0])
			if len(f.Index) > 1 || sf.Anonymous {
				continue // an embedded field or its member
			}
			shape := Shape(reflect.StructOf([]reflect.StructField{sf}))
			key := f.Name
			marked := strings.HasPrefix(shape, `{"`+key+`"?:`)
			if req[key] == marked {
				t.Errorf("%s: key %q required=%v but decisions -v prints %s", d.Name, key, req[key], shape)
			}
		}
	}
	vectors, err := Load(root.Vectors())
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	seen := map[string]bool{}
	for _, v := range vectors {
		d, ok := byName[v.Decision]
		if !ok || v.Want == nil || seen[v.Decision] {
			continue
		}
		members, ok, err := apijson.Members(v.Input)
		if err != nil || !ok {
			continue
		}
		seen[v.Decision] = true
		in := d.Input
		for _, f := range requiredFields(in) {
			if !f.required {
				continue
			}
			for _, null := range []bool{false, true} {
				obj := map[string]json.RawMessage{}
				for _, m := range members {
					if m.Key != f.key {
						obj[m.Key] = m.Value
					}
				}
				if null {
					obj[f.key] = json.RawMessage("null")
				}
				input, _ := json.Marshal(obj)
				out, err := k.Decide(v.Decision, v.Options, input)
				if err != nil {
					t.Errorf("%s without %s: %v", v.Name, f.key, err)
					continue
				}
				var got struct {
					Error *inputError `json:"error"`
				}
				if json.Unmarshal(out, &got) != nil || got.Error == nil || got.Error.Kind != "Required" || got.Error.Field != f.key {
					t.Errorf("%s (%s) without %s (null: %v): got %s; want a Required error at %s", v.Name, v.Decision, f.key, null, out, f.key)
				}
				checked++
			}
		}
	}
	if len(seen) < 50 || checked < 100 {
		t.Errorf("checked %d removals in %d decisions; want the vectors of most decisions", checked, len(seen))
	}
	t.Logf("%d removals of required keys in %d decisions refused", checked, len(seen))
}
