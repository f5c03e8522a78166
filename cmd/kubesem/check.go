package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"strconv"
	"strings"
	"time"

	"github.com/kubesem/kubesem/check"
	"github.com/kubesem/kubesem/cluster"
	"github.com/kubesem/kubesem/internal/apijson"
	"github.com/kubesem/kubesem/rollout"
	"github.com/kubesem/kubesem/statefulset"

	"github.com/kubesem/kubesem/daemonset"
)

const checkSynopsis = `Explores every interleaving of a small cluster (package check): from the
scenario's objects, the world (package cluster: every controller, the API
server, scheduler, kubelets, node heartbeats) runs while the events of an
alphabet happen at every point of every path (a running pod's containers
exit, a restart or a failure as its restartPolicy says; a node stops
heartbeating, and maybe comes back; a pod is evicted; a node is drained;
the users' events: scale, image, template, pause, resume, create, update,
delete, cordon …, each at most once), breadth first, so that each
property violated is reported with a shortest counterexample, printed as
simulate cluster's timeline.

The scenario file is simulate cluster's (see "kubesem simulate cluster -h"),
whose scenario document may hold a check section:
  check:
    podFailures: 1       # at most 1 running pod's containers exit (restart or fail)
    nodeOutages: 1       # at most 1 running node stops heartbeating
    nodeReturns: false   # a stopped node may come back
    evictions: 0         # at most this many evictions of running pods
    drains: 0            # at most this many node drains
    orders: 0            # at most this many changes of the controllers' sync order
    events:              # users' events, each happening at most once, anywhere
    - {kind: image, target: {kind: Deployment, namespace: default, name: web}, image: web:2}
    properties: [deployment-max-surge, "available(deploy/web) >= 2"]
    depth: 60            # transitions on a path
    horizon: 30m         # events happen within this long of the first state
    window: 45m          # liveness: settle good within this long
Without a check section: 1 pod failure, 1 node outage, and one image update
(the first image with "-next" appended) of each Deployment, StatefulSet
and DaemonSet when there are at most 2 of them; it says so. Without
properties: every builtin that applies. For instance "kubesem check
--scenario cmd/kubesem/testdata/scenarios/statefulset-update.yaml"
(simulate cluster's example) finds, within its bound, that a StatefulSet
whose node stops never completes: its pods on the unreachable node are
evicted but stay Terminating, and their names stay taken.

Properties. The builtins (--list prints each with exactly what it counts):
deployment-max-surge (a Deployment whose controller has seen its spec never
runs more than replicas + maxSurge pods that are neither terminating nor
finished), deployment-availability (while nothing has failed, the
ReplicaSet controller never deletes an available pod leaving fewer than
replicas − maxUnavailable available), statefulset-ordered-ready (ordinal n
is created only when 0..n−1 exist, Running and Ready; checked on each
write, against the state just before it), pdb-eviction (an accepted
eviction of a healthy pod never leaves a budget below its desiredHealthy),
job-parallelism (active ≤ parallelism, and active + terminating under
podReplacementPolicy Failed), job-exclusive (active + terminating ≤
parallelism, whatever the policy), cronjob-forbid (a Forbid CronJob never
runs two Jobs); and liveness under fairness: deployment-completes,
statefulset-completes, daemonset-completes (on its Ready nodes),
drain-completes: from every reachable state, the world left alone (the
environment stops failing) must settle (reach a state that repeats, time
read relative to now) where the property holds, within the window; a world
that settles elsewhere violates it for ever, one that has not settled
within the window violates it within the bound. A workload whose template
is broken (the scenario's pod behaviour for its labels says neverReady, or
a non-zero exit) is not asked to complete. A property is a builtin's name
or an expression over replicas, pods, terminating, ready, available,
updated, succeeded, failed, running (CronJobs), healthy, desired and
allowed (budgets), nodes() and draining() (check.Expression):
"available(deploy/web) >= 2", "pods(deploy/web) <= replicas(deploy/web) +
1", "terminating(job/batch) == 0 || pods(job/batch) < 2", "eventually
ready(sts/db) == 3". Library users write a check.Property as Go functions.

The four known cases, found from their configuration alone (no scripted
event; each a scenario under cmd/kubesem/testdata/check, a test, and a
fixed configuration, <name>-fixed.yaml, reported safe within the bound):

  kubesem check --scenario cmd/kubesem/testdata/check/statefulset-forced-rollback.yaml
  kubesem check --scenario cmd/kubesem/testdata/check/drain-budget-zero.yaml
  kubesem check --scenario cmd/kubesem/testdata/check/job-replacement-beside-terminating.yaml
  kubesem check --scenario cmd/kubesem/testdata/check/daemonset-notready-node.yaml

The StatefulSet forced-rollback trap (seed 002): an OrderedReady
StatefulSet of 3 may be updated to a template whose pods never become
Ready and reverted. Fixed by podManagementPolicy Parallel, under which the
revert replaces the broken pod.

    VIOLATED  statefulset-completes      left alone, the world stays where it does not hold, for ever: StatefulSet default/web has 3 replicas, 2 ready, 2 updated of 3
    3 transition(s) from the first state: template StatefulSet/default/web at +1m20s, tick, template StatefulSet/default/web at +1m55s

  +1m20s    user             update         StatefulSet default/web [replicas 3] (template)
            statefulset      create         ControllerRevision default/web-6669cf5446 (NewRevision)
            statefulset      delete         Pod default/web-2 (Outdated)
  +1m50s    kubelet/node-2   delete         Pod default/web-2 (Killing)
            statefulset      create         Pod default/web-2 (Missing)
            kubelet/node-2   update status  Pod default/web-2 [Running] (Started)
  +1m55s    user             update         StatefulSet default/web [replicas 3] (template)
            statefulset      update         ControllerRevision default/web-6d45df9599 (Rollback)
  ── statefulset-completes: obliged from here, never met at +1m55s
    StatefulSet default/web: 3 replica(s), 2 ready, 2 available; 2 at current revision web-6d45df9599, 2 at update revision web-6d45df9599

A drain that never finishes: a Deployment of 6 on 3 nodes under a budget of
maxUnavailable 0, any node drained. Fixed by maxUnavailable 1.

    VIOLATED  drain-completes  left alone, the world settles 12m0s later where it does not hold, for ever: node node-0 is still being drained
  +1m10s    user             update         Node node-0 (drain)
            user             evict          Pod default/web-6cf4b6d9bb-2bbbb (Drain): refused: … NoDisruptionsAllowed The disruption budget web needs 6 healthy pods and has 6 currently": too many requests
  +1m15s    user             evict          Pod default/web-6cf4b6d9bb-2bbbb (Drain): refused: … (and 203 more time(s) until +18m10s)

A Job's replacement beside its terminating pod: a Job of parallelism 2
whose pod may be evicted, under the default podReplacementPolicy
(TerminatingOrFailed without a podFailurePolicy). Fixed by
podReplacementPolicy Failed.

    VIOLATED  job-exclusive    Job default/batch (podReplacementPolicy TerminatingOrFailed) runs 2 active pods beside 1 terminating, more than parallelism 2
  +1m10s    user             evict          Pod default/batch-jbbbb (evict)
  +1m20s    job              create         Pod default/batch-nbbbb (TooFewActive)
            kubelet/node-0   update status  Pod default/batch-nbbbb [Running] (Started)
  ── job-exclusive: violated at +1m20s

A DaemonSet update with maxUnavailable 1 and one NotReady node: the stopped
node's old pod, deleted for the update, stays Terminating (its kubelet is
gone) and spends the whole budget; no Ready node is updated. Fixed by
maxUnavailable 2.

    VIOLATED  daemonset-completes  left alone, the world settles 40s later where it does not hold, for ever: DaemonSet default/agent: Ready node node-1 runs pod agent-rbbbb of an old revision
  +1m10s    user             stopNode       Node node-0
  +1m15s    user             update         DaemonSet default/agent (image)
            daemonset        delete         Pod default/agent-pbbbb (UpdateOldPod)
  +1m55s    node-lifecycle   patch          Node node-0 (TaintNode)
    DaemonSet default/agent: 3 node(s) should run a pod, 3 do, 0 updated, 3 ready, 3 available

Counterexamples replay. Each is a path of events at instants: --save DIR
writes it as a scenario (the input's objects and the counterexample's
events) that "kubesem simulate cluster --scenario DIR/<property>.yaml
--until …" replays step for step (a test checks the replayed state is the
counterexample's, fingerprint for fingerprint); --svg FILE draws the first
counterexample's pods over time; -o json prints the report. --vectors DIR
writes the decisions along each counterexample (every Step that wrote or
failed, every eviction) as conformance vectors, DIR/<package>/
check-<property>.json, each input what the world's Step read; their wants
are left {}: kubesem does not state its own expectations, and each
vector's source names the test of conformance/upstream that fills the
want from v1.36.3 (testdata/<package>/check-*.json are the known cases'
vectors, filled so).

How it explores. A transition is a tick (the world runs its due instants,
each: the scenario's events, then rounds of environment and every
controller's sync in its fixed order, until something happens) or an event
of the alphabet, at the world's next due instant, before what is due then;
events happen only after something happened (or in a settled world), so
only their order among the world's happenings is explored, and the world's
timers (ready delays, grace periods, requeues, heartbeats) place them in
time. Time is read exactly where rules read it. States are hashed on a
canonical form: generated names and UIDs renamed by content, nodes renamed
by content (symmetry reduction: of two states that differ by the names of
interchangeable pods and nodes, one is explored; --no-symmetry: not),
instants relative to now (exact back to a cap, the longest duration a rule
reads plus a minute, default 11m; older ones keep their order), the
world's memory (requeues, backoffs, node health, kubelet timers) included;
a world with a CronJob keeps absolute time. The world first runs, with no
event, until it settles (--from-start: not); a world that never does (a
CronJob) is explored from its start. Not explored: the order of
controllers within an instant (the world's fixed order, a controller
manager with a perfectly fresh cache).

Shards. --shard i/n splits a search into n independent parts (i empty:
$JOB_COMPLETION_INDEX): the states up to the first level with 16×n new
states are explored by every part, then each part takes those whose hash
is i mod n, and all that follows them. -o json reports merge with
"kubesem check merge FILE..."; deploy/check/indexed-job.yaml runs the
parts as an Indexed Job whose $JOB_COMPLETION_INDEX picks the part
(--shard /4; a Dockerfile beside it builds the image). On a small search
the parts do more work in total than one search (the rolling-update goal:
about 8,000 states in four parts against 4,800 in one). Its scale (states
per second, memory per state) is in scripts/bench-notes.md.

Memory. Unless GOGC is set, the search runs with the garbage collector's
target at 400% (GOGC=400): the heap may grow to five times what is live
instead of twice, for about a third less CPU time. Set GOGC (e.g. 100) to
trade the time back for memory.

Exit codes: 0 every property held within the bound, 1 a property was
violated, 2 bad usage or input.`

// checkDoc is the check section of a scenario document.
type checkDoc struct {
	PodFailures *int              `json:"podFailures"`
	NodeOutages *int              `json:"nodeOutages"`
	NodeReturns bool              `json:"nodeReturns"`
	Evictions   int               `json:"evictions"`
	Drains      int               `json:"drains"`
	Orders      int               `json:"orders"`
	Events      []json.RawMessage `json:"events"`
	Properties  []string          `json:"properties"`
	Depth       int               `json:"depth"`
	MaxStates   int               `json:"maxStates"`
	Horizon     duration          `json:"horizon"`
	Window      duration          `json:"window"`
	Quiet       duration          `json:"quiet"`
	TimeCap     duration          `json:"timeCap"`
	Symmetry    *bool             `json:"symmetry"`
	FromStart   bool              `json:"fromStart"`
}

// checkRun is a decoded check input.
type checkRun struct {
	run       *scenarioRun
	doc       checkDoc
	hasCheck  bool
	alphabet  check.Alphabet
	rawEvents []json.RawMessage // each alphabet event as written (nil: generated)
	props     []check.Property
	opts      check.Options
	docs      [][]byte // the input's documents, the check section removed
	scenario  int      // index of the scenario document in docs, -1 none
	skipped   int      // workloads left without a default image update
}

// maxDefaultUpdates is the most workloads given a default image update.
const maxDefaultUpdates = 2

// checkStart is the start of a scenario that gives none: a fixed instant,
// so that a check and its replays agree.
var checkStart = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

// readCheck decodes a check input: simulate cluster's scenario with a
// check section in its scenario document.
func readCheck(data []byte) (*checkRun, error) {
	docs, err := documents(data)
	if err != nil {
		return nil, err
	}
	c := &checkRun{scenario: -1}
	for n, raw := range docs {
		var k struct {
			Kind  string          `json:"kind"`
			Items json.RawMessage `json:"items"`
			Check json.RawMessage `json:"check"`
		}
		if err := apijson.Unmarshal(raw, &k); err != nil {
			return nil, fmt.Errorf("document %d: %s", n, describe(err))
		}
		if k.Kind != "" || k.Items != nil || c.scenario >= 0 {
			continue
		}
		c.scenario = n
		if len(k.Check) == 0 || string(k.Check) == "null" {
			continue
		}
		c.hasCheck = true
		if err := apijson.UnmarshalStrict(k.Check, &c.doc); err != nil {
			return nil, fmt.Errorf("document %d: check: %s", n, describe(err))
		}
		var m map[string]json.RawMessage
		if err := json.Unmarshal(raw, &m); err != nil {
			return nil, fmt.Errorf("document %d: %v", n, err)
		}
		delete(m, "check")
		docs[n], _ = json.Marshal(m)
	}
	c.docs = docs
	var joined bytes.Buffer
	for _, d := range docs {
		joined.Write(d)
		joined.WriteByte('\n')
	}
	if c.run, err = readScenario(joined.Bytes()); err != nil {
		return nil, err
	}
	if !c.run.hasStart {
		c.run.sc.Start = checkStart
	}
	for i, raw := range c.doc.Events {
		at := fmt.Sprintf("check.events[%d]", i)
		var e eventDoc
		if err := apijson.UnmarshalStrict(raw, &e); err != nil {
			return nil, fmt.Errorf("%s: %s", at, describe(err))
		}
		ev := cluster.Event{Kind: cluster.EventKind(e.Kind), Target: e.Target, Replicas: e.Replicas,
			Image: e.Image, Template: e.Template, ExitCode: e.ExitCode, Order: e.Order}
		if len(e.Object) > 0 && string(e.Object) != "null" {
			o, err := decodeObject(e.Object, at+".object")
			if err != nil {
				return nil, err
			}
			ev.Object = o
		}
		c.alphabet.Events = append(c.alphabet.Events, ev)
		c.rawEvents = append(c.rawEvents, raw)
	}
	c.alphabet.PodFailures, c.alphabet.NodeOutages = 1, 1
	if c.doc.PodFailures != nil {
		c.alphabet.PodFailures = *c.doc.PodFailures
	}
	if c.doc.NodeOutages != nil {
		c.alphabet.NodeOutages = *c.doc.NodeOutages
	}
	c.alphabet.NodeReturns, c.alphabet.Evictions, c.alphabet.Drains = c.doc.NodeReturns, c.doc.Evictions, c.doc.Drains
	c.alphabet.Orders = c.doc.Orders
	if !c.hasCheck {
		c.defaultUpdates()
	}
	c.opts = check.Options{World: c.run.opts, MaxDepth: c.doc.Depth, MaxStates: c.doc.MaxStates,
		Horizon: time.Duration(c.doc.Horizon), Window: time.Duration(c.doc.Window), Quiet: time.Duration(c.doc.Quiet),
		TimeCap: time.Duration(c.doc.TimeCap), FromStart: c.doc.FromStart}
	if c.doc.Symmetry != nil {
		c.opts.NoSymmetry = !*c.doc.Symmetry
	}
	return c, nil
}

// defaultUpdates adds, for a scenario without a check section, one image
// update of each Deployment, StatefulSet and DaemonSet, when there are at
// most maxDefaultUpdates of them (independent updates in every order grow
// the search as the factorial of their number).
func (c *checkRun) defaultUpdates() {
	n := 0
	for _, o := range c.run.sc.Objects {
		switch o.(type) {
		case *rollout.Deployment, *statefulset.StatefulSet, *daemonset.DaemonSet:
			n++
		}
	}
	if n > maxDefaultUpdates {
		c.skipped = n
		return
	}
	for _, o := range c.run.sc.Objects {
		var img string
		var k cluster.Kind
		var name, ns string
		switch x := o.(type) {
		case *rollout.Deployment:
			k, name, ns, img = cluster.KindDeployment, x.Name, x.Namespace, firstImage(x.Spec.Template.Spec.Containers)
		case *statefulset.StatefulSet:
			k, name, ns, img = cluster.KindStatefulSet, x.Name, x.Namespace, firstImage(x.Spec.Template.Spec.Containers)
		case *daemonset.DaemonSet:
			k, name, ns, img = cluster.KindDaemonSet, x.Name, x.Namespace, firstImage(x.Spec.Template.Spec.Containers)
		default:
			continue
		}
		if img == "" {
			continue
		}
		c.alphabet.Events = append(c.alphabet.Events, cluster.Event{Kind: cluster.EventImage,
			Target: cluster.Key{Kind: k, Namespace: ns, Name: name}, Image: img + "-next"})
		c.rawEvents = append(c.rawEvents, nil)
	}
}

// properties resolves the property names and expressions: flags first,
// else the check section's, else nil (every builtin).
func resolveProperties(names []string) ([]check.Property, error) {
	var out []check.Property
	for _, n := range names {
		if p, ok := check.Builtin(n); ok {
			out = append(out, p)
			continue
		}
		p, err := check.Expression(n)
		if err != nil {
			if !strings.ContainsAny(n, "()<>=!") {
				return nil, fmt.Errorf("property %q: not a builtin (kubesem check --list) nor an expression", n)
			}
			return nil, err
		}
		out = append(out, p)
	}
	return out, nil
}

// listFlag is a repeatable string flag.
type listFlag []string

func (l *listFlag) String() string     { return strings.Join(*l, ", ") }
func (l *listFlag) Set(s string) error { *l = append(*l, s); return nil }

// intFlag is an int flag that knows whether it was set.
type intFlag struct {
	v   int
	set bool
}

func (f *intFlag) String() string { return strconv.Itoa(f.v) }
func (f *intFlag) Set(s string) error {
	v, err := strconv.Atoi(s)
	if err != nil {
		return errors.New("want an integer")
	}
	f.v, f.set = v, true
	return nil
}

// checkMain is the check command: it prints its own errors and returns
// the exit code.
func checkMain(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	var ok bool
	var err error
	if len(args) > 0 && args[0] == "merge" {
		ok, err = checkMerge(args[1:], stdout)
	} else {
		ok, err = checkCmd(args, stdin, stdout)
	}
	switch {
	case err == nil && ok, errors.Is(err, errHelp):
		return 0
	case err == nil:
		return 1
	}
	fmt.Fprintln(stderr, "kubesem:", err)
	if _, usage := err.(usageError); usage {
		return 2
	}
	return 1
}

func checkCmd(args []string, stdin io.Reader, stdout io.Writer) (bool, error) {
	fs := flag.NewFlagSet("check", flag.ContinueOnError)
	file := fs.String("scenario", "", "the scenario file, JSON or YAML (\"-\": stdin)")
	var props listFlag
	fs.Var(&props, "property", "a property to check: a builtin's name or an expression (repeatable; default: the check section's, else every builtin that applies)")
	list := fs.Bool("list", false, "list the builtin properties and exit")
	var depth, maxStates, podFailures, nodeOutages, evictions, drains, orders intFlag
	fs.Var(&depth, "depth", "the most transitions on a path (default: the check section's, else 60)")
	fs.Var(&maxStates, "max-states", "the most states explored (default 2,000,000)")
	fs.Var(&podFailures, "pod-failures", "the most pod failures on a path (default: the check section's, else 1)")
	fs.Var(&nodeOutages, "node-outages", "the most node outages on a path (default: the check section's, else 1)")
	fs.Var(&evictions, "evictions", "the most evictions on a path (default: the check section's, else 0)")
	fs.Var(&drains, "drains", "the most node drains on a path (default: the check section's, else 0)")
	fs.Var(&orders, "orders", "the most changes of the controllers' sync order on a path: each moves one controller with objects to the front of every round, as kube-controller-manager's concurrent controllers may run (default: the check section's, else 0: the world's fixed order)")
	horizon := fs.Duration("horizon", 0, "events happen within this long of the first state (default: the check section's, else 30m)")
	window := fs.Duration("window", 0, "liveness: the world must settle good within this long (default: the check section's, else 45m)")
	noSym := fs.Bool("no-symmetry", false, "turn symmetry reduction off (nodes that differ only by name are distinct states)")
	fromStart := fs.Bool("from-start", false, "explore from the scenario's start, not from where it settles")
	shard := fs.String("shard", "", "explore part i of n (`i/n`; i empty: $JOB_COMPLETION_INDEX)")
	output := fs.String("o", "text", "output format: text or json (json reports merge with kubesem check merge)")
	save := fs.String("save", "", "write each counterexample as a scenario in `DIR` (<property>.yaml), which simulate cluster replays")
	vectors := fs.String("vectors", "", "write the decisions along each counterexample as conformance vectors in `DIR` (<package>/check-<property>.json; wants left {} for conformance/upstream to fill from v1.36.3)")
	svgFile := fs.String("svg", "", "draw the first counterexample's pods over time as an SVG chart in `FILE`")
	maxBytes := fs.Int64("max-bytes", defaultMaxDump, "the largest scenario read, in bytes")
	if err := parseFlags(fs, args, stdout, checkSynopsis); err != nil {
		return false, err
	}
	if *list {
		for _, p := range check.Builtins() {
			kind := "safety"
			if p.IsLiveness() {
				kind = "liveness"
			}
			fmt.Fprintf(stdout, "%s (%s)\n    %s\n", p.Name, kind, p.Doc)
		}
		return true, nil
	}
	if fs.NArg() > 0 {
		return false, usagef("check: unexpected argument %q", fs.Arg(0))
	}
	if *file == "" {
		return false, usagef("check: --scenario FILE is required")
	}
	if *output != "text" && *output != "json" {
		return false, usagef("check: -o: %q: want text or json", *output)
	}
	data, err := readInput(*file, stdin, *maxBytes)
	if err != nil {
		return false, usagef("check: %v", err)
	}
	c, err := readCheck(data)
	if err != nil {
		return false, usagef("check: %s: %v", *file, err)
	}
	for _, f := range []struct {
		flag *intFlag
		dst  *int
	}{{&depth, &c.opts.MaxDepth}, {&maxStates, &c.opts.MaxStates}, {&podFailures, &c.alphabet.PodFailures},
		{&nodeOutages, &c.alphabet.NodeOutages}, {&evictions, &c.alphabet.Evictions}, {&drains, &c.alphabet.Drains}, {&orders, &c.alphabet.Orders}} {
		if f.flag.set {
			*f.dst = f.flag.v
		}
	}
	if *horizon != 0 {
		c.opts.Horizon = *horizon
	}
	if *window != 0 {
		c.opts.Window = *window
	}
	if *noSym {
		c.opts.NoSymmetry = true
	}
	if *fromStart {
		c.opts.FromStart = true
	}
	if *shard != "" {
		s, err := parseShard(*shard)
		if err != nil {
			return false, usagef("check: --shard: %v", err)
		}
		c.opts.Shard = s
	}
	names := []string(props)
	if len(names) == 0 {
		names = c.doc.Properties
	}
	if c.props, err = resolveProperties(names); err != nil {
		return false, usagef("check: %v", err)
	}
	if len(names) == 0 {
		c.props = nil
	}
	began := time.Now()
	restoreGC := searchGC(os.Getenv("GOGC"))
	rep, err := check.Explore(c.run.sc, c.alphabet, c.props, c.opts)
	restoreGC()
	if err != nil {
		return false, usagef("check: %s: %v", *file, err)
	}
	elapsed := time.Since(began)
	held := len(rep.Failed()) == 0
	var vectorFiles []string
	if *save != "" {
		if err := c.saveAll(rep, *save); err != nil {
			return false, err
		}
	}
	if *vectors != "" {
		if vectorFiles, err = c.writeVectors(rep, *vectors); err != nil {
			return false, err
		}
	}
	if *svgFile != "" {
		if err := c.drawFirst(rep, *svgFile, *file); err != nil {
			return false, err
		}
	}
	if *output == "json" {
		b, err := json.MarshalIndent(rep, "", "  ")
		if err != nil {
			return false, err
		}
		stdout.Write(append(b, '\n'))
		return held, nil
	}
	c.print(stdout, rep, *file, elapsed, *save)
	if len(vectorFiles) > 0 {
		fmt.Fprintf(stdout, "\nvectors: the decisions along the counterexamples, their wants empty until upstream fills them (each vector's source says how):\n")
		for _, f := range vectorFiles {
			fmt.Fprintf(stdout, "  %s\n", f)
		}
	}
	return held, nil
}

// parseShard reads "i/n"; an empty i is $JOB_COMPLETION_INDEX (the index
// of an Indexed Job's pod).
func parseShard(s string) (check.Shard, error) {
	is, ns, ok := strings.Cut(s, "/")
	if !ok {
		return check.Shard{}, fmt.Errorf("%q: want i/n", s)
	}
	if is == "" {
		is = os.Getenv("JOB_COMPLETION_INDEX")
		if is == "" {
			return check.Shard{}, fmt.Errorf("%q: no index, and $JOB_COMPLETION_INDEX is not set", s)
		}
	}
	i, err1 := strconv.Atoi(is)
	n, err2 := strconv.Atoi(ns)
	if err1 != nil || err2 != nil || n < 1 || i < 0 || i >= n {
		return check.Shard{}, fmt.Errorf("%q: want i/n with 0 <= i < n", s)
	}
	return check.Shard{Index: i, Count: n}, nil
}

// checkMerge merges -o json reports.
func checkMerge(args []string, stdout io.Writer) (bool, error) {
	fs := flag.NewFlagSet("check merge", flag.ContinueOnError)
	output := fs.String("o", "text", "output format: text or json")
	if err := parseFlags(fs, args, stdout, "Merges the -o json reports of kubesem check --shard i/n (FILE...): states add up, a property holds when it held in every part, its counterexample is the shortest."); err != nil {
		return false, err
	}
	if fs.NArg() == 0 {
		return false, usagef("check merge: want the reports, FILE...")
	}
	var reps []*check.Report
	for _, f := range fs.Args() {
		data, err := os.ReadFile(f)
		if err != nil {
			return false, usagef("check merge: %v", err)
		}
		var r check.Report
		if err := json.Unmarshal(data, &r); err != nil {
			return false, usagef("check merge: %s: %v", f, err)
		}
		reps = append(reps, &r)
	}
	m := check.Merge(reps...)
	held := len(m.Failed()) == 0
	if *output == "json" {
		b, err := json.MarshalIndent(m, "", "  ")
		if err != nil {
			return false, err
		}
		stdout.Write(append(b, '\n'))
		return held, nil
	}
	fmt.Fprintf(stdout, "merged %d report(s)\n", len(reps))
	printSummary(stdout, m)
	printResults(stdout, m)
	return held, nil
}

// searchGCPercent is the garbage collector's target during a search when
// GOGC is not set: a search allocates a world per transition and keeps
// only a hash of most, so collecting less often (the heap may grow to five
// times what is live, not twice) saves about a third of its CPU time
// (BenchmarkDeploymentUsers: 1,290 → 1,905 states per CPU-second).
const searchGCPercent = 400

// searchGC sets the collector's target for a search unless gogc (the GOGC
// environment variable) is set, and returns what restores it.
func searchGC(gogc string) (restore func()) {
	if gogc != "" {
		return func() {}
	}
	old := debug.SetGCPercent(searchGCPercent)
	return func() { debug.SetGCPercent(old) }
}
