package conformance_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/kubesem/kubesem"
	"github.com/kubesem/kubesem/conformance"
	"github.com/kubesem/kubesem/plan"
)

// planExemption lets the wants of one decision leave out one top-level key
// of its Plan. The only admissible reason is upstream nondeterminism: a key
// whose value v1.36.3 itself does not fix for the vector's input.
type planExemption struct {
	Decision, Key, Why string
}

// planExemptions is the one table of keys a Plan vector may leave out.
var planExemptions = []planExemption{}

// TestStepVectorsStateWholePlan: the matcher ignores keys a want leaves
// out, so a Step vector that omits outcome, status, events or requeue pins
// nothing about them. Every want (and every wantOneOf answer) of a decision
// whose output is a Plan must name every top-level key of that Plan's
// canonical encoding, save the exemptions in planExemptions.
func TestStepVectorsStateWholePlan(t *testing.T) {
	t.Parallel()
	vectors, err := conformance.Load(kubesem.Vectors())
	if err != nil {
		t.Fatal(err)
	}
	reg := conformance.Registry()
	for _, p := range exemptionProblems(reg, planExemptions) {
		t.Error(p)
	}
	gaps := planGaps(reg, vectors, planExemptions)
	for _, d := range reg {
		if !isPlanDecision(d) {
			continue
		}
		if g, gap := gaps[d.Name]; gap {
			t.Errorf("%s", g)
		}
	}
}

// TestPlanGapsCanFail shows the check failing on a rollout.Step want
// without outcome, and passing once an exemption names the key.
func TestPlanGapsCanFail(t *testing.T) {
	t.Parallel()
	var step conformance.Decision
	for _, d := range conformance.Registry() {
		if d.Name == "rollout.Step" {
			step = d
		}
	}
	if !isPlanDecision(step) {
		t.Fatal("rollout.Step is not recognised as a Plan decision")
	}
	keys, err := planKeys(step.Output)
	if err != nil {
		t.Fatal(err)
	}
	whole := map[string]any{}
	for _, k := range keys {
		whole[k] = nil
	}
	delete(whole, "outcome")
	want, _ := json.Marshal(whole)
	vs := []conformance.Vector{{Decision: "rollout.Step", Name: "no outcome", Want: want}}
	gaps := planGaps([]conformance.Decision{step}, vs, nil)
	g, ok := gaps["rollout.Step"]
	if !ok || g.Vectors != 1 || g.Keys["outcome"] != 1 || len(g.Keys) != 1 {
		t.Fatalf("planGaps = %v; want one vector missing outcome", gaps)
	}
	if !strings.Contains(g.String(), "outcome 1") {
		t.Errorf("report %q does not name the key", g)
	}
	exempt := []planExemption{{"rollout.Step", "outcome", "test"}}
	if gaps := planGaps([]conformance.Decision{step}, vs, exempt); len(gaps) != 0 {
		t.Errorf("with outcome exempt, planGaps = %v; want none", gaps)
	}
	if p := exemptionProblems([]conformance.Decision{step}, []planExemption{{"rollout.Step", "nosuchkey", "x"}}); len(p) != 1 {
		t.Errorf("an exemption of an unknown key gives %q; want one problem", p)
	}
}

// isPlanDecision reports whether d answers with a Plan: its name ends in
// ".Step", or its output type (or a type it embeds) is named Plan or
// <Something>Plan.
func isPlanDecision(d conformance.Decision) bool {
	if strings.HasSuffix(d.Name, ".Step") {
		return true
	}
	t := d.Output
	if t == nil {
		return false
	}
	if strings.HasSuffix(t.Name(), "Plan") {
		return true
	}
	if t.Kind() == reflect.Struct {
		for i := range t.NumField() {
			if f := t.Field(i); f.Anonymous && strings.HasSuffix(f.Type.Name(), "Plan") {
				return true
			}
		}
	}
	return false
}

// planKeys returns the top-level keys of the canonical encoding of a zero
// value of t, in encoding order: the keys every want must state (keys
// omitted when empty are not among them).
func planKeys(t reflect.Type) ([]string, error) {
	raw, err := plan.Encode(reflect.Zero(t).Interface())
	if err != nil {
		return nil, err
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return nil, fmt.Errorf("%s does not encode as an object: %s", t, raw)
	}
	var keys []string
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, err
		}
		keys = append(keys, tok.(string))
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			return nil, err
		}
	}
	return keys, nil
}

// planGap is what the vectors of one Plan decision leave out.
type planGap struct {
	Decision string
	// Vectors counts the vectors with at least one missing key, of Total
	// vectors with a want or wantOneOf.
	Vectors, Total int
	// Keys counts, per missing key, the vectors that miss it.
	Keys  map[string]int
	order []string
	// First names a few offending vectors.
	First []string
}

func (g planGap) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %d of %d vectors with a want leave out Plan keys:", g.Decision, g.Vectors, g.Total)
	for _, k := range g.order {
		if n := g.Keys[k]; n > 0 {
			fmt.Fprintf(&b, " %s %d,", k, n)
		}
	}
	s := strings.TrimSuffix(b.String(), ",")
	return s + fmt.Sprintf(" (e.g. %s)", strings.Join(g.First, "; "))
}

// planGaps returns, per Plan decision of reg, the keys its vectors' wants
// leave out beyond the exemptions; decisions without gaps are absent.
func planGaps(reg []conformance.Decision, vectors []conformance.Vector, exempt []planExemption) map[string]planGap {
	required := map[string][]string{}
	for _, d := range reg {
		if !isPlanDecision(d) {
			continue
		}
		keys, err := planKeys(d.Output)
		if err != nil {
			required[d.Name] = []string{"<" + err.Error() + ">"}
			continue
		}
		required[d.Name] = slices.DeleteFunc(keys, func(k string) bool {
			return slices.ContainsFunc(exempt, func(e planExemption) bool { return e.Decision == d.Name && e.Key == k })
		})
	}
	gaps := map[string]planGap{}
	for _, v := range vectors {
		keys, ok := required[v.Decision]
		if !ok {
			continue
		}
		answers := v.WantOneOf
		if len(v.Want) > 0 {
			answers = []json.RawMessage{v.Want}
		}
		if len(answers) == 0 {
			continue // wantError
		}
		g, ok := gaps[v.Decision]
		if !ok {
			g = planGap{Decision: v.Decision, Keys: map[string]int{}, order: keys}
		}
		g.Total++
		missing := map[string]bool{}
		for _, a := range answers {
			var obj map[string]json.RawMessage
			if err := json.Unmarshal(a, &obj); err != nil {
				missing["<not an object>"] = true
				continue
			}
			for _, k := range keys {
				if _, ok := obj[k]; !ok {
					missing[k] = true
				}
			}
		}
		if len(missing) > 0 {
			g.Vectors++
			for k := range missing {
				g.Keys[k]++
			}
			if len(g.First) < 3 {
				g.First = append(g.First, fmt.Sprintf("%s %q", v.File, v.Name))
			}
		}
		gaps[v.Decision] = g
	}
	for name, g := range gaps {
		if g.Vectors == 0 {
			delete(gaps, name)
		}
	}
	return gaps
}

// exemptionProblems reports exemptions naming no Plan decision of reg, a
// key its Plan does not have, or no reason.
func exemptionProblems(reg []conformance.Decision, exempt []planExemption) []string {
	var problems []string
	for _, e := range exempt {
		i := slices.IndexFunc(reg, func(d conformance.Decision) bool { return d.Name == e.Decision })
		if i < 0 || !isPlanDecision(reg[i]) {
			problems = append(problems, fmt.Sprintf("exemption %v: %s is not a registered Plan decision", e, e.Decision))
			continue
		}
		keys, _ := planKeys(reg[i].Output)
		if !slices.Contains(keys, e.Key) {
			problems = append(problems, fmt.Sprintf("exemption %v: the %s Plan has no key %q", e, e.Decision, e.Key))
		}
		if strings.TrimSpace(e.Why) == "" {
			problems = append(problems, fmt.Sprintf("exemption %v: no reason", e))
		}
	}
	return problems
}
