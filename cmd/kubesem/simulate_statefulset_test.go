package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSimulateStatefulSetGolden compares `kubesem simulate statefulset`
// with golden files; run with -update to rewrite them.
func TestSimulateStatefulSetGolden(t *testing.T) {
	t.Parallel()
	cases := []goldenCase{
		{"statefulset_seed", []string{"simulate", "statefulset"}},
		{"statefulset_never_ready", []string{"simulate", "statefulset", "--never-ready", "2", "--steps", "14"}},
		{"statefulset_never_ready_parallel", []string{"simulate", "statefulset", "--never-ready", "1", "--policy", "Parallel", "--steps", "14"}},
		{"statefulset_partition", []string{"simulate", "statefulset", "--replicas", "4", "--start", "5", "--partition", "2"}},
		{"statefulset_max_unavailable", []string{"simulate", "statefulset", "--replicas", "5", "--policy", "Parallel", "--max-unavailable", "2", "--gate", "--ready-after", "2"}},
		{"statefulset_scale", []string{"simulate", "statefulset", "--replicas", "4", "--update-at", "-1", "--scale-at", "10", "--scale-to", "1"}},
		{"statefulset_ondelete", []string{"simulate", "statefulset", "--strategy", "OnDelete"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			svg := filepath.Join(t.TempDir(), "x.svg")
			code, out, stderr := runCLI(t, "", append(c.args, "--svg", svg)...)
			if code != 0 {
				t.Fatalf("%v: exit %d: %s", c.args, code, stderr)
			}
			b, err := os.ReadFile(svg)
			if err != nil || !strings.Contains(string(b), "<svg") {
				t.Fatalf("%v: no SVG: %v", c.args, err)
			}
			checkGolden(t, c.name, c.args, out)
		})
	}
}

// TestSimulateStatefulSetBadFlags: invalid sets are usage errors (exit 2).
func TestSimulateStatefulSetBadFlags(t *testing.T) {
	t.Parallel()
	for _, args := range [][]string{
		{"simulate", "statefulset", "--replicas", "-1"},
		{"simulate", "statefulset", "--policy", "Burst"},
		{"simulate", "statefulset", "--strategy", "Recreate"},
		{"simulate", "statefulset", "--max-unavailable", "0"},
		{"simulate", "statefulset", "--partition", "-2"},
		{"simulate", "statefulset", "--steps", "0"},
	} {
		if code, _, _ := runCLI(t, "", args...); code != 2 {
			t.Errorf("%v: exit %d, want 2", args, code)
		}
	}
}
