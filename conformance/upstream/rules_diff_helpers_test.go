package upstream_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"math"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"pgregory.net/rapid"

	"github.com/kubesem/kubesem/conformance"
	"github.com/kubesem/kubesem/field"
)

// This file holds what the rule differentials (pdb_rules_diff_test.go,
// cronjob_rules_diff_test.go, node_rules_diff_test.go,
// daemonset_rules_diff_test.go) share: calling a decision through
// conformance.Kubesem().Decide, so that the binding (decoding, input
// validation, encoding) is covered with the rule, and reading a decision's
// vectors.

type rdFataler interface{ Fatalf(string, ...any) }

// rdInputError is the input error a decision answered with.
type rdInputError struct {
	Field  string `json:"field"`
	Kind   string `json:"kind"`
	Value  string `json:"value"`
	Reason string `json:"reason"`
}

// asFieldError states e as a *field.Error (path only) for verdict.
func (e *rdInputError) asFieldError() error {
	if e == nil {
		return nil
	}
	return &field.Error{Path: e.Field, Value: e.Value, Err: errors.New(e.Kind + ": " + e.Reason)}
}

// rdJSON encodes v as the API server would (no HTML escaping).
func rdJSON(t rdFataler, v any) json.RawMessage {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		t.Fatalf("encode %T: %v", v, err)
	}
	return bytes.TrimSpace(b.Bytes())
}

// rdDecide runs decision on the JSON of in (and of opts, when not nil)
// through conformance.Kubesem().Decide. An answer that is an input error is
// returned as such; any other answer is decoded into out. A Go error (an
// unsupported decision, a panic) fails the test.
func rdDecide(t rdFataler, decision string, opts, in, out any) *rdInputError {
	var o json.RawMessage
	if opts != nil {
		o = rdJSON(t, opts)
	}
	raw, err := conformance.Kubesem().Decide(decision, o, rdJSON(t, in))
	if err != nil {
		t.Fatalf("%s: %v\ninput: %s", decision, err, rdJSON(t, in))
	}
	var e struct {
		Error *rdInputError `json:"error"`
	}
	if err := json.Unmarshal(raw, &e); err == nil && e.Error != nil {
		return e.Error
	}
	if err := json.Unmarshal(raw, out); err != nil {
		t.Fatalf("%s: decoding %s: %v", decision, raw, err)
	}
	return nil
}

// rdVec is one vector of testdata/.
type rdVec struct {
	Decision  string          `json:"decision"`
	Name      string          `json:"name"`
	Source    string          `json:"source"`
	Options   json.RawMessage `json:"options,omitempty"`
	Input     json.RawMessage `json:"input"`
	Want      json.RawMessage `json:"want,omitempty"`
	WantError json.RawMessage `json:"wantError,omitempty"`
}

// rdVectors returns the vectors of decision in testdata/<dir>/*.json.
func rdVectors(t *testing.T, dir, decision string) []rdVec {
	t.Helper()
	files, err := filepath.Glob(filepath.Join("..", "..", "testdata", dir, "*.json"))
	if err != nil {
		t.Fatal(err)
	}
	var out []rdVec
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var vs []rdVec
		if err := json.Unmarshal(data, &vs); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		for _, v := range vs {
			if v.Decision == decision {
				out = append(out, v)
			}
		}
	}
	if len(out) == 0 {
		t.Fatalf("no %s vectors in testdata/%s", decision, dir)
	}
	return out
}

// rdWantKeys returns the keys of a vector's want object.
func rdWantKeys(t *testing.T, want json.RawMessage) []string {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(want, &m); err != nil {
		t.Fatalf("want %s: %v", want, err)
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// rdSameJSON reports whether a and b are the same JSON value.
func rdSameJSON(a, b json.RawMessage) bool {
	return bytes.Equal(pdbCanonicalRaw(a), pdbCanonicalRaw(b))
}

// rdInt32 draws an int32, boundary-heavy: 0, 1, −1 and the int32 extremes
// and their neighbours, small values, or any int32.
func rdInt32(t *rapid.T, label string) int32 {
	switch rapid.IntRange(0, 3).Draw(t, label+"Kind") {
	case 0:
		return rapid.SampledFrom([]int32{0, 1, 2, -1, math.MaxInt32, math.MaxInt32 - 1, math.MinInt32, math.MinInt32 + 1}).Draw(t, label)
	case 1:
		return int32(rapid.IntRange(0, 10).Draw(t, label))
	case 2:
		return int32(rapid.IntRange(-10, 1000).Draw(t, label))
	}
	return rapid.Int32().Draw(t, label)
}

// rdCount logs how many states fell in each class.
func rdCount(t *testing.T, counts map[string]int) { logCounts(t, counts) }
