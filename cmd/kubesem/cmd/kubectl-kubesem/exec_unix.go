//go:build unix

package main

import (
	"fmt"
	"os"
	"syscall"
)

// run replaces this process with kubesem, argv[0] kubectl-kubesem.
func run(path string, argv []string) int {
	err := syscall.Exec(path, argv, os.Environ())
	fmt.Fprintln(os.Stderr, "kubectl-kubesem:", err)
	return 2
}
