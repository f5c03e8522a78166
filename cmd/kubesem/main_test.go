package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func runCLI(t *testing.T, stdin string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code = run(args, strings.NewReader(stdin), &out, &errOut)
	return code, out.String(), errOut.String()
}

func TestDecide(t *testing.T) {
	t.Parallel()
	code, out, _ := runCLI(t, `{"decision":"intstr.Scaled","input":{"value":"25%","total":3,"roundUp":true}}`, "decide")
	if code != 0 || !strings.Contains(out, `"value": 1`) {
		t.Errorf("decide 25%% of 3 up = %d, %q; want 0 and value 1", code, out)
	}
}

func TestDecideBadInputNamesField(t *testing.T) {
	t.Parallel()
	cases := []struct{ name, stdin, wantErr string }{
		{"invalid value", `{"decision":"intstr.Scaled","input":{"value":"abc%","total":3}}`, "input.value"},
		{"unknown input field", `{"decision":"intstr.Scaled","input":{"valu":1}}`, "input.valu"},
		{"not json", `{`, "request"},
		{"no decision", `{"input":{}}`, "decision"},
		{"unknown decision", `{"decision":"x.Y","input":{}}`, "x.Y"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			code, _, stderr := runCLI(t, c.stdin, "decide")
			lines := strings.Split(strings.TrimSpace(stderr), "\n")
			if code != 2 || len(lines) != 1 || !strings.Contains(stderr, c.wantErr) {
				t.Errorf("decide(%s) = exit %d, stderr %q; want exit 2 and one line naming %q", c.stdin, code, stderr, c.wantErr)
			}
		})
	}
}

func TestConformanceCommand(t *testing.T) {
	t.Parallel()
	code, out, stderr := runCLI(t, "", "conformance", "--package", "intstr")
	if code != 0 || !strings.Contains(out, "0 failed") {
		t.Errorf("conformance = %d, %q, %q; want exit 0 and no failures", code, out, stderr)
	}
}

func TestConformanceCommandFails(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "intstr"), 0o755)
	os.WriteFile(filepath.Join(dir, "intstr", "bad.json"), []byte(`[{"decision":"intstr.Scaled","name":"wrong","source":"test","input":{"value":1,"total":1},"want":{"value":2}}]`), 0o644)
	code, out, _ := runCLI(t, "", "conformance", "--vectors", dir)
	if code != 1 || !strings.Contains(out, "FAIL intstr/wrong") {
		t.Errorf("conformance on a wrong vector = %d, %q; want exit 1 and the failure listed", code, out)
	}
	code, _, stderr := runCLI(t, "", "conformance", "--vectors", filepath.Join(dir, "missing"))
	if code != 2 || !strings.Contains(stderr, "--vectors") {
		t.Errorf("conformance on a missing folder = %d, %q; want exit 2 naming --vectors", code, stderr)
	}
}

func TestServe(t *testing.T) {
	t.Parallel()
	code, out, _ := runCLI(t, `{"decision":"intstr.Scaled","input":{"value":5,"total":1}}`+"\n", "serve")
	if code != 0 || strings.TrimSpace(out) != `{"output":{"value":5,"untruncated":5}}` {
		t.Errorf("serve = %d, %q", code, out)
	}
}

func TestUsage(t *testing.T) {
	t.Parallel()
	if code, _, _ := runCLI(t, "", "bogus"); code != 2 {
		t.Errorf("unknown command exit = %d; want 2", code)
	}
	if code, _, _ := runCLI(t, ""); code != 2 {
		t.Errorf("no command exit = %d; want 2", code)
	}
}

// TestHelp: every command and simulation answers -h and --help with its
// usage on stdout and exit 0.
func TestHelp(t *testing.T) {
	cmds := [][]string{{}, {"decide"}, {"conformance"}, {"serve"}, {"decisions"}, {"simulate"}, {"explain"}, {"shadow"}}
	for _, s := range simulations {
		cmds = append(cmds, []string{"simulate", s})
	}
	for _, c := range cmds {
		for _, h := range []string{"-h", "--help"} {
			args := append(append([]string{}, c...), h)
			code, out, errOut := runCLI(t, "", args...)
			if code != 0 || !strings.HasPrefix(out, "usage: kubesem") || errOut != "" {
				t.Errorf("kubesem %v = %d, stdout %q, stderr %q; want 0 and usage on stdout", args, code, out, errOut)
			}
		}
	}
}

// TestDecideErrors: every bad input prints one line on stderr naming the
// full path from the request (input.<object>.<field>), the value and the
// reason, and exits 2.
func TestDecideErrors(t *testing.T) {
	t.Parallel()
	tests := []struct{ in, want string }{
		{`{"decision":"rollout.Bounds","input":{"deployment":{"spec":{"replicas":-3}}}}`,
			`kubesem: decide: input.deployment.spec.replicas: "-3": must be non-negative`},
		{`{"decision":"rollout.Bounds","input":{"deploymnet":{"spec":{"replicas":3}}}}`,
			`kubesem: decide: input.deploymnet: unsupported value: unknown field`},
		{`{"decision":"rollout.Bounds","input":{"deployment":{"spec":{"replicas":"x"}}}}`,
			`kubesem: decide: input.deployment.spec.replicas: "a JSON string": invalid value: want int32`},
		{"{\"decision\":\"rollout.Bounds\",\n \"input\":{\"deployment\":{\"spec\":{\"replicas\":3,}}}}",
			`kubesem: decide: request: line 2, column 46: invalid character '}' looking for beginning of object key string (in input.deployment.spec)`},
		{`{"decision":"rollout.ScaleDownOld","input":{"deployment":{"spec":{"replicas":3}},"allReplicaSets":[{"metadata":{"name":"a"},"spec":{"replicas":-1}}],"oldReplicaSets":[]}}`,
			`kubesem: decide: input.allReplicaSets[0].spec.replicas: "-1": must be non-negative`},
	}
	for _, tc := range tests {
		code, _, errOut := runCLI(t, tc.in, "decide")
		if code != 2 || strings.TrimSpace(errOut) != tc.want || strings.Count(errOut, "\n") != 1 {
			t.Errorf("decide %s = %d, stderr %q; want 2 and %q", tc.in, code, errOut, tc.want)
		}
	}
}

// TestDecideRealObjects: objects exactly as kubectl get -o json prints them
// (apiVersion, kind, managedFields, fields kubesem does not model, List
// wrappers) are accepted; an env-var change starts a rollout whose new
// ReplicaSet carries the whole template; the same template does not.
func TestDecideRealObjects(t *testing.T) {
	t.Parallel()
	read := func(name string) json.RawMessage {
		b, err := os.ReadFile(filepath.Join("testdata", "real", name))
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	req := func(d json.RawMessage) string {
		b, _ := json.Marshal(map[string]any{"decision": "rollout.Step", "input": map[string]any{
			"deployment": d, "replicaSets": read("replicasets.json"), "pods": read("pods.json"), "now": "2026-11-20T10:00:00Z"}})
		return string(b)
	}
	code, out, errOut := runCLI(t, req(read("deployment.json")), "decide")
	if code != 0 {
		t.Fatalf("decide = %d, %s", code, errOut)
	}
	var plan struct {
		Outcome string `json:"outcome"`
		Create  struct {
			Count   int               `json:"count"`
			Objects []json.RawMessage `json:"objects"`
		} `json:"create"`
	}
	if err := json.Unmarshal([]byte(out), &plan); err != nil {
		t.Fatal(err)
	}
	if plan.Outcome != "RollingUpdate" || plan.Create.Count != 1 || len(plan.Create.Objects) != 1 {
		t.Fatalf("env change: outcome %s, create %d; want RollingUpdate creating 1\n%s", plan.Outcome, plan.Create.Count, out)
	}
	var created bytes.Buffer
	json.Compact(&created, plan.Create.Objects[0])
	for _, want := range []string{`"MODE"`, `"slow"`, `"memory":"256Mi"`, `"terminationMessagePath":"/dev/termination-log"`, `"dnsPolicy":"ClusterFirst"`} {
		if !strings.Contains(created.String(), want) {
			t.Errorf("created ReplicaSet lacks %s: %s", want, created.String())
		}
	}
	same := strings.Replace(string(read("deployment.json")), `"value": "slow"`, `"value": "fast"`, 1)
	code, out, errOut = runCLI(t, req(json.RawMessage(same)), "decide")
	if code != 0 || strings.Contains(out, `"reason": "CreateNew"`) {
		t.Errorf("same template: decide = %d, %s %s; want no new ReplicaSet", code, out, errOut)
	}
}
