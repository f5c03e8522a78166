package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
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

// TestExplainAppsNeverGuess: on the StatefulSet and DaemonSet dumps, every
// workload whose template revision, nodes or claims the dump cannot tell
// has outcome Unknown, a note saying why and no plan; every other one has
// a plan; the scenarios decide what v1.36.3 decides (the partition's next
// pod, the pod a crash-looping one blocks, the missing pod OnDelete
// recreates at the new revision, the surge's old pod, the NotReady node's
// old pod, the pod on a NoExecute-tainted node).
func TestExplainAppsNeverGuess(t *testing.T) {
	t.Parallel()
	type entry struct {
		Kind, Namespace, Name, Outcome string
		Actions, Notes                 []string
		Plan                           map[string]any
	}
	all := map[string]entry{}
	for _, dumpName := range []string{"stateful", "daemons", "nonodes"} {
		code, out, errOut := runCLI(t, "", "explain", "--now", "2026-11-23T12:00:00Z", "-o", "json", filepath.Join("testdata", "explain", dumpName+".json"))
		if code != 0 {
			t.Fatalf("explain %s = %d: %s", dumpName, code, errOut)
		}
		var es []entry
		if err := json.Unmarshal([]byte(out), &es); err != nil {
			t.Fatal(err)
		}
		for _, e := range es {
			all[e.Namespace+"/"+e.Name] = e
			if e.Kind != "StatefulSet" && e.Kind != "DaemonSet" {
				continue
			}
			if unknown := e.Outcome == "Unknown"; unknown != (e.Plan == nil) || unknown && len(e.Notes) == 0 {
				t.Errorf("%s %s/%s: outcome %s, plan %v, notes %q", e.Kind, e.Namespace, e.Name, e.Outcome, e.Plan != nil, e.Notes)
			}
		}
	}
	for name, want := range map[string]string{
		"data/db":                  "delete pod db-1 (Outdated)",
		"data/queue":               "Blocked",
		"data/cache":               "create pod cache-1 at revision cache-4b6f8d9c7 (Missing)",
		"data/ledger":              "Unknown",
		"infra/log-agent":          "delete pod log-agent-p4q8w (NewPodAvailable)",
		"kube-system/net-proxy":    "delete pod net-proxy-r9s2t (OldPodUnavailable)",
		"monitoring/node-exporter": "delete pod node-exporter-c5v8b (ShouldNotRun)",
		"kube-system/gpu-plugin":   "Unknown",
		"infra/metrics-relay":      "delete pod metrics-relay-h5j6k (FailedDaemonPod)",
		"infra/agent":              "Unknown",
		"infra/web":                "Unknown",
		"infra/web-noclaims":       "delete pod web-noclaims-0 (Outdated)",
		"/node-c":                  "add taint node.kubernetes.io/memory-pressure:NoSchedule (condition)",
	} {
		e, ok := all[name]
		if !ok {
			t.Errorf("%s: not explained", name)
			continue
		}
		if e.Outcome != want && !slices.Contains(e.Actions, want) {
			t.Errorf("%s: outcome %s, actions %q; want %q", name, e.Outcome, e.Actions, want)
		}
	}
	for name, note := range map[string]string{
		"data/ledger":            "generation 3 not yet observed",
		"kube-system/gpu-plugin": "none of the DaemonSet's 1 ControllerRevisions holds spec.template",
		"infra/agent-next":       "no pod of the DaemonSet carries the current template generation 2",
		"data/search":            "although generation 1 is observed",
		"infra/agent":            "the dump holds no Node",
		"infra/web":              "holds no PersistentVolumeClaim",
	} {
		if e := all[name]; !strings.Contains(strings.Join(e.Notes, "\n"), note) {
			t.Errorf("%s: notes %q lack %q", name, e.Notes, note)
		}
	}
}

// TestExplainUnlabelledDaemonSetRevision: a DaemonSet ControllerRevision
// without the controller-revision-hash label stands for its whole name (the
// controller labels it so), not the name without "<ds>-": the pod created
// from it is up to date and nothing is replaced.
func TestExplainUnlabelledDaemonSetRevision(t *testing.T) {
	t.Parallel()
	const tmpl = `{"metadata":{"labels":{"app":"agent"}},"spec":{"containers":[{"name":"app","image":"agent:1"}],"tolerations":[{"operator":"Exists"}]}}`
	owner := `"ownerReferences":[{"apiVersion":"apps/v1","kind":"DaemonSet","name":"agent","uid":"ds-uid","controller":true}]`
	dump := `{"apiVersion":"v1","kind":"Node","metadata":{"name":"node-a"},"status":{"conditions":[{"type":"Ready","status":"True","lastHeartbeatTime":"2026-11-23T11:59:50Z"}]}}
{"apiVersion":"apps/v1","kind":"DaemonSet","metadata":{"name":"agent","namespace":"infra","uid":"ds-uid","generation":1,"annotations":{"deprecated.daemonset.template.generation":"1"}},
 "spec":{"selector":{"matchLabels":{"app":"agent"}},"template":` + tmpl + `,"updateStrategy":{"type":"RollingUpdate","rollingUpdate":{"maxUnavailable":1,"maxSurge":0}},"revisionHistoryLimit":10},
 "status":{"currentNumberScheduled":1,"desiredNumberScheduled":1,"numberReady":1,"numberAvailable":1,"updatedNumberScheduled":1,"observedGeneration":1}}
{"apiVersion":"apps/v1","kind":"ControllerRevision","metadata":{"name":"agent-old","namespace":"infra","labels":{"app":"agent"},` + owner + `},
 "data":{"spec":{"template":` + tmpl[:len(tmpl)-1] + `,"$patch":"replace"}}},"revision":1}
{"apiVersion":"v1","kind":"Pod","metadata":{"name":"agent-p","namespace":"infra","uid":"p-uid","creationTimestamp":"2026-11-23T10:00:00Z",
 "labels":{"app":"agent","controller-revision-hash":"agent-old","pod-template-generation":"1"},` + owner + `},
 "spec":{"nodeName":"node-a","containers":[{"name":"app","image":"agent:1"}]},
 "status":{"phase":"Running","conditions":[{"type":"Ready","status":"True","lastTransitionTime":"2026-11-23T10:00:00Z"}]}}
`
	code, out, errOut := runCLI(t, dump, "explain", "--now", "2026-11-23T12:00:00Z")
	if code != 0 {
		t.Fatalf("explain = %d: %s", code, errOut)
	}
	if !strings.Contains(out, "current template: hash agent-old (ControllerRevision agent-old holds spec.template)") || strings.Contains(out, "delete pod") {
		t.Errorf("explain:\n%s", out)
	}
}
