package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
)

func main() {
	os.Exit(entry(os.Args, os.Stdin, os.Stdout, os.Stderr))
}

// usageError is a bad flag or input: it exits 2 with one line on stderr.
type usageError struct{ msg string }

func (e usageError) Error() string { return e.msg }

func usagef(format string, args ...any) error { return usageError{fmt.Sprintf(format, args...)} }

const usage = `usage: kubesem <command> [arguments]

commands:
  decide [FILE]            decide one request {"decision","options","input"} (stdin when no FILE)
  conformance [flags]      run the conformance vectors (--vectors DIR, --exec CMD, --package P, -v)
  serve [flags]            answer requests line by line on stdin/stdout (the --exec protocol; --timeout, --max-line)
  decisions [-v]           list the decisions kubesem implements
  explain [flags] [FILE]   what each controller does next in a cluster dump (kubectl get ... -o json), or live (--kubeconfig, -n, -A)
  shadow [flags]           watch a live cluster and report each controller write kubesem does not predict
  simulate cluster [flags] run a scenario of objects and timed events on the whole world
  simulate rollout [flags] print a Deployment rollout as a timeline
  simulate cronjob [flags] print a CronJob's schedule slots over a window
  simulate drain [flags]   drain nodes under a PodDisruptionBudget
  simulate pod [flags]     a pod's containers on a simulated kubelet: phase, conditions, restarts, backoff
  simulate node-outage [flags] nodes that stop heartbeating: Unknown, taints, zone states, evictions
  simulate statefulset [flags] a StatefulSet: ordinals, revisions, pod states
  simulate daemonset [flags] a DaemonSet rolling update per node, with taints and NotReady nodes
  check --scenario FILE    explore every interleaving of a scenario's events; check properties
  check merge FILE...      merge the -o json reports of check --shard parts
  help [command]           this list, or a command's manual (the same as "<command> -h")

Exit codes: 0 success; 1 a failure: a conformance vector, a violated
property, a shadow mismatch, or an error that is not the input's; 2 bad
usage or invalid input (one line on stderr names the field).
`

// run is main without the process: it returns the exit code.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return 2
	}
	var err error
	switch args[0] {
	case "decide":
		err = decide(args[1:], stdin, stdout)
	case "conformance":
		var ok bool
		ok, err = conformanceCmd(args[1:], stdout, stderr)
		if err == nil && !ok {
			return 1
		}
	case "serve":
		err = serve(args[1:], stdin, stdout)
	case "decisions":
		err = listDecisions(args[1:], stdout)
	case "simulate":
		err = simulate(args[1:], stdin, stdout)
	case "explain":
		err = explainCmd(args[1:], stdin, stdout, stderr)
	case "shadow":
		err = shadowCmd(args[1:], stdout, stderr)
	case "check":
		return checkMain(args[1:], stdin, stdout, stderr)
	case "help", "-h", "--help":
		if args[0] == "help" && len(args) > 1 {
			return help(args[1:], stdin, stdout, stderr)
		}
		fmt.Fprint(stdout, usage)
		return 0
	default:
		fmt.Fprint(stderr, usage)
		return 2
	}
	if err == nil || errors.Is(err, errHelp) {
		return 0
	}
	fmt.Fprintln(stderr, "kubesem:", err)
	if _, ok := err.(usageError); ok {
		return 2
	}
	return 1
}

// helpTopics lists every command "kubesem help" knows, as its arguments;
// TestHelpCommand and the manual in doc.go (TestDocIsTheManual) are built
// from it.
func helpTopics() [][]string {
	topics := [][]string{{"decide"}, {"conformance"}, {"serve"}, {"decisions"}, {"explain"}, {"shadow"}, {"simulate"}}
	for _, s := range simulations {
		topics = append(topics, []string{"simulate", s})
	}
	return append(topics, []string{"check"}, []string{"check", "merge"})
}

// help prints a command's manual: what the command prints for -h.
func help(topic []string, stdin io.Reader, stdout, stderr io.Writer) int {
	for _, t := range helpTopics() {
		if slices.Equal(t, topic) {
			return run(append(slices.Clone(topic), "-h"), stdin, stdout, stderr)
		}
	}
	fmt.Fprintf(stderr, "kubesem help: unknown command %q\n\n%s", strings.Join(topic, " "), usage)
	return 2
}

// simulations lists the simulate subcommands (TestHelp checks each one's -h).
var simulations = []string{"cluster", "rollout", "cronjob", "drain", "pod", "node-outage", "statefulset", "daemonset"}

func simulate(args []string, stdin io.Reader, stdout io.Writer) error {
	if wantsHelp(args) {
		io.WriteString(stdout, simulateUsage)
		return nil
	}
	if len(args) == 0 {
		return usagef("simulate: want one of %s", strings.Join(simulations, ", "))
	}
	switch args[0] {
	case "cluster":
		return simulateCluster(args[1:], stdin, stdout)
	case "rollout":
		return simulateRollout(args[1:], stdout)
	case "cronjob":
		return simulateCronJob(args[1:], stdout)
	case "drain":
		return simulateDrain(args[1:], stdout)
	case "pod":
		return simulatePod(args[1:], stdout)
	case "node-outage":
		return simulateNodeOutage(args[1:], stdout)
	case "statefulset":
		return simulateStatefulSet(args[1:], stdout)
	case "daemonset":
		return simulateDaemonSet(args[1:], stdout)
	}
	return usagef("simulate: unknown simulation %q (want one of %s)", args[0], strings.Join(simulations, ", "))
}
