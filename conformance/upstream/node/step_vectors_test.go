package node_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"reflect"
	"slices"
	"sort"
	"strings"
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
		Memory json.RawMessage `json:"memory"`
		Now    time.Time       `json:"now"`
	} `json:"input"`
	Want      json.RawMessage `json:"want"`
	WantError json.RawMessage `json:"wantError"`
}

// stepReplay is one node lifecycle controller carried through a chain
// of node.Step vectors.
type stepReplay struct {
	c        *upController
	now      *time.Time
	recorder *record.FakeRecorder
	patched  map[string][]v1.Taint // node → taints after its last taint patch
	clock    vClock
}

func newStepReplay(t *testing.T, opts node.Options) *stepReplay {
	client := fake.NewSimpleClientset()
	c := newController(t, client, opts)
	r := &stepReplay{c: c, now: c.now, recorder: &record.FakeRecorder{Events: make(chan string, 1000), IncludeObject: true}, patched: map[string][]v1.Taint{}, clock: vClock{c.now}}
	field(c.nc, "recorder").Set(reflect.ValueOf(record.EventRecorder(r.recorder)))
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
	client.PrependReactor("patch", "nodes", func(a clienttesting.Action) (bool, runtime.Object, error) {
		handled, obj, err := apply(a)
		if err == nil {
			if n, ok := obj.(*v1.Node); ok {
				r.patched[n.Name] = slices.Clone(n.Spec.Taints)
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
func TestNodeStepVectorsUpstream(t *testing.T) {
	data, err := os.ReadFile(difftest.Repo("testdata/node/step.json"))
	if err != nil {
		t.Fatal(err)
	}
	var vs []stepVector
	if err := json.Unmarshal(data, &vs); err != nil {
		t.Fatal(err)
	}
	saved := difftest.NodeSchedulerNow
	defer func() { difftest.NodeSchedulerNow = saved }()
	var r *stepReplay
	var prevMemory json.RawMessage
	checked := 0
	for _, v := range vs {
		if v.Decision != "node.Step" || v.WantError != nil {
			continue
		}
		var want map[string]json.RawMessage
		if err := json.Unmarshal(v.Want, &want); err != nil {
			t.Fatal(err)
		}
		for _, k := range []string{"outcome", "conditions", "taints", "markPodsNotReady", "zones", "disrupted", "events", "requeue", "memory"} {
			if _, ok := want[k]; !ok {
				t.Errorf("%s: want has no %q", v.Name, k)
			}
		}
		if emptyMemory(v.Input.Memory) {
			var opts node.Options
			if len(v.Options) > 0 {
				if err := json.Unmarshal(v.Options, &opts); err != nil {
					t.Fatal(err)
				}
			}
			r = newStepReplay(t, opts)
			difftest.NodeSchedulerNow = func() time.Time { return *r.now }
		} else if r == nil || !sameRaw(v.Input.Memory, prevMemory) {
			t.Errorf("%s: input memory is not the memory the vector before it wants", v.Name)
			r = nil
			continue
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
	t.Logf("%d node.Step vectors replayed through upstream", checked)
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
// (others deleted), its leases, one Ready pod per node.
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
		p := &v1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "pod-" + n.Name, Namespace: "default"}, Spec: v1.PodSpec{NodeName: n.Name},
			Status: v1.PodStatus{Conditions: []v1.PodCondition{{Type: v1.PodReady, Status: v1.ConditionTrue}}}}
		if err := client.Tracker().Add(p.DeepCopy()); err != nil {
			t.Fatal(err)
		}
		_ = podStore.Add(p)
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

func (r *stepReplay) step(t *testing.T, v stepVector) []error {
	ctx := klog.NewContext(context.Background(), logr.Discard())
	*r.now = v.Input.Now
	r.sync(t, v)
	before := map[string][]v1.Taint{}
	for _, n := range v.Input.Nodes {
		before[n.Name] = n.Spec.Taints
	}
	r.c.client.ClearActions()
	clear(r.patched)
	for len(r.recorder.Events) > 0 {
		<-r.recorder.Events
	}
	r.virtualLimiters()
	if err := upMonitorNodeHealth(r.c.nc, ctx); err != nil {
		return []error{err}
	}
	r.virtualLimiters()
	r.refreshNodes()
	r.canonicalQueues()
	upNoExecuteTaintingPass(r.c.nc, ctx)
	r.refreshNodes()
	var names []string
	for _, n := range v.Input.Nodes {
		names = append(names, n.Name)
	}
	sort.Strings(names)
	for _, name := range names {
		if err := upNoScheduleTaintingPass(r.c.nc, ctx, name); err != nil {
			return []error{err}
		}
	}
	r.refreshNodes()

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
	var upMarked []string
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
		case *v1.Pod:
			upMarked = append(upMarked, strings.TrimPrefix(o.Name, "pod-"))
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

	// events
	var upEvents, wantEvents []string
	for len(r.recorder.Events) > 0 {
		e := <-r.recorder.Events
		if strings.HasPrefix(e, "Warning NodeNotReady Node is not ready ") {
			continue // MarkPodsNotReady's event on the pod: markPodsNotReady
		}
		f := strings.Fields(e) // type reason "Node" name ...
		if len(f) < 4 || f[2] != "Node" || !strings.Contains(e, "involvedObject{kind=Node,") {
			fail("unexpected upstream event %q", e)
			continue
		}
		upEvents = append(upEvents, f[0]+" "+f[1]+" "+f[3])
	}
	for _, e := range want.Events {
		wantEvents = append(wantEvents, string(e.Type)+" "+string(e.Reason)+" "+e.Object)
	}
	if !difftest.SameSet(wantEvents, upEvents) {
		fail("events %v, upstream %v", wantEvents, upEvents)
	}

	// zones, disrupted
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
			var nl node.Lease
			nl.Name = l.Name
			if l.Spec.RenewTime != nil {
				rt := l.Spec.RenewTime.Time.UTC()
				nl.Spec.RenewTime = &rt
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
