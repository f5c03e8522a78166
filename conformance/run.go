package conformance

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"regexp"
	"slices"
	"testing"

	"github.com/kubesem/kubesem/internal/apijson"
)

// Implementation decides one vector. It returns the decision's output as
// JSON; for invalid input the output is {"error": {"field": ..., "kind": ...}}.
// It returns ErrUnsupported for a decision it does not implement, and any
// other error for a failure of the implementation itself.
type Implementation interface {
	Decide(decision string, options, input json.RawMessage) (json.RawMessage, error)
}

// ErrUnsupported is returned by an Implementation for a decision it does not
// implement.
var ErrUnsupported = errors.New("decision not supported")

// Suite says which vectors to run and how.
type Suite struct {
	// Vectors holds "<package>/*.json" files.
	Vectors fs.FS
	// Packages, when not empty, restricts the run to these packages.
	Packages []string
	// AllowUnsupported skips, instead of failing, vectors whose decision
	// the implementation does not support.
	AllowUnsupported bool
	// Match, when set, restricts the run to the vectors whose
	// "<package>/<name>" it matches.
	Match *regexp.Regexp
}

// Result is the outcome of one vector.
type Result struct {
	Vector  Vector
	Skipped bool
	// Failure is empty when the vector passed.
	Failure string
}

// Check runs every vector of s against impl and returns one Result per
// vector, in load order. It returns an error when the vectors cannot be
// loaded, and when the implementation is gone ([ErrGone]): then the results
// so far and an error naming the vector it stopped at.
func Check(impl Implementation, s Suite) ([]Result, error) {
	vs, err := Load(s.Vectors)
	if err != nil {
		return nil, err
	}
	var out []Result
	for _, v := range vs {
		if len(s.Packages) > 0 && !slices.Contains(s.Packages, v.Package) {
			continue
		}
		if s.Match != nil && !s.Match.MatchString(v.Package+"/"+v.Name) {
			continue
		}
		r, err := checkOne(impl, v, s.AllowUnsupported)
		out = append(out, r)
		if err != nil {
			return out, fmt.Errorf("vector %s/%s: %w", v.Package, v.Name, err)
		}
	}
	return out, nil
}

func checkOne(impl Implementation, v Vector, allowUnsupported bool) (r Result, gone error) {
	r.Vector = v
	defer func() {
		if p := recover(); p != nil {
			r.Failure = fmt.Sprintf("implementation panicked: %v", p)
		}
	}()
	got, err := impl.Decide(v.Decision, v.Options, v.Input)
	if errors.Is(err, ErrUnsupported) {
		if allowUnsupported {
			r.Skipped = true
			return r, nil
		}
		r.Failure = fmt.Sprintf("decision %s not supported", v.Decision)
		return r, nil
	}
	if errors.Is(err, ErrGone) {
		r.Failure = "implementation failed: " + err.Error()
		return r, err
	}
	if err != nil {
		r.Failure = "implementation failed: " + err.Error()
		return r, nil
	}
	r.Failure = verdict(v, got)
	return r, nil
}

// verdict compares an output with the vector's expectation and returns ""
// when it matches.
func verdict(v Vector, got json.RawMessage) string {
	switch {
	case v.WantError != nil:
		want, _ := json.Marshal(map[string]any{"error": v.WantError})
		if ok, why := Match(want, got); !ok {
			return "want error " + string(want) + ": " + why + "\n got: " + string(got)
		}
	case len(v.WantOneOf) > 0:
		var whys []string
		for _, w := range v.WantOneOf {
			ok, why := Match(w, got)
			if ok {
				return ""
			}
			whys = append(whys, why)
		}
		return fmt.Sprintf("matches none of %d acceptable answers: %v\n got: %s", len(v.WantOneOf), whys, got)
	default:
		if errorOutput(got) && !errorOutput(v.Want) {
			return "unexpected error: " + string(got)
		}
		if ok, why := Match(v.Want, got); !ok {
			return why + "\n got: " + string(got)
		}
	}
	return ""
}

func errorOutput(raw json.RawMessage) bool {
	var probe struct {
		Error json.RawMessage `json:"error"`
	}
	return apijson.Unmarshal(raw, &probe) == nil && len(probe.Error) > 0 && string(probe.Error) != "null"
}

// Run checks impl against the suite's vectors, one subtest per vector named
// "<package>/<vector name>".
func Run(t *testing.T, impl Implementation, s Suite) {
	t.Helper()
	results, err := Check(impl, s)
	if err != nil {
		t.Fatalf("loading vectors: %v", err)
	}
	if len(results) == 0 {
		t.Fatalf("no vectors to run")
	}
	for _, r := range results {
		t.Run(r.Vector.Package+"/"+r.Vector.Name, func(t *testing.T) {
			if r.Skipped {
				t.Skipf("%s not supported", r.Vector.Decision)
			}
			if r.Failure != "" {
				t.Errorf("%s (%s, source %s):\n%s", r.Vector.Decision, r.Vector.File, r.Vector.Source, r.Failure)
			}
		})
	}
}
