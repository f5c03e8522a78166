package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"maps"
	"reflect"
	"slices"
	"strings"
	"time"

	"github.com/kubesem/kubesem/cluster"
	"github.com/kubesem/kubesem/cronjob"
	"github.com/kubesem/kubesem/daemonset"
	"github.com/kubesem/kubesem/job"
	"github.com/kubesem/kubesem/meta"
	"github.com/kubesem/kubesem/node"
	"github.com/kubesem/kubesem/pdb"
	"github.com/kubesem/kubesem/plan"
	"github.com/kubesem/kubesem/podgc"
	"github.com/kubesem/kubesem/podstatus"
	"github.com/kubesem/kubesem/replicaset"
	"github.com/kubesem/kubesem/rollout"
	"github.com/kubesem/kubesem/statefulset"
)

const explainSynopsis = `Reads a cluster dump (kubectl get deploy,rs,rc,sts,ds,controllerrevisions,
job,cronjob,pdb,pvc,pods,nodes,leases -A -o json|yaml, kubectl cluster-info
dump: a List, typed Lists, a stream of objects or of Lists, JSON or YAML;
FILE, or stdin when FILE is absent or "-") exactly as the API server
returns it, builds the world of package cluster from it and runs one sync
of the control plane at --now: every controller kubesem models
(deployment, replicaset, replicationcontroller, statefulset, daemonset,
job, cronjob, ttlafterfinished, disruption, podgc, node-lifecycle,
taint-eviction), each on its objects, each seeing the writes of those
before it, as kube-controller-manager with perfectly fresh caches would.
The library never reads the clock; --now defaults to the current time.

It prints per object what its controller does next, why, and when it
looks again; a Deployment's ReplicaSets and a CronJob's Jobs are shown
under it; "write status" says when a controller writes its status. -o json
prints the same with each decision's whole Plan and its API writes.
ReplicaSet and ControllerRevision names are v1.36.3's (the k8s adapter's
hashes, as in simulate cluster): a StatefulSet or DaemonSet whose template
no stored revision holds gets the revision v1.36.3 creates, by its exact
name. Revisions are matched by the world (the newest revision holding the
template, whatever its name; an unlabelled DaemonSet revision's hash is
its whole name, daemonset.RevisionHash).

With --timeline it then runs the world on (scheduler, kubelets and node
heartbeats as in "simulate cluster") and prints the predicted timeline
until the cluster settles (at most --limit), and the state it settles in.

Never silently wrong: when the dump cannot tell what a controller does,
the outcome is Unknown, there is no plan, and a note says what is missing:
a DaemonSet without Nodes in the dump (the DaemonSet, pod GC and node
controllers do not run then: with no nodes they would delete every bound
pod), a StatefulSet with volumeClaimTemplates and no PersistentVolumeClaim
(unless the dump holds a PersistentVolumeClaimList, even empty). Daemon
pods that failed are shown as after a controller restart (the failed-pod
backoff is controller memory), and the node lifecycle controller starts
with no memory of heartbeats, as after a restart. Objects of kinds kubesem
does not model are listed as NotModelled.

Time is near-linear in the dump: 100,000 pods of 1,000 Deployments with
1,000 PodDisruptionBudgets in one namespace (70 MB) take about 3.6 s of
CPU (TestExplainScale, BenchmarkExplainScale). A dump over --max-bytes
and Lists nested more than 4 deep are refused.

Live: with --live, --kubeconfig, --context, -n or -A (and always as
"kubectl kubesem explain"), explain reads the cluster itself with
client-go instead of a dump, read-only, only ever through list requests
(the reader in cmd/kubesem/kube.go has no other method;
TestReaderSendsNoWrite checks the verbs on a fake clientset): every kind
above in the namespace (-n, default the context's) or in all of them (-A),
plus the Nodes and their Leases in kube-node-lease whatever the namespace
(without the right to list them it warns and goes on without). It builds
from them the dump "kubectl get --raw" would give (typed Lists) and prints
exactly what explain prints on that dump. Arguments TYPE/NAME
(deploy/nginx, sts/web, ds/fluentd-elasticsearch, cronjob/hello …) keep
the output to those objects (a Deployment with its ReplicaSets, a CronJob
with its Jobs); a named object the cluster does not hold exits 1.

Examples:

  kubectl get deploy,rs,rc,sts,ds,controllerrevisions,job,cronjob,pdb,pvc,pods,nodes,leases -A -o json \
    | kubesem explain                       # one sync of the world over the dump (-o json, --now)
  kubectl get … -A -o yaml | kubesem explain --timeline   # … and the predicted timeline until the cluster settles
  kubectl kubesem explain deploy/nginx-deployment -n shop # the same, read live through the kubeconfig
  kubesem explain --kubeconfig ~/.kube/config -A          # the same without the plugin

Output on the example dumps cmd/kubesem/testdata/explain/stateful.json and
daemons.json at --now 2026-11-23T12:00:00Z (excerpts of the checked-in
goldens):

  StatefulSet data/db: RollingUpdate
    delete pod db-1 (Outdated)
    status: 3 replica(s), 3 ready, 3 available; 1 at current revision db-7c9f5b8d4, 1 at update revision db-5d8b7f9c6
    write status

  StatefulSet data/ledger: RollingUpdate
    create ControllerRevision ledger-6684695b94 as revision 2 (NewRevision)
    delete pod ledger-1 (Outdated)
    status: 2 replica(s), 2 ready, 2 available; 1 at current revision ledger-9c8b7d6f5, 0 at update revision ledger-6684695b94
    write status

  Controller node-lifecycle: Monitored
    add taint node.kubernetes.io/memory-pressure:NoSchedule to Node node-c (ConditionTaints)
    ...

  Node node-e (taint-eviction): EvictionsProcessed
    delete pod node-exporter-c5v8b (TaintManagerEviction)

  DaemonSet kube-system/gpu-plugin: RollingUpdate
    create ControllerRevision gpu-plugin-57cccc4f56 as revision 3 (NewRevision)
    delete pod gpu-plugin-n3p6q (UpdateOldPod)
    status: 1 node(s) should run a pod, 1 do, 0 updated, 1 ready, 1 available, 0 unavailable, 0 misscheduled
    write status

The example dumps are generated by cmd/kubesem/testdata/explain/gen.py
(objects as the API server returns them; their revision names are not real
hashes) and cover: Deployments mid-rollout, stuck past their progress
deadline, paused and recreating; bare ReplicaSets and
ReplicationControllers; CronJobs running, suspended and forbidden; Jobs
failing, indexed and finished with a TTL; a PDB over Deployment pods and
one (maxUnavailable) over StatefulSet pods; StatefulSets in a partitioned
rolling update, stuck on a crash-looping pod (OrderedReady), OnDelete with
a deleted pod, and with an unseen template change; DaemonSets in a maxSurge
rolling update, with a NotReady node, a NoExecute-tainted node, OnDelete
with a failed pod, and with an unseen template change; a stream without
Nodes and ControllerRevisions. What they show of upstream's behaviour is
noted in packages daemonset and statefulset (Divergences).`

// explanation is what one controller does next for one object.
type explanation struct {
	// Controller is the controller that decides (deployment, taint-eviction …).
	Controller string         `json:"controller,omitempty"`
	Kind       string         `json:"kind"`
	Namespace  string         `json:"namespace"`
	Name       string         `json:"name"`
	Outcome    string         `json:"outcome"`
	Actions    []string       `json:"actions"`
	Requeue    []plan.Requeue `json:"requeue"`
	Error      string         `json:"error,omitempty"`
	// Refused is the API server's refusal of one of the writes (e.g. a
	// Conflict on a second write from the controller's stale copy): the
	// sync ends there and the controller retries.
	Refused string `json:"refused,omitempty"`
	// Notes say what the dump could not tell.
	Notes []string `json:"notes,omitempty"`
	// Children are the explanations of the objects it controls (a
	// Deployment's ReplicaSets, a CronJob's Jobs).
	Children []explanation `json:"children,omitempty"`
	// Plan is the whole Plan, for -o json.
	Plan any `json:"plan,omitempty"`
	// Writes are the API requests the Plan became, for -o json.
	Writes []plan.Write `json:"writes,omitempty"`
}

// OutcomeUnknown is explain's outcome for an object whose next step the
// dump cannot decide; its notes say what is missing.
const OutcomeUnknown = "Unknown"

func explainCmd(args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("explain", flag.ContinueOnError)
	nowFlag := fs.String("now", "", "the time of the sync, RFC 3339 (default: the current time)")
	output := fs.String("o", "text", "output format: text or json")
	maxBytes := fs.Int64("max-bytes", defaultMaxDump, "the largest dump read, in bytes")
	timelineFlag := fs.Bool("timeline", false, "then print the predicted timeline until the cluster settles")
	limit := fs.Duration("limit", 6*time.Hour, "with --timeline, the longest time to wait for the cluster to settle")
	live := fs.Bool("live", false, "read the live cluster of the kubeconfig (implied by --kubeconfig, --context, -n and -A; the default of kubectl kubesem)")
	var cf clusterFlags
	cf.register(fs)
	pos, err := parseInterleaved(fs, args, stdout, explainSynopsis)
	if err != nil {
		return err
	}
	var now time.Time
	if *nowFlag != "" {
		t, err := time.Parse(time.RFC3339, *nowFlag)
		if err != nil {
			return usagef("explain: --now: %q: not an RFC 3339 time", *nowFlag)
		}
		now = t
	}
	if *output != "text" && *output != "json" {
		return usagef("explain: -o: %q: want text or json", *output)
	}
	if *maxBytes <= 0 || *limit <= 0 {
		return usagef("explain: --max-bytes and --limit must be positive")
	}
	if *live || cf.set() {
		focus, err := parseFocus(pos)
		if err != nil {
			return usagef("explain: %v", err)
		}
		r, sc, _, err := cf.connect()
		if err != nil {
			return fmt.Errorf("explain: %w", err)
		}
		return explainLive(r, sc, focus, now, *output, *maxBytes, *timelineFlag, *limit, stdout, stderr)
	}
	if now.IsZero() {
		now = time.Now().UTC().Truncate(time.Second)
	}
	if len(pos) > 1 {
		return usagef("explain: want at most one FILE")
	}
	file := "-"
	if len(pos) == 1 {
		file = pos[0]
	}
	objs, err := readObjects(stdin, file, *maxBytes)
	if err != nil {
		return usagef("explain: %v", err)
	}
	ex, err := explainWorld(objs, now)
	if err != nil {
		return usagef("explain: %v", err)
	}
	return printExplained(stdout, ex, objs, now, *output, *timelineFlag, *limit)
}

// explainLive is explain on the cluster r reads in scope sc, at now (the
// time after the read when zero), kept to the focused objects.
func explainLive(r reader, sc scope, focus []focus, now time.Time, output string, maxBytes int64, timeline bool, limit time.Duration, stdout, stderr io.Writer) error {
	objs, err := readLive(r, sc, focus, maxBytes, stderr)
	if err != nil {
		return fmt.Errorf("explain: %w", err)
	}
	if now.IsZero() {
		now = time.Now().UTC().Truncate(time.Second)
	}
	ex, err := explainWorld(objs, now)
	if err != nil {
		return fmt.Errorf("explain: %w", err)
	}
	if len(focus) > 0 {
		ex.out = focused(ex.out, focus, sc)
	}
	return printExplained(stdout, ex, objs, now, output, timeline, limit)
}

// printExplained prints explain's output for the world ex built from objs:
// the same for a dump and for a live cluster.
func printExplained(stdout io.Writer, ex *explained, objs *objects, now time.Time, output string, timeline bool, limit time.Duration) error {
	var tl *clusterRun
	if timeline {
		tl = &clusterRun{w: ex.w}
		tl.settledAt, tl.settled = ex.w.RunUntilSettled(limit)
	}
	if output == "json" {
		var v any = ex.out
		if tl != nil {
			v = struct {
				Explanations []explanation `json:"explanations"`
				Timeline     clusterReport `json:"timeline"`
			}{ex.out, tl.report(&scenarioRun{other: objs.other})}
		}
		b, err := plan.Encode(v)
		if err != nil {
			return err
		}
		var pretty bytes.Buffer
		if err := json.Indent(&pretty, b, "", "  "); err != nil {
			return err
		}
		stdout.Write(append(pretty.Bytes(), '\n'))
		return stuck(ex.w)
	}
	fmt.Fprintf(stdout, "what each controller does next, at %s\n", now.UTC().Format(time.RFC3339))
	if ex.noNodes {
		fmt.Fprintln(stdout, "(the dump holds no Node: the DaemonSet, pod GC and node lifecycle controllers are not run)")
	}
	printExplanations(stdout, now, ex.out)
	if tl != nil {
		fmt.Fprintf(stdout, "\npredicted timeline from %s (the sync above, then the world runs on: scheduler, kubelets, node heartbeats)\n%s\n\n", now.UTC().Format(time.RFC3339), generatedNamesNote)
		tl.printTrace(stdout, false)
		fmt.Fprintln(stdout)
		tl.printEnd(stdout)
	}
	return stuck(ex.w)
}

// explained is explain's world after its one sync.
type explained struct {
	w       *cluster.World
	out     []explanation
	noNodes bool
}

// explainWorld builds the world of the dump at now, runs one sync and
// explains each decision.
func explainWorld(objs *objects, now time.Time) (*explained, error) {
	opts := worldOptions()
	var nodes, claims int
	for _, o := range objs.models {
		switch o.(type) {
		case *node.Node:
			nodes++
		case *statefulset.Claim:
			claims++
		}
	}
	if nodes == 0 {
		// Without nodes the DaemonSet controller would delete every daemon
		// pod and pod GC every bound pod (their nodes are gone): the dump
		// cannot tell, so neither runs, nor the node controllers.
		for _, c := range cluster.ControllerNames() {
			switch c {
			case cluster.CtlDaemonSet, cluster.CtlPodGC, cluster.CtlNode, cluster.CtlTaintEvictor:
			default:
				opts.Controllers = append(opts.Controllers, c)
			}
		}
	}
	before := map[cluster.Key]any{}
	for _, o := range objs.models {
		before[key(o)] = o
	}
	w, err := newWorld(cluster.Scenario{Start: now, Objects: objs.models}, opts)
	if err != nil {
		return nil, err
	}
	dumped := w.State.Clone() // the state the sync starts from
	decisions := w.Sync(now)
	byKey := map[cluster.Key]*explanation{}
	var out []*explanation
	for _, d := range decisions {
		if d.Plan == nil && d.Err == nil {
			continue
		}
		if d.Controller == cluster.CtlTTL {
			// The TTL-after-finished controller's part of a Job.
			if e := byKey[d.Object]; e != nil {
				addTTL(e, d, now)
			}
			continue
		}
		e := explainDecision(dumped, d, before[d.Object], now)
		if p, ok := d.Plan.(podgc.Plan); ok && e != nil {
			var orphans []string
			if len(p.Memory.Quarantine) > 0 {
				var err error
				if orphans, err = quarantinedPods(objs, opts, now); err != nil {
					return nil, err
				}
			}
			if len(d.Writes) == 0 && len(orphans) == 0 {
				continue
			}
			e.Actions = append(orphans, e.Actions...)
		}
		if e == nil {
			continue
		}
		if d.Object.Name != "" {
			byKey[d.Object] = e
		}
		out = append(out, e)
	}
	for _, o := range objs.models {
		k := key(o)
		switch o := o.(type) {
		case *daemonset.DaemonSet:
			if nodes == 0 {
				e := &explanation{Kind: string(k.Kind), Namespace: k.Namespace, Name: k.Name}
				unknown(e, "the dump holds no Node: which nodes should run a daemon pod is unknown (add nodes to kubectl get)")
				out = append(out, e)
			}
		case *statefulset.StatefulSet:
			if e := byKey[k]; e != nil && len(o.Spec.VolumeClaimTemplates) > 0 && claims == 0 && !objs.listed["PersistentVolumeClaim"] {
				unknown(e, "the set has volumeClaimTemplates but the dump holds no PersistentVolumeClaim: whether its claims exist is unknown (add pvc to kubectl get)")
			}
		}
	}
	// A Deployment's ReplicaSets and a CronJob's Jobs are shown under it
	// (the State's dependents of its UID, by name).
	var top []explanation
	nested := map[*explanation]bool{}
	for _, p := range out {
		if p.Kind != string(cluster.KindDeployment) && p.Kind != string(cluster.KindCronJob) {
			continue
		}
		m := objectMeta(before[cluster.Key{Kind: cluster.Kind(p.Kind), Namespace: p.Namespace, Name: p.Name}])
		if m == nil || m.UID == "" {
			continue
		}
		for _, k := range dumped.Dependents(m.UID) {
			if c := byKey[k]; c != nil && !nested[c] && (k.Kind == cluster.KindReplicaSet || k.Kind == cluster.KindJob) {
				nested[c] = true
				p.Children = append(p.Children, *c)
			}
		}
	}
	for _, e := range out {
		if !nested[e] {
			top = append(top, *e)
		}
	}
	// Kinds kubesem does not model: one entry per kind and namespace.
	type group struct{ kind, ns string }
	var groups []group
	names := map[group][]string{}
	for _, o := range objs.other {
		g := group{o.Kind, o.Namespace}
		if names[g] == nil {
			groups = append(groups, g)
		}
		names[g] = append(names[g], o.Name)
	}
	for _, g := range groups {
		n := names[g]
		list := strings.Join(n[:min(len(n), 8)], ", ")
		if len(n) > 8 {
			list += fmt.Sprintf(", … (%d in all)", len(n))
		}
		name := n[0]
		if len(n) > 1 {
			name = fmt.Sprintf("(%d objects)", len(n))
		}
		top = append(top, explanation{Kind: g.kind, Namespace: g.ns, Name: name, Outcome: "NotModelled",
			Actions: []string{"kubesem does not model this kind's controller yet: " + list}})
	}
	slices.SortStableFunc(top, func(a, b explanation) int {
		return strings.Compare(a.Namespace+"\x00"+a.Kind+"\x00"+a.Name, b.Namespace+"\x00"+b.Kind+"\x00"+b.Name)
	})
	return &explained{w: w, out: top, noNodes: nodes == 0}, nil
}

func unknown(e *explanation, why string) {
	e.Outcome = OutcomeUnknown
	e.Notes = append(e.Notes, why)
	e.Actions, e.Requeue, e.Plan, e.Writes = nil, nil, nil, nil
}

// field returns the field name of a Plan (Outcome, Requeue), or the zero
// Value.
func planField(p any, name string) reflect.Value {
	v := reflect.ValueOf(p)
	if v.Kind() != reflect.Struct {
		return reflect.Value{}
	}
	return v.FieldByName(name)
}

// explainDecision turns one decision of the sync into what explain prints;
// prev is the object as the dump holds it (nil for a controller's pass
// over every node).
func explainDecision(s *cluster.State, d cluster.Decision, prev any, now time.Time) *explanation {
	e := &explanation{Controller: d.Controller, Kind: string(d.Object.Kind), Namespace: d.Object.Namespace, Name: d.Object.Name, Plan: d.Plan, Writes: d.Writes}
	if d.Object.Name == "" {
		e.Kind, e.Name = "Controller", d.Controller
	}
	if d.Err != nil {
		e.Error = d.Err.Error()
	}
	if d.Refused != nil {
		e.Refused = d.Refused.Error()
	}
	if f := planField(d.Plan, "Outcome"); f.IsValid() && f.Kind() == reflect.String {
		e.Outcome = f.String()
	}
	if f := planField(d.Plan, "Requeue"); f.IsValid() {
		e.Requeue, _ = f.Interface().([]plan.Requeue)
	}
	switch p := d.Plan.(type) {
	case rollout.Plan:
		if dep, ok := prev.(*rollout.Deployment); ok {
			e.Actions = rolloutActions(dep, p)
		}
	case replicaset.Plan:
		if p.Create.Count > 0 {
			e.Actions = append(e.Actions, fmt.Sprintf("create %d pod(s) (%s)", p.Create.Count, p.Create.Reason))
		}
		for _, a := range p.Adopt {
			e.Actions = append(e.Actions, "adopt pod "+a.Name)
		}
		for _, r := range p.Release {
			e.Actions = append(e.Actions, "release pod "+r.Name)
		}
		e.Actions = append(e.Actions, deletions("pod", p.Delete)...)
		e.Actions = append(e.Actions, eventLines(p.Events)...)
	case job.Plan:
		if p.Create.Count > 0 {
			e.Actions = append(e.Actions, fmt.Sprintf("create %d pod(s) (%s)", p.Create.Count, p.Create.Reason))
		}
		e.Actions = append(e.Actions, deletions("pod", p.Delete)...)
		if len(p.RemoveFinalizers) > 0 {
			e.Actions = append(e.Actions, fmt.Sprintf("remove the tracking finalizer of %d pod(s)", len(p.RemoveFinalizers)))
		}
		if j, ok := prev.(*job.Job); ok {
			for _, c := range p.Status.Conditions {
				if c.Status == meta.ConditionTrue && !slices.ContainsFunc(j.Status.Conditions, func(o job.Condition) bool {
					return o.Type == c.Type && o.Status == meta.ConditionTrue
				}) {
					e.Actions = append(e.Actions, fmt.Sprintf("set condition %s (%s)", c.Type, c.Reason))
				}
			}
		}
	case cronjob.Plan:
		for _, wr := range d.Writes {
			if j, ok := wr.Object.(*job.Job); ok && wr.Verb == plan.VerbCreate && wr.Subresource == "" {
				e.Actions = append(e.Actions, fmt.Sprintf("create Job %s for %s", j.Name, p.ScheduledTime.UTC().Format(time.RFC3339)))
			}
		}
		e.Actions = append(e.Actions, deletions("Job", p.Delete)...)
		e.Actions = append(e.Actions, eventLines(p.Events)...)
	case pdb.Plan:
		e.Actions = append(e.Actions, fmt.Sprintf("disruptionsAllowed %d (healthy %d of %d desired, %d expected)",
			p.Status.DisruptionsAllowed, p.Status.CurrentHealthy, p.Status.DesiredHealthy, p.Status.ExpectedPods))
		for _, r := range p.ResetDisruptionTarget {
			e.Actions = append(e.Actions, "reset the DisruptionTarget condition of pod "+r.Name)
		}
		e.Actions = append(e.Actions, eventLines(p.Events)...)
	case statefulset.Plan:
		statefulSetActions(s, e, p, prev, now)
	case daemonset.Plan:
		daemonSetActions(s, e, p, prev)
	case node.Plan:
		nodeActions(e, p)
		for _, ev := range p.Events {
			if ev.Reason == "RegisteredNode" {
				e.Notes = append(e.Notes, "a dump holds no controller memory: this is the pass of a freshly started node lifecycle controller, to which every node is new (RegisteredNode, and the unreachable/not-ready NoExecute taints it removes from a node it has just met before its health check taints it again); the running controller, which knows these nodes, makes only the rest")
				break
			}
		}
	case node.EvictionPlan:
		e.Actions = append(e.Actions, deletions("pod", p.Delete)...)
		e.Actions = append(e.Actions, eventLines(p.Events)...)
		for _, s := range p.Memory {
			e.Actions = append(e.Actions, fmt.Sprintf("evict pod %s at %s (a NoExecute taint it does not tolerate for ever)", s.Pod, s.FireAt.UTC().Format(time.RFC3339)))
		}
	case podgc.Plan:
		// explainWorld drops a pass with nothing to say.
		for _, wr := range d.Writes {
			if wr.Verb == plan.VerbDelete {
				e.Actions = append(e.Actions, fmt.Sprintf("delete pod %s/%s (%s)", wr.Namespace, wr.Name, wr.Reason))
			}
		}
	}
	if statusWritten(d) {
		e.Actions = append(e.Actions, "write status")
	}
	return e
}

// quarantinedPods says which of the dump's pods the pod garbage collector
// deletes as orphans once the nodes its pass found gone leave quarantine:
// a world of the dump with only the collector runs its pass at now and its
// pass at the end of the quarantine. A dump does not say when the real
// collector first saw a node gone (its queue is memory), so no instant is
// given.
func quarantinedPods(objs *objects, opts cluster.Options, now time.Time) ([]string, error) {
	opts.Controllers = []string{cluster.CtlPodGC}
	w, err := newWorld(cluster.Scenario{Start: now, Objects: objs.models}, opts)
	if err != nil {
		return nil, err
	}
	held := map[string]time.Duration{}
	var end time.Time
	for _, d := range w.Sync(now) {
		if p, ok := d.Plan.(podgc.Plan); ok {
			for _, q := range p.Memory.Quarantine {
				held[q.Node] = q.ReadyAt.Sub(now)
				if q.ReadyAt.After(end) {
					end = q.ReadyAt
				}
			}
		}
	}
	if len(held) == 0 {
		return nil, nil
	}
	onNode := map[string]string{} // namespace/name → spec.nodeName, of the dump's pods
	for _, o := range objs.models {
		if pod, ok := o.(*podstatus.Pod); ok {
			onNode[pod.Namespace+"/"+pod.Name] = pod.Spec.NodeName
		}
	}
	var out []string
	for _, d := range w.Sync(end) {
		if d.Err != nil {
			return nil, d.Err
		}
		p, ok := d.Plan.(podgc.Plan)
		if !ok {
			continue
		}
		for _, del := range p.Delete {
			n, ok := onNode[del.Namespace+"/"+del.Name]
			if h, gone := held[n]; ok && gone {
				out = append(out, fmt.Sprintf("delete pod %s/%s, bound to node %s, which is gone, once the collector has held the node in quarantine for %s (when it first saw the node gone is not in the dump)",
					del.Namespace, del.Name, n, h))
			}
		}
	}
	return out, nil
}

// statusWritten reports whether a decision writes its own object's status
// subresource.
func statusWritten(d cluster.Decision) bool {
	for _, wr := range d.Writes {
		if wr.Subresource == "status" && wr.Name == d.Object.Name && wr.Namespace == d.Object.Namespace {
			return true
		}
	}
	return false
}

// addTTL adds the TTL-after-finished controller's decision to its Job.
func addTTL(e *explanation, d cluster.Decision, now time.Time) {
	ttl, ok := d.Plan.(job.TTL)
	if !ok {
		return
	}
	if ttl.Expired {
		e.Actions = append(e.Actions, fmt.Sprintf("the TTL-after-finished controller deletes it (expired at %s)", ttl.ExpireAt.UTC().Format(time.RFC3339)))
	} else {
		e.Requeue = append(e.Requeue, plan.Requeue{After: ttl.Remaining, Reason: ttl.Reason})
	}
}

func statefulSetActions(s *cluster.State, e *explanation, p statefulset.Plan, prev any, now time.Time) {
	set, _ := prev.(*statefulset.StatefulSet)
	if p.Outcome == statefulset.ReasonBlocked && set != nil {
		var waiting []string
		for _, pod := range podsOf(s, set.UID) {
			switch {
			case pod.IsDeleting():
				waiting = append(waiting, pod.Name+" (terminating)")
			case pod.Status.Phase != podstatus.Running || !readyCondition(pod):
				waiting = append(waiting, fmt.Sprintf("%s (%s, not Ready)", pod.Name, pod.Status.Phase))
			}
		}
		slices.Sort(waiting)
		if len(waiting) > 0 {
			e.Notes = append(e.Notes, "pods that are not Running and Ready, or are terminating (a Blocked sync waits for such a pod): "+strings.Join(waiting, ", "))
		}
	}
	for _, rw := range p.Revisions {
		e.Actions = append(e.Actions, revisionWrite(string(rw.Verb), rw.Name, rw.Revision, string(rw.Reason)))
	}
	for _, c := range p.Create.Objects {
		e.Actions = append(e.Actions, fmt.Sprintf("create pod %s at revision %s (%s)", c.Name, c.Revision, p.Create.Reason))
	}
	for _, c := range p.Claims {
		e.Actions = append(e.Actions, fmt.Sprintf("%s PersistentVolumeClaim %s of pod %s (%s)", c.Verb, c.Name, c.Pod, c.Reason))
	}
	for _, u := range p.Update {
		rs := make([]string, len(u.Reasons))
		for i, r := range u.Reasons {
			rs[i] = string(r)
		}
		e.Actions = append(e.Actions, fmt.Sprintf("update pod %s (%s)", u.Name, strings.Join(rs, ", ")))
	}
	e.Actions = append(e.Actions, deletions("pod", p.Delete)...)
	st := p.Status
	e.Actions = append(e.Actions, fmt.Sprintf("status: %d replica(s), %d ready, %d available; %d at current revision %s, %d at update revision %s",
		st.Replicas, st.ReadyReplicas, st.AvailableReplicas, st.CurrentReplicas, st.CurrentRevision, st.UpdatedReplicas, st.UpdateRevision))
	e.Actions = append(e.Actions, eventLines(p.Events)...)
}

// podsOf returns the pods of s that name uid among their owners.
func podsOf(s *cluster.State, uid string) []*podstatus.Pod {
	var out []*podstatus.Pod
	for _, k := range s.Dependents(uid) {
		if p, ok := s.Get(k).(*podstatus.Pod); ok {
			out = append(out, p)
		}
	}
	return out
}

// readyCondition reports whether the pod's Ready condition is True, as
// its status says.
func readyCondition(p *podstatus.Pod) bool {
	c := p.Condition(podstatus.Ready)
	return c != nil && c.Status == meta.ConditionTrue
}

func revisionWrite(verb, name string, n int64, reason string) string {
	switch verb {
	case "create":
		return fmt.Sprintf("create ControllerRevision %s as revision %d (%s)", name, n, reason)
	case "update":
		return fmt.Sprintf("renumber ControllerRevision %s to revision %d (%s)", name, n, reason)
	}
	return fmt.Sprintf("%s ControllerRevision %s (revision %d, %s)", verb, name, n, reason)
}

func daemonSetActions(s *cluster.State, e *explanation, p daemonset.Plan, prev any) {
	if ds, ok := prev.(*daemonset.DaemonSet); ok {
		for _, pod := range podsOf(s, ds.UID) {
			if pod.Status.Phase == podstatus.Failed {
				e.Notes = append(e.Notes, "the controller's failed-pod backoff is not in the dump: shown as after a controller restart (no backoff yet)")
				break
			}
		}
	}
	for _, rw := range p.Revisions {
		if rw.Verb != plan.VerbDelete {
			e.Actions = append(e.Actions, revisionWrite(string(rw.Verb), rw.Name, rw.Revision, string(rw.Reason)))
		}
	}
	for _, c := range p.Create.Objects {
		e.Actions = append(e.Actions, fmt.Sprintf("create pod on node %s (%s)", c.Node, c.Reason))
	}
	e.Actions = append(e.Actions, deletions("pod", p.Delete)...)
	for _, rw := range p.Revisions {
		if rw.Verb == plan.VerbDelete {
			e.Actions = append(e.Actions, fmt.Sprintf("delete ControllerRevision %s (%s)", rw.Name, rw.Reason))
		}
	}
	st := p.Status
	e.Actions = append(e.Actions, fmt.Sprintf("status: %d node(s) should run a pod, %d do, %d updated, %d ready, %d available, %d unavailable, %d misscheduled",
		st.DesiredNumberScheduled, st.CurrentNumberScheduled, st.UpdatedNumberScheduled, st.NumberReady, st.NumberAvailable, st.NumberUnavailable, st.NumberMisscheduled))
	e.Actions = append(e.Actions, eventLines(p.Events)...)
}

// nodeActions lists a node lifecycle pass: the conditions it writes, the
// taints it adds and removes, the labels it sets, the nodes whose pods it
// marks not ready.
func nodeActions(e *explanation, p node.Plan) {
	for _, c := range p.Conditions {
		var parts []string
		for _, cond := range c.Conditions {
			s := fmt.Sprintf("%s=%s", cond.Type, cond.Status)
			if cond.Reason != "" {
				s += " (" + cond.Reason + ")"
			}
			parts = append(parts, s)
		}
		e.Actions = append(e.Actions, fmt.Sprintf("write Node %s conditions %s", c.Node, strings.Join(parts, ", ")))
	}
	for _, t := range p.Taints {
		for _, x := range t.Add {
			e.Actions = append(e.Actions, fmt.Sprintf("add taint %s:%s to Node %s (%s)", x.Key, x.Effect, t.Node, t.Reason))
		}
		for _, x := range t.Remove {
			e.Actions = append(e.Actions, fmt.Sprintf("remove taint %s:%s from Node %s (%s)", x.Key, x.Effect, t.Node, t.Reason))
		}
	}
	for _, l := range p.Labels {
		keys := slices.Sorted(maps.Keys(l.Labels))
		var parts []string
		for _, k := range keys {
			parts = append(parts, k+"="+l.Labels[k])
		}
		e.Actions = append(e.Actions, fmt.Sprintf("set label %s on Node %s (%s)", strings.Join(parts, ", "), l.Node, node.ReasonNodeLabel))
	}
	for _, n := range p.MarkPodsNotReady {
		e.Actions = append(e.Actions, "mark the pods of Node "+n+" not ready")
	}
	e.Actions = append(e.Actions, eventLines(p.Events)...)
}

func rolloutActions(d *rollout.Deployment, p rollout.Plan) []string {
	var acts []string
	for _, rs := range p.Create.Objects {
		acts = append(acts, fmt.Sprintf("create ReplicaSet %s with %d replica(s) (%s)", rs.Name, rs.Replicas(), p.Create.Reason))
	}
	for _, u := range p.Update {
		acts = append(acts, fmt.Sprintf("update ReplicaSet %s (%s)", u.Name, u.Reason))
	}
	for _, s := range p.Scale {
		acts = append(acts, fmt.Sprintf("scale ReplicaSet %s %d → %d (%s)", s.Name, s.From, s.Replicas, s.Reason))
	}
	acts = append(acts, deletions("ReplicaSet", p.Delete)...)
	if p.Annotations != nil && p.Annotations[rollout.RevisionAnnotation] != d.Annotations[rollout.RevisionAnnotation] {
		acts = append(acts, "set revision "+p.Annotations[rollout.RevisionAnnotation])
	}
	for _, c := range p.Status.Conditions {
		i := slices.IndexFunc(d.Status.Conditions, func(o meta.Condition) bool { return o.Type == c.Type })
		if i < 0 || d.Status.Conditions[i].Status != c.Status || d.Status.Conditions[i].Reason != c.Reason {
			acts = append(acts, fmt.Sprintf("set condition %s=%s (%s)", c.Type, c.Status, c.Reason))
		}
	}
	return append(acts, eventLines(p.Events)...)
}

func deletions(kind string, ds []plan.Deletion) []string {
	var out []string
	for _, d := range ds {
		out = append(out, fmt.Sprintf("delete %s %s (%s)", kind, d.Name, d.Reason))
	}
	return out
}

func eventLines(evs []plan.Event) []string {
	var out []string
	for _, e := range evs {
		s := fmt.Sprintf("event %s %s", e.Type, e.Reason)
		if e.Message != "" {
			s += ": " + e.Message
		}
		out = append(out, s)
	}
	return out
}

func printExplanations(w io.Writer, now time.Time, es []explanation) {
	for _, e := range es {
		fmt.Fprintln(w)
		printExplanation(w, now, e, "")
	}
}

func printExplanation(w io.Writer, now time.Time, e explanation, indent string) {
	name := e.Name
	if e.Namespace != "" && indent == "" {
		name = e.Namespace + "/" + e.Name
	}
	fmt.Fprintf(w, "%s%s %s", indent, e.Kind, name)
	if e.Kind == string(cluster.KindNode) && e.Controller != "" {
		fmt.Fprintf(w, " (%s)", e.Controller)
	}
	switch {
	case e.Error != "":
		fmt.Fprintf(w, ": cannot decide: %s\n", e.Error)
		return
	case e.Outcome != "":
		fmt.Fprintf(w, ": %s\n", e.Outcome)
	default:
		fmt.Fprintln(w)
	}
	for _, n := range e.Notes {
		fmt.Fprintf(w, "%s  note: %s\n", indent, n)
	}
	if len(e.Actions) == 0 && e.Outcome != OutcomeUnknown {
		fmt.Fprintf(w, "%s  nothing to do\n", indent)
	}
	for _, a := range e.Actions {
		fmt.Fprintf(w, "%s  %s\n", indent, a)
	}
	if e.Refused != "" {
		fmt.Fprintf(w, "%s  the API server refuses %s; the sync ends there and is retried, rate-limited\n", indent, e.Refused)
	}
	for _, r := range e.Requeue {
		var b bytes.Buffer
		b.WriteString("looks again ")
		switch {
		case r.RateLimited:
			b.WriteString("soon, rate-limited")
		case r.After == 0:
			b.WriteString("at once")
		default:
			fmt.Fprintf(&b, "in %v (at %s)", r.After, now.Add(r.After).UTC().Format(time.RFC3339))
		}
		if r.Reason != "" {
			fmt.Fprintf(&b, " (%s)", r.Reason)
		}
		fmt.Fprintf(w, "%s  %s\n", indent, b.String())
	}
	for _, c := range e.Children {
		printExplanation(w, now, c, indent+"  ")
	}
}
