package difftest

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/runtime"
	utilfield "k8s.io/apimachinery/pkg/util/validation/field"
	genericapirequest "k8s.io/apiserver/pkg/endpoints/request"
	"k8s.io/kubernetes/pkg/api/legacyscheme"
)

// CreateStrategy is what a registry strategy does with a create before
// storing it.
type CreateStrategy interface {
	PrepareForCreate(ctx context.Context, obj runtime.Object)
	Validate(ctx context.Context, obj runtime.Object) utilfield.ErrorList
}

// RegistryCreate runs the API server's create path for one resource on v1
// (as sent, defaulted): converted into the internal object in, then the
// strategy's PrepareForCreate and Validate, under a request for group/v1
// resource. It fails t when the conversion fails.
func RegistryCreate(t interface{ Fatalf(string, ...any) }, s CreateStrategy, group, resource string, v1, in runtime.Object) utilfield.ErrorList {
	if err := legacyscheme.Scheme.Convert(v1, in, nil); err != nil {
		t.Fatalf("convert: %v", err)
	}
	ctx := genericapirequest.WithRequestInfo(context.Background(), &genericapirequest.RequestInfo{APIGroup: group, APIVersion: "v1", Resource: resource})
	s.PrepareForCreate(ctx, in)
	return s.Validate(ctx, in)
}

// ErrorKind is the vectors' kind for an upstream error type ("" for a
// type vectors do not name).
func ErrorKind(typ utilfield.ErrorType) string {
	switch typ {
	case utilfield.ErrorTypeInvalid:
		return "Invalid"
	case utilfield.ErrorTypeRequired:
		return "Required"
	case utilfield.ErrorTypeForbidden:
		return "Forbidden"
	case utilfield.ErrorTypeNotSupported:
		return "Unsupported"
	case utilfield.ErrorTypeDuplicate:
		return "Duplicate"
	}
	return ""
}

// ReplayValidationVectors replays the vectors of decision in
// testdata/<file> through v1.36.3: upstream returns the API server's
// errors for a vector's input, their paths from the top of the object the
// decision's error is under (prefix: "new" for an update, the object's key
// for a create). A vector wanting {"valid": true} must be one upstream
// accepts; a vector wanting an error at prefix.<path> of a kind must be one
// upstream refuses with an error of that kind at <path>. Every vector of
// the file must be of decision.
//
// With KUBESEM_WRITE_VECTORS=1 it first rewrites the file's wants from
// upstream ({"valid": true}, or the path and kind of upstream's first
// error: upstream's order is the order kubesem's rules follow), so that no
// want comes from kubesem. It returns how many vectors were accepted and
// refused.
func ReplayValidationVectors(t *testing.T, file, decision, prefix string, upstream func(input json.RawMessage) utilfield.ErrorList) (accepted, refused int) {
	t.Helper()
	path := Repo("testdata", file)
	if os.Getenv("KUBESEM_WRITE_VECTORS") == "1" {
		if err := writeValidationWants(t, path, decision, prefix, upstream); err != nil {
			t.Fatalf("%s: %v", file, err)
		}
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var vs []Vector
	if err := json.Unmarshal(data, &vs); err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	for _, v := range vs {
		if v.Decision != decision {
			t.Fatalf("%s %q: decision %s, not %s", file, v.Name, v.Decision, decision)
		}
		errs := upstream(v.Input)
		switch {
		case v.WantError == nil:
			var want struct {
				Valid *bool `json:"valid"`
			}
			if err := json.Unmarshal(v.Want, &want); err != nil || want.Valid == nil || !*want.Valid {
				t.Errorf("%s %q: want %s is not {\"valid\": true}", file, v.Name, v.Want)
				continue
			}
			if len(errs) > 0 {
				t.Errorf("%s %q: wants it accepted; upstream refuses it: %s", file, v.Name, errorPaths(errs))
			}
			accepted++
		default:
			var we struct {
				Field string `json:"field"`
				Kind  string `json:"kind"`
			}
			if err := json.Unmarshal(v.WantError, &we); err != nil {
				t.Fatalf("%s %q: wantError: %v", file, v.Name, err)
			}
			p, ok := strings.CutPrefix(we.Field, prefix+".")
			if !ok {
				t.Errorf("%s %q: wantError field %q is not under %s", file, v.Name, we.Field, prefix)
				continue
			}
			if !slices.ContainsFunc(errs, func(e *utilfield.Error) bool { return e.Field == p && ErrorKind(e.Type) == we.Kind }) {
				t.Errorf("%s %q: wants %s at %s; upstream: %s", file, v.Name, we.Kind, p, errorPaths(errs))
			}
			refused++
		}
	}
	t.Logf("%s: %d %s vectors accepted and %d refused as v1.36.3 does", file, accepted, decision, refused)
	return accepted, refused
}

// errorPaths lists upstream's errors as kind and path, without the
// (often whole-object) values.
func errorPaths(errs utilfield.ErrorList) string {
	s := make([]string, len(errs))
	for i, e := range errs {
		s[i] = string(e.Type) + " at " + e.Field
	}
	return "[" + strings.Join(s, "; ") + "]"
}

// writeValidationWants rewrites the want or wantError of every vector of
// the file at path from upstream, keeping its keys in the vectors' order.
func writeValidationWants(t *testing.T, path, decision, prefix string, upstream func(input json.RawMessage) utilfield.ErrorList) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	var vs []map[string]json.RawMessage
	if err := json.Unmarshal(data, &vs); err != nil {
		return err
	}
	order := []string{"decision", "name", "source", "options", "input", "want", "wantError"}
	var out [][]byte
	for _, v := range vs {
		for k := range v {
			if !slices.Contains(order, k) {
				return fmt.Errorf("%s: unexpected key %q", v["name"], k)
			}
		}
		if d := strings.Trim(string(v["decision"]), `"`); d != decision {
			return fmt.Errorf("%s: decision %s, not %s", v["name"], d, decision)
		}
		delete(v, "want")
		delete(v, "wantError")
		errs := upstream(v["input"])
		if len(errs) == 0 {
			v["want"] = json.RawMessage(`{"valid":true}`)
		} else {
			if len(errs) > 1 {
				t.Logf("%s: upstream gives %d errors, the vector takes the first: %s", v["name"], len(errs), errorPaths(errs))
			}
			kind := ErrorKind(errs[0].Type)
			if kind == "" {
				return fmt.Errorf("%s: upstream error %v has no vector kind", v["name"], errs[0])
			}
			b, err := json.Marshal(map[string]string{"field": prefix + "." + errs[0].Field, "kind": kind})
			if err != nil {
				return err
			}
			v["wantError"] = b
		}
		var b bytes.Buffer
		b.WriteByte('{')
		for i, k := range slices.DeleteFunc(slices.Clone(order), func(k string) bool { return v[k] == nil }) {
			if i > 0 {
				b.WriteByte(',')
			}
			kb, _ := json.Marshal(k)
			b.Write(kb)
			b.WriteByte(':')
			b.Write(v[k])
		}
		b.WriteByte('}')
		out = append(out, b.Bytes())
	}
	raw := append([]byte("["), bytes.Join(out, []byte(","))...)
	raw = append(raw, ']')
	var c, b bytes.Buffer
	if err := json.Compact(&c, raw); err != nil {
		return err
	}
	if err := json.Indent(&b, c.Bytes(), "", " "); err != nil {
		return err
	}
	b.WriteByte('\n')
	return os.WriteFile(path, b.Bytes(), 0o644)
}
