package main

import (
	"encoding/json"
	"strings"
	"testing"
	"time"
)

// TestDecideReadsAsAPIServer: decide reads a request as the API server
// reads JSON: a case variant of one of the input's own keys is an unknown
// field, one inside an object is dropped (it does not override the real
// key), a repeated key is an error naming its path, and anything after the
// request is an error with its line and column.
func TestDecideReadsAsAPIServer(t *testing.T) {
	t.Parallel()
	bounds := func(spec string) string {
		return `{"decision":"rollout.Bounds","input":{"deployment":{"spec":` + spec + `}}}`
	}
	_, want, _ := runCLI(t, bounds(`{"replicas":3}`), "decide")
	for _, spec := range []string{`{"replicas":3,"Replicas":100}`, `{"Replicas":100,"replicas":3}`, `{"REPLICAS":"x","replicas":3}`} {
		code, out, errOut := runCLI(t, bounds(spec), "decide")
		if code != 0 || out != want {
			t.Errorf("spec %s: decide = %d, %s %s; want the answer for replicas 3:\n%s", spec, code, out, errOut, want)
		}
	}
	tests := []struct{ in, want string }{
		{`{"decision":"rollout.Bounds","input":{"Deployment":{"spec":{"replicas":3}}}}`,
			`kubesem: decide: input.Deployment: unsupported value: unknown field (keys are case-sensitive: "Deployment" is not "deployment")`},
		{bounds(`{"replicas":3,"replicas":100}`),
			`kubesem: decide: request: input.deployment.spec.replicas: duplicate value: key given more than once`},
		{`{"decision":"rollout.Bounds","decision":"rollout.Bounds","input":{}}`,
			`kubesem: decide: request: decision: duplicate value: key given more than once`},
		{`{"Decision":"rollout.Bounds","input":{}}`,
			`kubesem: decide: request: Decision: unsupported value: unknown field (keys are case-sensitive: "Decision" is not "decision")`},
		{bounds(`{"replicas":3}`) + "\n{}",
			`kubesem: decide: request: line 2, column 1: invalid character '{' after top-level value`},
		{bounds(`{"replicas":3}`) + " x",
			`kubesem: decide: request: line 1, column 78: invalid character 'x' after top-level value`},
		{`{"decision":"rollout.Bounds","options":{"maxSurge":1},"input":{"deployment":{}}}`,
			`kubesem: decide: options.maxSurge: unsupported value: unknown field`},
	}
	for _, tc := range tests {
		code, _, errOut := runCLI(t, tc.in, "decide")
		if code != 2 || strings.TrimSpace(errOut) != tc.want || strings.Count(errOut, "\n") != 1 {
			t.Errorf("decide %s = %d, stderr %q; want 2 and %q", tc.in, code, errOut, tc.want)
		}
	}
}

// TestDecideEchoBounded: a huge invalid value is quoted clipped, on stdout
// and on stderr.
func TestDecideEchoBounded(t *testing.T) {
	t.Parallel()
	big := strings.Repeat("9", 1<<20)
	for _, in := range []string{
		`{"decision":"intstr.Scaled","input":{"value":"` + big + `%","total":3}}`,
		`{"decision":"intstr.Scaled","input":{"value":` + big + `,"total":3}}`,
		`{"decision":"rollout.Bounds","input":{"deployment":{"spec":{"strategy":{"rollingUpdate":{"maxSurge":"` + big + `"}}}}}}`,
		`{"decision":"rollout.Bounds","input":{"deployment":{"spec":{"replicas":"` + big + `"}}}}`,
		`{"decision":"rollout.Bounds","input":{"` + big + `":1}}`,
		`{"decision":"rollout.Bounds","input":{"deployment":{"metadata":{"labels":{"` + big + `":"a","` + big + `":"b"}}}}}`,
	} {
		code, out, errOut := runCLI(t, in, "decide")
		if code != 2 || len(out) > 2048 || len(errOut) > 2048 {
			t.Errorf("decide with a %d-byte value: exit %d, %d bytes of stdout, %d of stderr: %.400s / %.400s", len(big), code, len(out), len(errOut), out, errOut)
		}
	}
}

func TestReadInputLimit(t *testing.T) {
	t.Parallel()
	if _, err := readInput("-", strings.NewReader(strings.Repeat("x", 11)), 10); err == nil || !strings.Contains(err.Error(), "larger than 10 bytes") {
		t.Errorf("11 bytes with a limit of 10: %v", err)
	}
	if b, err := readInput("-", strings.NewReader(strings.Repeat("x", 10)), 10); err != nil || len(b) != 10 {
		t.Errorf("10 bytes with a limit of 10: %d, %v", len(b), err)
	}
}

// TestServeScript: kubesem serve answers every line of a script in order:
// valid and invalid requests, requests that panicked before their
// decisions were bounded, one that ran for minutes (now answered within
// --timeout, or at once once bounded), an over-long line and one with
// trailing data.
func TestServeScript(t *testing.T) {
	t.Parallel()
	valid := `{"decision":"intstr.Scaled","input":{"value":5,"total":1}}`
	script := []struct{ line, want string }{
		{valid, `{"output":{"value":5,"untruncated":5}}`},
		{`{"decision":"podstatus.CrashLoopDelays","input":{"n":9223372036854775807}}`, ``},
		{valid, `{"output":{"value":5,"untruncated":5}}`},
		{`{"decision":"job.FirstPendingIndexes","input":{"count":9223372036854775807,"completions":9223372036854775807,"succeeded":[],"activePods":[]}}`, ``},
		{`{"decision":"cronjob.Count","input":{"schedule":"*/30 * * * *","timeZone":"America/New_York","until":"2024-11-04T05:00:00Z"}}`, ``},
		{"{", `"failure":"bad request: `},
		{`{"decision":"intstr.Scaled","input":{"value":"` + strings.Repeat("9", 4096) + `"}}`, `{"failure":"bad request: line longer than 2048 bytes (skipped)"}`},
		{valid + valid, `"failure":"bad request: `},
		{`{"decision":"intstr.Scaled","input":{"value":"abc%","total":3}}`, `"error":{"field":"value","kind":"Invalid"`},
		{valid, `{"output":{"value":5,"untruncated":5}}`},
	}
	var in strings.Builder
	for _, s := range script {
		in.WriteString(s.line + "\n")
	}
	start := time.Now()
	code, out, errOut := runCLI(t, in.String(), "serve", "--timeout", "1s", "--max-line", "2048")
	if code != 0 {
		t.Fatalf("serve = %d, %s", code, errOut)
	}
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("served in %v", d)
	}
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if len(lines) != len(script) {
		t.Fatalf("%d answers for %d lines:\n%s", len(lines), len(script), out)
	}
	for i, s := range script {
		var resp map[string]json.RawMessage
		if err := json.Unmarshal([]byte(lines[i]), &resp); err != nil || len(resp) != 1 {
			t.Errorf("answer %d = %q; want one response", i, lines[i])
		}
		if !strings.Contains(lines[i], s.want) {
			t.Errorf("answer %d = %s; want it to contain %s", i, lines[i], s.want)
		}
	}
}

// TestDecideNamesMissingAndBadFields: decide refuses a request whose
// required input is missing (it does not answer from a zero value), and
// every refusal names the field from the top of the request: indexes
// included, options under options., a time that does not parse at its
// path. serve answers the same requests with the same error.
func TestDecideNamesMissingAndBadFields(t *testing.T) {
	t.Parallel()
	dep := `"deployment":{"metadata":{"name":"d"},"spec":{"template":{}}}`
	tests := []struct{ in, want, field string }{
		{`{"decision":"rollout.Fenceposts","input":{}}`,
			`kubesem: decide: input.replicas: required value: the input has no "replicas"`, "replicas"},
		{`{"decision":"rollout.Fenceposts"}`,
			`kubesem: decide: input.replicas: required value: the input has no "replicas"`, "replicas"},
		{`{"decision":"rollout.Fenceposts","input":{"replicas":null,"maxSurge":1}}`,
			`kubesem: decide: input.replicas: required value: the input has no "replicas"`, "replicas"},
		{`{"decision":"rollout.FindNewReplicaSet","input":{` + dep + `}}`,
			`kubesem: decide: input.replicaSets: required value: the input has no "replicaSets"`, "replicaSets"},
		{`{"decision":"rollout.FindNewReplicaSet","input":{` + dep + `,"replicaSets":[{"metadata":{"name":"a"},"spec":{"replicas":1}},{"metadata":{"name":"b"},"spec":{"replicas":-1}}]}}`,
			`kubesem: decide: input.replicaSets[1].spec.replicas: "-1": must be non-negative`, "replicaSets[1].spec.replicas"},
		{`{"decision":"rollout.FindNewReplicaSet","input":{` + dep + `,"replicaSets":[{"metadata":{"name":"a"},"spec":{"replicas":"two"}}]}}`,
			`kubesem: decide: input.replicaSets[0].spec.replicas: "a JSON string": invalid value: want int32`, "replicaSets[0].spec.replicas"},
		{`{"decision":"rollout.IsComplete","input":{` + dep + `,"now":"yesterday"}}`,
			`kubesem: decide: input.now: "yesterday": invalid value: parsing time "yesterday" as "2006-01-02T15:04:05Z07:00": cannot parse "yesterday" as "2006"`, "now"},
		{`{"decision":"rollout.FindNewReplicaSet","input":{"deployment":{"metadata":{"name":"d","creationTimestamp":"2020-01-01"},"spec":{"template":{}}},"replicaSets":[]}}`,
			`kubesem: decide: input.deployment.metadata.creationTimestamp: "2020-01-01": invalid value: parsing time "2020-01-01" as "2006-01-02T15:04:05Z07:00": cannot parse "" as "T"`, "deployment.metadata.creationTimestamp"},
		{`{"decision":"daemonset.Step","options":{"burstReplicas":"x"},"input":{}}`,
			`kubesem: decide: options.burstReplicas: "a JSON string": invalid value: want int`, "options.burstReplicas"},
	}
	var script strings.Builder
	for _, tc := range tests {
		code, out, errOut := runCLI(t, tc.in, "decide")
		if code != 2 || strings.TrimSpace(errOut) != tc.want || strings.Count(errOut, "\n") != 1 {
			t.Errorf("decide %s = %d, stderr %q; want 2 and %q", tc.in, code, errOut, tc.want)
		}
		if !strings.Contains(out, `"field": "`+tc.field+`"`) {
			t.Errorf("decide %s printed %s; want the error at %q", tc.in, out, tc.field)
		}
		script.WriteString(tc.in + "\n")
	}
	code, out, errOut := runCLI(t, script.String(), "serve")
	if code != 0 {
		t.Fatalf("serve = %d, %s", code, errOut)
	}
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if len(lines) != len(tests) {
		t.Fatalf("serve: %d answers for %d lines:\n%s", len(lines), len(tests), out)
	}
	for i, tc := range tests {
		if !strings.Contains(lines[i], `{"output":{"error":{"field":"`+tc.field+`"`) {
			t.Errorf("serve %s = %s; want the error at %q", tc.in, lines[i], tc.field)
		}
	}
}
