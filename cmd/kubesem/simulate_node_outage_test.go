package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSimulateNodeOutageGolden compares `kubesem simulate node-outage` with
// golden files; run with -update to rewrite them.
func TestSimulateNodeOutageGolden(t *testing.T) {
	t.Parallel()
	cases := []goldenCase{
		// Seed 001: one node stops; Unknown after 50 s (strict, checked every
		// 5 s), tainted, pods without tolerations go at once, web pods 300 s
		// later, the forever-tolerating agent stays.
		{"node_outage_seed", []string{"simulate", "node-outage"}},
		// The seed's 40 s grace period (a pre-1.32 default).
		{"node_outage_grace_40s", []string{"simulate", "node-outage", "--grace", "40s", "--duration", "2m"}},
		// A whole zone fails while another is healthy: FullDisruption, tainted
		// one node per 10 s at the normal rate; a node that comes back has
		// its eviction cancelled.
		{"node_outage_zone", []string{"simulate", "node-outage", "--stop", "zone-a@0s", "--recover", "zone-a-2@4m", "--duration", "6m"}},
		// Every zone fully disrupted: no NoExecute taints, no eviction.
		{"node_outage_all_zones", []string{"simulate", "node-outage", "--stop", "zone-a@0s,zone-b@0s", "--duration", "3m"}},
		// A partially disrupted small zone (≤ 50 nodes) stops evicting.
		{"node_outage_partial", []string{"simulate", "node-outage", "--zones", "zone-a=5,zone-b=2", "--stop", "zone-a-1@0s,zone-a-2@0s,zone-a-3@0s", "--duration", "2m"}},
	}
	runGoldens(t, cases)
}

// TestSimulateNodeOutageBadFlags: bad flags are usage errors (exit 2), and
// --svg writes a chart.
func TestSimulateNodeOutageBadFlags(t *testing.T) {
	t.Parallel()
	for _, args := range [][]string{
		{"--zones", "a"}, {"--zones", "a=0"}, {"--stop", "nowhere@1s"}, {"--stop", "zone-a-1@-1s"}, {"--duration", "0s"}, {"--grace", "-1s"},
	} {
		code, _, stderr := runCLI(t, "", append([]string{"simulate", "node-outage"}, args...)...)
		if code != 2 || stderr == "" {
			t.Errorf("%v = %d, %q; want 2 and a message", args, code, stderr)
		}
	}
	path := filepath.Join(t.TempDir(), "outage.svg")
	if code, _, stderr := runCLI(t, "", "simulate", "node-outage", "--duration", "1m", "--svg", path); code != 0 {
		t.Fatalf("--svg: %d %s", code, stderr)
	}
	b, err := os.ReadFile(path)
	if err != nil || !strings.Contains(string(b), "<svg") {
		t.Fatalf("--svg wrote %d bytes, %v", len(b), err)
	}
}
