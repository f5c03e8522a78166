package node_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"
	"unsafe"

	"github.com/go-logr/logr"
	coordv1 "k8s.io/api/coordination/v1"
	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/kubernetes/fake"
	clienttesting "k8s.io/client-go/testing"
	"k8s.io/client-go/tools/record"
	"k8s.io/client-go/util/flowcontrol"
	nodetopology "k8s.io/component-helpers/node/topology"
	"k8s.io/klog/v2"
	"k8s.io/kubernetes/pkg/controller/nodelifecycle"
	"k8s.io/kubernetes/pkg/controller/nodelifecycle/scheduler"
	nodeutil "k8s.io/kubernetes/pkg/controller/util/node"

	"github.com/kubesem/kubesem/conformance"
	"github.com/kubesem/kubesem/conformance/upstream/internal/difftest"
	"github.com/kubesem/kubesem/k8s"
	"github.com/kubesem/kubesem/node"
	"github.com/kubesem/kubesem/plan"
	"github.com/kubesem/kubesem/podstatus"
)

//go:linkname upNoExecuteTaintingPass k8s.io/kubernetes/pkg/controller/nodelifecycle.(*Controller).doNoExecuteTaintingPass
func upNoExecuteTaintingPass(nc *nodelifecycle.Controller, ctx context.Context)

// vClock is the replay's virtual clock, for the eviction limiters.
type vClock struct{ now *time.Time }

func (c vClock) Now() time.Time { return *c.now }

func (c vClock) Since(t time.Time) time.Duration { return c.now.Sub(t) }

func (c vClock) Sleep(time.Duration) {}

// field is the settable unexported field name of the struct v points
// to.
func field(v any, name string) reflect.Value {
	f := reflect.ValueOf(v).Elem().FieldByName(name)
	if !f.IsValid() {
		panic("no field " + name)
	}
	return reflect.NewAt(f.Type(), unsafe.Pointer(f.UnsafeAddr())).Elem()
}

type stepVector struct {
	Decision string          `json:"decision"`
	Name     string          `json:"name"`
	Options  json.RawMessage `json:"options"`
	Input    struct {
		Nodes  []*v1.Node      `json:"nodes"`
		Leases []node.Lease    `json:"leases"`
		Pods   []*v1.Pod       `json:"pods"`
		Memory json.RawMessage `json:"memory"`
		Now    time.Time       `json:"now"`
	} `json:"input"`
	Want      json.RawMessage `json:"want"`
	WantError json.RawMessage `json:"wantError"`

	// raw is the input as written.
	raw json.RawMessage
}

// hasPods reports whether the vector gives Step the pods (the check-*.json
// vectors do; step.json's do not, and the replay gives each node one Ready
// pod of its own).
func (v stepVector) hasPods() bool { return v.Input.Pods != nil }

// stepReplay is one node lifecycle controller carried through a chain
// of node.Step vectors.
type stepReplay struct {
	c        *upController
	now      *time.Time
	recorder *record.FakeRecorder
	patched  map[string][]v1.Taint // node → taints after its last taint patch
	clock    vClock

	// phase is the part of the pass running: monitor, noexecute or
	// noschedule; patches are the taint patches of the pass, in order.
	phase   string
	patches []taintPatch
	// events are the events of the pass, with their objects.
	events *[]passEvent
}

// taintPatch is one taint patch of a node: its taints before and after,
// and the part of the pass that sent it.
type taintPatch struct {
	phase, node   string
	before, after []v1.Taint
}

// passEvent is one event the controller recorded: the object's kind and
// name (a pod's namespace aside), type, reason and message.
type passEvent struct {
	kind, name, node, typ, reason, message string
}

// eventTap records every event with its object, then hands it to the
// fake recorder.
type eventTap struct {
	next   record.EventRecorder
	mu     *sync.Mutex
	events *[]passEvent
}

func (e eventTap) note(o runtime.Object, typ, reason, message string) {
	ev := passEvent{typ: typ, reason: reason, message: message}
	switch x := o.(type) {
	case *v1.ObjectReference:
		ev.kind, ev.name = x.Kind, x.Name
		if x.Kind == "Node" {
			ev.node = x.Name
		}
	case *v1.Pod:
		ev.kind, ev.name, ev.node = "Pod", x.Name, x.Spec.NodeName
	default:
		ev.kind = fmt.Sprintf("%T", o)
	}
	e.mu.Lock()
	*e.events = append(*e.events, ev)
	e.mu.Unlock()
}

func (e eventTap) Event(o runtime.Object, typ, reason, message string) {
	e.note(o, typ, reason, message)
	e.next.Event(o, typ, reason, message)
}

func (e eventTap) Eventf(o runtime.Object, typ, reason, format string, args ...any) {
	e.note(o, typ, reason, fmt.Sprintf(format, args...))
	e.next.Eventf(o, typ, reason, format, args...)
}

func (e eventTap) AnnotatedEventf(o runtime.Object, ann map[string]string, typ, reason, format string, args ...any) {
	e.note(o, typ, reason, fmt.Sprintf(format, args...))
	e.next.AnnotatedEventf(o, ann, typ, reason, format, args...)
}

func newStepReplay(t *testing.T, opts node.Options) *stepReplay {
	client := fake.NewSimpleClientset()
	c := newController(t, client, opts)
	r := &stepReplay{c: c, now: c.now, recorder: &record.FakeRecorder{Events: make(chan string, 1000), IncludeObject: true}, patched: map[string][]v1.Taint{}, clock: vClock{c.now},
		events: &[]passEvent{}}
	field(c.nc, "recorder").Set(reflect.ValueOf(record.EventRecorder(eventTap{next: r.recorder, mu: &sync.Mutex{}, events: r.events})))
	field(c.nc, "nodeUpdateWorkerSize").SetInt(1)
	apply := clienttesting.ObjectReaction(client.Tracker())
	// A status update writes the status only, as the API server's status
	// subresource does (the fake tracker would replace the whole node).
	client.PrependReactor("update", "nodes", func(a clienttesting.Action) (bool, runtime.Object, error) {
		u := a.(clienttesting.UpdateAction)
		if u.GetSubresource() != "status" {
			return false, nil, nil
		}
		cur, err := client.Tracker().Get(v1.SchemeGroupVersion.WithResource("nodes"), "", u.GetObject().(*v1.Node).Name)
		if err != nil {
			return true, nil, err
		}
		n := cur.(*v1.Node).DeepCopy()
		n.Status = u.GetObject().(*v1.Node).Status
		return true, n, client.Tracker().Update(v1.SchemeGroupVersion.WithResource("nodes"), n, "")
	})
	var mu sync.Mutex
	client.PrependReactor("patch", "nodes", func(a clienttesting.Action) (bool, runtime.Object, error) {
		var before []v1.Taint
		if cur, err := client.Tracker().Get(v1.SchemeGroupVersion.WithResource("nodes"), "", a.(clienttesting.PatchAction).GetName()); err == nil {
			before = slices.Clone(cur.(*v1.Node).Spec.Taints)
		}
		handled, obj, err := apply(a)
		if err == nil {
			if n, ok := obj.(*v1.Node); ok {
				mu.Lock()
				r.patched[n.Name] = slices.Clone(n.Spec.Taints)
				r.patches = append(r.patches, taintPatch{phase: r.phase, node: n.Name, before: before, after: slices.Clone(n.Spec.Taints)})
				mu.Unlock()
			}
		}
		return handled, obj, err
	})
	return r
}

// TestNodeStepVectorsUpstream replays the node.Step vectors through the
// v1.36.3 node lifecycle controller (upstream defaults; a vector's
// nodeMonitorGracePeriod stands for the flag). A vector with memory
// continues the chain of the vector before it, whose want.memory must be
// its input memory; the chain's controller carries its own state. Each
// vector is one monitor pass at its now (monitorNodeHealth), then one
// NoExecute tainting pass (doNoExecuteTaintingPass, its queues and
// limiters on the virtual clock), then the NoSchedule tainting pass of
// every node (doNoScheduleTaintingPass, as the node updates trigger it),
// with the informer caches holding the API's state between passes. Every
// key of the vector's Plan is checked:
//   - conditions: the node status writes (by node);
//   - taints: which nodes get taint writes, and each node's taints after
//     the pass (a time added upstream stamps from the wall clock must be
//     the vector's now);
//   - markPodsNotReady: the nodes whose pod (one per node, Ready) gets
//     Ready=False;
//   - events: the fake recorder's events (type, reason, node);
//   - zones: upstream's zone states, each zone's size and not-ready count
//     from the nodes as written, its tainter's rate;
//   - disrupted: every zone of upstream's in FullDisruption;
//   - memory: upstream's health map (probe time, saved Ready heartbeat,
//     saved lease), known node set, and per zone its state, limiter
//     (rate, tokens, last update) and tainting queue (waiting nodes with
//     their times; nodes kept in the queue's set as done);
//   - requeue: upstream's node monitor period; outcome is kubesem's name
//     for every pass (Monitored);
//   - writes: the want's Plan.Writes are the requests the fake clientset
//     received, node by node (verb, resource, subresource, name, uid).
//
// Upstream walks nodes in cache order and in parallel: writes and events
// are compared per node, not across nodes.
//
// The vectors of check-*.json (kubesem check --vectors) are replayed after
// step.json's, each on its own controller given its input memory
// (checkVectorsUpstream); KUBESEM_WRITE_VECTORS=1 fills their empty wants
// from upstream.
func TestNodeStepVectorsUpstream(t *testing.T) {
	vs := readNodeStepVectors(t, difftest.Repo("testdata/node/step.json"))
	saved := difftest.NodeSchedulerNow
	defer func() { difftest.NodeSchedulerNow = saved }()
	var r *stepReplay
	var prevMemory json.RawMessage
	checked := 0
	for _, v := range vs {
		if v.Decision != "node.Step" || v.WantError != nil {
			continue
		}
		if missing := missingPlanKeys(t, v.Want); len(missing) > 0 {
			t.Errorf("%s: want has no %q", v.Name, missing)
		}
		if emptyMemory(v.Input.Memory) {
			r = newStepReplay(t, stepOptions(t, v))
			difftest.NodeSchedulerNow = func() time.Time { return *r.now }
		} else if r == nil || !sameRaw(v.Input.Memory, prevMemory) {
			t.Errorf("%s: input memory is not the memory the vector before it wants", v.Name)
			r = nil
			continue
		}
		var want map[string]json.RawMessage
		if err := json.Unmarshal(v.Want, &want); err != nil {
			t.Fatal(err)
		}
		prevMemory = want["memory"]
		if errs := r.step(t, v); len(errs) > 0 {
			for _, e := range errs {
				t.Errorf("%s: %v", v.Name, e)
			}
		}
		checked++
	}
	if checked < 27 {
		t.Fatalf("replayed only %d vectors", checked)
	}
	checked += checkVectorsUpstream(t)
	t.Logf("%d node.Step vectors replayed through upstream", checked)
}

// checkVectorsUpstream replays the node.Step vectors of
// testdata/node/check-*.json, the decisions along a model-checker
// counterexample (kubesem check --vectors), each on its own: a new
// controller is given the vector's input memory (seed), its pods are the
// vector's, and the pass runs as for step.json; pod events (MarkPodsNotReady's
// NodeNotReady warning on each pod it marks) are then checked too. With
// KUBESEM_WRITE_VECTORS=1 an empty want ({}, as kubesem check writes it) is
// filled with upstream's answer (render), never kubesem's; every want is
// then checked against upstream as above, and kubesem's answer through
// conformance.Kubesem().Decide must match it. It returns the vectors
// replayed.
func checkVectorsUpstream(t *testing.T) int {
	files, err := filepath.Glob(difftest.Repo("testdata", "node", "check-*.json"))
	if err != nil {
		t.Fatal(err)
	}
	write := os.Getenv(difftest.WriteVectorsEnv) == "1"
	n := 0
	for _, file := range files {
		fills := map[string]map[string]any{}
		for _, v := range readNodeStepVectors(t, file) {
			if v.Decision != "node.Step" || v.WantError != nil {
				continue
			}
			n++
			t.Run(v.Name, func(t *testing.T) {
				r := newStepReplay(t, stepOptions(t, v))
				difftest.NodeSchedulerNow = func() time.Time { return *r.now }
				var mem node.Memory
				if len(v.Input.Memory) > 0 {
					if err := json.Unmarshal(v.Input.Memory, &mem); err != nil {
						t.Fatalf("memory: %v", err)
					}
				}
				r.seed(t, mem, v.Input.Nodes)
				ran := r.run(t, v)
				if write && sameRaw(v.Want, json.RawMessage("{}")) {
					up := r.render(t, v, ran)
					var m map[string]json.RawMessage
					if err := json.Unmarshal(up, &m); err != nil {
						t.Fatal(err)
					}
					fills[v.Name] = map[string]any{}
					for k, x := range m {
						fills[v.Name][k] = x // as plan.Encode wrote it
					}
					v.Want = up
				}
				if missing := missingPlanKeys(t, v.Want); len(missing) > 0 {
					t.Fatalf("want has no %q (KUBESEM_WRITE_VECTORS=1 fills an empty want from upstream)", missing)
				}
				for _, e := range r.check(t, v, ran) {
					t.Errorf("upstream: %v", e)
				}
				got, err := conformance.Kubesem().Decide(v.Decision, v.Options, v.raw)
				if err != nil {
					t.Fatalf("kubesem: %v", err)
				}
				if ok, why := conformance.Match(v.Want, got); !ok {
					t.Errorf("kubesem differs from the want: %s\nwant:    %s\nkubesem: %s", why, v.Want, got)
				}
			})
		}
		if write && len(fills) > 0 && !t.Failed() {
			difftest.WriteFills(t, file, "node.Step", fills, difftest.PlanKeysOf(reflect.TypeFor[node.Plan]()), nil, "TestNodeStepVectorsUpstream")
		}
	}
	return n
}

// planKeys are the keys every node.Step want states.
var planKeys = []string{"outcome", "conditions", "taints", "markPodsNotReady", "zones", "disrupted", "events", "requeue", "memory"}

// missingPlanKeys returns the keys of planKeys want does not state.
func missingPlanKeys(t *testing.T, want json.RawMessage) []string {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(want, &m); err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, k := range planKeys {
		if _, ok := m[k]; !ok {
			out = append(out, k)
		}
	}
	return out
}

// stepOptions decodes a vector's options.
func stepOptions(t *testing.T, v stepVector) node.Options {
	var opts node.Options
	if len(v.Options) > 0 {
		if err := json.Unmarshal(v.Options, &opts); err != nil {
			t.Fatal(err)
		}
	}
	return opts
}

// readNodeStepVectors reads the vectors of a file of testdata/node.
func readNodeStepVectors(t *testing.T, path string) []stepVector {
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var vs []stepVector
	if err := json.Unmarshal(data, &vs); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	var raws []struct {
		Input json.RawMessage `json:"input"`
	}
	if err := json.Unmarshal(data, &raws); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	for i := range vs {
		vs[i].raw = raws[i].Input
	}
	return vs
}

func emptyMemory(raw json.RawMessage) bool {
	var m map[string]json.RawMessage
	if len(raw) == 0 || json.Unmarshal(raw, &m) != nil {
		return true
	}
	for _, v := range m {
		if s := strings.TrimSpace(string(v)); s != "null" && s != "{}" && s != "[]" {
			return false
		}
	}
	return true
}

func sameRaw(a, b json.RawMessage) bool {
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return false
	}
	return reflect.DeepEqual(x, y)
}

// sync puts the vector's world into the API and the caches: its nodes
// (others deleted), its leases, its pods when it gives them, else one
// Ready pod per node.
func (r *stepReplay) sync(t *testing.T, v stepVector) {
	client, factory := r.c.client, r.c.factory
	nodeGVR := v1.SchemeGroupVersion.WithResource("nodes")
	podGVR := v1.SchemeGroupVersion.WithResource("pods")
	objs, _ := client.Tracker().List(nodeGVR, v1.SchemeGroupVersion.WithKind("Node"), "")
	for _, o := range objs.(*v1.NodeList).Items {
		_ = client.Tracker().Delete(nodeGVR, "", o.Name)
	}
	pods, _ := client.Tracker().List(podGVR, v1.SchemeGroupVersion.WithKind("Pod"), "")
	for _, o := range pods.(*v1.PodList).Items {
		_ = client.Tracker().Delete(podGVR, o.Namespace, o.Name)
	}
	nodeStore := factory.Core().V1().Nodes().Informer().GetStore()
	podStore := factory.Core().V1().Pods().Informer().GetIndexer()
	leaseStore := factory.Coordination().V1().Leases().Informer().GetStore()
	for _, s := range []interface{ List() []any }{nodeStore, podStore, leaseStore} {
		for _, o := range s.List() {
			switch s := s.(type) {
			case interface{ Delete(any) error }:
				_ = s.Delete(o)
			}
		}
	}
	for _, n := range v.Input.Nodes {
		if err := client.Tracker().Add(n.DeepCopy()); err != nil {
			t.Fatal(err)
		}
		_ = nodeStore.Add(n.DeepCopy())
		if v.hasPods() {
			continue
		}
		p := &v1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "pod-" + n.Name, Namespace: "default"}, Spec: v1.PodSpec{NodeName: n.Name},
			Status: v1.PodStatus{Conditions: []v1.PodCondition{{Type: v1.PodReady, Status: v1.ConditionTrue}}}}
		if err := client.Tracker().Add(p.DeepCopy()); err != nil {
			t.Fatal(err)
		}
		_ = podStore.Add(p)
	}
	for _, p := range v.Input.Pods {
		if err := client.Tracker().Add(p.DeepCopy()); err != nil {
			t.Fatal(err)
		}
		_ = podStore.Add(p.DeepCopy())
	}
	for _, l := range v.Input.Leases {
		ul := &coordv1.Lease{ObjectMeta: metav1.ObjectMeta{Name: l.Name, Namespace: v1.NamespaceNodeLease}}
		if l.Spec.RenewTime != nil {
			rt := metav1.NewMicroTime(*l.Spec.RenewTime)
			ul.Spec.RenewTime = &rt
		}
		_ = leaseStore.Add(ul)
	}
}

// refreshNodes copies the API's nodes into the node cache.
func (r *stepReplay) refreshNodes() {
	store := r.c.factory.Core().V1().Nodes().Informer().GetStore()
	objs, _ := r.c.client.Tracker().List(v1.SchemeGroupVersion.WithResource("nodes"), v1.SchemeGroupVersion.WithKind("Node"), "")
	for _, n := range objs.(*v1.NodeList).Items {
		_ = store.Update(n.DeepCopy())
	}
}

// virtualLimiters puts every zone tainter's token bucket on the virtual
// clock. A bucket made during the pass on the real clock was used at most
// once, by SwapLimiter's drain at the pass's time: its last update is
// then the pass's now.
func (r *stepReplay) virtualLimiters() {
	tainters := field(r.c.nc, "zoneNoExecuteTainter")
	for _, k := range tainters.MapKeys() {
		q := tainters.MapIndex(k).Interface().(*scheduler.RateLimitedTimedQueue)
		lim := field(q, "limiter").Interface()
		if reflect.TypeOf(lim).String() != "*flowcontrol.tokenBucketRateLimiter" {
			continue
		}
		clock := field(lim, "clock")
		if _, ok := clock.Interface().(vClock); ok {
			continue
		}
		clock.Set(reflect.ValueOf(flowcontrol.Clock(r.clock)))
		// TryAccept reads the embedded passive limiter's clock
		passive := field(lim, "tokenBucketPassiveRateLimiter").Addr().Interface()
		field(passive, "clock").Set(reflect.ValueOf(r.clock))
		rl := field(lim, "limiter").Interface()
		last := field(rl, "last")
		if !last.Interface().(time.Time).IsZero() {
			last.Set(reflect.ValueOf(*r.now))
		}
	}
}

// step runs the vector's pass (run) and checks its want (check).
func (r *stepReplay) step(t *testing.T, v stepVector) []error {
	ran := r.run(t, v)
	if ran.err != nil {
		return []error{ran.err}
	}
	return r.check(t, v, ran)
}

// ranPass is what run leaves for check and render.
type ranPass struct {
	err    error
	before map[string][]v1.Taint // each node's taints before the pass
	names  []string              // the vector's nodes, sorted
	// start and end bound the pass on the wall clock (the times upstream
	// stamps with it).
	start, end time.Time
}

// run runs one pass at the vector's now on the vector's world.
func (r *stepReplay) run(t *testing.T, v stepVector) ranPass {
	ctx := klog.NewContext(context.Background(), logr.Discard())
	*r.now = v.Input.Now
	r.sync(t, v)
	ran := ranPass{before: map[string][]v1.Taint{}, start: time.Now()}
	for _, n := range v.Input.Nodes {
		ran.before[n.Name] = n.Spec.Taints
		ran.names = append(ran.names, n.Name)
	}
	sort.Strings(ran.names)
	r.c.client.ClearActions()
	clear(r.patched)
	r.patches = nil
	*r.events = nil
	for len(r.recorder.Events) > 0 {
		<-r.recorder.Events
	}
	r.virtualLimiters()
	r.phase = "monitor"
	if err := upMonitorNodeHealth(r.c.nc, ctx); err != nil {
		ran.err = err
		return ran
	}
	r.virtualLimiters()
	r.refreshNodes()
	r.canonicalQueues()
	r.phase = "noexecute"
	upNoExecuteTaintingPass(r.c.nc, ctx)
	r.refreshNodes()
	r.phase = "noschedule"
	for _, name := range ran.names {
		if err := upNoScheduleTaintingPass(r.c.nc, ctx, name); err != nil {
			ran.err = err
			return ran
		}
	}
	r.refreshNodes()
	ran.end = time.Now()
	return ran
}

// markedNodes returns the nodes whose pods upstream marked not ready (pod
// status updates), sorted, each once.
func (r *stepReplay) markedNodes() []string {
	out := []string{}
	for _, a := range r.c.client.Actions() {
		if u, ok := a.(clienttesting.UpdateAction); ok && a.GetSubresource() == "status" {
			if p, ok := u.GetObject().(*v1.Pod); ok && !slices.Contains(out, p.Spec.NodeName) {
				out = append(out, p.Spec.NodeName)
			}
		}
	}
	sort.Strings(out)
	return out
}

// zoneReports returns upstream's zones after the pass (each zone's state,
// its size and not-ready count from the nodes as written, its tainter's
// rate), by zone, and whether every zone is fully disrupted.
func (r *stepReplay) zoneReports(names []string) ([]node.ZoneReport, bool) {
	states := field(r.c.nc, "zoneStates")
	tainters := field(r.c.nc, "zoneNoExecuteTainter")
	zoneConds := map[string][]*v1.NodeCondition{}
	for _, name := range names {
		cur, _ := r.c.client.Tracker().Get(v1.SchemeGroupVersion.WithResource("nodes"), "", name)
		n := cur.(*v1.Node)
		if _, ok := n.Labels[node.LabelExcludeDisruption]; ok {
			continue
		}
		_, c := nodeutil.GetNodeCondition(&n.Status, v1.NodeReady)
		zoneConds[nodetopology.GetZoneKey(n)] = append(zoneConds[nodetopology.GetZoneKey(n)], c)
	}
	var upZones []node.ZoneReport
	allFull := states.Len() > 0
	for _, k := range states.MapKeys() {
		st := node.ZoneState(zoneStateName(states.MapIndex(k).Interface()))
		q := tainters.MapIndex(k).Interface().(*scheduler.RateLimitedTimedQueue)
		notReady, _ := r.c.nc.ComputeZoneState(zoneConds[k.String()])
		upZones = append(upZones, node.ZoneReport{Zone: k.String(), Size: len(zoneConds[k.String()]), NotReady: notReady, State: st,
			Rate: rate(field(q, "limiter").Interface().(flowcontrol.RateLimiter))})
		allFull = allFull && st == node.ZoneFullDisruption
	}
	sort.Slice(upZones, func(i, j int) bool { return upZones[i].Zone < upZones[j].Zone })
	return upZones, allFull
}

// check checks the vector's want against what upstream did in the pass.
func (r *stepReplay) check(t *testing.T, v stepVector, ran ranPass) []error {
	if ran.err != nil {
		return []error{ran.err}
	}
	before, names := ran.before, ran.names
	var want struct {
		Outcome    node.Reason           `json:"outcome"`
		Conditions []node.ConditionWrite `json:"conditions"`
		Taints     []node.TaintWrite     `json:"taints"`
		MarkPods   []string              `json:"markPodsNotReady"`
		Zones      []node.ZoneReport     `json:"zones"`
		Disrupted  bool                  `json:"disrupted"`
		Events     []plan.Event          `json:"events"`
		Requeue    []struct {
			After  string      `json:"after"`
			Reason plan.Reason `json:"reason"`
		} `json:"requeue"`
		Memory json.RawMessage `json:"memory"`
	}
	if err := json.Unmarshal(v.Want, &want); err != nil {
		return []error{err}
	}
	var errs []error
	fail := func(format string, args ...any) { errs = append(errs, fmt.Errorf(format, args...)) }

	// conditions
	upConds := map[string][]node.Condition{}
	upMarked := r.markedNodes()
	for _, a := range r.c.client.Actions() {
		u, ok := a.(clienttesting.UpdateAction)
		if !ok || a.GetSubresource() != "status" {
			continue
		}
		switch o := u.GetObject().(type) {
		case *v1.Node:
			var cs []node.Condition
			for _, c := range o.Status.Conditions {
				cs = append(cs, condFromUp(c))
			}
			upConds[o.Name] = cs
		}
	}
	if len(upConds) != len(want.Conditions) {
		fail("conditions written for %d nodes, upstream %d (%v)", len(want.Conditions), len(upConds), slices.Collect(mapKeys(upConds)))
	}
	for _, w := range want.Conditions {
		up, ok := upConds[w.Node]
		if !ok || len(up) != len(w.Conditions) {
			fail("conditions of %s: %+v, upstream %+v", w.Node, w.Conditions, up)
			continue
		}
		for i := range up {
			if !sameCond(up[i], w.Conditions[i]) {
				fail("condition %d of %s: %+v, upstream %+v", i, w.Node, w.Conditions[i], up[i])
			}
		}
	}

	// taints: the nodes written, and each node's taints after the pass
	after := map[string][]node.Taint{}
	for name, ts := range before {
		after[name] = fromUpTaints(ts)
	}
	written := map[string]bool{}
	for _, w := range want.Taints {
		written[w.Node] = true
		ts := after[w.Node]
		for _, a := range w.Add {
			if i := slices.IndexFunc(ts, func(x node.Taint) bool { return x.MatchTaint(a) }); i >= 0 {
				ts[i] = a
			} else {
				ts = append(ts, a)
			}
		}
		for _, rm := range w.Remove {
			ts = slices.DeleteFunc(ts, func(x node.Taint) bool { return x.MatchTaint(rm) })
		}
		after[w.Node] = ts
	}
	for name := range before {
		_, up := r.patched[name]
		if up != written[name] {
			fail("taints of %s written: %v, upstream %v", name, written[name], up)
		}
		cur, err := r.c.client.Tracker().Get(v1.SchemeGroupVersion.WithResource("nodes"), "", name)
		if err != nil {
			fail("node %s: %v", name, err)
			continue
		}
		upT := cur.(*v1.Node).Spec.Taints
		if len(upT) != len(after[name]) {
			fail("taints of %s after the pass: %+v, upstream %+v", name, after[name], upT)
			continue
		}
		for i, u := range upT {
			k := after[name][i]
			if k.Key != u.Key || k.Value != u.Value || string(k.Effect) != string(u.Effect) {
				fail("taint %d of %s: %+v, upstream %+v", i, name, k, u)
				continue
			}
			// a time added upstream kept from the input is the input's;
			// one upstream stamped (wall clock) is the vector's now
			wantAt := &v.Input.Now
			if u.TimeAdded != nil {
				for _, b := range before[name] {
					if b.MatchTaint(&u) && b.TimeAdded != nil && b.TimeAdded.Equal(u.TimeAdded) {
						t := b.TimeAdded.Time
						wantAt = &t
					}
				}
			} else {
				wantAt = nil
			}
			if (wantAt == nil) != (k.TimeAdded == nil) || wantAt != nil && !k.TimeAdded.Equal(*wantAt) {
				fail("taint %s of %s added at %v, upstream's rule gives %v", k.Key, name, k.TimeAdded, wantAt)
			}
		}
	}

	// markPodsNotReady
	if !difftest.SameSet(want.MarkPods, upMarked) {
		fail("markPodsNotReady %v, upstream %v", want.MarkPods, upMarked)
	}

	// events: the node events by type, reason and node; the pod events
	// (MarkPodsNotReady's) by type, reason, pod and message when the
	// vector gives Step the pods
	var upEvents, wantEvents []string
	for _, e := range *r.events {
		switch e.kind {
		case "Node":
			upEvents = append(upEvents, e.typ+" "+e.reason+" "+e.name)
		case "Pod":
			if v.hasPods() {
				upEvents = append(upEvents, e.typ+" "+e.reason+" "+e.name+" "+e.message)
			}
		default:
			fail("unexpected upstream event %+v", e)
		}
	}
	for _, e := range want.Events {
		w := string(e.Type) + " " + string(e.Reason) + " " + e.Object
		if e.Message != "" {
			w += " " + e.Message
		}
		wantEvents = append(wantEvents, w)
	}
	if !difftest.SameSet(wantEvents, upEvents) {
		fail("events %v, upstream %v", wantEvents, upEvents)
	}

	// zones, disrupted
	upZones, allFull := r.zoneReports(names)
	if !reflect.DeepEqual(upZones, want.Zones) && !(len(upZones) == 0 && len(want.Zones) == 0) {
		fail("zones %+v, upstream %+v", want.Zones, upZones)
	}
	if want.Disrupted != allFull {
		fail("disrupted %v, upstream %v", want.Disrupted, allFull)
	}

	// requeue, outcome
	if len(want.Requeue) != 1 || want.Requeue[0].After != upDefaults().MonitorPeriod.String() || want.Requeue[0].Reason != node.ReasonNodeMonitorPeriod {
		fail("requeue %+v, upstream's node monitor period %v", want.Requeue, upDefaults().MonitorPeriod)
	}
	if want.Outcome != node.ReasonMonitored {
		fail("outcome %q", want.Outcome)
	}

	// memory
	up, err := plan.Encode(r.memory())
	if err != nil {
		return append(errs, err)
	}
	if !sameRaw(up, want.Memory) {
		fail("memory %s, upstream %s", want.Memory, up)
	}

	// writes: the want's Plan.Writes over the vector's nodes and the pods
	// in the cache, node by node (a pod's request counting for its node),
	// as the fake clientset received them
	var kn []*node.Node
	for _, n := range v.Input.Nodes {
		x, err := k8s.FromNode(n)
		if err != nil {
			return append(errs, err)
		}
		kn = append(kn, x)
	}
	var kp []*podstatus.Pod
	podNode := map[string]string{}
	for _, o := range r.c.factory.Core().V1().Pods().Informer().GetIndexer().List() {
		p := o.(*v1.Pod)
		podNode[p.Namespace+"/"+p.Name] = p.Spec.NodeName
		x, err := k8s.FromPod(p)
		if err != nil {
			return append(errs, err)
		}
		kp = append(kp, x)
	}
	ws, err := node.Plan{Conditions: want.Conditions, Taints: want.Taints, MarkPodsNotReady: want.MarkPods}.Writes(kn, kp, v.Input.Now)
	if err != nil {
		return append(errs, fmt.Errorf("Writes: %v", err))
	}
	upWrites, err := difftest.WriteKeysOfActions(r.c.client.Actions())
	if err != nil {
		return append(errs, err)
	}
	group := func(keys []difftest.WriteKey) map[string][]string {
		g := map[string][]string{}
		for _, k := range keys {
			n := k.Name
			if k.Resource == "pods" {
				n = podNode[k.Namespace+"/"+k.Name]
			}
			g[n] = append(g[n], k.String())
		}
		return g
	}
	var mine []difftest.WriteKey
	for _, w := range ws {
		mine = append(mine, difftest.WriteKeyOf(w))
	}
	if g, u := group(mine), group(upWrites); !reflect.DeepEqual(g, u) {
		fail("writes %v, upstream %v", g, u)
	}
	return errs
}

// memory reads the controller's state as a node.Memory.
func (r *stepReplay) memory() node.Memory {
	m := node.Memory{Nodes: map[string]node.Health{}, Zones: map[string]node.ZoneMemory{}}
	healths := field(field(r.c.nc, "nodeHealthMap").Interface(), "nodeHealths")
	for _, k := range healths.MapKeys() {
		hv := healths.MapIndex(k)
		var h node.Health
		h.ProbeTime = field(hv.Interface(), "probeTimestamp").Interface().(metav1.Time).Time.UTC()
		if st := field(hv.Interface(), "status").Interface().(*v1.NodeStatus); st != nil {
			if _, c := nodeutil.GetNodeCondition(st, v1.NodeReady); c != nil {
				hb := c.LastHeartbeatTime.Time.UTC()
				h.ReadyHeartbeat = &hb
			}
		}
		if l := field(hv.Interface(), "lease").Interface().(*coordv1.Lease); l != nil {
			nl := node.SavedLease{Name: l.Name}
			if l.Spec.RenewTime != nil {
				nl.RenewTime, nl.HasRenewTime = l.Spec.RenewTime.Time.UTC(), true
			}
			h.Lease = &nl
		}
		m.Nodes[k.String()] = h
	}
	for _, k := range field(r.c.nc, "knownNodeSet").MapKeys() {
		m.Known = append(m.Known, k.String())
	}
	sort.Strings(m.Known)
	states := field(r.c.nc, "zoneStates")
	tainters := field(r.c.nc, "zoneNoExecuteTainter")
	for _, k := range states.MapKeys() {
		z := node.ZoneMemory{State: node.ZoneState(zoneStateName(states.MapIndex(k).Interface()))}
		q := tainters.MapIndex(k).Interface().(*scheduler.RateLimitedTimedQueue)
		lim := field(q, "limiter").Interface().(flowcontrol.RateLimiter)
		z.Limiter.Rate = rate(lim)
		if reflect.TypeOf(lim).String() == "*flowcontrol.tokenBucketRateLimiter" {
			rl := field(lim, "limiter").Interface()
			last := field(rl, "last").Interface().(time.Time)
			z.Limiter.Tokens = field(rl, "tokens").Float()
			if last.IsZero() {
				z.Limiter.Tokens = float64(scheduler.EvictionRateLimiterBurst)
			} else {
				z.Limiter.Last = last.UTC()
			}
		}
		uq := field(q, "queue").Addr().Interface()
		queued := map[string]bool{}
		for _, tv := range field(uq, "queue").Interface().(scheduler.TimedQueue) {
			z.Queue = append(z.Queue, node.Queued{Node: tv.Value, AddedAt: tv.AddedAt.UTC(), ProcessAt: tv.ProcessAt.UTC()})
			queued[tv.Value] = true
		}
		sort.Slice(z.Queue, func(i, j int) bool {
			if c := z.Queue[i].ProcessAt.Compare(z.Queue[j].ProcessAt); c != 0 {
				return c < 0
			}
			return z.Queue[i].Node < z.Queue[j].Node
		})
		for _, s := range field(uq, "set").MapKeys() {
			if !queued[s.String()] {
				z.Done = append(z.Done, s.String())
			}
		}
		sort.Strings(z.Done)
		m.Zones[k.String()] = z
	}
	return m
}

// rate is the rate a tainter's limiter lets taints through: its QPS,
// except for the limiter SwapLimiter(0) installs, which never accepts (and
// reports QPS 1).
func rate(l flowcontrol.RateLimiter) float32 {
	if reflect.TypeOf(l).String() == "*flowcontrol.fakeNeverRateLimiter" {
		return 0
	}
	return l.QPS()
}

// canonicalQueues orders each tainting queue's heap by process time, then
// node name. Upstream's heap orders by process time only, and nodes queued
// at the same instant sit in the order monitorNodeHealth met them — its
// cache's iteration order, which varies from run to run; with one token
// per pass, the sorted heap makes upstream taint the node kubesem's
// canonical order (process time, then name) names.
func (r *stepReplay) canonicalQueues() {
	tainters := field(r.c.nc, "zoneNoExecuteTainter")
	for _, k := range tainters.MapKeys() {
		q := tainters.MapIndex(k).Interface().(*scheduler.RateLimitedTimedQueue)
		tq := field(field(q, "queue").Addr().Interface(), "queue").Interface().(scheduler.TimedQueue)
		sort.Slice(tq, func(i, j int) bool {
			if c := tq[i].ProcessAt.Compare(tq[j].ProcessAt); c != 0 {
				return c < 0
			}
			return tq[i].Value < tq[j].Value
		})
	}
}

// zoneStateName maps upstream's zone states to kubesem's names.
func zoneStateName(s any) string {
	switch fmt.Sprint(s) {
	case "Initial":
		return string(node.ZoneInitial)
	case "Normal":
		return string(node.ZoneNormal)
	case "PartialDisruption":
		return string(node.ZonePartialDisruption)
	case "FullDisruption":
		return string(node.ZoneFullDisruption)
	}
	return fmt.Sprint(s)
}

func fromUpTaints(ts []v1.Taint) []node.Taint {
	out := []node.Taint{}
	for _, u := range ts {
		k := node.Taint{Key: u.Key, Value: u.Value, Effect: node.TaintEffect(u.Effect)}
		if u.TimeAdded != nil {
			at := u.TimeAdded.Time.UTC()
			k.TimeAdded = &at
		}
		out = append(out, k)
	}
	return out
}

func mapKeys[V any](m map[string]V) func(func(string) bool) {
	return func(yield func(string) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}

// seed gives the controller the vector's input memory: per node its health
// record (probe time, the saved status's Ready heartbeat, the saved lease),
// the known node set, and per zone its state and tainter (the limiter at
// its rate, its tokens and last update on the replay's clock; the queue's
// waiting nodes and the nodes it keeps as done). nodes are the vector's
// nodes (the known set's objects, the queued nodes' UIDs).
func (r *stepReplay) seed(t *testing.T, mem node.Memory, nodes []*v1.Node) {
	byName := map[string]*v1.Node{}
	for _, n := range nodes {
		byName[n.Name] = n
	}
	healths := field(field(r.c.nc, "nodeHealthMap").Interface(), "nodeHealths")
	for name, h := range mem.Nodes {
		hv := reflect.New(healths.Type().Elem().Elem())
		field(hv.Interface(), "probeTimestamp").Set(reflect.ValueOf(metav1.NewTime(h.ProbeTime)))
		st := &v1.NodeStatus{}
		if h.ReadyHeartbeat != nil {
			// Upstream compares the saved heartbeat with the node's by
			// struct (!=): it holds the time as a node decoded from JSON
			// does (metav1.Time's UnmarshalJSON: local time).
			c := v1.NodeCondition{Type: v1.NodeReady, LastHeartbeatTime: metav1.NewTime(h.ReadyHeartbeat.Local())}
			// the saved transition time matters only for
			// readyTransitionTimestamp, which nothing reads
			if n := byName[name]; n != nil {
				if _, cur := nodeutil.GetNodeCondition(&n.Status, v1.NodeReady); cur != nil {
					c.Status, c.LastTransitionTime = cur.Status, cur.LastTransitionTime
				}
			}
			st.Conditions = []v1.NodeCondition{c}
		}
		field(hv.Interface(), "status").Set(reflect.ValueOf(st))
		if h.Lease != nil {
			l := &coordv1.Lease{ObjectMeta: metav1.ObjectMeta{Name: h.Lease.Name, Namespace: v1.NamespaceNodeLease}}
			if h.Lease.HasRenewTime {
				rt := metav1.NewMicroTime(h.Lease.RenewTime)
				l.Spec.RenewTime = &rt
			}
			field(hv.Interface(), "lease").Set(reflect.ValueOf(l))
		}
		healths.SetMapIndex(reflect.ValueOf(name), hv)
	}
	known := field(r.c.nc, "knownNodeSet")
	add := func(name string) {
		n := byName[name]
		if n == nil {
			n = &v1.Node{ObjectMeta: metav1.ObjectMeta{Name: name}}
		}
		known.SetMapIndex(reflect.ValueOf(name), reflect.ValueOf(n.DeepCopy()))
	}
	for _, name := range mem.Known {
		add(name)
	}
	for name, h := range mem.Nodes {
		if h.Known {
			add(name)
		}
	}
	states := field(r.c.nc, "zoneStates")
	tainters := field(r.c.nc, "zoneNoExecuteTainter")
	for zone, z := range mem.Zones {
		states.SetMapIndex(reflect.ValueOf(zone), reflect.ValueOf(string(z.State)).Convert(states.Type().Elem()))
		var lim flowcontrol.RateLimiter
		switch {
		case z.Limiter.Rate <= 0 && !z.Limiter.Bucket:
			lim = flowcontrol.NewFakeNeverRateLimiter()
		case z.Limiter.Last.IsZero() && z.Limiter.Tokens == float64(scheduler.EvictionRateLimiterBurst):
			lim = flowcontrol.NewTokenBucketRateLimiterWithClock(z.Limiter.Rate, scheduler.EvictionRateLimiterBurst, r.clock)
		case z.Limiter.Rate > 0 && !z.Limiter.Last.IsZero():
			lim = flowcontrol.NewTokenBucketRateLimiterWithClock(z.Limiter.Rate, scheduler.EvictionRateLimiterBurst, r.clock)
			rl := field(lim, "limiter").Interface()
			field(rl, "tokens").SetFloat(z.Limiter.Tokens)
			field(rl, "last").Set(reflect.ValueOf(z.Limiter.Last))
		default:
			t.Fatalf("zone %q: limiter %+v not seeded (a bucket of rate 0 that spent its token)", zone, z.Limiter)
		}
		q := scheduler.NewRateLimitedTimedQueue(lim)
		uq := field(q, "queue").Addr().Interface()
		var tq scheduler.TimedQueue
		set := reflect.MakeMap(field(uq, "set").Type())
		for _, w := range z.Queue {
			uid := ""
			if n := byName[w.Node]; n != nil {
				uid = string(n.UID)
			}
			tq = append(tq, &scheduler.TimedValue{Value: w.Node, UID: uid, AddedAt: w.AddedAt, ProcessAt: w.ProcessAt})
			set.SetMapIndex(reflect.ValueOf(w.Node), reflect.Zero(set.Type().Elem()))
		}
		for _, name := range z.Done {
			set.SetMapIndex(reflect.ValueOf(name), reflect.Zero(set.Type().Elem()))
		}
		// Queue is in process order: a sorted slice is a heap.
		field(uq, "queue").Set(reflect.ValueOf(tq))
		field(uq, "set").Set(set)
		tainters.SetMapIndex(reflect.ValueOf(zone), reflect.ValueOf(q))
	}
}

// render states what upstream did in the pass as a node.Plan's JSON:
//
//   - outcome Monitored (the pass returned no error);
//   - conditions: the node status writes, by node;
//   - taints: each taint patch, in the order of the parts of the pass
//     (monitor, the NoExecute tainter, the NoSchedule pass), by node within
//     one: the taints it added or replaced (a time added, which upstream
//     stamps from the wall clock, is the vector's now) and removed; the
//     reason is the part's — TaintNode for the NoExecute tainter,
//     ConditionTaints for the NoSchedule pass, and in the monitor pass
//     SwapTaint for a patch that adds and removes, RegisteredNode for a
//     removal from a node the input memory did not know, NodeReady for one
//     from a node Ready after the pass, MasterDisruption for any other
//     (every zone fully disrupted);
//   - markPodsNotReady: the nodes whose pods got Ready=False (a node with
//     no pod shows none);
//   - zones, disrupted: as check reads them;
//   - events: node events with their type, reason and node (their messages
//     are not stated, as step.json's wants state none), pod events with
//     their pod and message, by node, in upstream's order within a node;
//   - requeue: the controller's node monitor period;
//   - memory: the controller's state after the pass (memory).
func (r *stepReplay) render(t *testing.T, v stepVector, ran ranPass) json.RawMessage {
	if ran.err != nil {
		t.Fatalf("upstream pass: %v", ran.err)
	}
	var known node.Memory
	if len(v.Input.Memory) > 0 {
		if err := json.Unmarshal(v.Input.Memory, &known); err != nil {
			t.Fatal(err)
		}
	}
	p := node.Plan{Outcome: node.ReasonMonitored, Conditions: []node.ConditionWrite{}, Taints: []node.TaintWrite{}, MarkPodsNotReady: r.markedNodes(),
		Events: []plan.Event{}}
	// conditions
	for _, a := range r.c.client.Actions() {
		u, ok := a.(clienttesting.UpdateAction)
		if !ok || a.GetSubresource() != "status" {
			continue
		}
		if n, ok := u.GetObject().(*v1.Node); ok {
			if slices.ContainsFunc(p.Conditions, func(w node.ConditionWrite) bool { return w.Node == n.Name }) {
				t.Fatalf("upstream wrote the status of %s twice", n.Name)
			}
			var cs []node.Condition
			for _, c := range n.Status.Conditions {
				cs = append(cs, condFromUp(c))
			}
			p.Conditions = append(p.Conditions, node.ConditionWrite{Node: n.Name, Conditions: cs})
		}
	}
	sort.SliceStable(p.Conditions, func(i, j int) bool { return p.Conditions[i].Node < p.Conditions[j].Node })
	// taints
	phases := []string{"monitor", "noexecute", "noschedule"}
	patches := slices.Clone(r.patches)
	sort.SliceStable(patches, func(i, j int) bool {
		if a, b := slices.Index(phases, patches[i].phase), slices.Index(phases, patches[j].phase); a != b {
			return a < b
		}
		return patches[i].node < patches[j].node
	})
	knew := func(name string) bool { return slices.Contains(known.Known, name) || known.Nodes[name].Known }
	for _, pt := range patches {
		w := node.TaintWrite{Node: pt.node}
		for _, a := range pt.after {
			i := slices.IndexFunc(pt.before, func(b v1.Taint) bool { return b.MatchTaint(&a) })
			if i >= 0 && pt.before[i].Value == a.Value && (pt.before[i].TimeAdded == nil) == (a.TimeAdded == nil) &&
				(a.TimeAdded == nil || pt.before[i].TimeAdded.Equal(a.TimeAdded)) {
				continue
			}
			k := node.Taint{Key: a.Key, Value: a.Value, Effect: node.TaintEffect(a.Effect)}
			if a.TimeAdded != nil {
				if at := a.TimeAdded.Time; at.Before(ran.start.Truncate(time.Second)) || at.After(ran.end.Add(time.Second)) {
					t.Fatalf("taint %s added to %s at %v: not the time of the pass", a.Key, pt.node, at)
				}
				now := v.Input.Now
				k.TimeAdded = &now
			}
			w.Add = append(w.Add, k)
		}
		for _, b := range pt.before {
			if !slices.ContainsFunc(pt.after, func(a v1.Taint) bool { return a.MatchTaint(&b) }) {
				w.Remove = append(w.Remove, node.Taint{Key: b.Key, Value: b.Value, Effect: node.TaintEffect(b.Effect)})
			}
		}
		if len(w.Add) == 0 && len(w.Remove) == 0 {
			continue
		}
		switch pt.phase {
		case "noexecute":
			w.Reason = node.ReasonTaintNode
		case "noschedule":
			w.Reason = node.ReasonConditionTaints
		default:
			cur, _ := r.c.client.Tracker().Get(v1.SchemeGroupVersion.WithResource("nodes"), "", pt.node)
			_, ready := nodeutil.GetNodeCondition(&cur.(*v1.Node).Status, v1.NodeReady)
			switch {
			case len(w.Add) > 0 && len(w.Remove) > 0:
				w.Reason = node.ReasonSwapTaint
			case len(w.Add) > 0:
				t.Fatalf("monitor pass adds taints %+v to %s: no reason names it", w.Add, pt.node)
			case !knew(pt.node):
				w.Reason = node.ReasonRegisteredNode
			case ready != nil && ready.Status == v1.ConditionTrue:
				w.Reason = node.ReasonNodeReady
			default:
				w.Reason = node.ReasonMasterDisruption
			}
		}
		p.Taints = append(p.Taints, w)
	}
	// zones, disrupted
	p.Zones, p.Disrupted = r.zoneReports(ran.names)
	if p.Zones == nil {
		p.Zones = []node.ZoneReport{}
	}
	// events
	events := slices.Clone(*r.events)
	sort.SliceStable(events, func(i, j int) bool { return events[i].node < events[j].node })
	for _, e := range events {
		switch e.kind {
		case "Node":
			p.Events = append(p.Events, plan.Event{Type: plan.EventType(e.typ), Reason: plan.Reason(e.reason), Object: e.name})
		case "Pod":
			p.Events = append(p.Events, plan.Event{Type: plan.EventType(e.typ), Reason: plan.Reason(e.reason), Object: e.name, Message: e.message})
		default:
			t.Fatalf("unexpected upstream event %+v", e)
		}
	}
	// requeue, memory
	p.Requeue = []plan.Requeue{{After: field(r.c.nc, "nodeMonitorPeriod").Interface().(time.Duration), Reason: node.ReasonNodeMonitorPeriod}}
	p.Memory = r.memory()
	b, err := plan.Encode(p)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
