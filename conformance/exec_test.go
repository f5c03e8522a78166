package conformance_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/kubesem/kubesem"
	"github.com/kubesem/kubesem/conformance"
)

// When the test binary runs with this variable set it acts as an external
// implementation, serving kubesem over stdin/stdout.
const serveEnv = "KUBESEM_CONFORMANCE_SERVE"

func TestMain(m *testing.M) {
	if os.Getenv(serveEnv) == "1" {
		if err := conformance.Serve(conformance.Kubesem(), os.Stdin, os.Stdout); err != nil {
			os.Exit(3)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// TestExecProtocol runs the shipped vectors through an external process that
// speaks the line protocol.
func TestExecProtocol(t *testing.T) {
	t.Parallel()
	p, err := conformance.Exec("env", serveEnv+"=1", os.Args[0])
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	conformance.Run(t, p, conformance.Suite{Vectors: kubesem.Vectors(), Packages: []string{"intstr"}})
	if _, err := p.Decide("nope.Nope", nil, json.RawMessage(`{}`)); !errors.Is(err, conformance.ErrUnsupported) {
		t.Errorf("Decide(nope.Nope) error = %v; want ErrUnsupported", err)
	}
}

func TestServeBadRequest(t *testing.T) {
	t.Parallel()
	var out bytes.Buffer
	in := strings.NewReader("not json\n" + `{"decision":"intstr.Scaled","input":{"value":5,"total":1}}` + "\n")
	if err := conformance.Serve(conformance.Kubesem(), in, &out); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) != 2 || !strings.Contains(lines[0], `"failure"`) || !strings.Contains(lines[1], `"output":{"value":5,"untruncated":5}`) {
		t.Errorf("Serve output = %q; want a failure line then an output line", out.String())
	}
}

// TestExecGone: a command that cannot run, and one that never answers, end
// the run with ErrGone and a message that says why; the implementation's
// standard error is forwarded.
func TestExecGone(t *testing.T) {
	t.Parallel()
	var stderr strings.Builder
	p, err := conformance.ExecWith(conformance.ExecOptions{Stderr: &stderr}, "sh", "-c", "echo boom >&2; exit 3")
	if err != nil {
		t.Fatal(err)
	}
	_, err = p.Decide("intstr.Scaled", nil, json.RawMessage(`{"value":1,"total":1}`))
	if !errors.Is(err, conformance.ErrGone) || !strings.Contains(err.Error(), "exit status 3") || !strings.Contains(err.Error(), "boom") {
		t.Errorf("Decide on an exited implementation = %v; want ErrGone naming exit status 3 and its stderr", err)
	}
	if !strings.Contains(stderr.String(), "boom") {
		t.Errorf("stderr forwarded %q; want boom", stderr.String())
	}
	p.Close()

	p, err = conformance.ExecWith(conformance.ExecOptions{Timeout: 200 * time.Millisecond}, "sh", "-c", "sleep 5")
	if err != nil {
		t.Fatal(err)
	}
	_, err = p.Decide("intstr.Scaled", nil, json.RawMessage(`{"value":1,"total":1}`))
	if !errors.Is(err, conformance.ErrGone) || !strings.Contains(err.Error(), "within 200ms") || !strings.Contains(err.Error(), "flush") {
		t.Errorf("Decide on a silent implementation = %v; want ErrGone naming the timeout and flushing", err)
	}
	p.Close()

	results, err := conformance.Check(mustExec(t, "exit 0"), conformance.Suite{Vectors: kubesem.Vectors(), Match: regexp.MustCompile(`^intstr/`)})
	if !errors.Is(err, conformance.ErrGone) || len(results) != 1 {
		t.Errorf("Check with a gone implementation = %d results, %v; want 1 and ErrGone", len(results), err)
	}
}

func mustExec(t *testing.T, script string) *conformance.Process {
	t.Helper()
	p, err := conformance.Exec("sh", "-c", script)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Close() })
	return p
}
