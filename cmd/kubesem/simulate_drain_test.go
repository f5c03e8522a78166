package main

import (
	"testing"
)

// TestSimulateDrainGolden compares `kubesem simulate drain` with golden
// files; run with -update to rewrite them.
func TestSimulateDrainGolden(t *testing.T) {
	t.Parallel()
	cases := []goldenCase{
		{"drain_seed", []string{"simulate", "drain"}},
		{"drain_always_allow", []string{"simulate", "drain", "--policy", "AlwaysAllow"}},
		{"drain_max_unavailable", []string{"simulate", "drain", "--min-available", "", "--max-unavailable", "34%"}},
		// Four pods on three nodes under maxUnavailable 1, each node
		// drained in turn (what drain_cluster.json described before the
		// world: --cluster is gone, simulate cluster --scenario replays a
		// cluster of your own).
		{"drain_each_node", []string{"simulate", "drain", "--replicas", "4", "--min-available", "", "--max-unavailable", "1", "--drain", "node-1@0s,node-2@2m,node-3@4m", "--duration", "10m"}},
	}
	runGoldens(t, cases)
}

// TestSimulateDrainBadFlags: invalid budgets are usage errors (exit 2).
func TestSimulateDrainBadFlags(t *testing.T) {
	t.Parallel()
	for _, args := range [][]string{
		{"simulate", "drain", "--max-unavailable", "1"},
		{"simulate", "drain", "--min-available", "101%"},
		{"simulate", "drain", "--policy", "Sometimes"},
		{"simulate", "drain", "--replicas", "0"},
		{"simulate", "drain", "--drain", "node-9@0s"},
		{"simulate", "drain", "--drain", "node-1"},
	} {
		if code, _, _ := runCLI(t, "", args...); code != 2 {
			t.Errorf("%v: exit %d, want 2", args, code)
		}
	}
}
