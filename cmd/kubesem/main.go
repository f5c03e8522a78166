// Command kubesem asks kubesem what the Kubernetes workload controllers
// decide, checks implementations against its conformance vectors, and
// simulates rollouts and CronJob schedules.
//
// Usage:
//
//	kubesem decide [FILE]                 decide one {"decision","options","input"} request (stdin when no FILE)
//	kubesem conformance [flags]           run the conformance vectors; non-zero exit on failure
//	kubesem serve [flags]                 speak the external-implementation line protocol on stdin/stdout
//	kubesem decisions                     list the decisions kubesem implements
//	kubesem explain [flags] [FILE]        what each controller does next in a cluster dump, or live (--live, --kubeconfig)
//	kubesem shadow [flags]                watch a live cluster; report each controller write kubesem does not predict
//	kubesem simulate cluster [flags]      run a scenario on the whole world and print its timeline
//	kubesem simulate rollout [flags]      print a Deployment rollout as a timeline
//	kubesem simulate cronjob [flags]      print which CronJob schedule slots run, skip, replace or are missed
//	kubesem simulate drain [flags]        drain nodes under a PodDisruptionBudget on the world
//	kubesem simulate pod [flags]          a pod's containers on a simulated kubelet: phase, conditions, restarts, backoff
//	kubesem simulate node-outage [flags]  nodes that stop heartbeating: Unknown, taints, zone states, evictions
//	kubesem simulate statefulset [flags]  a StatefulSet on the world (ordinals, revisions, states)
//	kubesem simulate daemonset [flags]    a DaemonSet rolling update per node
//	kubesem check --scenario FILE         every interleaving of a scenario's events, checked against properties
//
// Exit codes: 0 success, 1 conformance failure, 2 bad usage or invalid input
// (one line on stderr names the field).
package main

import (
	"errors"
	"fmt"
	"io"
	"os"
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
  decisions                list the decisions kubesem implements
  explain [flags] [FILE]   what each controller does next in a cluster dump (kubectl get ... -o json), or live (--kubeconfig, -n, -A)
  shadow [flags]           watch a live cluster and report each controller write kubesem does not predict (see -h)
  simulate cluster [flags] run a scenario of objects and timed events on the whole world (see -h)
  simulate rollout [flags] print a Deployment rollout as a timeline (see -h)
  simulate cronjob [flags] print a CronJob's schedule slots over a window (see -h)
  simulate drain [flags]   drain nodes under a PodDisruptionBudget (see -h)
  simulate pod [flags]     a pod's containers on a simulated kubelet: phase, conditions, restarts, backoff (see -h)
  simulate node-outage [flags] nodes that stop heartbeating: Unknown, taints, zone states, evictions (see -h)
  simulate statefulset [flags] a StatefulSet: ordinals, revisions, pod states (see -h)
  simulate daemonset [flags] a DaemonSet rolling update per node, with taints and NotReady nodes (see -h)
  check --scenario FILE    explore every interleaving of a scenario's events; check properties (see -h)
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
