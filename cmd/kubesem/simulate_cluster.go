package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/kubesem/kubesem/cluster"
	"github.com/kubesem/kubesem/internal/apijson"
	"github.com/kubesem/kubesem/meta"
	"github.com/kubesem/kubesem/plan"
	"github.com/kubesem/kubesem/podstatus"
)

const clusterSynopsis = `Runs a scenario on the world (package cluster): every controller of
kube-controller-manager that kubesem models, the API server, a scheduler,
kubelets, node heartbeats and the scenario's users, with time jumping from
one due instant to the next, and prints the timeline: each write with its
time offset, controller, request, object and reason, and each event a
controller records (a refusal repeated, such as a drain under a budget, is
printed once with its count); then how the run ended and the state it
ended in.

The scenario (--scenario FILE, "-" for stdin; JSON or YAML) is a document
  name: rolling update under a drain   # optional: the --svg chart's title
  start: 2026-11-23T12:00:00Z      # the first instant (--start overrides)
  kubelet: {startDelay: 1s, readyDelay: 5s}
  settleQuiet: 1m                  # quiet time that counts as settled
  pods:                            # how the kubelet runs matching pods
  - {namespace: batch, selector: {matchLabels: {app: x}}, runFor: 30s,
     exitCode: 1, neverReady: false, startDelay: 0s, readyDelay: 10s}
  objects: [ ...API objects, or Lists of them... ]
  events:
  - {at: 1m, kind: image, target: {kind: Deployment, namespace: shop, name: web}, image: web:2}
and/or API objects as kubectl get -o json|yaml or kubectl cluster-info dump
print them (a List, typed Lists whose items carry no kind, a stream of
objects, kubectl cluster-info dump with its pod logs): a dump alone is a
scenario without events. Pod behaviours say how the kubelet runs matching
pods: start and ready delays, never ready, run for a time and exit with a
code. Event kinds: scale (replicas), image (image), template (template),
pause, resume, create (object), update (object), delete, cordon, uncordon,
drain, evict, stopNode, startNode, failPod (exitCode), order (order: the
controllers that sync first in every round from then on, e.g.
[statefulset]; kube-controller-manager's controllers run concurrently, so
any order is one Kubernetes may take). Objects of kinds kubesem does not
model are listed as not run, never dropped silently.

The world runs until --until after the start, or, without --until, until
it settles (no write but heartbeats for settleQuiet, default 1 minute, and
nothing due but periodic work), at most --limit; a CronJob never lets a
world settle: use --until. -o json prints the trace (plan.Encode), the
final state and what was not modelled; --svg FILE draws the pods' states
per busy instant; --heartbeats shows lease renewals too.

Names are v1.36.3's: the namer takes its template hashes from the k8s
adapter (k8s.TemplateHash for ReplicaSets and DaemonSet revisions,
k8s.StatefulSetRevisionName's hash for StatefulSet revisions), so a
template written as the API server stores it (defaults included, as
kubectl get -o yaml prints it) gets the name Kubernetes gives it; a
hand-written template without the API defaults hashes differently, as it
would before the API server defaults it. Generated suffixes and UIDs are
deterministic stand-ins for the API server's random ones.

Examples (scenarios in cmd/kubesem/testdata/scenarios):

  kubesem simulate cluster --scenario cmd/kubesem/testdata/scenarios/rolling-outage-drain.yaml --until 12m
  kubesem simulate cluster --scenario cmd/kubesem/testdata/scenarios/statefulset-update.yaml
  kubesem simulate cluster --scenario cmd/kubesem/testdata/scenarios/job-failures.yaml --svg job.svg

An excerpt of the first: a rolling update of shop/web, 6 replicas, while
node-c stops heartbeating at 1m20s and node-b is drained at 2m30s under a
PodDisruptionBudget of minAvailable 5, with a CronJob firing every two
minutes (the whole timeline is testdata/scenarios/rolling-outage-drain.golden):

  +1m00s    user              update         Deployment shop/web [replicas 6] (image)
            deployment        create         ReplicaSet shop/web-8448b6f544 [replicas 2] (CreateNew)
            deployment        update         ReplicaSet shop/web-5f5794754f [replicas 5] (ScaleDownOld)
            deployment        event          Deployment shop/web Normal ScalingReplicaSet: Scaled up replica set web-8448b6f544 from 0 to 2
  ...
  +1m20s    user              stopNode       Node node-c
  ...
  +2m05s    node-lifecycle    update status  Node node-c (Monitored)
            node-lifecycle    patch          Node node-c (TaintNode)
            node-lifecycle    update status  Pod shop/web-8448b6f544-ccbbb [Running] (MarkPodsNotReady)
  ...
  +2m30s    user              update         Node node-b (drain)
            user              evict          Pod shop/web-8448b6f544-9bbbb (Drain): refused: metadata.name: "web-8448b6f544-9bbbb: NoDisruptionsAllowed The disruption budget web-pdb needs 5 healthy pods and has 4 currently": too many requests (and 57 more time(s) until +7m15s)
  ...
  +7m05s    taint-eviction    patch status   Pod shop/web-5f5794754f-qbbbb [Running] (TaintManagerEviction)
            taint-eviction    delete         Pod shop/web-5f5794754f-qbbbb (TaintManagerEviction)
  ...
            replicaset        create         Pod shop/web-8448b6f544-xcbbb (TooFewReplicas)
  ...
  +7m20s    user              evict          Pod shop/web-8448b6f544-9bbbb (Drain)
  ...
  at +12m00s:
    Node node-b: Ready=True, unschedulable, taint node.kubernetes.io/unschedulable:NoSchedule, pods: none
    Node node-c: Ready=Unknown, taint node.kubernetes.io/unreachable:NoExecute, taint node.kubernetes.io/unreachable:NoSchedule, pods: 4 terminating
    Deployment shop/web: 6 replica(s), 6 updated, 6 ready, 6 available; Available=True (MinimumReplicasAvailable), Progressing=True (NewReplicaSetAvailable)
    PodDisruptionBudget shop/web-pdb: 1 disruption(s) allowed, 6 healthy of 5 desired

The drain waits for the budget: node-c's pods count as unhealthy once its
Ready condition turns Unknown (40 s grace), and only when the
taint-eviction controller deletes them (300 s after the NoExecute taint,
the default toleration) and their replacements are ready does the budget
let node-b's pods go. The pods on node-c stay Terminating: its kubelet is
gone.

The world is checked against v1.36.3's controllers as a whole by
conformance/upstream TestWholeClusterDifferential (package cluster's
documentation says how).`

// scenarioDoc is the scenario document of a scenario file.
type scenarioDoc struct {
	Name        string            `json:"name"`
	Start       *time.Time        `json:"start"`
	Kubelet     kubeletDoc        `json:"kubelet"`
	SettleQuiet duration          `json:"settleQuiet"`
	Pods        []podBehaviorDoc  `json:"pods"`
	Objects     []json.RawMessage `json:"objects"`
	Events      []eventDoc        `json:"events"`
}

type kubeletDoc struct {
	StartDelay duration `json:"startDelay"`
	ReadyDelay duration `json:"readyDelay"`
}

type podBehaviorDoc struct {
	Namespace  string              `json:"namespace"`
	Selector   *meta.LabelSelector `json:"selector"`
	StartDelay *duration           `json:"startDelay"`
	ReadyDelay *duration           `json:"readyDelay"`
	NeverReady bool                `json:"neverReady"`
	RunFor     *duration           `json:"runFor"`
	ExitCode   int32               `json:"exitCode"`
}

type eventDoc struct {
	At       duration            `json:"at"`
	Kind     string              `json:"kind"`
	Target   cluster.Key         `json:"target"`
	Replicas *int32              `json:"replicas"`
	Image    string              `json:"image"`
	Template *podstatus.Template `json:"template"`
	Object   json.RawMessage     `json:"object"`
	ExitCode int32               `json:"exitCode"`
	Order    []string            `json:"order"`
}

// duration is a Go duration written as a string ("1m30s").
type duration time.Duration

func (d *duration) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return fmt.Errorf("want a duration such as \"90s\" or \"1m30s\"")
	}
	v, err := time.ParseDuration(s)
	if err != nil {
		return fmt.Errorf("%q: want a duration such as \"90s\" or \"1m30s\"", s)
	}
	*d = duration(v)
	return nil
}

func (d *duration) ptr() *time.Duration {
	if d == nil {
		return nil
	}
	v := time.Duration(*d)
	return &v
}

// scenarioRun is a decoded scenario file.
type scenarioRun struct {
	name     string // the scenario document's name, if any
	sc       cluster.Scenario
	hasStart bool
	opts     cluster.Options
	other    []otherObject
}

// readScenario decodes a scenario file: scenario documents (no "kind")
// and API objects, in any order; at most one scenario document.
func readScenario(data []byte) (*scenarioRun, error) {
	docs, err := documents(data)
	if err != nil {
		return nil, err
	}
	run := &scenarioRun{opts: worldOptions()}
	objs := &objects{}
	seen := false
	for n, raw := range docs {
		at := fmt.Sprintf("document %d", n)
		var k struct {
			Kind  string          `json:"kind"`
			Items json.RawMessage `json:"items"`
		}
		if err := apijson.Unmarshal(raw, &k); err != nil {
			return nil, fmt.Errorf("%s: %s", at, describe(err))
		}
		if k.Kind != "" || k.Items != nil {
			if err := objs.add(raw, at, 0); err != nil {
				return nil, err
			}
			continue
		}
		if seen {
			return nil, fmt.Errorf("%s: a second scenario document (want one, and API objects)", at)
		}
		seen = true
		var doc scenarioDoc
		if err := apijson.UnmarshalStrict(raw, &doc); err != nil {
			return nil, fmt.Errorf("%s: %s", at, describe(err))
		}
		if doc.Start != nil {
			run.sc.Start, run.hasStart = doc.Start.UTC(), true
		}
		run.name = doc.Name
		run.opts.Kubelet.StartDelay = time.Duration(doc.Kubelet.StartDelay)
		run.opts.Kubelet.ReadyDelay = time.Duration(doc.Kubelet.ReadyDelay)
		run.opts.SettleQuiet = time.Duration(doc.SettleQuiet)
		for i, o := range doc.Objects {
			if err := objs.add(o, fmt.Sprintf("%s: objects[%d]", at, i), 0); err != nil {
				return nil, err
			}
		}
		for _, p := range doc.Pods {
			run.sc.Pods = append(run.sc.Pods, cluster.PodBehavior{Namespace: p.Namespace, Selector: p.Selector,
				StartDelay: p.StartDelay.ptr(), ReadyDelay: p.ReadyDelay.ptr(), NeverReady: p.NeverReady,
				RunFor: p.RunFor.ptr(), ExitCode: p.ExitCode})
		}
		for i, e := range doc.Events {
			ev := cluster.Event{At: time.Duration(e.At), Kind: cluster.EventKind(e.Kind), Target: e.Target,
				Replicas: e.Replicas, Image: e.Image, Template: e.Template, ExitCode: e.ExitCode, Order: e.Order}
			if len(e.Object) > 0 && string(e.Object) != "null" {
				o, err := decodeObject(e.Object, fmt.Sprintf("%s: events[%d].object", at, i))
				if err != nil {
					return nil, err
				}
				ev.Object = o
			}
			run.sc.Events = append(run.sc.Events, ev)
		}
	}
	if err := objs.dedupe(); err != nil {
		return nil, err
	}
	run.sc.Objects = objs.models
	run.other = objs.other
	return run, nil
}

func simulateCluster(args []string, stdin io.Reader, stdout io.Writer) error {
	fs := flag.NewFlagSet("simulate cluster", flag.ContinueOnError)
	file := fs.String("scenario", "", "the scenario file, JSON or YAML (\"-\": stdin)")
	startFlag := fs.String("start", "", "the first instant, RFC 3339 (default: the scenario's start, else the current time)")
	until := fs.Duration("until", 0, "run until this long after the start (default: until the world settles)")
	limit := fs.Duration("limit", 6*time.Hour, "the longest run when waiting for the world to settle")
	output := fs.String("o", "text", "output format: text or json")
	svgFile := fs.String("svg", "", "also draw the pods' states over time as an SVG chart in `FILE`")
	heartbeats := fs.Bool("heartbeats", false, "also print the node heartbeats (lease renewals, periodic status reports)")
	maxBytes := fs.Int64("max-bytes", defaultMaxDump, "the largest scenario read, in bytes")
	if err := parseFlags(fs, args, stdout, clusterSynopsis); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usagef("simulate cluster: unexpected argument %q", fs.Arg(0))
	}
	if *file == "" {
		return usagef("simulate cluster: --scenario FILE is required")
	}
	if *output != "text" && *output != "json" {
		return usagef("simulate cluster: -o: %q: want text or json", *output)
	}
	if *until < 0 || *limit <= 0 || *maxBytes <= 0 {
		return usagef("simulate cluster: --until must not be negative, --limit and --max-bytes must be positive")
	}
	data, err := readInput(*file, stdin, *maxBytes)
	if err != nil {
		return usagef("simulate cluster: %v", err)
	}
	run, err := readScenario(data)
	if err != nil {
		return usagef("simulate cluster: %s: %v", *file, err)
	}
	switch {
	case *startFlag != "":
		t, err := time.Parse(time.RFC3339, *startFlag)
		if err != nil {
			return usagef("simulate cluster: --start: %q: not an RFC 3339 time", *startFlag)
		}
		run.sc.Start = t.UTC()
	case !run.hasStart:
		run.sc.Start = time.Now().UTC().Truncate(time.Second)
	}
	res, err := runClusterWorld(run, *until, *limit, *svgFile != "")
	if err != nil {
		return usagef("simulate cluster: %s: %v", *file, err)
	}
	if *svgFile != "" {
		res.chart.title, res.chart.subtitle = res.chartTitle(run, *file)
		if err := res.chart.writeFile(*svgFile); err != nil {
			return err
		}
	}
	if *output == "json" {
		b, err := plan.Encode(res.report(run))
		if err != nil {
			return err
		}
		var pretty bytes.Buffer
		if err := json.Indent(&pretty, b, "", "  "); err != nil {
			return err
		}
		stdout.Write(append(pretty.Bytes(), '\n'))
		return stuck(res.w)
	}
	res.print(stdout, run, *file, *heartbeats)
	return stuck(res.w)
}

// stuck returns the world's World.Err (cluster.ErrStuck: an instant that
// stayed due after its last allowed step), so that a run that stopped
// early exits non-zero after printing what it did; nil otherwise.
func stuck(w *cluster.World) error {
	if w.Err != nil {
		return fmt.Errorf("the run stopped early: %w", w.Err)
	}
	return nil
}

// clusterRun is a finished run of the world.
type clusterRun struct {
	w         *cluster.World
	until     time.Duration // 0: until settled
	settled   bool
	settledAt time.Time
	chart     *timeline
}

// runClusterWorld runs the scenario: until start+until, or until settled within
// limit. With chart, the pods' states are drawn after every instant that
// wrote anything but heartbeats.
func runClusterWorld(run *scenarioRun, until, limit time.Duration, chart bool) (*clusterRun, error) {
	w, err := newWorld(run.sc, run.opts)
	if err != nil {
		return nil, err
	}
	res := &clusterRun{w: w, until: until}
	end := run.sc.Start.Add(until)
	if until == 0 {
		res.settledAt, res.settled = w.RunUntilSettled(limit)
		end = w.Now
	} else {
		w.Run(end)
	}
	if !chart {
		return res, nil
	}
	// The chart replays the same (deterministic) run instant by instant.
	c, err := newWorld(run.sc, run.opts)
	if err != nil {
		return nil, err
	}
	res.chart = podChart(c, end)
	return res, nil
}

// chartTitle is the chart's title, the scenario's name (its file's when it
// has none), and subtitle, what the text output's first line says of it
// and how the run ended.
func (r *clusterRun) chartTitle(run *scenarioRun, file string) (title, subtitle string) {
	name := run.name
	switch {
	case name != "" && file != "-":
		name += " (" + filepath.Base(file) + ")"
	case name == "" && file == "-":
		name = "from stdin"
	case name == "":
		name = filepath.Base(file)
	}
	end := "ran until " + atOffset(r.w.Now.Sub(r.w.Start))
	if r.until == 0 {
		end = "not settled by " + atOffset(r.w.Now.Sub(r.w.Start))
		if r.settled {
			end = "settled at " + atOffset(r.settledAt.Sub(r.w.Start))
		}
	}
	return "simulate cluster: scenario " + name, fmt.Sprintf("%s; %d event(s); start %s; %s", countKinds(run.sc.Objects), len(run.sc.Events), r.w.Start.Format(time.RFC3339), end)
}

// podChart steps w until end, one column per instant with a write other
// than heartbeats: the pods Ready, running but not ready, pending,
// succeeded, failed and terminating.
func podChart(w *cluster.World, end time.Time) *timeline {
	t := &timeline{series: []series{
		{"ready", "#2e7d32"}, {"running, not ready", "#9ccc65"}, {"pending", "#ffca28"},
		{"succeeded", "#64b5f6"}, {"failed", "#e53935"}, {"terminating", "#9e9e9e"},
	}}
	n := len(w.Trace)
	for w.Step(end) {
		var notes []string
		for _, e := range w.Trace[n:] {
			if e.Reason == cluster.ReasonHeartbeat || e.Write == nil {
				continue
			}
			notes = append(notes, e.Controller+" "+verbOf(e.Write)+" "+e.Object.String())
		}
		n = len(w.Trace)
		if len(notes) == 0 {
			continue
		}
		var stack [6]int
		for _, p := range w.State.Pods() {
			stack[podState(p)]++
		}
		note := strings.Join(notes[:min(len(notes), 8)], "; ")
		if len(notes) > 8 {
			note += fmt.Sprintf("; … %d writes", len(notes))
		}
		t.add(atOffset(w.Now.Sub(w.Start)), note, stack[:]...)
	}
	return t
}

// podState is the chart series of a pod.
func podState(p *podstatus.Pod) int {
	switch {
	case p.IsDeleting():
		return 5
	case p.Status.Phase == podstatus.Succeeded:
		return 3
	case p.Status.Phase == podstatus.Failed:
		return 4
	case p.Status.Phase == podstatus.Running && readyCondition(p):
		return 0
	case p.Status.Phase == podstatus.Running:
		return 1
	}
	return 2
}

// report is the -o json output.
type clusterReport struct {
	Start     time.Time  `json:"start"`
	End       time.Time  `json:"end"`
	Settled   *bool      `json:"settled,omitempty"`
	SettledAt *time.Time `json:"settledAt,omitempty"`
	// Leftovers, when the world settled, are the pods nothing will move
	// on (unscheduled, or stranded on a missing or stopped node): the
	// cluster is then stuck on its environment, not done.
	Leftovers  *cluster.Leftovers `json:"leftovers,omitempty"`
	NotRun     []otherObject      `json:"notModelled"`
	Trace      []cluster.Entry    `json:"trace"`
	FinalState []any              `json:"finalState"`
}

func (r *clusterRun) report(run *scenarioRun) clusterReport {
	out := clusterReport{Start: r.w.Start, End: r.w.Now, NotRun: run.other, Trace: r.w.Trace, FinalState: r.w.State.Objects()}
	if r.until == 0 {
		out.Settled = &r.settled
		out.SettledAt = &r.settledAt
		if l := r.w.Leftovers(); r.settled && !l.Empty() {
			out.Leftovers = &l
		}
	}
	return out
}

// atOffset prints a time offset from the start: +0s, +1m05s, +1h02m03s,
// +2m00.1s.
func atOffset(d time.Duration) string {
	s := d.Truncate(time.Second)
	h, m := int(s/time.Hour), int(s%time.Hour/time.Minute)
	sec := strings.TrimSuffix(strings.TrimRight(fmt.Sprintf("%09.6f", (d%time.Minute).Seconds()), "0"), ".")
	if !strings.Contains(sec, ".") {
		sec = fmt.Sprintf("%02d", int(d%time.Minute/time.Second))
	}
	switch {
	case h > 0:
		return fmt.Sprintf("+%dh%02dm%ss", h, m, sec)
	case m > 0:
		return fmt.Sprintf("+%dm%ss", m, sec)
	}
	return "+" + strings.TrimPrefix(sec, "0") + "s"
}

// streak is a write refused again and again (a drain's evictions under a
// budget): printed once, with the count and the last time.
type streak struct {
	skip bool
	more int
	last time.Time
}

// refusalStreaks finds the writes the API server refused that repeat a
// refusal of the same request (controller, verb, object, reason, error) with
// no accepted write to that object in between: the first is printed with
// the count, the others are not.
func refusalStreaks(tr []cluster.Entry) map[int]*streak {
	out := map[int]*streak{}
	open := map[string]int{} // request → index of the streak's first entry
	for i, e := range tr {
		if e.Write == nil {
			continue
		}
		obj := e.Object.String()
		if e.Err == "" {
			for k := range open {
				if strings.HasPrefix(k, obj+"\x00") {
					delete(open, k)
				}
			}
			continue
		}
		k := obj + "\x00" + e.Controller + "\x00" + verbOf(e.Write) + "\x00" + string(e.Reason) + "\x00" + e.Err
		first, ok := open[k]
		if !ok {
			open[k] = i
			out[i] = &streak{}
			continue
		}
		out[first].more++
		out[first].last = e.Time
		out[i] = &streak{skip: true}
	}
	return out
}

// verbOf names a write's request: create, update, patch, delete, "update
// status", bind (pods/binding), evict (pods/eviction).
func verbOf(w *plan.Write) string {
	switch w.Subresource {
	case "":
		return string(w.Verb)
	case "binding":
		return "bind"
	case "eviction":
		return "evict"
	}
	return string(w.Verb) + " " + w.Subresource
}

// generatedNamesNote says which printed names are not Kubernetes' own:
// the API server completes a generateName with five random characters,
// which the world spells from a counter instead.
const generatedNamesNote = "names completed from generateName (a ReplicaSet's or Job's pods: …-bbbbb, …-lbbbb) stand in for the API server's random five-character suffixes; every other name is the one Kubernetes uses"

func (r *clusterRun) print(out io.Writer, run *scenarioRun, file string, heartbeats bool) {
	w := r.w
	fmt.Fprintf(out, "scenario %s: %s; %d event(s); start %s\n", file, countKinds(run.sc.Objects), len(run.sc.Events), w.Start.Format(time.RFC3339))
	if len(run.other) > 0 {
		var names []string
		for _, o := range run.other {
			names = append(names, o.String())
		}
		fmt.Fprintf(out, "not modelled, not run: %s\n", strings.Join(names, ", "))
	}
	if !heartbeats {
		fmt.Fprintln(out, "node heartbeats (lease renewals, periodic status reports) are not shown (--heartbeats shows them)")
	}
	fmt.Fprintln(out, generatedNamesNote)
	fmt.Fprintln(out)
	r.printTrace(out, heartbeats)
	fmt.Fprintln(out)
	r.printEnd(out)
}

// printTrace prints the trace, one line per write or event: the time
// offset (once per instant), the controller, the request, the object and
// the reason.
func (r *clusterRun) printTrace(out io.Writer, heartbeats bool) {
	w := r.w
	last := time.Duration(-1)
	repeats := refusalStreaks(w.Trace)
	width := 16
	for _, e := range w.Trace {
		width = max(width, min(len(e.Controller), 28))
	}
	for i, e := range w.Trace {
		if e.Reason == cluster.ReasonHeartbeat && !heartbeats {
			continue
		}
		rep, ok := repeats[i]
		if ok && rep.skip {
			continue
		}
		at := e.Time.Sub(w.Start)
		ts := ""
		if at != last {
			ts, last = atOffset(at), at
		}
		text := entryText(e)
		if ok && rep.more > 0 {
			text += fmt.Sprintf(" (and %d more time(s) until %s)", rep.more, atOffset(rep.last.Sub(w.Start)))
		}
		fmt.Fprintf(out, "%-9s %-*s %s\n", ts, width, e.Controller, text)
	}
}

// printEnd says how the run ended and prints the final state.
func (r *clusterRun) printEnd(out io.Writer) {
	w := r.w
	switch {
	case r.until != 0:
		fmt.Fprintf(out, "ran until %s\n", atOffset(r.until))
	case r.settled && !w.Leftovers().Empty():
		l := w.Leftovers()
		fmt.Fprintf(out, "stuck, not settled: nothing happens after %s, but", atOffset(r.settledAt.Sub(w.Start)))
		if len(l.Unscheduled) > 0 {
			fmt.Fprintf(out, " %d pod(s) are unscheduled (no node can take them: %s)", len(l.Unscheduled), keyList(l.Unscheduled))
		}
		if len(l.Unscheduled) > 0 && len(l.Stranded) > 0 {
			fmt.Fprint(out, " and")
		}
		if len(l.Stranded) > 0 {
			fmt.Fprintf(out, " %d pod(s) are stranded (their node is not in the cluster, or its kubelet is stopped: %s)", len(l.Stranded), keyList(l.Stranded))
		}
		fmt.Fprintln(out)
	case r.settled:
		fmt.Fprintf(out, "settled: the last write but heartbeats at %s\n", atOffset(r.settledAt.Sub(w.Start)))
	default:
		fmt.Fprintf(out, "not settled by %s (--limit)\n", atOffset(w.Now.Sub(w.Start)))
	}
	printFinal(out, w)
}

// entryText is one trace entry: the request and object, then the reason,
// or the event, and the API server's refusal.
func entryText(e cluster.Entry) string {
	var b strings.Builder
	switch {
	case e.Event != nil:
		obj := objectText(e.Object)
		if e.Object.Name == "" {
			obj = e.Event.Object
		} else if e.Event.Object != "" {
			obj += " (" + e.Event.Object + ")"
		}
		fmt.Fprintf(&b, "%-14s %s %s %s", "event", obj, e.Event.Type, e.Event.Reason)
		if e.Event.Message != "" {
			b.WriteString(": " + e.Event.Message)
		}
		return b.String()
	case e.Write != nil:
		fmt.Fprintf(&b, "%-14s %s", verbOf(e.Write), objectText(e.Object))
		if d := writeDetail(e.Write); d != "" {
			b.WriteString(" " + d)
		}
	default:
		fmt.Fprintf(&b, "%-14s %s", e.Reason, objectText(e.Object))
	}
	if e.Write != nil && e.Reason != "" {
		fmt.Fprintf(&b, " (%s)", e.Reason)
	}
	if e.Err != "" {
		fmt.Fprintf(&b, ": refused: %s", e.Err)
	}
	return b.String()
}

func objectText(k cluster.Key) string {
	if k.Namespace == "" {
		return string(k.Kind) + " " + k.Name
	}
	return string(k.Kind) + " " + k.Namespace + "/" + k.Name
}

// writeDetail adds what a reader needs of some writes: the replicas of a
// workload's update, the node of a binding, a pod's phase and readiness.
func writeDetail(w *plan.Write) string {
	switch o := w.Object.(type) {
	case *podstatus.Pod:
		if w.Subresource == "status" {
			s := string(o.Status.Phase)
			if readyCondition(o) {
				s += ", ready"
			}
			return "[" + s + "]"
		}
	}
	if w.Subresource == "binding" {
		if b, ok := w.Object.(*podstatus.Pod); ok && b.Spec.NodeName != "" {
			return "to " + b.Spec.NodeName
		}
	}
	if w.Subresource == "" && (w.Verb == plan.VerbCreate || w.Verb == plan.VerbUpdate || w.Verb == plan.VerbPatch) {
		if r := replicasOf(w.Object); r != nil {
			return fmt.Sprintf("[replicas %d]", *r)
		}
	}
	return ""
}

func countKinds(objs []any) string {
	counts := map[cluster.Kind]int{}
	var kinds []cluster.Kind
	for _, o := range objs {
		k, _ := cluster.KindOf(o)
		if counts[k] == 0 {
			kinds = append(kinds, k)
		}
		counts[k]++
	}
	slices.Sort(kinds)
	var parts []string
	for _, k := range kinds {
		parts = append(parts, fmt.Sprintf("%d %s", counts[k], k))
	}
	if len(parts) == 0 {
		return "no objects"
	}
	return strings.Join(parts, ", ")
}

// keyList names at most five objects, then how many more.
func keyList(ks []cluster.Key) string {
	var names []string
	for i, k := range ks {
		if i == 5 {
			names = append(names, fmt.Sprintf("and %d more", len(ks)-5))
			break
		}
		names = append(names, k.Namespace+"/"+k.Name)
	}
	return strings.Join(names, ", ")
}
