//go:build !unix

package main

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
)

// run runs kubesem, argv[0] kubectl-kubesem, and returns its exit code.
func run(path string, argv []string) int {
	cmd := exec.Command(path, argv[1:]...)
	cmd.Args[0] = argv[0]
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	err := cmd.Run()
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		return exit.ExitCode()
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "kubectl-kubesem:", err)
		return 2
	}
	return 0
}
