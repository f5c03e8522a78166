package main

import (
	"encoding/json"
	"io/fs"
	"os"
	pathpkg "path"
	"path/filepath"
	"reflect"
	"regexp"
	"runtime/debug"
	"strings"
	"testing"
	"time"

	"github.com/kubesem/kubesem/conformance"
	"github.com/kubesem/kubesem/job"
	"github.com/kubesem/kubesem/node"
	"github.com/kubesem/kubesem/podgc"
)

// The four known cases of issue 22, and the rolling update of its scale
// goal, as scenario files: each known case is found (exit 1, the property
// VIOLATED, a timeline), each fixed configuration held (exit 0).
var checkCases = []struct {
	file, property string
	story          []string // lines of the counterexample's timeline
}{
	{"statefulset-forced-rollback", "statefulset-completes", []string{
		"delete         Pod default/web-2 (Outdated)",
		"create         Pod default/web-2 (Missing)",
		"update         ControllerRevision default/web-", // the revert: a rollback of the revision
		"StatefulSet default/web: 3 replica(s), 2 ready",
	}},
	{"drain-budget-zero", "drain-completes", []string{
		"user             update         Node node-0 (drain)",
		"evict          Pod default/web-",
		"NoDisruptionsAllowed The disruption budget web needs 6 healthy pods",
		"(and 203 more time(s) until +18m10s)",
	}},
	{"job-replacement-beside-terminating", "job-exclusive", []string{
		"user             evict          Pod default/batch-",
		"job              create         Pod default/batch-",
		"pods: 1 ready, 1 running not ready, 1 terminating",
	}},
	{"daemonset-notready-node", "daemonset-completes", []string{
		"user             stopNode       Node node-",
		"user             update         DaemonSet default/agent",
		"daemonset        delete         Pod default/agent-",
	}},
}

// timing hides the one line that varies between runs.
var timing = regexp.MustCompile(`explored in [0-9.]+[µm]?s`)

func TestCheckKnownCases(t *testing.T) {
	t.Parallel()
	for _, c := range checkCases {
		t.Run(c.file, func(t *testing.T) {
			t.Parallel()
			args := []string{"check", "--scenario", filepath.Join("testdata", "check", c.file+".yaml")}
			code, out, errOut := runCLI(t, "", args...)
			if code != 1 {
				t.Fatalf("%v: exit %d (%s); want 1 (a property violated)", args, code, errOut)
			}
			checkGolden(t, filepath.Join("check", c.file), args, timing.ReplaceAllString(out, "explored in Xs"))
			if !strings.Contains(out, "VIOLATED  "+c.property) || !strings.Contains(out, "counterexample: "+c.property) {
				t.Errorf("%s not reported violated:\n%s", c.property, out)
			}
			for _, s := range c.story {
				if !strings.Contains(squash(out), squash(s)) {
					t.Errorf("the counterexample lacks %q", s)
				}
			}
			fixed := []string{"check", "--scenario", filepath.Join("testdata", "check", c.file+"-fixed.yaml")}
			code, out, errOut = runCLI(t, "", fixed...)
			if code != 0 || !strings.Contains(out, "held      "+c.property) || !strings.Contains(out, "complete: every path") {
				t.Errorf("%v: exit %d (%s); want 0 and %s held:\n%s", fixed, code, errOut, c.property, out)
			}
		})
	}
}

// TestCheckRollingUpdate: the scale goal's scenario holds, every path
// explored, with the builtins of Deployments.
func TestCheckRollingUpdate(t *testing.T) {
	t.Parallel()
	code, out, errOut := runCLI(t, "", "check", "--scenario", filepath.Join("testdata", "check", "rolling-update.yaml"))
	if code != 0 {
		t.Fatalf("exit %d: %s\n%s", code, errOut, out)
	}
	for _, s := range []string{"held      deployment-max-surge", "held      deployment-availability", "held      deployment-completes",
		"complete: every path within the bound", "1 pod failure", "1 node outage", "image Deployment/default/web to web:2 (once)"} {
		if !strings.Contains(out, s) {
			t.Errorf("output lacks %q:\n%s", s, out)
		}
	}
}

// TestCheckSavedReplays: --save writes a scenario that simulate cluster
// replays: its timeline, run to the counterexample's end, holds the
// counterexample's writes and ends in the same state.
func TestCheckSavedReplays(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	svg := filepath.Join(dir, "cx.svg")
	args := []string{"check", "--scenario", filepath.Join("testdata", "check", "statefulset-forced-rollback.yaml"), "--save", dir, "--svg", svg}
	code, out, errOut := runCLI(t, "", args...)
	if code != 1 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	saved := filepath.Join(dir, "statefulset-completes.yaml")
	data, err := os.ReadFile(saved)
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`--until (\S+)`).FindSubmatch(data)
	if m == nil {
		t.Fatalf("no --until in the saved scenario:\n%s", data)
	}
	code, replay, errOut := runCLI(t, "", "simulate", "cluster", "--scenario", saved, "--until", string(m[1]))
	if code != 0 {
		t.Fatalf("replay: exit %d: %s", code, errOut)
	}
	// Every write of the counterexample's timeline is in the replay, and
	// the final states agree.
	cx := out[strings.Index(out, "counterexample: "):]
	for _, line := range strings.Split(cx, "\n") {
		if strings.Contains(line, "  ") && (strings.Contains(line, "statefulset ") || strings.Contains(line, "kubelet/")) {
			if !strings.Contains(squash(replay), squash(strings.TrimSpace(line[9:]))) {
				t.Errorf("the replay lacks %q", strings.TrimSpace(line))
			}
		}
	}
	final := func(s string) string { return s[strings.LastIndex(s, "\nat +"):] }
	if final(cx) != final(replay) {
		t.Errorf("final states differ:\ncheck:%s\nreplay:%s", final(cx), final(replay))
	}
	if b, err := os.ReadFile(svg); err != nil || !strings.Contains(string(b), "<svg") {
		t.Errorf("--svg: %v, %d bytes", err, len(b))
	}
}

// TestCheckShardsMerge: two shards' -o json reports merge into the whole
// search's verdicts.
func TestCheckShardsMerge(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	file := filepath.Join("testdata", "check", "daemonset-notready-node.yaml")
	var files []string
	for _, s := range []string{"0/2", "1/2"} {
		code, out, errOut := runCLI(t, "", "check", "--scenario", file, "--shard", s, "-o", "json")
		if code != 1 && code != 0 {
			t.Fatalf("--shard %s: exit %d: %s", s, code, errOut)
		}
		f := filepath.Join(dir, strings.ReplaceAll(s, "/", "-")+".json")
		if err := os.WriteFile(f, []byte(out), 0o644); err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	code, out, errOut := runCLI(t, "", append([]string{"check", "merge"}, files...)...)
	if code != 1 || !strings.Contains(out, "merged 2 report(s)") || !strings.Contains(out, "VIOLATED  daemonset-completes") {
		t.Errorf("merge: exit %d (%s); want 1 and daemonset-completes violated:\n%s", code, errOut, out)
	}
	code, out, _ = runCLI(t, "", append([]string{"check", "merge", "-o", "json"}, files...)...)
	var rep struct {
		States  int `json:"states"`
		Results []struct {
			Held bool `json:"held"`
		} `json:"results"`
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil || rep.States == 0 || len(rep.Results) != 1 || rep.Results[0].Held {
		t.Errorf("merge -o json: exit %d, %v, %+v", code, err, rep)
	}
}

// TestCheckShardFromJobIndex: --shard /n takes the index from
// $JOB_COMPLETION_INDEX, as an Indexed Job's pods have it. (Not parallel:
// it sets the environment.)
func TestCheckShardFromJobIndex(t *testing.T) {
	t.Setenv("JOB_COMPLETION_INDEX", "2")
	s, err := parseShard("/4")
	if err != nil || s.Index != 2 || s.Count != 4 {
		t.Errorf("parseShard(/4) = %+v, %v; want 2 of 4", s, err)
	}
	for _, bad := range []string{"4/4", "x/2", "1", "1/0", "-1/2"} {
		if _, err := parseShard(bad); err == nil {
			t.Errorf("parseShard(%q) accepted", bad)
		}
	}
}

// TestCheckNewUser: with no flag but --scenario, on simulate cluster's
// scenario (no check section), the output says what was explored, from
// where, the alphabet, the bound, what held and what not: a StatefulSet
// whose node stops never completes (its pods stay terminating on the
// unreachable node, and their names stay taken). Bad usage exits 2 with
// one line.
func TestCheckNewUser(t *testing.T) {
	t.Parallel()
	code, out, errOut := runCLI(t, "", "check", "--scenario", filepath.Join("testdata", "scenarios", "statefulset-update.yaml"))
	if code != 1 {
		t.Fatalf("exit %d: %s\n%s", code, errOut, out)
	}
	for _, s := range []string{"the world ran without the alphabet's events until it settled", "alphabet (default: no check section): 1 pod failure",
		"image StatefulSet/data/db to postgres:17.1-next (once)", "bound: 60 transitions a path", "explored ", "properties:",
		"held      statefulset-ordered-ready", "VIOLATED  statefulset-completes", "stopNode Node/node-", "pods: 1 ready, 2 terminating"} {
		if !strings.Contains(out, s) {
			t.Errorf("output lacks %q:\n%s", s, out)
		}
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"check"}, "--scenario FILE is required"},
		{[]string{"check", "--scenario", "testdata/check/rolling-update.yaml", "--property", "available(deploy/web) >="}, "property"},
		{[]string{"check", "--scenario", "testdata/check/rolling-update.yaml", "--property", "no-such-property"}, "not a builtin"},
		{[]string{"check", "--scenario", "testdata/check/rolling-update.yaml", "--shard", "3/2"}, "--shard"},
		{[]string{"check", "--scenario", "testdata/check/rolling-update.yaml", "--pod-failures", "-1"}, "alphabet.podFailures"},
		{[]string{"check", "merge"}, "want the reports"},
	} {
		code, _, errOut := runCLI(t, "", c.args...)
		if code != 2 || !strings.Contains(errOut, c.want) || strings.Count(errOut, "\n") != 1 {
			t.Errorf("%v = exit %d, %q; want 2 and one line with %q", c.args, code, errOut, c.want)
		}
	}
	for _, args := range [][]string{{"check", "-h"}, {"check", "--list"}, {"check", "merge", "-h"}} {
		code, out, _ := runCLI(t, "", args...)
		if code != 0 || out == "" {
			t.Errorf("%v = exit %d", args, code)
		}
	}
}

// TestCheckUserProperty: an expression given with --property is checked
// (and a builtin by name); its counterexample names the values.
func TestCheckUserProperty(t *testing.T) {
	t.Parallel()
	code, out, errOut := runCLI(t, "", "check", "--scenario", filepath.Join("testdata", "check", "rolling-update.yaml"),
		"--pod-failures", "0", "--node-outages", "0", "--property", "pods(deploy/web) <= 3", "--property", "deployment-max-surge")
	if code != 1 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, s := range []string{"VIOLATED  pods(deploy/web) <= 3", "pods(deploy/web) = 4", "held      deployment-max-surge"} {
		if !strings.Contains(out, s) {
			t.Errorf("output lacks %q:\n%s", s, out)
		}
	}
}

// TestCheckOrders: --orders lets the controllers' sync order change on a
// path; the fixed configurations of the known cases still hold with one
// change, on more states than in the fixed order, and simulate cluster
// runs a scenario's order event (the form a saved counterexample takes).
func TestCheckOrders(t *testing.T) {
	t.Parallel()
	states := regexp.MustCompile(`explored (\d+) states`)
	file := filepath.Join("testdata", "check", "daemonset-notready-node-fixed.yaml")
	code, fixed, errOut := runCLI(t, "", "check", "--scenario", file)
	if code != 0 {
		t.Fatalf("fixed order: exit %d: %s%s", code, fixed, errOut)
	}
	code, out, errOut := runCLI(t, "", "check", "--orders", "1", "--scenario", file)
	if code != 0 || !strings.Contains(out, "1 change of the controllers' sync order") {
		t.Fatalf("--orders 1: exit %d: %s%s", code, out, errOut)
	}
	a, b := states.FindStringSubmatch(fixed), states.FindStringSubmatch(out)
	if a == nil || b == nil || len(b[1]) < len(a[1]) || (len(b[1]) == len(a[1]) && b[1] <= a[1]) {
		t.Errorf("states: %v in the fixed order, %v with --orders 1", a, b)
	}
	code, _, errOut = runCLI(t, "", "check", "--orders", "-1", "--scenario", file)
	if code != 2 || !strings.Contains(errOut, "alphabet.orders") {
		t.Errorf("--orders -1: exit %d: %s", code, errOut)
	}
	scenario := `start: 2026-01-01T00:00:00Z
objects:
- {apiVersion: v1, kind: Node, metadata: {name: node-a}, status: {conditions: [{type: Ready, status: "True"}]}}
events:
- {at: 1s, kind: order, order: [statefulset, job]}
`
	code, out, errOut = runCLI(t, scenario, "simulate", "cluster", "--scenario", "-", "--until", "2s")
	if code != 0 || !strings.Contains(out, "controllers sync in the order statefulset, job, deployment") {
		t.Errorf("simulate cluster with an order event: exit %d:\n%s%s", code, out, errOut)
	}
	code, _, errOut = runCLI(t, strings.Replace(scenario, "job]", "kubelet]", 1), "simulate", "cluster", "--scenario", "-", "--until", "2s")
	if code == 0 || !strings.Contains(errOut, "events[0].order[1]") {
		t.Errorf("simulate cluster with an unknown controller in an order event: exit %d: %s", code, errOut)
	}
}

// TestCheckVectors: --vectors writes the decisions along a counterexample
// as conformance vectors that load (one file per package, named by the
// property), whose inputs kubesem decides, and whose wants are empty with a
// source naming the upstream test that fills them.
func TestCheckVectors(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	file := filepath.Join("testdata", "check", "job-replacement-beside-terminating.yaml")
	code, out, errOut := runCLI(t, "", "check", "--scenario", file, "--vectors", dir)
	if code != 1 || !strings.Contains(out, filepath.Join(dir, "job", "check-job-exclusive.json")) {
		t.Fatalf("exit %d: %s%s", code, out, errOut)
	}
	vs, err := conformance.Load(os.DirFS(dir))
	if err != nil {
		t.Fatal(err)
	}
	impl := conformance.Kubesem()
	steps := 0
	for _, v := range vs {
		if string(v.Want) != "{}" || !strings.Contains(v.Source, "KUBESEM_WRITE_VECTORS=1 go -C conformance/upstream test") {
			t.Errorf("%s: want %s, source %q: want {} and the upstream test that fills it", v.Name, v.Want, v.Source)
		}
		if _, err := impl.Decide(v.Decision, v.Options, v.Input); err != nil {
			t.Errorf("%s: kubesem cannot decide its input: %v", v.Name, err)
		}
		if v.Decision == "job.Step" {
			steps++
		}
	}
	if steps == 0 {
		t.Errorf("no job.Step vector among %d", len(vs))
	}
}

// TestUpstreamFillTestsExist: every test a counterexample vector's source
// names (upstreamFill) is a test function of that package of
// conformance/upstream.
func TestUpstreamFillTestsExist(t *testing.T) {
	t.Parallel()
	re := regexp.MustCompile(`-run (\w+) \./(\w+)/$`)
	for decision, cmd := range upstreamFill {
		m := re.FindStringSubmatch(cmd)
		if m == nil {
			t.Errorf("%s: %q is not `go -C conformance/upstream test -run <Test> ./<package>/`", decision, cmd)
			continue
		}
		files, _ := filepath.Glob(filepath.Join("..", "..", "conformance", "upstream", m[2], "*_test.go"))
		found := false
		for _, f := range files {
			b, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			if strings.Contains(string(b), "\nfunc "+m[1]+"(t *testing.T)") {
				found = true
			}
		}
		if !found {
			t.Errorf("%s: no func %s in conformance/upstream/%s", decision, m[1], m[2])
		}
	}
}

// vectorCases are the scenarios whose counterexamples' vectors ship: the
// four known cases, and three whose counterexamples (to a user property)
// hold the decisions the known cases do not reach — cronjob.Step
// (cronjob-forbid-active), podgc.Step (podgc-orphaned-node),
// node.EvictionStep (taint-eviction).
var vectorCases = []struct{ file, property string }{
	{"statefulset-forced-rollback", "statefulset-completes"},
	{"drain-budget-zero", "drain-completes"},
	{"job-replacement-beside-terminating", "job-exclusive"},
	{"daemonset-notready-node", "daemonset-completes"},
	{"cronjob-forbid-active", "succeeded(job/report-29453763) == 0"},
	{"podgc-orphaned-node", "pods(job/batch) == 2"},
	{"taint-eviction", "terminating(deploy/web) == 0"},
}

// TestCheckVectorsShipped: the vectors shipped for the cases of
// vectorCases (testdata/<package>/check-<case>.json, their wants filled
// from upstream) are the ones --vectors writes for each case's
// counterexample, package for package and vector for vector (name,
// decision, options, input). When the world changes what a counterexample
// is, this fails: write them again and have upstream fill them (see each
// vector's source).
func TestCheckVectorsShipped(t *testing.T) {
	t.Parallel()
	type vec struct {
		Decision, Name string
		Options, Input json.RawMessage
	}
	read := func(fsys fs.FS, glob string) map[string]vec {
		files, _ := fs.Glob(fsys, glob)
		out := map[string]vec{}
		for _, f := range files {
			b, err := fs.ReadFile(fsys, f)
			if err != nil {
				t.Fatal(err)
			}
			var vs []vec
			if err := json.Unmarshal(b, &vs); err != nil {
				t.Fatalf("%s: %v", f, err)
			}
			for _, v := range vs {
				var in, opts any
				json.Unmarshal(v.Input, &in)
				json.Unmarshal(v.Options, &opts)
				v.Input, _ = json.Marshal(in)
				v.Options, _ = json.Marshal(opts)
				out[pathpkg.Dir(f)+"/"+v.Name] = v
			}
		}
		return out
	}
	repo := os.DirFS(filepath.Join("..", ".."))
	for _, c := range vectorCases {
		dir := t.TempDir()
		code, out, errOut := runCLI(t, "", "check", "--scenario", filepath.Join("testdata", "check", c.file+".yaml"), "--vectors", dir)
		if code != 1 {
			t.Fatalf("%s: exit %d: %s%s", c.file, code, out, errOut)
		}
		got := read(os.DirFS(dir), "*/check-"+fileName(c.property)+".json")
		shipped := read(repo, "testdata/*/check-"+c.file+".json")
		if len(got) == 0 || len(got) != len(shipped) {
			t.Errorf("%s: --vectors writes %d vectors, testdata/*/check-%s.json ship %d", c.file, len(got), c.file, len(shipped))
		}
		for k, g := range got {
			s, ok := shipped["testdata/"+k]
			if !ok {
				t.Errorf("%s: %s is not shipped", c.file, k)
				continue
			}
			if !reflect.DeepEqual(g, s) {
				t.Errorf("%s: %s differs from the shipped vector:\n got %s %s\n shipped %s %s", c.file, k, g.Options, g.Input, s.Options, s.Input)
			}
		}
	}
}

// TestVectorOptions: options other than the defaults are written as the
// decisions' vectors read them, Go duration strings for job and podgc,
// and kubesem decides the shipped inputs under them.
func TestVectorOptions(t *testing.T) {
	t.Parallel()
	three := 3
	cases := []struct {
		decision, file string
		opts           any
		want           string
	}{
		{"job.Step", "job/check-job-replacement-beside-terminating.json", job.Options{BackoffCap: time.Minute, BackoffBase: 2 * time.Second}, `{"backoffCap":"1m0s","backoffBase":"2s"}`},
		{"podgc.Step", "podgc/check-podgc-orphaned-node.json", podgc.Options{TerminatedPodThreshold: &three, Quarantine: 10 * time.Second}, `{"terminatedPodThreshold":3,"quarantine":"10s"}`},
		{"node.Step", "node/check-taint-eviction.json", node.Options{NodeMonitorGracePeriod: time.Minute}, ""},
	}
	for _, c := range cases {
		o, err := vectorOptions(c.opts)
		if err != nil || c.want != "" && string(o) != c.want {
			t.Errorf("%s: %s %v; want %s", c.decision, o, err, c.want)
		}
		b, err := os.ReadFile(filepath.Join("..", "..", "testdata", c.file))
		if err != nil {
			t.Fatal(err)
		}
		var vs []struct {
			Decision string          `json:"decision"`
			Input    json.RawMessage `json:"input"`
		}
		if err := json.Unmarshal(b, &vs); err != nil {
			t.Fatal(err)
		}
		for _, v := range vs {
			if v.Decision != c.decision {
				continue
			}
			if _, err := conformance.Kubesem().Decide(v.Decision, o, v.Input); err != nil {
				t.Errorf("%s under %s: %v", c.decision, o, err)
			}
			break
		}
	}
}

// TestSearchGC: a search collects less often unless GOGC is set, and the
// collector's target is restored after it.
func TestSearchGC(t *testing.T) {
	before := debug.SetGCPercent(100)
	defer debug.SetGCPercent(before)
	restore := searchGC("")
	if got := debug.SetGCPercent(searchGCPercent); got != searchGCPercent {
		t.Errorf("during a search with GOGC unset: GC percent %d; want %d", got, searchGCPercent)
	}
	restore()
	if got := debug.SetGCPercent(100); got != 100 {
		t.Errorf("after the search: GC percent %d; want 100 restored", got)
	}
	restore = searchGC("50")
	if got := debug.SetGCPercent(100); got != 100 {
		t.Errorf("with GOGC set: GC percent %d; want it left alone (100)", got)
	}
	restore()
}
