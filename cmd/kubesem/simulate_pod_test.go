package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSimulatePodGolden compares `kubesem simulate pod` with golden files;
// run with -update to rewrite them.
func TestSimulatePodGolden(t *testing.T) {
	t.Parallel()
	cases := []goldenCase{
		// Seed 000, pod lifecycle, restart policy: a container that keeps
		// crashing is restarted after 10s, 20s, 40s … 5 minutes; the pod
		// stays Running, Ready False while it backs off.
		{"pod_crashloop", []string{"simulate", "pod"}},
		// A container that fails under restartPolicy Never fails the pod
		// (after an init container that completed).
		{"pod_never_fails", []string{"simulate", "pod", "--pod", filepath.Join("testdata", "pod_never_fails.json")}},
		// A sidecar and a job-like container under OnFailure that succeeds.
		// KNOWN GAP of the world's kubelet (reported): v1.36.3's kubelet
		// stops the sidecar once the regular container is done and the pod
		// is Succeeded; the world leaves the sidecar running and the pod
		// Running. When the world learns it, this golden changes.
		{"pod_sidecar_succeeds", []string{"simulate", "pod", "--pod", filepath.Join("testdata", "pod_sidecar_succeeds.json")}},
		// A container restartPolicy Never with a Restart rule for exit code 42.
		{"pod_restart_rule", []string{"simulate", "pod", "--pod", filepath.Join("testdata", "pod_restart_rule.json")}},
		// A lower kubelet maximum caps the delays (and the initial one).
		{"pod_crashloop_max_30s", []string{"simulate", "pod", "--max-container-restart-period", "30s", "--horizon", "3m"}},
	}
	runGoldens(t, cases)
}

// TestSimulatePodBadScenario: invalid scenarios are usage errors (exit 2)
// whose message names the JSON field.
func TestSimulatePodBadScenario(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	cases := []struct{ json, field string }{
		{`{"containers": []}`, "containers"},
		{`{"restartPolicy": "Sometimes", "containers": [{"name": "a", "runs": [{"neverExits": true}]}]}`, "restartPolicy"},
		{`{"horizon": "soon", "containers": [{"name": "a", "runs": [{"neverExits": true}]}]}`, "horizon"},
		{`{"containers": [{"runs": [{"neverExits": true}]}]}`, "containers[0].name"},
		{`{"containers": [{"name": "a", "runs": [{"neverExits": true}]}, {"name": "a", "runs": [{"neverExits": true}]}]}`, "containers[1].name"},
		{`{"containers": [{"name": "a"}]}`, "containers[0].runs"},
		{`{"containers": [{"name": "a", "runs": [{"duration": "5s"}]}]}`, "containers[0].runs[0].exitCode"},
		{`{"containers": [{"name": "a", "runs": [{"exitCode": 1, "duration": "-5s"}]}]}`, "containers[0].runs[0].duration"},
		{`{"containers": [{"name": "a", "runs": [{"exitCode": 300, "duration": "5s"}]}]}`, "containers[0].runs[0].exitCode"},
		{`{"containers": [{"name": "a", "runs": [{"neverExits": true}, {"exitCode": 0, "duration": "1s"}]}]}`, "containers[0].runs[0].neverExits"},
		{`{"containers": [{"name": "a", "runs": [{"neverExits": true, "exitCode": 0}]}]}`, "containers[0].runs[0]"},
		{`{"initContainers": [{"name": "i", "restartPolicy": "Never", "runs": [{"neverExits": true}]}], "containers": [{"name": "a", "runs": [{"neverExits": true}]}]}`, "initContainers[0].restartPolicy"},
		{`{"containers": [{"name": "a", "restartPolicy": "Never", "restartPolicyRules": [{"action": "RestartAllContainers", "exitCodes": {"operator": "In", "values": [1]}}], "runs": [{"neverExits": true}]}]}`, "containers[0].restartPolicyRules[0].action"},
		{`{"containers": [{"name": "a", "restartPolicy": "Never", "restartPolicyRules": [{"action": "Restart", "exitCodes": {"operator": "Is"}}], "runs": [{"neverExits": true}]}]}`, "containers[0].restartPolicyRules[0].exitCodes.operator"},
		{`{"containers": [{"name": "a", "restartPolicyRules": [{"action": "Restart", "exitCodes": {"operator": "In"}}], "runs": [{"neverExits": true}]}]}`, "containers[0].restartPolicyRules"},
		{`{"containers": [{"name": "a", "runs": [{"neverExits": true}]}], "bogus": 1}`, "bogus"},
	}
	for i, c := range cases {
		path := filepath.Join(dir, "s.json")
		path = path[:len(path)-len(".json")] + string(rune('a'+i)) + ".json"
		if err := os.WriteFile(path, []byte(c.json), 0o644); err != nil {
			t.Fatal(err)
		}
		code, _, stderr := runCLI(t, "", "simulate", "pod", "--pod", path)
		if code != 2 || !strings.Contains(stderr, c.field) {
			t.Errorf("%s: exit %d, stderr %q; want 2 naming %s", c.json, code, stderr, c.field)
		}
	}
	// Scenarios the world's kubelet model cannot run (the scenarios of the
	// simulator before the world): refused, naming the field.
	for _, c := range []struct{ file, field string }{
		{"pod_init_never.json", "initContainers[0].runs"},
		{"pod_sidecar_job.json", "containers[0].runs"},
		{"pod_restart_rules.json", "containers[0].runs"},
	} {
		code, _, stderr := runCLI(t, "", "simulate", "pod", "--pod", filepath.Join("testdata", c.file))
		if code != 2 || !strings.Contains(stderr, c.field) || !strings.Contains(stderr, "world") {
			t.Errorf("%s: exit %d, stderr %q; want 2 naming %s and the world's model", c.file, code, stderr, c.field)
		}
	}
	for _, args := range [][]string{
		{"simulate", "pod", "--pod", filepath.Join(dir, "missing.json")},
		{"simulate", "pod", "--max-container-restart-period", "-1s"},
		{"simulate", "pod", "--horizon", "-1m"},
	} {
		if code, _, _ := runCLI(t, "", args...); code != 2 {
			t.Errorf("%v: exit %d, want 2", args, code)
		}
	}
}

// TestSimulatePodSVG: --svg writes a chart with one column per event.
func TestSimulatePodSVG(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "pod.svg")
	code, _, stderr := runCLI(t, "", "simulate", "pod", "--svg", path)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if s := string(data); !strings.HasPrefix(s, "<?xml") || !strings.Contains(s, "CrashLoopBackOff") {
		t.Errorf("svg lacks the header or the CrashLoopBackOff series:\n%.400s", s)
	}
}
