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
FILE is absent or "-") and prints the decision's output as JSON.
"kubesem decisions -v" lists every decision with its input, options and
output shape (described in testdata/<package>/README.md); API objects in
an input are accepted as kubectl get -o json prints them. A Step's answer
is its Plan in the shared vocabulary (outcome, create, delete, status,
updateStatus, events, requeue; VOCABULARY.md), durations as Go durations
("1m30s") and times in RFC 3339 UTC.

A key that "decisions -v" prints without "?" is required: a request
without it (or with it null) is refused with a Required error at its path
(input.replicas), never answered from a zero value. Invalid input prints
{"error": ...} and one line on stderr naming the field from the top of the
request (input.replicaSets[0].spec.replicas, options.burstReplicas,
input.now for a time that does not parse), and exits 2.

Every JSON kubesem reads (requests, vectors, dumps, the library's
UnmarshalJSON methods) is read as the API server reads it
(internal/apijson): keys are case-sensitive ("Replicas" next to
"replicas" is an unknown key, dropped inside API objects, an error among
a request's, an input's or an Options' own keys), a key given twice is an
error naming its path, nothing may follow the request, and an error
quotes at most 256 bytes of a value. A request larger than 256 MiB is
refused.

Example:

  echo '{"decision":"rollout.Fenceposts","input":{"maxSurge":"25%","maxUnavailable":"25%","replicas":3}}' \
    | kubesem decide
  {
    "surge": 1,
    "unavailable": 0
  }`

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

Each takes -h for its flags ("kubesem help simulate <simulation>" is the same).

Every simulation is a scenario on package cluster's world: its flags build
a cluster.Scenario (objects, timed events, pod behaviours), the world runs
it (the controllers, the API server, the scheduler, the kubelets and the
node heartbeats, jumping from one due instant to the next) and the
subcommand prints from the world's trace and state; cmd/kubesem holds no
rule of its own (TestNoRules checks it).

Every simulation takes --svg FILE, which writes its timeline as a
standalone SVG (standard library only): pods per revision and readiness per
instant for rollouts, the Jobs for CronJobs, pod states per instant for
drains. Its title says what was simulated (the command's header: the
flags; for simulate cluster the scenario's name: or its file, with its
objects, start and end), and its labels are laid out by their estimated
widths so that none is clipped or overlaps another (TestSVGLayout checks
it on the example scenarios and every simulation). docs/rollout.svg is
simulate rollout's proportional-scaling example.
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
