package conformance

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	root "github.com/kubesem/kubesem"
)

var updateSchemas = flag.Bool("update-schemas", false, "rewrite conformance/schema from the registry")

// TestSchemasUpToDate: conformance/schema holds, for every decision, the
// JSON Schemas of its input, options and output as Schemas generates them
// (go test ./conformance -run TestSchemasUpToDate -update-schemas rewrites
// them), and nothing else.
func TestSchemasUpToDate(t *testing.T) {
	dir := "schema"
	want := map[string][]byte{}
	for _, d := range Registry() {
		in, opts, out := Schemas(d)
		for part, s := range map[string]map[string]any{"input": in, "options": opts, "output": out} {
			b, err := json.MarshalIndent(s, "", " ")
			if err != nil {
				t.Fatal(err)
			}
			want[d.Name+"."+part+".json"] = append(b, '\n')
		}
	}
	if *updateSchemas {
		os.RemoveAll(dir)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		for name, b := range want {
			if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatalf("%v (run go test ./conformance -run TestSchemasUpToDate -update-schemas)", err)
	}
	seen := map[string]bool{}
	for _, e := range entries {
		seen[e.Name()] = true
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if w, ok := want[e.Name()]; !ok {
			t.Errorf("schema/%s names no decision", e.Name())
		} else if !bytes.Equal(b, w) {
			t.Errorf("schema/%s is stale (go test ./conformance -run TestSchemasUpToDate -update-schemas)", e.Name())
		}
	}
	for name := range want {
		if !seen[name] {
			t.Errorf("schema/%s is missing (go test ./conformance -run TestSchemasUpToDate -update-schemas)", name)
		}
	}
}

// TestVectorsMatchSchemas: every vector's input and options validate
// against its decision's schemas, and every expected output (want, each of
// wantOneOf, and the error of wantError) against the output schema or the
// error schema.
func TestVectorsMatchSchemas(t *testing.T) {
	vs, err := Load(root.Vectors())
	if err != nil {
		t.Fatal(err)
	}
	byName := map[string]Decision{}
	for _, d := range Registry() {
		byName[d.Name] = d
	}
	errSchema := map[string]any{"type": "object", "additionalProperties": false, "properties": map[string]any{
		"field": map[string]any{"type": "string"}, "kind": map[string]any{"type": "string"}}}
	n := 0
	for _, v := range vs {
		in, opts, out := Schemas(byName[v.Decision])
		check := func(what string, schema map[string]any, raw json.RawMessage) {
			if len(raw) == 0 {
				return
			}
			var x any
			dec := json.NewDecoder(bytes.NewReader(raw))
			dec.UseNumber()
			if err := dec.Decode(&x); err != nil {
				t.Errorf("%s/%s: %s: %v", v.Package, v.Name, what, err)
				return
			}
			if err := validate(schema, schema, x, what); err != nil {
				t.Errorf("%s/%s (%s): %v", v.Package, v.Name, v.Decision, err)
			}
			n++
		}
		check("input", in, v.Input)
		if v.WantError == nil || !strings.HasPrefix(v.WantError.Field, "options.") {
			check("options", opts, v.Options)
		} else {
			n++ // a vector showing that invalid options are rejected
		}
		check("want", out, v.Want)
		for i, w := range v.WantOneOf {
			check(fmt.Sprintf("wantOneOf[%d]", i), out, w)
		}
		if v.WantError != nil {
			b, _ := json.Marshal(v.WantError)
			check("wantError", errSchema, b)
		}
	}
	if n < len(vs) {
		t.Fatalf("validated %d documents for %d vectors", n, len(vs))
	}
}

// validate checks x against the JSON Schema subset Schemas writes: type,
// properties, additionalProperties, items, anyOf, minimum, maximum and
// local $refs.
func validate(doc, s map[string]any, x any, at string) error {
	if ref, ok := s["$ref"].(string); ok {
		name := strings.TrimPrefix(ref, "#/$defs/")
		def, ok := doc["$defs"].(map[string]any)[name].(map[string]any)
		if !ok {
			return fmt.Errorf("%s: unresolved %s", at, ref)
		}
		return validate(doc, def, x, at)
	}
	if alts, ok := s["anyOf"].([]any); ok {
		var errs []string
		for _, alt := range alts {
			err := validate(doc, alt.(map[string]any), x, at)
			if err == nil {
				return nil
			}
			errs = append(errs, err.Error())
		}
		return fmt.Errorf("%s: matches no alternative: %s", at, strings.Join(errs, "; "))
	}
	if tv, ok := s["type"]; ok && !typeOK(tv, x) {
		return fmt.Errorf("%s: %s is not of type %v", at, short(x), tv)
	}
	switch v := x.(type) {
	case json.Number:
		f, _ := v.Float64()
		if m, ok := s["minimum"]; ok && f < toFloat(m) {
			return fmt.Errorf("%s: %s below %v", at, v, m)
		}
		if m, ok := s["maximum"]; ok && f > toFloat(m) {
			return fmt.Errorf("%s: %s above %v", at, v, m)
		}
	case []any:
		if items, ok := s["items"].(map[string]any); ok {
			for i, e := range v {
				if err := validate(doc, items, e, fmt.Sprintf("%s[%d]", at, i)); err != nil {
					return err
				}
			}
		}
	case map[string]any:
		props, _ := s["properties"].(map[string]any)
		for _, k := range schemaKeys(v) {
			if p, ok := props[k].(map[string]any); ok {
				if err := validate(doc, p, v[k], at+"."+k); err != nil {
					return err
				}
				continue
			}
			switch ap := s["additionalProperties"].(type) {
			case bool:
				if !ap {
					return fmt.Errorf("%s: unknown key %q", at, k)
				}
			case map[string]any:
				if err := validate(doc, ap, v[k], at+"."+k); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

func typeOK(tv any, x any) bool {
	if list, ok := tv.([]any); ok {
		for _, t := range list {
			if typeOK(t, x) {
				return true
			}
		}
		return false
	}
	switch tv {
	case "object":
		_, ok := x.(map[string]any)
		return ok
	case "array":
		_, ok := x.([]any)
		return ok
	case "string":
		_, ok := x.(string)
		return ok
	case "boolean":
		_, ok := x.(bool)
		return ok
	case "null":
		return x == nil
	case "number":
		_, ok := x.(json.Number)
		return ok
	case "integer":
		n, ok := x.(json.Number)
		if !ok {
			return false
		}
		f, err := n.Float64()
		return err == nil && f == math.Trunc(f)
	}
	return false
}

func toFloat(v any) float64 {
	switch n := v.(type) {
	case float64:
		return n
	case int:
		return float64(n)
	case int64:
		return float64(n)
	}
	return reflect.ValueOf(v).Convert(reflect.TypeFor[float64]()).Float()
}

func short(x any) string {
	b, _ := json.Marshal(x)
	if len(b) > 80 {
		return string(b[:80]) + "…"
	}
	return string(b)
}
