package difftest

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"math"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/go-logr/logr"
	"k8s.io/klog/v2"
	_ "k8s.io/kubernetes/pkg/apis/policy/install"
	"pgregory.net/rapid"

	"github.com/kubesem/kubesem/conformance"
	"github.com/kubesem/kubesem/field"
)

// This file holds what the rule differentials (pdb/rules_diff_test.go,
// cronjob/rules_diff_test.go, node/rules_diff_test.go,
// daemonset/rules_diff_test.go) share: calling a decision through
// conformance.Kubesem().Decide, so that the binding (decoding, input
// validation, encoding) is covered with the rule, and reading a decision's
// vectors.

// Ctx is a context whose logger discards everything, for upstream
// functions that log through klog.FromContext.
var Ctx = klog.NewContext(context.Background(), logr.Discard())

// Fataler is what Decide and JSON need of *testing.T and *rapid.T.
type Fataler interface{ Fatalf(string, ...any) }

// InputError is the input error a decision answered with.
type InputError struct {
	Field  string `json:"field"`
	Kind   string `json:"kind"`
	Value  string `json:"value"`
	Reason string `json:"reason"`
}

// asFieldError states e as a *field.Error (path only) for verdict.
func (e *InputError) AsFieldError() error {
	if e == nil {
		return nil
	}
	return &field.Error{Path: e.Field, Value: e.Value, Err: errors.New(e.Kind + ": " + e.Reason)}
}

// JSON encodes v as the API server would (no HTML escaping).
func JSON(t Fataler, v any) json.RawMessage {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		t.Fatalf("encode %T: %v", v, err)
	}
	return bytes.TrimSpace(b.Bytes())
}

// Decide runs decision on the JSON of in (and of opts, when not nil)
// through conformance.Kubesem().Decide. An answer that is an input error is
// returned as such; any other answer is decoded into out. A Go error (an
// unsupported decision, a panic) fails the test.
func Decide(t Fataler, decision string, opts, in, out any) *InputError {
	var o json.RawMessage
	if opts != nil {
		o = JSON(t, opts)
	}
	raw, err := conformance.Kubesem().Decide(decision, o, JSON(t, in))
	if err != nil {
		t.Fatalf("%s: %v\ninput: %s", decision, err, JSON(t, in))
	}
	var e struct {
		Error *InputError `json:"error"`
	}
	if err := json.Unmarshal(raw, &e); err == nil && e.Error != nil {
		return e.Error
	}
	if err := json.Unmarshal(raw, out); err != nil {
		t.Fatalf("%s: decoding %s: %v", decision, raw, err)
	}
	return nil
}

// Vector is one vector of testdata/.
type Vector struct {
	Decision  string          `json:"decision"`
	Name      string          `json:"name"`
	Source    string          `json:"source"`
	Options   json.RawMessage `json:"options,omitempty"`
	Input     json.RawMessage `json:"input"`
	Want      json.RawMessage `json:"want,omitempty"`
	WantError json.RawMessage `json:"wantError,omitempty"`
}

// Vectors returns the vectors of decision in testdata/<dir>/*.json.
func Vectors(t *testing.T, dir, decision string) []Vector {
	t.Helper()
	files, err := filepath.Glob(Repo("testdata", dir, "*.json"))
	if err != nil {
		t.Fatal(err)
	}
	var out []Vector
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var vs []Vector
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

// WantKeys returns the keys of a vector's want object.
func WantKeys(t *testing.T, want json.RawMessage) []string {
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

// SameJSON reports whether a and b are the same JSON value.
func SameJSON(a, b json.RawMessage) bool {
	return bytes.Equal(CanonicalRaw(a), CanonicalRaw(b))
}

// DrawInt32 draws an int32, boundary-heavy: 0, 1, −1 and the int32 extremes
// and their neighbours, small values, or any int32.
func DrawInt32(t *rapid.T, label string) int32 {
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

// Count logs how many states fell in each class.
func Count(t *testing.T, counts map[string]int) { LogCounts(t, counts) }
