package statefulset_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/kubesem/kubesem/conformance"
	"github.com/kubesem/kubesem/conformance/upstream/internal/difftest"
	"github.com/kubesem/kubesem/plan"
	"github.com/kubesem/kubesem/statefulset"
)

// TestStatefulSetCheckVectorsUpstream replays the statefulset.Step vectors
// of testdata/statefulset/check-*.json (the decisions along a model-checker
// counterexample, written by kubesem check --vectors) through the harness
// of TestStatefulSetVectorsUpstream: vectorWant runs one upstream
// UpdateStatefulSet at the vector's now and renders what it did as a Plan.
// A vector's want must be upstream's and kubesem's Step must match it.
//
// With KUBESEM_WRITE_VECTORS=1 an empty want ({}, as kubesem check writes
// it) is filled with upstream's answer, never kubesem's; a want that is
// not empty is checked as always.
func TestStatefulSetCheckVectorsUpstream(t *testing.T) {
	files, err := filepath.Glob(difftest.Repo("testdata", "statefulset", "check-*.json"))
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatal("no testdata/statefulset/check-*.json")
	}
	write := os.Getenv(difftest.WriteVectorsEnv) == "1"
	n := 0
	for _, file := range files {
		fills := map[string]map[string]any{} // vector → key → value
		for _, v := range readVectors(t, filepath.Base(file)) {
			if v.Decision != "statefulset.Step" {
				continue
			}
			n++
			opts := opts(v.Options)
			t.Run(v.Name, func(t *testing.T) {
				defer setGate(opts.MaxUnavailableStatefulSet)()
				if v.WantError != nil {
					t.Fatalf("wantError %+v: a check vector's input is one the world's Step accepted", *v.WantError)
				}
				var in vectorInput
				if err := json.Unmarshal(v.Input, &in); err != nil {
					t.Fatal(err)
				}
				// vectorWant, observe and reachesUpdate run upstream at t0.
				saved := t0
				t0 = in.Now
				defer func() { t0 = saved }()
				want := vectorWant(t, &in)
				if write && sameJSON(v.Want, json.RawMessage("{}")) {
					var m map[string]any
					if err := json.Unmarshal(want, &m); err != nil {
						t.Fatal(err)
					}
					fills[v.Name] = m
					v.Want = want
				} else if !sameJSON(want, v.Want) {
					t.Fatalf("the vector's want is not upstream's:\nvector:   %s\nupstream: %s", difftest.CompactJSON(v.Want), difftest.CompactJSON(want))
				}
				p, err := statefulset.Step(&in.Set, in.Pods, in.Revisions, in.Claims, in.Now, opts)
				if err != nil {
					t.Fatalf("Step: %v", err)
				}
				got, err := plan.Encode(p)
				if err != nil {
					t.Fatal(err)
				}
				if ok, why := conformance.Match(v.Want, got); !ok {
					t.Fatalf("kubesem differs from v1.36.3: %s\nwant: %s\ngot:  %s", why, difftest.CompactJSON(v.Want), got)
				}
			})
		}
		if write && len(fills) > 0 && !t.Failed() {
			difftest.WriteFills(t, file, "statefulset.Step", fills, difftest.PlanKeysOf(reflect.TypeFor[statefulset.Plan]()),
				map[string][]string{"status": difftest.PlanKeysOf(reflect.TypeFor[statefulset.Status]())}, "TestStatefulSetCheckVectorsUpstream")
		}
	}
	t.Logf("%d statefulset.Step check vectors replayed against upstream", n)
}
