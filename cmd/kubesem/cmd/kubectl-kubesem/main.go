// Command kubectl-kubesem is kubesem as a kubectl plugin: with it on $PATH,
// "kubectl kubesem explain" tells what the workload controllers do next in
// the cluster of the current kubeconfig context, and "kubectl kubesem
// shadow" watches the cluster and reports every controller write kubesem
// did not predict. Everything is read-only: kubesem sends list and watch
// requests, never a write.
//
// It runs the kubesem command (github.com/kubesem/kubesem/cmd/kubesem) from
// its own directory, else from $PATH, under the name kubectl-kubesem, which
// turns kubesem into the plugin. Install both at once:
//
//	go install github.com/kubesem/kubesem/cmd/kubesem/...@latest
//
// (a copy of, or a link to, the kubesem binary named kubectl-kubesem is the
// same plugin).
package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
)

func main() {
	path, err := kubesem()
	if err != nil {
		fmt.Fprintln(os.Stderr, "kubectl-kubesem:", err)
		os.Exit(2)
	}
	os.Exit(run(path, append([]string{"kubectl-kubesem"}, os.Args[1:]...)))
}

// kubesem finds the kubesem binary: beside this one (where go install puts
// both), else on $PATH.
func kubesem() (string, error) {
	name := "kubesem"
	if runtime.GOOS == "windows" {
		name += ".exe"
	}
	if self, err := os.Executable(); err == nil {
		p := filepath.Join(filepath.Dir(self), name)
		if st, err := os.Stat(p); err == nil && !st.IsDir() {
			return p, nil
		}
	}
	p, err := exec.LookPath("kubesem")
	if err != nil {
		return "", fmt.Errorf("the kubesem command is neither beside this binary nor on $PATH: go install github.com/kubesem/kubesem/cmd/kubesem/...@latest installs both")
	}
	return p, nil
}
