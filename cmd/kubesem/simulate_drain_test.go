package main

import (
	"path/filepath"
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
		// A user's own cluster: a ReplicationController's four pods on three
		// nodes under maxUnavailable 1, each node drained in turn.
		{"drain_cluster", []string{"simulate", "drain", "--cluster", filepath.Join("testdata", "drain_cluster.json")}},
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
		{"simulate", "drain", "--node3-capacity", "-1"},
	} {
		if code, _, _ := runCLI(t, "", args...); code != 2 {
			t.Errorf("%v: exit %d, want 2", args, code)
		}
	}
}
