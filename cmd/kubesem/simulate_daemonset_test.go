package main

import (
	"testing"
)

// TestSimulateDaemonSetGolden compares `kubesem simulate daemonset` with
// golden files; run with -update to rewrite them.
func TestSimulateDaemonSetGolden(t *testing.T) {
	t.Parallel()
	cases := []goldenCase{
		{"daemonset_default", []string{"simulate", "daemonset"}},
		{"daemonset_surge", []string{"simulate", "daemonset", "--max-unavailable", "0", "--max-surge", "2"}},
		{"daemonset_percent", []string{"simulate", "daemonset", "--nodes", "10", "--max-unavailable", "25%"}},
		// PR #117658: a NotReady node holding the new pod stalls the rollout.
		{"daemonset_not_ready", []string{"simulate", "daemonset", "--not-ready", "node-3@0s"}},
		// A tainted node that is not tolerated keeps its old pod until the
		// budget lets the update delete it; a cordoned node runs one.
		{"daemonset_taints", []string{"simulate", "daemonset", "--taint", "node-1=gpu:NoSchedule,node-2=node.kubernetes.io/unschedulable:NoSchedule"}},
		// KNOWN GAP of the world (reported): with minReadySeconds > 0 the
		// rollout stalls once the surge pod is ready, because nothing
		// requeues the DaemonSet when it becomes available (v1.36.3 requeues
		// after minReadySeconds). When the world learns it, this golden
		// changes: check that the v3 rollout then completes.
		{"daemonset_second_update", []string{"simulate", "daemonset", "--max-surge", "1", "--max-unavailable", "0", "--second-update", "15s", "--min-ready-seconds", "5"}},
	}
	runGoldens(t, cases)
}

// TestSimulateDaemonSetBadFlags: invalid budgets and flags are usage errors.
func TestSimulateDaemonSetBadFlags(t *testing.T) {
	t.Parallel()
	for _, args := range [][]string{
		{"simulate", "daemonset", "--max-unavailable", "x%"},
		{"simulate", "daemonset", "--max-surge", "-1"},
		{"simulate", "daemonset", "--nodes", "0"},
		{"simulate", "daemonset", "--taint", "node-1=gpu:Sometimes"},
		{"simulate", "daemonset", "--not-ready", "node-9@1s"},
	} {
		if code, _, _ := runCLI(t, "", args...); code != 2 {
			t.Errorf("%v: exit %d, want 2", args, code)
		}
	}
}
