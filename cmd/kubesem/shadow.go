package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"slices"
	"sort"
	"strings"
	"syscall"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	batchv1 "k8s.io/api/batch/v1"
	coordinationv1 "k8s.io/api/coordination/v1"
	corev1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/util/watchlist"

	"github.com/kubesem/kubesem/cluster"
	"github.com/kubesem/kubesem/node"
)

const shadowSynopsis = `Watches a live cluster, read-only (list and watch requests only), and
checks every write the workload controllers make against kubesem: after each
change it observes, it asks the library what the controllers do next (one
sync of the world of package cluster over the objects it holds, with
v1.36.3's exact names, as explain does) and compares with what they do.
It runs until interrupted (or for --for), prints each mismatch as it finds
it with the objects before and after, and exits 1 if it found any.

Two kinds of mismatch:
  unexpected  the controllers made a write that kubesem, from no state of
              the cluster in the --window before it, predicts: a create,
              update or delete of an object no sync kubesem runs makes, or
              a field it sets to another value;
  missing     the cluster (the namespace, and the cluster-scoped objects)
              has been quiet for --window and kubesem still predicts a
              write the controllers have not made for another --window.

What is compared: the verb (create, update, delete — a pod's delete is the
deletionTimestamp being set), the resource, the namespace and name, and the
fields the write changes: every field of an update that differs between the
object before and after; for a create, the name (or, when the API server
generates it, the generateName), the labels and annotations kubesem
predicts (the object may carry more: admission adds some), the owner
references, and per kind what the controller decides: a ReplicaSet's whole
spec, a pod's hostname, subdomain, nodeName and affinity, a
ControllerRevision's revision number. An update matches any of the writes
kubesem's sync makes to the object, not only the last (a controller may
write one object more than once in a sync).

The eviction API (a POST to pods/NAME/eviction: a user's request, decided
by the API server) writes too: a budget's status with the pod added to
disruptedPods is compared with kubesem's eviction decision (pdb.Evict of
that pod on the objects before: it must allow the eviction and decrement
that budget to the status written); the pod's DisruptionTarget condition
with reason EvictionByEvictionAPI and the deletion of a pod that carries it
are the request's, inputs. A refused eviction writes nothing and is not
seen.

What is ignored: resourceVersion, uid and managedFields anywhere,
metadata.generation, the values of timestamps (a timestamp is compared only
for being set or not), the random suffixes of generated names, and the
order and timing of writes within --window, and which of several pods of
one controller in the same phase and readiness a scale-down deletes (the
ReplicaSet controller's ranking leaves such ties in its cache's order). Writes of the environment are
inputs, never compared: Leases, Node status (the kubelet), pods' status and
binding (kubelet, scheduler), and every change to a spec by a user.

Which changes are the controllers': a Deployment's status and revision
annotation; a ReplicaSet's creation, deletion, scale and annotations under a
Deployment, and its status; the status of StatefulSets, DaemonSets, Jobs,
CronJobs, PodDisruptionBudgets; a pod's creation under a controller, its
deletion (deletionTimestamp set, or removed without one), its owner
references, the Job tracking finalizer, the DisruptionTarget condition;
ControllerRevisions; a StatefulSet's claims; a CronJob's Jobs; a node's
taints the node lifecycle controller writes (node.kubernetes.io/not-ready,
unreachable, unschedulable, memory-pressure, disk-pressure, pid-pressure,
network-unavailable: any other taint, out-of-service included, is a
user's) and its conditions turning Unknown.

Controllers with memory: the node lifecycle controller (when it last saw
each node alive; its zones' tainting queues and rate limiters), the
taint-eviction controller (the evictions it scheduled, and when) and the pod
garbage collector (its quarantine of missing nodes) are not in the world
above. Shadow keeps one world of these three for its whole run: at every
change of a node or pod (on the state right before it, and 0.5 s before it on
the state right after it: the controller may have seen the change first, and
a timer it starts must not fire later than the controller's) and at every
tick, it sets that world's objects to the ones it holds and syncs it; the
world carries the three controllers' memory from sync to sync. A write of
theirs matches one such a sync predicted no earlier than the controller's
allowance before it: 10 s for the node lifecycle controller (two 5 s
monitor periods: its probe times are set at its passes), 1 s for taint
eviction, 60 s for the pod GC (three 20 s periods: its quarantine starts at
a pass and its queue may hand a node back a period late). A node's write no
sync predicted also matches when that world, synced on from the state right
before it every 250 ms for 10 s, makes it (the world's monitor passes run at
its own phase, up to two periods after the controller's). Taints are
compared one by one (key, value, effect), not as a list: the write must add
the taints the change adds and remove those it removes, on the node as it
then is. Their missing writes are those first predicted more than the
allowance and --window ago that would still change the cluster and that the
world as it was before that prediction, synced now, still makes. That world
starts with shadow, as the controllers after a restart: a node's grace period
and a pod GC quarantine start at its first sync, and what it decides there
(a node seen for the first time loses its not-ready and unreachable taints)
is not a prediction.

Limits (documented, not compared): the other controllers start with no
memory at each prediction (the Job and DaemonSet failure backoffs are those
after a controller restart); a node that stopped heartbeating shortly before
shadow started, or a node quarantined then, is acted on by the controllers
earlier than shadow's world predicts (an unexpected mismatch); predictions
run at the local clock, so a cluster whose clock is skewed from this
machine's by more than --window shows time-bound decisions (minReadySeconds,
deadlines) as mismatches.

With --out DIR each mismatch is also saved as DIR/NNNN-<resource>-<name>.json,
a conformance-vector-like record ready for a bug report:
{"decision":"cluster.Sync","name","source","input","want","got","before","after"}
where input is {"now", "objects"}: the cluster's objects before the write (a
List explain reads: kubesem explain --now NOW on it replays kubesem's side),
want is what the controllers did ({"writes":[...]}: verb, resource,
subresource, namespace, name, the changed fields and the object after),
got is what kubesem predicts, and before/after are the written object's API
form before and after. (cluster.Sync is not a registered decision: the
record is for a person to reduce to a vector of the package at fault.)

Examples:

  kubectl kubesem shadow -n shop --out mismatches/   # the plugin: the kubeconfig's cluster, namespace shop
  kubesem shadow --kubeconfig ~/.kube/config -A --for 10m -v`

// shadowOpts are shadow's settings.
type shadowOpts struct {
	window time.Duration // how long writes may take, and how long quiet lasts
	lag    time.Duration // how long a change waits for related events of other watches
	out    string        // where mismatches are saved ("" nowhere)
	verbos bool
}

// errMismatch makes shadow exit 1 after reporting.
var errMismatch = errors.New("mismatches found")

func shadowCmd(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("shadow", flag.ContinueOnError)
	var cf clusterFlags
	cf.register(fs)
	window := fs.Duration("window", 5*time.Second, "how long a controller may take to make a predicted write, and how long a quiet cluster is watched before kubesem's remaining predictions count as missing")
	out := fs.String("out", "", "save each mismatch as a vector-like JSON file in this directory")
	forDur := fs.Duration("for", 0, "stop after this long (0: run until interrupted)")
	verbose := fs.Bool("v", false, "also print each controller write observed and each quiet check")
	pos, err := parseInterleaved(fs, args, stdout, shadowSynopsis)
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return usagef("shadow: unexpected argument %q", pos[0])
	}
	if *window <= 0 || *forDur < 0 {
		return usagef("shadow: --window must be positive and --for not negative")
	}
	if *out != "" {
		if err := os.MkdirAll(*out, 0o755); err != nil {
			return usagef("shadow: --out: %v", err)
		}
	}
	r, sc, host, err := cf.connect()
	if err != nil {
		return fmt.Errorf("shadow: %w", err)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if *forDur > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, *forDur)
		defer cancel()
	}
	where := "namespace " + sc.namespace
	if sc.all {
		where = "all namespaces"
	}
	fmt.Fprintf(stdout, "shadow: watching %s of %s (window %v)\n", where, host, *window)
	sh := newShadow(r, sc, shadowOpts{window: *window, lag: min(*window/4, 500*time.Millisecond), out: *out, verbos: *verbose}, stdout)
	if err := sh.run(ctx); err != nil {
		return fmt.Errorf("shadow: %w", err)
	}
	if sh.mismatches > 0 {
		return errMismatch
	}
	return nil
}

// item is one object as shadow holds it: the API object read and its
// kubesem model.
type item struct {
	api   runtime.Object
	model any
}

// change is one observed change of one object.
type change struct {
	seq           int
	at            time.Time
	key           cluster.Key
	resource      string
	before, after *item // nil when absent
	// env: the environment's or a user's change (an input), not a
	// controller's.
	env bool
	// what, for a controller's change: create, update, status, delete.
	what string
}

// shadow is the watcher: the objects of the cluster, the recent changes,
// and the controller changes waiting to be judged.
type shadow struct {
	r   reader
	sc  scope
	o   shadowOpts
	out io.Writer

	events  chan rawEvent
	state   map[cluster.Key]*item
	hist    []*change
	seq     int
	pending []*change
	// lastInput is, per namespace ("" for cluster-scoped objects), when
	// the last change that was not the environment's happened.
	lastInput map[string]time.Time
	// firstPredicted is when a write kubesem predicts on a quiet cluster
	// was first predicted.
	firstPredicted map[string]time.Time
	reported       map[string]bool
	loadErrs       map[string]bool

	observed, explained, mismatches int
	now                             func() time.Time
	// timed is the world of the controllers with memory
	// (shadow_timed.go), from the end of the initial lists.
	timed *timedWorld
}

// rawEvent is one informer event.
type rawEvent struct {
	kind    apiKind
	obj     runtime.Object
	deleted bool
	initial bool
	synced  bool // the end of the initial lists
}

func newShadow(r reader, sc scope, o shadowOpts, out io.Writer) *shadow {
	return &shadow{r: r, sc: sc, o: o, out: out, events: make(chan rawEvent, 4096),
		state: map[cluster.Key]*item{}, lastInput: map[string]time.Time{}, firstPredicted: map[string]time.Time{},
		reported: map[string]bool{}, loadErrs: map[string]bool{}, now: time.Now}
}

// newAPIObject returns an empty API object of a kind (the informer's
// example object).
func newAPIObject(kind string) runtime.Object {
	switch kind {
	case "Deployment":
		return &appsv1.Deployment{}
	case "ReplicaSet":
		return &appsv1.ReplicaSet{}
	case "ReplicationController":
		return &corev1.ReplicationController{}
	case "StatefulSet":
		return &appsv1.StatefulSet{}
	case "DaemonSet":
		return &appsv1.DaemonSet{}
	case "ControllerRevision":
		return &appsv1.ControllerRevision{}
	case "Job":
		return &batchv1.Job{}
	case "CronJob":
		return &batchv1.CronJob{}
	case "PodDisruptionBudget":
		return &policyv1.PodDisruptionBudget{}
	case "PersistentVolumeClaim":
		return &corev1.PersistentVolumeClaim{}
	case "Pod":
		return &corev1.Pod{}
	case "Node":
		return &corev1.Node{}
	case "Lease":
		return &coordinationv1.Lease{}
	}
	return nil
}

// informers starts one informer per kind, each listing and watching
// through the reader only, and sends their events to s.events; synced is
// sent once every initial list is in.
func (s *shadow) informers(ctx context.Context) error {
	var infs []cache.SharedIndexInformer
	for _, k := range apiKinds {
		ns := s.sc.namespaceOf(k)
		lw := &cache.ListWatch{
			ListWithContextFunc: func(ctx context.Context, o metav1.ListOptions) (runtime.Object, error) {
				return s.r.list(ctx, k, ns, o)
			},
			WatchFuncWithContext: func(ctx context.Context, o metav1.ListOptions) (watch.Interface, error) {
				return s.r.watch(ctx, k, ns, o)
			},
		}
		inf := cache.NewSharedIndexInformer(listWatch{lw, watchlist.DoesClientNotSupportWatchListSemantics(s.r.c)}, newAPIObject(k.Kind), 0, cache.Indexers{})
		send := func(ev rawEvent) {
			select {
			case s.events <- ev:
			case <-ctx.Done():
			}
		}
		_, err := inf.AddEventHandler(cache.ResourceEventHandlerDetailedFuncs{
			AddFunc: func(obj any, initial bool) {
				if o, ok := obj.(runtime.Object); ok {
					send(rawEvent{kind: k, obj: o, initial: initial})
				}
			},
			UpdateFunc: func(_, obj any) {
				if o, ok := obj.(runtime.Object); ok {
					send(rawEvent{kind: k, obj: o})
				}
			},
			DeleteFunc: func(obj any) {
				if d, ok := obj.(cache.DeletedFinalStateUnknown); ok {
					obj = d.Obj
				}
				if o, ok := obj.(runtime.Object); ok {
					send(rawEvent{kind: k, obj: o, deleted: true})
				}
			},
		})
		if err != nil {
			return err
		}
		infs = append(infs, inf)
	}
	for _, inf := range infs {
		go inf.RunWithContext(ctx)
	}
	go func() {
		var synced []cache.InformerSynced
		for _, inf := range infs {
			synced = append(synced, inf.HasSynced)
		}
		if cache.WaitForCacheSync(ctx.Done(), synced...) {
			select {
			case s.events <- rawEvent{synced: true}:
			case <-ctx.Done():
			}
		}
	}()
	return nil
}

// listWatch is the reader's list and watch for an informer, telling it
// whether the client streams lists (a fake clientset does not).
type listWatch struct {
	*cache.ListWatch
	unsupported bool
}

func (l listWatch) IsWatchListSemanticsUnSupported() bool { return l.unsupported }

// run watches until ctx ends, then judges what is pending and prints the
// summary.
func (s *shadow) run(ctx context.Context) error {
	wctx, cancel := context.WithCancel(ctx)
	defer cancel()
	if err := s.informers(wctx); err != nil {
		return err
	}
	tick := time.NewTicker(min(s.o.window/4, 250*time.Millisecond))
	defer tick.Stop()
	synced := false
	for {
		select {
		case <-ctx.Done():
			if synced {
				s.judgeDue(time.Time{})
			}
			fmt.Fprintf(s.out, "shadow: %d controller write(s) observed, %d explained by kubesem, %d mismatch(es)\n", s.observed, s.explained, s.mismatches)
			return nil
		case ev := <-s.events:
			if ev.synced {
				synced = true
				s.startTimed(s.now())
				fmt.Fprintf(s.out, "shadow: synced: %d objects\n", len(s.state))
				continue
			}
			s.apply(ev, synced)
		case <-tick.C:
			if synced {
				now := s.now()
				s.timedSync(now, false)
				s.judgeDue(now)
				s.quietChecks(now)
				s.timedMissing(now)
			}
		}
	}
}

// toItem converts an API object to the item shadow holds.
func toItem(kind apiKind, obj runtime.Object) (*item, error) {
	raw, err := json.Marshal(obj)
	if err != nil {
		return nil, err
	}
	raw, err = withKind(raw, kind)
	if err != nil {
		return nil, err
	}
	var o objects
	if err := o.addObject(raw, kind.Resource, kind.Kind); err != nil {
		return nil, err
	}
	if len(o.models) != 1 {
		return nil, fmt.Errorf("%s: not modelled", kind.Kind)
	}
	return &item{api: obj, model: o.models[0]}, nil
}

// withKind sets kind and apiVersion in an object's JSON (informers' objects
// carry neither).
func withKind(raw []byte, k apiKind) ([]byte, error) {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil {
		return nil, err
	}
	m["kind"], _ = json.Marshal(k.Kind)
	m["apiVersion"], _ = json.Marshal(k.APIVersion)
	return json.Marshal(m)
}

// apply records one informer event.
func (s *shadow) apply(ev rawEvent, synced bool) {
	it, err := toItem(ev.kind, ev.obj)
	if err != nil {
		if !s.loadErrs[err.Error()] {
			s.loadErrs[err.Error()] = true
			fmt.Fprintf(s.out, "shadow: warning: %v (object left out)\n", err)
		}
		return
	}
	k := key(it.model)
	before := s.state[k]
	after := it
	// The controllers with memory at the instant of a node's or pod's
	// change, from the state right before it (a write due now that this
	// change may be), and again right after it (a change they start a timer
	// at).
	timed := synced && !ev.initial && (k.Kind == cluster.KindNode || k.Kind == cluster.KindPod)
	at := s.now()
	if timed {
		s.timedSync(at, false)
	}
	if ev.deleted {
		after = nil
		delete(s.state, k)
	} else {
		s.state[k] = it
	}
	if !synced || ev.initial {
		return
	}
	s.seq++
	c := &change{seq: s.seq, at: at, key: k, resource: ev.kind.Resource, before: before, after: after}
	c.what, c.env = classify(c, s.state)
	s.hist = append(s.hist, c)
	if !c.env {
		s.lastInput[k.Namespace] = c.at
	}
	if c.what != "" {
		s.pending = append(s.pending, c)
	}
	if timed {
		s.timedSync(c.at, true)
	}
	s.trim(c.at)
}

// trim forgets changes older than any judgment can look at.
func (s *shadow) trim(now time.Time) {
	horizon := now.Add(-3 * s.o.window)
	if len(s.pending) > 0 && s.pending[0].at.Add(-s.o.window).Before(horizon) {
		horizon = s.pending[0].at.Add(-s.o.window)
	}
	i := 0
	for i < len(s.hist) && s.hist[i].at.Before(horizon) {
		i++
	}
	s.hist = s.hist[i:]
}

// judgeDue judges the pending controller changes whose lag has passed (all
// of them when now is zero).
func (s *shadow) judgeDue(now time.Time) {
	var rest []*change
	for _, c := range s.pending {
		if !now.IsZero() && now.Sub(c.at) < s.o.lag {
			rest = append(rest, c)
			continue
		}
		// A write a controller with memory may make waits a little more
		// for shadow's pass of it that predicts it: a timer shadow started
		// when it observed a change may fire a little after the
		// controller's.
		if !now.IsZero() && now.Sub(c.at) < s.o.lag+timedGrace && maybeTimed(c) {
			if _, ok := s.timedExplains(c); !ok {
				rest = append(rest, c)
				continue
			}
		}
		s.judge(c)
	}
	s.pending = rest
}

// timedGrace is how much longer than the lag a write a controller with
// memory may make waits for shadow's passes to predict it.
const timedGrace = time.Second

// maybeTimed reports whether a controller with memory may have made c: a
// node's change, or a pod's status change or deletion.
func maybeTimed(c *change) bool {
	return c.key.Kind == cluster.KindNode || (c.key.Kind == cluster.KindPod && (c.what == "status" || c.what == "delete"))
}

// quietChecks runs the missing-write check of every namespace (and of the
// cluster-scoped objects) that has been quiet for the window.
func (s *shadow) quietChecks(now time.Time) {
	if len(s.pending) > 0 {
		return
	}
	// The namespace watched is checked even when it holds nothing.
	spaces := map[string]bool{"": true}
	if !s.sc.all && s.sc.namespace != "" {
		spaces[s.sc.namespace] = true
	}
	for k := range s.state {
		if k.Namespace != "" && k.Namespace != leaseNamespace {
			spaces[k.Namespace] = true
		}
	}
	names := make([]string, 0, len(spaces))
	for ns := range spaces {
		names = append(names, ns)
	}
	sort.Strings(names)
	for _, ns := range names {
		last := s.lastInput[ns]
		if ns != "" && s.lastInput[""].After(last) {
			last = s.lastInput[""]
		}
		if now.Sub(last) < s.o.window {
			s.forget(ns)
			continue
		}
		s.quietCheck(ns, now)
	}
}

// leaseNamespace is where node Leases live.
const leaseNamespace = "kube-node-lease"

// forget drops the predictions of a namespace that is not quiet.
func (s *shadow) forget(ns string) {
	for sig := range s.firstPredicted {
		if strings.HasPrefix(sig, ns+"\x00") {
			delete(s.firstPredicted, sig)
		}
	}
}

// objectsIn returns the models of st a prediction about namespace ns
// needs: its objects and the cluster-scoped ones with the node Leases (all
// objects for ns "").
func objectsIn(st map[cluster.Key]*item, ns string) []any {
	var out []any
	for k, it := range st {
		if ns == "" || k.Namespace == ns || k.Namespace == "" || k.Namespace == leaseNamespace {
			out = append(out, it.model)
		}
	}
	sort.Slice(out, func(i, j int) bool { return key(out[i]).String() < key(out[j]).String() })
	return out
}

// predict runs one sync of the world of objs at now, without the
// controllers with memory (node lifecycle, taint eviction, pod GC: shadow
// runs them itself, shadow_timed.go). The DaemonSet controller runs only
// when there are nodes (as explain).
func predict(objs []any, now time.Time) (*cluster.World, *cluster.State, []cluster.Decision, error) {
	opts := worldOptions()
	hasNodes := slices.ContainsFunc(objs, func(o any) bool { _, ok := o.(*node.Node); return ok })
	for _, c := range cluster.ControllerNames() {
		switch {
		case c == cluster.CtlPodGC, c == cluster.CtlNode, c == cluster.CtlTaintEvictor:
		case c == cluster.CtlDaemonSet && !hasNodes:
		default:
			opts.Controllers = append(opts.Controllers, c)
		}
	}
	w, err := newWorld(cluster.Scenario{Start: now, Objects: objs}, opts)
	if err != nil {
		return nil, nil, nil, err
	}
	before := w.State.Clone()
	ds := w.Sync(now)
	return w, before, ds, nil
}
