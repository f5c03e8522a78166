package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSimulateClusterGolden: the example scenarios' timelines match their
// golden files (testdata/scenarios/<name>.golden; -update rewrites them,
// they are derived output checked by reading), and tell the story each
// scenario's comment promises.
func TestSimulateClusterGolden(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name  string
		args  []string
		story []string
	}{
		{"rolling-outage-drain", []string{"--until", "12m"}, []string{
			"create         ReplicaSet shop/web-", // the new ReplicaSet at the image change
			"user             stopNode       Node node-c",
			"patch          Node node-c (TaintNode)",
			"evict          Pod shop/web-",              // the drain
			"NoDisruptionsAllowed",                      // refused under the budget
			"taint-eviction   delete         Pod shop/", // node-c's pods evicted after 300 s
			"cronjob          create         Job shop/report-",
			"Deployment shop/web: 6 replica(s), 6 updated, 6 ready, 6 available",
			"Node node-b: Ready=True, unschedulable",
		}},
		{"statefulset-update", nil, []string{
			"create         ControllerRevision data/db-",
			"delete         Pod data/db-2 (Outdated)",
			"delete         Pod data/db-0 (Outdated)",
			"settled:",
		}},
		{"job-failures", nil, []string{
			"[Failed] (Exited)",
			"Job batch/import: 0 active, 0 succeeded, 4 failed; FailureTarget (BackoffLimitExceeded), Failed (BackoffLimitExceeded)",
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			file := filepath.Join("testdata", "scenarios", c.name+".yaml")
			args := append([]string{"simulate", "cluster", "--scenario", file}, c.args...)
			code, out, errOut := runCLI(t, "", args...)
			if code != 0 {
				t.Fatalf("%v: exit %d: %s", args, code, errOut)
			}
			checkGolden(t, filepath.Join("scenarios", c.name), args, out)
			for _, s := range c.story {
				if !strings.Contains(squash(out), squash(s)) {
					t.Errorf("%s: the timeline lacks %q", c.name, s)
				}
			}
		})
	}
}

// TestSimulateClusterFormats: -o json is the trace (it parses, and holds
// the same writes as the text); --svg draws a chart with a column per busy
// instant; stdin and a JSON scenario work; the result does not depend on
// the order of the objects.
func TestSimulateClusterFormats(t *testing.T) {
	t.Parallel()
	file := filepath.Join("testdata", "scenarios", "job-failures.yaml")
	code, out, errOut := runCLI(t, "", "simulate", "cluster", "--scenario", file, "-o", "json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var rep struct {
		Settled *bool `json:"settled"`
		Trace   []struct {
			Controller string         `json:"controller"`
			Write      map[string]any `json:"write"`
		} `json:"trace"`
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	creates := 0
	for _, e := range rep.Trace {
		if e.Controller == "job" && e.Write["verb"] == "create" {
			creates++
		}
	}
	if rep.Settled == nil || !*rep.Settled || creates != 4 {
		t.Errorf("json: settled %v, %d pod creations; want settled, 4", rep.Settled, creates)
	}

	svg := filepath.Join(t.TempDir(), "job.svg")
	code, text, errOut := runCLI(t, "", "simulate", "cluster", "--scenario", file, "--svg", svg)
	if code != 0 {
		t.Fatalf("--svg: exit %d: %s", code, errOut)
	}
	b, err := os.ReadFile(svg)
	if err != nil {
		t.Fatal(err)
	}
	if steps := strings.Count(string(b), `<g class="step"`); steps < 10 || !strings.Contains(string(b), "simulate cluster: scenario job-failures.yaml") {
		t.Errorf("svg: %d columns, %.300s", steps, b)
	}

	// The same scenario on stdin, as JSON with the objects reversed.
	data, _ := os.ReadFile(file)
	js := yamlToJSONForTest(t, data)
	code, out2, errOut := runCLI(t, js, "simulate", "cluster", "--scenario", "-")
	if code != 0 {
		t.Fatalf("stdin: exit %d: %s", code, errOut)
	}
	if strings.SplitN(out2, "\n", 2)[1] != strings.SplitN(text, "\n", 2)[1] {
		t.Errorf("JSON on stdin with the objects reversed differs:\n%s", out2)
	}
}

func yamlToJSONForTest(t *testing.T, data []byte) string {
	t.Helper()
	docs, err := documents(data)
	if err != nil || len(docs) != 1 {
		t.Fatalf("%v, %d documents", err, len(docs))
	}
	var m map[string]any
	if err := json.Unmarshal(docs[0], &m); err != nil {
		t.Fatal(err)
	}
	objs := m["objects"].([]any)
	for i, j := 0, len(objs)-1; i < j; i, j = i+1, j-1 {
		objs[i], objs[j] = objs[j], objs[i]
	}
	b, _ := json.Marshal(m)
	return string(b)
}

// TestSimulateClusterInput: a dump alone is a scenario (typed Lists whose
// items carry no kind, as the API server returns them; a stream; a
// cluster-info dump with pod logs between the Lists); kinds kubesem does
// not model are listed, never silently dropped; bad input exits 2 naming
// the field.
func TestSimulateClusterInput(t *testing.T) {
	t.Parallel()
	const node = `{"metadata":{"name":"node-a"},"status":{"conditions":[{"type":"Ready","status":"True","lastHeartbeatTime":"2026-11-23T12:00:00Z"}]}}`
	dump := `{"kind":"NodeList","apiVersion":"v1","items":[` + node + `]}
==== START logs for container app of pod shop/x ====
some { log [ text
==== END logs for container app of pod shop/x ====
{"kind":"ServiceList","apiVersion":"v1","items":[{"metadata":{"name":"web","namespace":"shop"}}]}
{"kind":"DeploymentList","apiVersion":"apps/v1","items":[{"metadata":{"name":"web","namespace":"shop"},"spec":{"replicas":2,"selector":{"matchLabels":{"app":"web"}},"template":{"metadata":{"labels":{"app":"web"}},"spec":{"containers":[{"name":"app","image":"web:1"}]}}}}]}
`
	code, out, errOut := runCLI(t, dump, "simulate", "cluster", "--scenario", "-", "--start", "2026-11-23T12:00:00Z")
	if code != 0 {
		t.Fatalf("dump: exit %d: %s", code, errOut)
	}
	for _, want := range []string{"1 Deployment, 1 Node; 0 event(s)", "not modelled, not run: Service shop/web", "create         ReplicaSet shop/web-", "Deployment shop/web: 2 replica(s), 2 updated, 2 ready, 2 available"} {
		if !strings.Contains(out, want) {
			t.Errorf("dump: output lacks %q:\n%s", want, out)
		}
	}
	for _, c := range []struct{ in, want string }{
		{"start: 2026-11-23T12:00:00Z\nevents:\n- {at: 1m, kind: explode, target: {kind: Node, name: a}}\n", "events[0].kind"},
		{"start: 2026-11-23T12:00:00Z\nevents:\n- {at: soon, kind: cordon, target: {kind: Node, name: a}}\n", "events[0].at"},
		{"start: 2026-11-23T12:00:00Z\nevnts: []\n", "evnts"},
		{"start: 2026-11-23T12:00:00Z\nevents:\n- {at: 1m, kind: create, object: {kind: Service, metadata: {name: x}}}\n", "events[0].object.kind"},
		{"objects:\n- kind: Deployment\n  metadata: {name: web}\n", "objects[0].metadata.namespace"},
		{"{\"objects\": [}", "line 1, column 14"},
	} {
		code, _, errOut := runCLI(t, c.in, "simulate", "cluster", "--scenario", "-")
		if code != 2 || !strings.Contains(errOut, c.want) || strings.Count(errOut, "\n") != 1 {
			t.Errorf("%q: exit %d, %q; want 2 and one line naming %s", c.in, code, errOut, c.want)
		}
	}
}

// squash replaces every run of spaces by one, so that checks do not depend
// on column widths.
func squash(s string) string {
	for strings.Contains(s, "  ") {
		s = strings.ReplaceAll(s, "  ", " ")
	}
	return s
}
