package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
)

// errHelp is returned once a command has printed its usage for -h or
// --help; run exits 0.
var errHelp = errors.New("help printed")

// parseFlags parses args into fs. For -h, -help or --help it prints the
// command's usage (synopsis, then every flag with its default) on stdout
// and returns errHelp; any other parse error is a usageError naming the
// command.
func parseFlags(fs *flag.FlagSet, args []string, stdout io.Writer, synopsis string) error {
	fs.SetOutput(io.Discard)
	err := fs.Parse(args)
	if errors.Is(err, flag.ErrHelp) {
		printUsage(stdout, fs, synopsis)
		return errHelp
	}
	if err != nil {
		return usagef("%s: %v", fs.Name(), err)
	}
	return nil
}

// printUsage writes "usage: kubesem <name> [flags]", the synopsis and the
// flags with their defaults.
func printUsage(w io.Writer, fs *flag.FlagSet, synopsis string) {
	fmt.Fprintf(w, "usage: kubesem %s [flags]\n\n%s\n", fs.Name(), strings.TrimSpace(synopsis))
	n := 0
	fs.VisitAll(func(*flag.Flag) { n++ })
	if n == 0 {
		return
	}
	fmt.Fprintln(w, "\nflags:")
	fs.SetOutput(w)
	fs.PrintDefaults()
	fs.SetOutput(io.Discard)
}

// wantsHelp reports whether args ask for help (-h, -help or --help) and
// nothing else, for commands without flags.
func wantsHelp(args []string) bool {
	return len(args) == 1 && (args[0] == "-h" || args[0] == "-help" || args[0] == "--help")
}

const decideSynopsis = `Reads one request {"decision","options","input"} from FILE (stdin when
FILE is absent or "-") and prints the decision's output as JSON. Invalid
input prints {"error": ...} and one line on stderr naming the field, and
exits 2. "kubesem decisions -v" lists every decision with its input shape.`

const serveSynopsis = `Answers requests line by line on stdin/stdout: the protocol an external
implementation speaks under "kubesem conformance --exec" (see
conformance/README.md), served by kubesem itself.`

const simulateUsage = `usage: kubesem simulate <simulation> [flags]

simulations:
  cluster   a scenario of objects and timed events on the whole world (every controller, kubelets, users)
  rollout   a Deployment rollout on the world, as a timeline
  cronjob   a CronJob's schedule slots over a window
  drain     node drains under a PodDisruptionBudget on the world
  pod       a pod's containers on a simulated kubelet (phase, conditions, restarts, backoff)
  node-outage  nodes that stop heartbeating: Unknown, taints, zone states, evictions
  statefulset  a StatefulSet on the world: ordinals, revisions, pod states
  daemonset    a DaemonSet rolling update per node, with taints and NotReady nodes

Each takes -h for its flags.
`

// parseInterleaved parses args into fs as parseFlags does, but lets
// positional arguments and flags come in any order, as kubectl's do
// (kubectl kubesem explain deploy/nginx -n shop); everything after "--" is
// positional. It returns the positional arguments in order.
func parseInterleaved(fs *flag.FlagSet, args []string, stdout io.Writer, synopsis string) ([]string, error) {
	var pos []string
	for {
		if err := parseFlags(fs, args, stdout, synopsis); err != nil {
			return nil, err
		}
		rest := fs.Args()
		if len(rest) == 0 {
			return pos, nil
		}
		// flag stops at "--" (and consumes it) or at the first non-flag.
		if n := len(args) - len(rest); n > 0 && args[n-1] == "--" {
			return append(pos, rest...), nil
		}
		pos = append(pos, rest[0])
		args = rest[1:]
	}
}
