package main

import (
	"fmt"
	"io"
	"path/filepath"
	"strings"
)

// pluginName is the executable name under which kubectl runs kubesem as a
// plugin ("kubectl kubesem …" runs kubectl-kubesem on $PATH).
const pluginName = "kubectl-kubesem"

const pluginUsage = `usage: kubectl kubesem <command> [arguments]

What the Kubernetes v1.36.3 workload controllers do next in your cluster,
read-only (kubesem sends list and watch requests only, never a write).

commands:
  explain [TYPE/NAME ...] [flags]  what each controller does next, and why (kubesem explain --live)
  shadow [flags]                   watch the cluster and report every controller write kubesem did not predict
  decide, conformance, serve, decisions, simulate …  as kubesem's (kubectl kubesem help-all)

cluster flags (explain, shadow): --kubeconfig, --context, -n/--namespace, -A/--all-namespaces
Each command takes -h for its manual and flags ("kubectl kubesem help <command>" is the same).

Install: kubectl runs kubectl-kubesem from $PATH ("go install
github.com/kubesem/kubesem/cmd/kubesem/...@latest" installs kubesem and
kubectl-kubesem); a copy of or link to kubesem named kubectl-kubesem is the
same plugin.
`

// entry is main: run for kubesem, or, when the executable is named
// kubectl-kubesem (the plugin binary, a copy or a link), the plugin's
// commands, whose explain reads the live cluster.
func entry(argv []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(argv) == 0 {
		return run(nil, stdin, stdout, stderr)
	}
	base := strings.TrimSuffix(filepath.Base(argv[0]), ".exe")
	if base != pluginName {
		return run(argv[1:], stdin, stdout, stderr)
	}
	args := argv[1:]
	if len(args) == 0 {
		fmt.Fprint(stderr, pluginUsage)
		return 2
	}
	switch args[0] {
	case "help", "-h", "--help":
		if args[0] == "help" && len(args) > 1 {
			return run(args, stdin, stdout, stderr) // kubesem help <command>
		}
		fmt.Fprint(stdout, pluginUsage)
		return 0
	case "help-all":
		return run([]string{"help"}, stdin, stdout, stderr)
	case "explain":
		// Live unless asked for help.
		args = append([]string{"explain", "--live"}, args[1:]...)
	}
	return run(args, stdin, stdout, stderr)
}
