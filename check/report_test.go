package check_test

import (
	"testing"

	"github.com/kubesem/kubesem/check"
	"github.com/kubesem/kubesem/cluster"
)

// TestCounterexampleReplays: the world of a counterexample's scenario, run
// to its instant, is the state the exploration found (same fingerprint):
// a counterexample saved as a scenario replays step for step.
func TestCounterexampleReplays(t *testing.T) {
	t.Parallel()
	for _, c := range knownCases() {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			r, err := check.Explore(c.sc, c.a, nil, check.Options{})
			if err != nil {
				t.Fatal(err)
			}
			n := 0
			for _, res := range r.Failed() {
				cx := res.Counterexample
				w, err := cluster.New(cx.Scenario(c.sc), cluster.Options{})
				if err != nil {
					t.Fatal(err)
				}
				w.Run(w.Start.Add(cx.At))
				if got := check.Fingerprint(w, c.sc, c.a, check.Options{}); got != cx.Hash {
					t.Errorf("%s: replayed state at +%v has fingerprint %x; want %x", res.Property, cx.At, got, cx.Hash)
				}
				if w.Err != nil {
					t.Errorf("%s: replay stuck: %v", res.Property, w.Err)
				}
				n++
			}
			if n == 0 {
				t.Error("no counterexample to replay")
			}
		})
	}
}

// TestMergeShards: the reports of n shards merge into the report of the
// whole search: the same verdicts, at least as many states.
func TestMergeShards(t *testing.T) {
	t.Parallel()
	c := knownCases()[3]
	whole, err := check.Explore(c.sc, c.a, nil, check.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var parts []*check.Report
	for i := range 3 {
		r, err := check.Explore(c.sc, c.a, nil, check.Options{Shard: check.Shard{Index: i, Count: 3, Width: 4}})
		if err != nil {
			t.Fatal(err)
		}
		parts = append(parts, r)
	}
	m := check.Merge(parts...)
	if m.States < whole.States {
		t.Errorf("merged %d states < whole %d", m.States, whole.States)
	}
	for i, x := range whole.Results {
		y := m.Results[i]
		if x.Property != y.Property || x.Held != y.Held {
			t.Errorf("%s held %v; merged %s held %v", x.Property, x.Held, y.Property, y.Held)
			continue
		}
		if x.Counterexample != nil && x.Counterexample.Depth != y.Counterexample.Depth {
			t.Errorf("%s: shortest counterexample depth %d; merged %d", x.Property, x.Counterexample.Depth, y.Counterexample.Depth)
		}
	}
	t.Logf("whole %d states; shards %d, %d, %d", whole.States, parts[0].States, parts[1].States, parts[2].States)
}
