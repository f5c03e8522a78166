package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// TestModulesTidy: every nested module's go.mod and go.sum are what
// "go mod tidy" makes of them outside the workspace (GOWORK=off), as a
// module that requires one of them by version sees them; an untidy go.mod
// makes "go install github.com/kubesem/kubesem/cmd/kubesem@version" fail
// with "updates to go.mod needed".
func TestModulesTidy(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command")
	}
	for _, m := range []string{"k8s", "cmd/kubesem", "conformance/live", "conformance/upstream"} {
		cmd := exec.Command("go", "mod", "tidy", "-diff")
		cmd.Dir = filepath.Join("..", "..", filepath.FromSlash(m))
		cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Errorf("%s: go mod tidy -diff (GOWORK=off): %v\n%s(run GOWORK=off go mod tidy in %s)", m, err, out, m)
		}
	}
}
