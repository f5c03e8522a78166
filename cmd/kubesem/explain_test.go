package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestExplainGolden: explain on the checked-in cluster dumps (a kubectl
// List of a shop namespace mid-rollout, stuck, paused and recreating; a
// stream of batch objects: CronJobs running, suspended and forbidden, Jobs
// failing, indexed and finished; a List of StatefulSets with their
// ControllerRevisions and claims: a partitioned rolling update, one stuck on
// an unready pod, OnDelete, one whose template revision is unknown; a
// stream of DaemonSets and Nodes: a maxSurge rolling update, a tainted
// node, a NotReady node, an unknown template hash; a stream without Nodes
// and ControllerRevisions) matches the golden outputs, text and JSON;
// -update rewrites them. The JSON output must parse.
func TestExplainGolden(t *testing.T) {
	t.Parallel()
	for _, dumpName := range []string{"shop", "batch", "stateful", "daemons", "nonodes"} {
		for _, format := range []string{"text", "json"} {
			in := filepath.Join("testdata", "explain", dumpName+".json")
			code, out, errOut := runCLI(t, "", "explain", "--now", "2026-11-23T12:00:00Z", "-o", format, in)
			if code != 0 {
				t.Fatalf("explain %s -o %s = %d: %s", dumpName, format, code, errOut)
			}
			if format == "json" {
				var v []map[string]any
				if err := json.Unmarshal([]byte(out), &v); err != nil || len(v) == 0 {
					t.Fatalf("explain %s -o json does not parse: %v", dumpName, err)
				}
			}
			golden := filepath.Join("testdata", "explain", dumpName+"."+format+".golden")
			if *update {
				if err := os.WriteFile(golden, []byte(out), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run with -update to create it)", err)
			}
			if string(want) != out {
				t.Errorf("explain %s -o %s differs from %s (run with -update after checking):\n%s", dumpName, format, golden, out)
			}
		}
	}
	// Stdin and a stream of several Lists work too.
	shop, _ := os.ReadFile(filepath.Join("testdata", "explain", "shop.json"))
	batch, _ := os.ReadFile(filepath.Join("testdata", "explain", "batch.json"))
	code, out, errOut := runCLI(t, string(shop)+"\n"+string(batch), "explain", "--now", "2026-11-23T12:00:00Z")
	if code != 0 || !strings.Contains(out, "Deployment shop/web") || !strings.Contains(out, "CronJob batch/reports") {
		t.Errorf("explain on stdin = %d, %s", code, errOut)
	}
}
