package conformance_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"strings"
	"testing"

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
