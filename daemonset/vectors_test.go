package daemonset_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/kubesem/kubesem/daemonset"
)

// planKeys are the top-level keys of a Plan's JSON, the optional
// revisions included.
func planKeys(t *testing.T) []string {
	b, err := json.Marshal(daemonset.Plan{})
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	var keys []string
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// missingPlanKeys returns, per want (or wantOneOf alternative) of a Step
// vector, the Plan keys it leaves out.
func missingPlanKeys(t *testing.T, raw []byte, keys []string) map[string][]string {
	var vs []struct {
		Decision  string                       `json:"decision"`
		Name      string                       `json:"name"`
		Want      map[string]json.RawMessage   `json:"want"`
		WantOneOf []map[string]json.RawMessage `json:"wantOneOf"`
	}
	if err := json.Unmarshal(raw, &vs); err != nil {
		t.Fatal(err)
	}
	out := map[string][]string{}
	for _, v := range vs {
		if v.Decision != "daemonset.Step" {
			continue
		}
		wants := v.WantOneOf
		if v.Want != nil {
			wants = append(wants, v.Want)
		}
		for _, w := range wants {
			for _, k := range keys {
				if _, ok := w[k]; !ok && !slices.Contains(out[v.Name], k) {
					out[v.Name] = append(out[v.Name], k)
				}
			}
		}
	}
	return out
}

// Every Step vector's want states the whole Plan: the matcher ignores the
// keys a want leaves out, so a missing key would be unchecked. The values
// come from upstream (conformance/upstream TestDaemonSetVectorsUpstream
// replays every vector and compares each key).
func TestStepVectorsStateWholePlan(t *testing.T) {
	t.Parallel()
	raw, err := os.ReadFile(filepath.Join("..", "testdata", "daemonset", "step.json"))
	if err != nil {
		t.Fatal(err)
	}
	keys := planKeys(t)
	for name, missing := range missingPlanKeys(t, raw, keys) {
		t.Errorf("%s: want omits %v", name, missing)
	}
	// The check can fail: a want without outcome is reported.
	bad := []byte(`[{"decision":"daemonset.Step","name":"x","want":{"create":{"count":0}}}]`)
	if m := missingPlanKeys(t, bad, keys); !slices.Contains(m["x"], "outcome") {
		t.Errorf("a want without outcome is not reported: %v", m)
	}
}
