package conformance_test

import (
	"strings"
	"testing"
	"testing/fstest"

	"github.com/kubesem/kubesem/conformance"
)

func TestLoadRejectsBadVectors(t *testing.T) {
	t.Parallel()
	good := `{"decision":"intstr.Scaled","name":"n","source":"s","input":{},"want":{}}`
	cases := []struct {
		name, file, body, wantErr string
	}{
		{"missing name", "intstr/a.json", `[{"decision":"intstr.Scaled","source":"s","input":{},"want":{}}]`, "missing name"},
		{"missing source", "intstr/a.json", `[{"decision":"intstr.Scaled","name":"n","input":{},"want":{}}]`, "missing source"},
		{"foreign decision", "rollout/a.json", "[" + good + "]", "not in package"},
		{"two answers", "intstr/a.json", `[{"decision":"intstr.Scaled","name":"n","source":"s","input":{},"want":{},"wantError":{"field":"x","kind":"Invalid"}}]`, "exactly one"},
		{"no answer", "intstr/a.json", `[{"decision":"intstr.Scaled","name":"n","source":"s","input":{}}]`, "exactly one"},
		{"duplicate name", "intstr/a.json", "[" + good + "," + good + "]", "already used"},
		{"unknown key", "intstr/a.json", `[{"decision":"intstr.Scaled","name":"n","source":"s","input":{},"want":{},"extra":1}]`, "unknown field"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			_, err := conformance.Load(fstest.MapFS{c.file: {Data: []byte(c.body)}})
			if err == nil || !strings.Contains(err.Error(), c.wantErr) {
				t.Errorf("Load(%s) error = %v; want one containing %q", c.name, err, c.wantErr)
			}
		})
	}
}

// TestWrongVectorFails makes sure the runner can fail: a vector with a wrong
// answer, a wrong error and an unsupported decision must each be reported.
func TestWrongVectorFails(t *testing.T) {
	t.Parallel()
	fsys := fstest.MapFS{"intstr/wrong.json": {Data: []byte(`[
	 {"decision":"intstr.Scaled","name":"wrong value","source":"test","input":{"value":"25%","total":4,"roundUp":true},"want":{"value":2}},
	 {"decision":"intstr.Scaled","name":"wrong error","source":"test","input":{"value":"x%","total":4},"wantError":{"field":"value","kind":"Overflow"}},
	 {"decision":"intstr.Scaled","name":"error instead of value","source":"test","input":{"value":"x%","total":4},"want":{}},
	 {"decision":"intstr.Nope","name":"unsupported","source":"test","input":{},"want":{}},
	 {"decision":"intstr.Scaled","name":"one of","source":"test","input":{"value":"25%","total":4,"roundUp":true},"wantOneOf":[{"value":2},{"value":1}]}
	]`)}}
	results, err := conformance.Check(conformance.Kubesem(), conformance.Suite{Vectors: fsys})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range results[:4] {
		if r.Failure == "" {
			t.Errorf("vector %q passed; want a failure", r.Vector.Name)
		}
	}
	if r := results[4]; r.Failure != "" {
		t.Errorf("vector %q failed: %s", r.Vector.Name, r.Failure)
	}
	skipped, err := conformance.Check(conformance.Kubesem(), conformance.Suite{Vectors: fsys, AllowUnsupported: true, Packages: []string{"intstr"}})
	if err != nil {
		t.Fatal(err)
	}
	if !skipped[3].Skipped {
		t.Errorf("unsupported vector with AllowUnsupported: Skipped = false; want true")
	}
}
