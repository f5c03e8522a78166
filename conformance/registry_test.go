package conformance_test

import (
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/kubesem/kubesem"
	"github.com/kubesem/kubesem/conformance"
	"github.com/kubesem/kubesem/intstr"
)

// pendingVectors lists decisions that are registered but still lack a
// vector. It must be empty when an issue closes.
var pendingVectors = map[string]bool{}

// TestRegistryMatchesVectors checks both directions: every registered
// decision has a vector, and every vector names a registered decision.
func TestRegistryMatchesVectors(t *testing.T) {
	t.Parallel()
	vectors, err := conformance.Load(kubesem.Vectors())
	if err != nil {
		t.Fatal(err)
	}
	problems := registryProblems(conformance.Registry(), vectors)
	for _, p := range problems {
		t.Error(p)
	}
}

func registryProblems(reg []conformance.Decision, vectors []conformance.Vector) []string {
	var problems []string
	used := map[string]int{}
	registered := map[string]bool{}
	for _, d := range reg {
		if registered[d.Name] {
			problems = append(problems, "decision "+d.Name+" registered twice")
		}
		registered[d.Name] = true
	}
	for _, v := range vectors {
		used[v.Decision]++
		if !registered[v.Decision] {
			problems = append(problems, v.File+": vector "+v.Name+" names unregistered decision "+v.Decision)
		}
	}
	for _, d := range reg {
		if used[d.Name] == 0 && !pendingVectors[d.Name] {
			problems = append(problems, "decision "+d.Name+" has no vector")
		}
		if used[d.Name] > 0 && pendingVectors[d.Name] {
			problems = append(problems, "decision "+d.Name+" has vectors now: remove it from pendingVectors")
		}
		if d.Input == nil || d.Output == nil {
			problems = append(problems, "decision "+d.Name+" is not bound with conformance.Bind")
		}
	}
	return problems
}

// TestRegistryProblemsCanFail shows the check above fails for a decision
// without vectors and for a vector without a decision.
func TestRegistryProblemsCanFail(t *testing.T) {
	t.Parallel()
	typ := reflect.TypeFor[int]()
	reg := []conformance.Decision{{Name: "intstr.Scaled", Input: typ, Output: typ}, {Name: "intstr.Lonely", Input: typ, Output: typ}}
	vectors := []conformance.Vector{{Decision: "intstr.Scaled", Name: "a"}, {Decision: "intstr.Ghost", Name: "b"}}
	got := registryProblems(reg, vectors)
	if len(got) != 2 || !strings.Contains(got[0], "intstr.Ghost") || !strings.Contains(got[1], "intstr.Lonely") {
		t.Errorf("registryProblems = %q; want the ghost vector and the lonely decision", got)
	}
}

func TestShape(t *testing.T) {
	t.Parallel()
	type in struct {
		Value  intstr.Value      `json:"value"`
		Every  time.Duration     `json:"every"`
		At     *time.Time        `json:"at"`
		Names  []string          `json:"names,omitempty"`
		Labels map[string]string `json:"labels"`
		Hidden int               `json:"-"`
	}
	got := conformance.Shape(reflect.TypeFor[in]())
	want := `{"value": int|"N%", "every": duration, "at"?: time, "names"?: [string], "labels": {string: string}}`
	if got != want {
		t.Errorf("Shape = %s\nwant    %s", got, want)
	}
}
