package node_test

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"maps"
	"os"
	"reflect"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
	_ "unsafe" // go:linkname

	"github.com/go-logr/logr"
	coordv1 "k8s.io/api/coordination/v1"
	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/sets"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes/fake"
	core "k8s.io/client-go/testing"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/tools/record"
	"k8s.io/client-go/util/flowcontrol"
	"k8s.io/component-base/metrics"
	"k8s.io/component-base/metrics/testutil"
	nodetopology "k8s.io/component-helpers/node/topology"
	"k8s.io/klog/v2"
	"k8s.io/kubernetes/pkg/controller/nodelifecycle"
	"k8s.io/kubernetes/pkg/controller/nodelifecycle/scheduler"
	clocktesting "k8s.io/utils/clock/testing"
	"pgregory.net/rapid"

	"github.com/kubesem/kubesem/conformance/upstream/internal/difftest"
	"github.com/kubesem/kubesem/k8s"
	"github.com/kubesem/kubesem/node"
	"github.com/kubesem/kubesem/plan"
	"github.com/kubesem/kubesem/podstatus"
)

// The controller's zone gauges: each zone's size and not-ready count as
// handleDisruption computed them.
//
//go:linkname stepZoneSize k8s.io/kubernetes/pkg/controller/nodelifecycle.zoneSize
var stepZoneSize *metrics.GaugeVec

//go:linkname stepUnhealthyNodes k8s.io/kubernetes/pkg/controller/nodelifecycle.unhealthyNodes
var stepUnhealthyNodes *metrics.GaugeVec

var (
	stepNodesGVR = v1.SchemeGroupVersion.WithResource("nodes")
	stepT0       = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	// stepStamp replaces every stored taint's timeAdded after a write, so that
	// a taint the controller writes again within the same wall-clock second
	// (the API keeps seconds) still shows as a change.
	stepStamp = metav1.NewTime(time.Date(2025, 6, 1, 0, 0, 0, 0, time.UTC))
)

const stepExcludeLabel = "node.kubernetes.io/exclude-disruption"

// stepOp is one taint change on one node: "add" (a new taint or one
// replacing a taint of the same key and effect) or "remove", with the
// phase of the pass that made it.
type stepOp struct {
	Phase, Op, Key, Effect, Value string
	Stamped                       bool // timeAdded set
}

type stepEvent struct{ Type, Reason, Kind, Name string }

// stepUp is the v1.36.3 node lifecycle controller on a fake clientset, its
// informer caches filled by hand, its clocks fake.
type stepUp struct {
	nc     *nodelifecycle.Controller
	ncv    reflect.Value
	client *fake.Clientset
	nodes  cache.Indexer
	leases cache.Indexer
	pods   cache.Indexer
	clock  *clocktesting.FakeClock
	mine   map[flowcontrol.RateLimiter]bool // the limiters on the fake clock
	cfg    difftest.NodeConfig

	mu     sync.Mutex
	phase  string
	ops    map[string][]stepOp
	events []stepEvent
}

type stepRecorder struct{ u *stepUp }

func (r stepRecorder) Event(o runtime.Object, typ, reason, _ string) { r.u.event(o, typ, reason) }

func (r stepRecorder) Eventf(o runtime.Object, typ, reason, _ string, _ ...any) {
	r.u.event(o, typ, reason)
}

func (r stepRecorder) AnnotatedEventf(o runtime.Object, _ map[string]string, typ, reason, _ string, _ ...any) {
	r.u.event(o, typ, reason)
}

func (u *stepUp) event(o runtime.Object, typ, reason string) {
	e := stepEvent{Type: typ, Reason: reason}
	switch x := o.(type) {
	case *v1.ObjectReference:
		e.Kind, e.Name = x.Kind, x.Name
	case *v1.Pod:
		e.Kind, e.Name = "Pod", x.Spec.NodeName
	default:
		e.Kind = fmt.Sprintf("%T", o)
	}
	u.mu.Lock()
	u.events = append(u.events, e)
	u.mu.Unlock()
}

var stepCurrent *stepUp // the sequence running (tests of this package run one at a time)

func stepNewUp(t interface{ Fatal(...any) }, ctx context.Context) *stepUp {
	cfg, err := difftest.UpstreamNodeConfig()
	if err != nil {
		t.Fatal(err)
	}
	return stepNewUpWith(t, ctx, cfg)
}

func stepNewUpWith(t interface{ Fatal(...any) }, ctx context.Context, cfg difftest.NodeConfig) *stepUp {
	client := fake.NewSimpleClientset()
	factory := informers.NewSharedInformerFactory(client, 0)
	nc, err := nodelifecycle.NewNodeLifecycleController(ctx, factory.Coordination().V1().Leases(), factory.Core().V1().Pods(),
		factory.Core().V1().Nodes(), factory.Apps().V1().DaemonSets(), client, cfg.MonitorPeriod, cfg.StartupGrace, cfg.MonitorGrace,
		cfg.EvictionRate, cfg.SecondaryRate, cfg.LargeCluster, cfg.Unhealthy)
	if err != nil {
		t.Fatal(err)
	}
	u := &stepUp{nc: nc, ncv: reflect.ValueOf(nc).Elem(), client: client, clock: clocktesting.NewFakeClock(stepT0),
		nodes: factory.Core().V1().Nodes().Informer().GetIndexer(), leases: factory.Coordination().V1().Leases().Informer().GetIndexer(),
		pods: factory.Core().V1().Pods().Informer().GetIndexer(), mine: map[flowcontrol.RateLimiter]bool{}, cfg: cfg, ops: map[string][]stepOp{}}
	difftest.Field(u.ncv, "now").Set(reflect.ValueOf(func() metav1.Time { return metav1.NewTime(u.clock.Now()) }))
	difftest.Field(u.ncv, "recorder").Set(reflect.ValueOf(record.EventRecorder(stepRecorder{u})))
	tracker := client.Tracker()
	// The API server's status subresource: a status update leaves the spec
	// (taints) as stored.
	client.PrependReactor("update", "nodes", func(a core.Action) (bool, runtime.Object, error) {
		ua := a.(core.UpdateAction)
		if ua.GetSubresource() != "status" {
			return false, nil, nil
		}
		n := ua.GetObject().(*v1.Node)
		cur, err := tracker.Get(stepNodesGVR, "", n.Name)
		if err != nil {
			return true, nil, err
		}
		c := cur.(*v1.Node).DeepCopy()
		c.Status = *n.Status.DeepCopy()
		return true, c, tracker.Update(stepNodesGVR, c, "")
	})
	// Taint patches: record the change, then re-stamp the stored taints.
	client.PrependReactor("patch", "nodes", func(a core.Action) (bool, runtime.Object, error) {
		name := a.(core.PatchAction).GetName()
		old, err := tracker.Get(stepNodesGVR, "", name)
		if err != nil {
			return true, nil, err
		}
		handled, obj, err := core.ObjectReaction(tracker)(a)
		if err != nil {
			return handled, obj, err
		}
		n := obj.(*v1.Node)
		u.mu.Lock()
		u.ops[name] = append(u.ops[name], stepTaintOps(u.phase, old.(*v1.Node).Spec.Taints, n.Spec.Taints)...)
		u.mu.Unlock()
		c := n.DeepCopy()
		for i := range c.Spec.Taints {
			if c.Spec.Taints[i].TimeAdded != nil {
				c.Spec.Taints[i].TimeAdded = stepStamp.DeepCopy()
			}
		}
		return true, c, tracker.Update(stepNodesGVR, c, "")
	})
	return u
}

// close stops the controller's queues and event broadcaster.
func (u *stepUp) close() { difftest.Stop(u.nc) }

// stepTaintOps is the change from one stored taint list to the next.
func stepTaintOps(phase string, old, new []v1.Taint) []stepOp {
	var ops []stepOp
	for _, t := range new {
		i := slices.IndexFunc(old, func(o v1.Taint) bool { return o.MatchTaint(&t) })
		if i >= 0 && old[i].Value == t.Value && (old[i].TimeAdded == nil) == (t.TimeAdded == nil) &&
			(t.TimeAdded == nil || old[i].TimeAdded.Equal(t.TimeAdded)) {
			continue
		}
		ops = append(ops, stepOp{Phase: phase, Op: "add", Key: t.Key, Effect: string(t.Effect), Value: t.Value, Stamped: t.TimeAdded != nil})
	}
	for _, o := range old {
		if !slices.ContainsFunc(new, func(t v1.Taint) bool { return t.MatchTaint(&o) }) {
			ops = append(ops, stepOp{Phase: phase, Op: "remove", Key: o.Key, Effect: string(o.Effect), Value: o.Value})
		}
	}
	return ops
}

// world: the API objects, kept as the API server stores them (a JSON round
// trip: times in seconds, lease renew times in microseconds).

func stepNormalize(n *v1.Node) *v1.Node {
	b, err := json.Marshal(n)
	if err != nil {
		panic(err)
	}
	var out v1.Node
	if err := json.Unmarshal(b, &out); err != nil {
		panic(err)
	}
	return &out
}

func (u *stepUp) getNode(name string) *v1.Node {
	o, err := u.client.Tracker().Get(stepNodesGVR, "", name)
	if err != nil {
		return nil
	}
	return o.(*v1.Node)
}

func (u *stepUp) worldNodes() []*v1.Node {
	o, err := u.client.Tracker().List(stepNodesGVR, v1.SchemeGroupVersion.WithKind("Node"), "")
	if err != nil {
		panic(err)
	}
	var out []*v1.Node
	for i := range o.(*v1.NodeList).Items {
		out = append(out, &o.(*v1.NodeList).Items[i])
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

func (u *stepUp) putNode(n *v1.Node) {
	n = stepNormalize(n)
	tr := u.client.Tracker()
	if _, err := tr.Get(stepNodesGVR, "", n.Name); err == nil {
		if err := tr.Update(stepNodesGVR, n, ""); err != nil {
			panic(err)
		}
	} else {
		if err := tr.Add(n); err != nil {
			panic(err)
		}
		pod := &v1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "p-" + n.Name, Namespace: "default"}, Spec: v1.PodSpec{NodeName: n.Name},
			Status: v1.PodStatus{Conditions: []v1.PodCondition{{Type: v1.PodReady, Status: v1.ConditionTrue}}}}
		_ = tr.Add(pod)
		_ = u.pods.Add(pod)
	}
	u.syncNodes()
}

func (u *stepUp) deleteNode(name string) {
	_ = u.client.Tracker().Delete(stepNodesGVR, "", name)
	_ = u.client.Tracker().Delete(v1.SchemeGroupVersion.WithResource("pods"), "default", "p-"+name)
	if o, ok, _ := u.pods.GetByKey("default/p-" + name); ok {
		_ = u.pods.Delete(o)
	}
	u.syncNodes()
}

// syncNodes brings the node informer's cache up to the stored nodes.
func (u *stepUp) syncNodes() {
	var objs []any
	for _, n := range u.worldNodes() {
		objs = append(objs, n)
	}
	if err := u.nodes.Replace(objs, ""); err != nil {
		panic(err)
	}
}

// normalize stores every node as the API server would have stored it.
func (u *stepUp) normalize() {
	for _, n := range u.worldNodes() {
		if err := u.client.Tracker().Update(stepNodesGVR, stepNormalize(n), ""); err != nil {
			panic(err)
		}
	}
	u.syncNodes()
}

func (u *stepUp) setLease(l *coordv1.Lease) {
	if old, ok, _ := u.leases.GetByKey(v1.NamespaceNodeLease + "/" + l.Name); ok {
		_ = u.leases.Delete(old)
	}
	_ = u.leases.Add(l)
}

func (u *stepUp) deleteLease(name string) {
	if old, ok, _ := u.leases.GetByKey(v1.NamespaceNodeLease + "/" + name); ok {
		_ = u.leases.Delete(old)
	}
}

func (u *stepUp) worldLeases() []node.Lease {
	var out []node.Lease
	for _, o := range u.leases.List() {
		out = append(out, k8s.FromLease(o.(*coordv1.Lease)))
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// controller internals

func (u *stepUp) tainters() map[string]*scheduler.RateLimitedTimedQueue {
	return difftest.Field(u.ncv, "zoneNoExecuteTainter").Interface().(map[string]*scheduler.RateLimitedTimedQueue)
}

func (u *stepUp) zoneStates() map[string]nodelifecycle.ZoneState {
	return difftest.Field(u.ncv, "zoneStates").Interface().(map[string]nodelifecycle.ZoneState)
}

func stepSet(q *scheduler.RateLimitedTimedQueue) sets.Set[string] {
	return difftest.Field(difftest.Field(reflect.ValueOf(q).Elem(), "queue"), "set").Interface().(sets.Set[string])
}

// zoneRate is the rate a zone's tainter was given (the never-accepting
// limiter upstream installs for a rate of 0 reports a QPS of 1).
func (u *stepUp) zoneRate(l flowcontrol.RateLimiter) float32 {
	if difftest.IsNeverLimiter(l) {
		return 0
	}
	return l.QPS()
}

// adoptLimiters puts every zone limiter created by this pass on the fake
// clock. A limiter is created at most one pass before it is adopted: full
// (a new zone, a swap from a limiter with a token) or drained once by
// SwapLimiter at this pass; the adopted one has the same rate, burst and
// token, taken at the controller's now.
func (u *stepUp) adoptLimiters(t interface{ Fatalf(string, ...any) }) {
	for k, q := range u.tainters() {
		lv := difftest.QueueLimiter(q)
		cur := lv.Interface().(flowcontrol.RateLimiter)
		if u.mine[cur] || difftest.IsNeverLimiter(cur) {
			continue
		}
		if reflect.TypeOf(cur).String() != "*flowcontrol.tokenBucketRateLimiter" {
			t.Fatalf("zone %q: limiter %T", k, cur)
		}
		bucket, last := difftest.TokenBucket(cur)
		nl := flowcontrol.NewTokenBucketRateLimiterWithClock(cur.QPS(), scheduler.EvictionRateLimiterBurst, u.clock)
		if !last.IsZero() {
			if tok := bucket.TokensAt(time.Now()); tok > 0.5 {
				t.Fatalf("zone %q: a used limiter holds %v tokens", k, tok)
			}
			nl.TryAccept()
		}
		lv.Set(reflect.ValueOf(nl))
		u.mine[nl] = true
	}
}

// orderQueues orders each tainting queue's heap by process time, then node
// name (a sorted slice is a heap). Upstream adds nodes to the queue from
// eight parallel workers, so the order of equal process times is the
// workers' interleaving; this fixes it to the name order kubesem documents.
func (u *stepUp) orderQueues() {
	for _, q := range u.tainters() {
		h := difftest.QueueHeap(q)
		sort.SliceStable(*h, func(i, j int) bool {
			a, b := (*h)[i], (*h)[j]
			if !a.ProcessAt.Equal(b.ProcessAt) {
				return a.ProcessAt.Before(b.ProcessAt)
			}
			return a.Value < b.Value
		})
	}
}

// dropKeptZones undoes what handleDisruption did to a zone without nodes
// that it kept because its loop over zone states stopped, in map order,
// at a zone not fully disrupted before reaching it: the zone state is
// deleted, and if every limiter was set to 0 (all zones fully disrupted)
// the zone's limiter is put back. The result is what upstream does when
// the map order reaches that zone first (zone state deleted, tainter left
// alone), the order kubesem documents.
func (u *stepUp) dropKeptZones(listed []*v1.Node, before map[string]*scheduler.RateLimitedTimedQueue, limiters map[string]flowcontrol.RateLimiter) int {
	present := map[string]bool{}
	for _, n := range listed {
		if _, ok := n.Labels[stepExcludeLabel]; !ok {
			present[nodetopology.GetZoneKey(n)] = true
		}
	}
	kept := 0
	states := u.zoneStates()
	for k := range states {
		if present[k] {
			continue
		}
		kept++
		delete(states, k)
		q := u.tainters()[k]
		lv := difftest.QueueLimiter(q)
		if cur := lv.Interface().(flowcontrol.RateLimiter); !difftest.IsNeverLimiter(cur) || before[k] == q && difftest.IsNeverLimiter(limiters[k]) {
			continue
		}
		if before[k] == q {
			lv.Set(reflect.ValueOf(limiters[k]))
		} else {
			// a tainter created by this pass: its limiter was new and unused
			nl := flowcontrol.NewTokenBucketRateLimiterWithClock(u.cfg.EvictionRate, scheduler.EvictionRateLimiterBurst, u.clock)
			lv.Set(reflect.ValueOf(nl))
			u.mine[nl] = true
		}
	}
	return kept
}

// stepObs is what upstream did in one pass.
type stepObs struct {
	kept      int // zones without nodes handleDisruption kept (see dropKeptZones)
	err       error
	status    map[string][]v1.NodeCondition
	statusDup []string
	ops       map[string][]stepOp
	marked    []string // nodes whose pods got Ready=False
	podEvents []string // nodes of the pods that got a NodeNotReady event
	events    []stepEvent
	final     map[string][]v1.Taint
	zones     []node.ZoneReport
	disrupted bool
	// writes are the requests of each part of the pass (monitor,
	// noexecute, noschedule), reads left out
	writes map[string][]difftest.WriteKey
	// pods are the pods the controller's pod cache listed
	pods []*v1.Pod
}

// pass runs one monitor pass at now: monitorNodeHealth, one
// doNoExecuteTaintingPass and doNoScheduleTaintingPass for every node, the
// informer caches catching up with the writes between them.
func (u *stepUp) pass(t interface{ Fatalf(string, ...any) }, ctx context.Context, now time.Time) (o stepObs) {
	u.clock.SetTime(now)
	u.client.ClearActions()
	u.ops = map[string][]stepOp{}
	u.events = nil
	listed := u.worldNodes()
	before := map[string]*scheduler.RateLimitedTimedQueue{}
	limiters := map[string]flowcontrol.RateLimiter{}
	for k, q := range u.tainters() {
		before[k], limiters[k] = q, difftest.QueueLimiter(q).Interface().(flowcontrol.RateLimiter)
	}
	u.phase = "monitor"
	for _, x := range u.pods.List() {
		o.pods = append(o.pods, x.(*v1.Pod).DeepCopy())
	}
	o.writes = map[string][]difftest.WriteKey{}
	at := 0
	cut := func(phase string) {
		as := u.client.Actions()
		ws, err := difftest.WriteKeysOfActions(as[at:])
		if err != nil {
			t.Fatalf("actions: %v", err)
		}
		o.writes[phase] = ws
		at = len(as)
	}
	o.err = difftest.MonitorNodeHealth(u.nc, ctx)
	cut("monitor")
	o.kept = u.dropKeptZones(listed, before, limiters)
	u.adoptLimiters(t)
	u.orderQueues()
	u.syncNodes()
	u.phase = "noexecute"
	difftest.NoExecuteTaintingPass(u.nc, ctx)
	cut("noexecute")
	u.syncNodes()
	u.phase = "noschedule"
	for _, n := range u.worldNodes() {
		if err := difftest.NoScheduleTaintingPass(u.nc, ctx, n.Name); err != nil {
			t.Fatalf("doNoScheduleTaintingPass(%s): %v", n.Name, err)
		}
		// (the node worker then reconciles the node's labels)
		if err := difftest.ReconcileNodeLabels(u.nc, ctx, n.Name); err != nil {
			t.Fatalf("reconcileNodeLabels(%s): %v", n.Name, err)
		}
	}
	cut("noschedule")
	o.status = map[string][]v1.NodeCondition{}
	for _, a := range u.client.Actions() {
		ua, ok := a.(core.UpdateAction)
		if !ok || a.GetSubresource() != "status" {
			continue
		}
		switch x := ua.GetObject().(type) {
		case *v1.Node:
			if _, dup := o.status[x.Name]; dup {
				o.statusDup = append(o.statusDup, x.Name)
			}
			o.status[x.Name] = x.Status.Conditions
		case *v1.Pod:
			o.marked = append(o.marked, x.Spec.NodeName)
		}
	}
	sort.Strings(o.marked)
	o.ops = u.ops
	for _, e := range u.events {
		if e.Kind == "Pod" {
			o.podEvents = append(o.podEvents, e.Name)
		} else {
			o.events = append(o.events, e)
		}
	}
	sort.Strings(o.podEvents)
	o.final = map[string][]v1.Taint{}
	for _, n := range u.worldNodes() {
		o.final[n.Name] = n.Spec.Taints
	}
	states := u.zoneStates()
	tainters := u.tainters()
	o.disrupted = len(states) > 0
	for _, k := range slices.Sorted(maps.Keys(states)) {
		size, err1 := testutil.GetGaugeMetricValue(stepZoneSize.WithLabelValues(k))
		bad, err2 := testutil.GetGaugeMetricValue(stepUnhealthyNodes.WithLabelValues(k))
		if err1 != nil || err2 != nil {
			t.Fatalf("zone gauges: %v %v", err1, err2)
		}
		o.zones = append(o.zones, node.ZoneReport{Zone: k, Size: int(size), NotReady: int(bad), State: node.ZoneState(states[k]),
			Rate: u.zoneRate(difftest.QueueLimiter(tainters[k]).Interface().(flowcontrol.RateLimiter))})
		if states[k] != nodelifecycle.ZoneState(node.ZoneFullDisruption) {
			o.disrupted = false
		}
	}
	return o
}

// comparison

func stepCond(c v1.NodeCondition) node.Condition {
	return node.Condition{Type: node.ConditionType(c.Type), Status: node.ConditionStatus(c.Status), LastHeartbeatTime: c.LastHeartbeatTime.Time,
		LastTransitionTime: c.LastTransitionTime.Time, Reason: c.Reason, Message: c.Message}
}

func stepSameConds(a []node.Condition, b []v1.NodeCondition) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		c := stepCond(b[i])
		if a[i].Type != c.Type || a[i].Status != c.Status || a[i].Reason != c.Reason || a[i].Message != c.Message ||
			!a[i].LastHeartbeatTime.Equal(c.LastHeartbeatTime) || !a[i].LastTransitionTime.Equal(c.LastTransitionTime) {
			return false
		}
	}
	return true
}

func stepPhase(r node.Reason) string {
	switch r {
	case node.ReasonTaintNode:
		return "noexecute"
	case node.ReasonConditionTaints, node.ReasonNodeLabel:
		return "noschedule"
	}
	return "monitor"
}

type stepTaintKey struct {
	Key, Effect, Value string
	Stamped            bool
}

func stepTokensAt(l node.Limiter, now time.Time) float64 {
	if l.Rate <= 0 {
		return min(l.Tokens, 1)
	}
	if l.Last.IsZero() {
		return 1
	}
	last := l.Last
	if now.Before(last) {
		last = now
	}
	tok := l.Tokens + now.Sub(last).Seconds()*float64(l.Rate)
	return min(tok, 1)
}

// stepCompare checks a node.Step Plan for the pass at now on input nodes in
// against what upstream did (o) and the controller's state after the pass.
func stepCompare(p node.Plan, o stepObs, in []*node.Node, now time.Time, u *stepUp) error {
	if o.err != nil || p.Outcome != node.ReasonMonitored {
		return fmt.Errorf("outcome %q, upstream error %v", p.Outcome, o.err)
	}
	// node status writes
	if len(o.statusDup) > 0 {
		return fmt.Errorf("upstream wrote the status of %v twice", o.statusDup)
	}
	got := map[string][]node.Condition{}
	for _, w := range p.Conditions {
		if _, dup := got[w.Node]; dup {
			return fmt.Errorf("two condition writes for %s", w.Node)
		}
		got[w.Node] = w.Conditions
	}
	for name, conds := range o.status {
		if c, ok := got[name]; !ok || !stepSameConds(c, conds) {
			return fmt.Errorf("status of %s: kubesem %+v, upstream %+v", name, c, conds)
		}
	}
	for name := range got {
		if _, ok := o.status[name]; !ok {
			return fmt.Errorf("status of %s written, upstream leaves it", name)
		}
	}
	// taint writes, node by node in order, and the taints they leave
	ops := map[string][]stepOp{}
	final := map[string][]node.Taint{}
	for _, n := range in {
		final[n.Name] = slices.Clone(n.Spec.Taints)
	}
	for _, w := range p.Taints {
		ts := final[w.Node]
		for _, a := range w.Add {
			if a.TimeAdded == nil || !a.TimeAdded.Equal(now) {
				return fmt.Errorf("taint %+v added to %s at %v, not now %v", a, w.Node, a.TimeAdded, now)
			}
			ops[w.Node] = append(ops[w.Node], stepOp{Phase: stepPhase(w.Reason), Op: "add", Key: a.Key, Effect: string(a.Effect), Value: a.Value, Stamped: true})
			if i := slices.IndexFunc(ts, a.MatchTaint); i >= 0 {
				ts[i] = a
			} else {
				ts = append(ts, a)
			}
		}
		for _, r := range w.Remove {
			ops[w.Node] = append(ops[w.Node], stepOp{Phase: stepPhase(w.Reason), Op: "remove", Key: r.Key, Effect: string(r.Effect), Value: r.Value})
			ts = slices.DeleteFunc(ts, r.MatchTaint)
		}
		final[w.Node] = ts
	}
	names := sets.New[string]()
	for k := range ops {
		names.Insert(k)
	}
	for k := range o.ops {
		names.Insert(k)
	}
	for _, name := range sets.List(names) {
		if !reflect.DeepEqual(ops[name], o.ops[name]) {
			return fmt.Errorf("taint changes on %s: kubesem %+v, upstream %+v", name, ops[name], o.ops[name])
		}
	}
	for _, n := range in {
		var a, b []stepTaintKey
		for _, x := range final[n.Name] {
			a = append(a, stepTaintKey{x.Key, string(x.Effect), x.Value, x.TimeAdded != nil})
		}
		for _, x := range o.final[n.Name] {
			b = append(b, stepTaintKey{x.Key, string(x.Effect), x.Value, x.TimeAdded != nil})
		}
		if !reflect.DeepEqual(a, b) {
			return fmt.Errorf("taints of %s after the pass: kubesem %+v, upstream %+v", n.Name, a, b)
		}
	}
	// pods marked not ready, events
	marked := slices.Clone(p.MarkPodsNotReady)
	sort.Strings(marked)
	if !slices.Equal(marked, o.marked) || !slices.Equal(marked, o.podEvents) {
		return fmt.Errorf("markPodsNotReady %v, upstream marked the pods of %v (events %v)", p.MarkPodsNotReady, o.marked, o.podEvents)
	}
	var ev, uev []string
	for _, e := range p.Events {
		if stepPodEvent(e) {
			continue // compared by stepComparePodEvents where Step had the pods
		}
		ev = append(ev, fmt.Sprintf("%s %s Node %s %s", e.Type, e.Reason, e.Object, e.Message))
	}
	for _, e := range o.events {
		uev = append(uev, fmt.Sprintf("%s %s %s %s ", e.Type, e.Reason, e.Kind, e.Name))
	}
	sort.Strings(ev)
	sort.Strings(uev)
	if !slices.Equal(ev, uev) {
		return fmt.Errorf("events %q, upstream %q", ev, uev)
	}
	// zones
	if !reflect.DeepEqual(p.Zones, o.zones) && !(len(p.Zones) == 0 && len(o.zones) == 0) {
		return fmt.Errorf("zones %+v, upstream %+v", p.Zones, o.zones)
	}
	if p.Disrupted != o.disrupted {
		return fmt.Errorf("disrupted %v, upstream %v", p.Disrupted, o.disrupted)
	}
	if err := stepCompareWrites(p, o, in, now); err != nil {
		return err
	}
	period := difftest.Field(u.ncv, "nodeMonitorPeriod").Interface().(time.Duration)
	if want := []plan.Requeue{{After: period, Reason: node.ReasonNodeMonitorPeriod}}; !reflect.DeepEqual(p.Requeue, want) {
		return fmt.Errorf("requeue %+v, upstream's monitor period %v", p.Requeue, period)
	}
	return stepCompareMemory(p.Memory, now, u)
}

// stepPodEvent reports whether e is the Warning NodeNotReady event Step
// records on a pod it marks not ready.
func stepPodEvent(e plan.Event) bool {
	return e.Type == plan.Warning && e.Reason == node.ReasonEventNodeNotReady
}

// stepComparePodEvents checks the Plan's pod events (Step given the pods of
// the controller's cache) against the events upstream's MarkPodsNotReady
// recorded on pods: the same pods (by their nodes; one pod per node), each
// with the message "Node is not ready".
func stepComparePodEvents(p node.Plan, o stepObs) error {
	nodeOf := map[string]string{}
	for _, x := range o.pods {
		nodeOf[x.Name] = x.Spec.NodeName
	}
	var got []string
	for _, e := range p.Events {
		if !stepPodEvent(e) {
			continue
		}
		if e.Message != node.PodNotReadyMessage {
			return fmt.Errorf("pod event %+v", e)
		}
		got = append(got, nodeOf[e.Object])
	}
	sort.Strings(got)
	if !slices.Equal(got, o.podEvents) {
		return fmt.Errorf("pod NodeNotReady events on the pods of %v, upstream %v", got, o.podEvents)
	}
	return nil
}

// stepCompareWrites checks the Plan's Writes (over the input nodes and the
// pods of the controller's cache) against the requests upstream sent, part
// by part of the pass: within each part node by node (a pod's request
// counting for its node), the same sequence of verb, resource,
// subresource, namespace, name, uid and grace period; upstream's monitor
// pass updates nodes in parallel and its NoExecute tainter walks zones in
// map order, so the order across nodes is not compared. Each Write's part
// follows from its reason, and the parts come in order.
func stepCompareWrites(p node.Plan, o stepObs, in []*node.Node, now time.Time) error {
	podNode := map[string]string{}
	var kpods []*podstatus.Pod
	for _, x := range o.pods {
		podNode[x.Namespace+"/"+x.Name] = x.Spec.NodeName
		kp, err := k8s.FromPod(x)
		if err != nil {
			return err
		}
		kpods = append(kpods, kp)
	}
	ws, err := p.Writes(in, kpods, now)
	if err != nil {
		return fmt.Errorf("Writes: %v", err)
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
	parts := []string{"monitor", "noexecute", "noschedule"}
	mine := map[string][]difftest.WriteKey{}
	last := 0
	for _, w := range ws {
		part := stepPhase(w.Reason)
		i := slices.Index(parts, part)
		if i < last {
			return fmt.Errorf("write %+v (%s) after the %s part", difftest.WriteKeyOf(w), part, parts[last])
		}
		last = i
		mine[part] = append(mine[part], difftest.WriteKeyOf(w))
	}
	for _, part := range parts {
		if g, u := group(mine[part]), group(o.writes[part]); !reflect.DeepEqual(g, u) {
			return fmt.Errorf("%s writes %v, upstream %v", part, g, u)
		}
	}
	return nil
}

// stepCompareMemory checks the Plan's memory against the controller's:
// registered nodes, node health records, and per zone the state, the
// tainter's rate and tokens at now, its queue and the nodes it has handled.
func stepCompareMemory(m node.Memory, now time.Time, u *stepUp) error {
	var known []string
	for k := range difftest.Field(u.ncv, "knownNodeSet").Interface().(map[string]*v1.Node) {
		known = append(known, k)
	}
	sort.Strings(known)
	if !slices.Equal(known, m.Known) && len(known)+len(m.Known) > 0 {
		return fmt.Errorf("memory.known %v, upstream %v", m.Known, known)
	}
	healths := difftest.Field(difftest.Field(u.ncv, "nodeHealthMap").Elem(), "nodeHealths")
	if healths.Len() != len(m.Nodes) {
		return fmt.Errorf("memory.nodes has %d records, upstream %d", len(m.Nodes), healths.Len())
	}
	for it := healths.MapRange(); it.Next(); {
		name := it.Key().String()
		d := it.Value().Elem()
		probe := difftest.Field(d, "probeTimestamp").Interface().(metav1.Time)
		status := difftest.Field(d, "status").Interface().(*v1.NodeStatus)
		lease := difftest.Field(d, "lease").Interface().(*coordv1.Lease)
		h, ok := m.Nodes[name]
		if !ok {
			return fmt.Errorf("memory.nodes lacks %s", name)
		}
		if !h.ProbeTime.Equal(probe.Time) {
			return fmt.Errorf("memory.nodes[%s].probeTime %v, upstream %v", name, h.ProbeTime, probe.Time)
		}
		var hb *time.Time
		if status != nil {
			for _, c := range status.Conditions {
				if c.Type == v1.NodeReady {
					t := c.LastHeartbeatTime.Time
					hb = &t
					break
				}
			}
		}
		if (hb == nil) != (h.ReadyHeartbeat == nil) || hb != nil && !hb.Equal(*h.ReadyHeartbeat) {
			return fmt.Errorf("memory.nodes[%s].readyHeartbeat %v, upstream %v", name, h.ReadyHeartbeat, hb)
		}
		if (lease == nil) != (h.Lease == nil) {
			return fmt.Errorf("memory.nodes[%s].lease %+v, upstream %+v", name, h.Lease, lease)
		}
		if lease != nil {
			l := k8s.FromLease(lease)
			if l.Name != h.Lease.Name || (l.Spec.RenewTime != nil) != h.Lease.HasRenewTime || l.Spec.RenewTime != nil && !l.Spec.RenewTime.Equal(h.Lease.RenewTime) {
				return fmt.Errorf("memory.nodes[%s].lease %+v, upstream %+v", name, h.Lease, l)
			}
		}
		if h.Known {
			return fmt.Errorf("memory.nodes[%s].known set", name)
		}
	}
	states := u.zoneStates()
	tainters := u.tainters()
	for k, z := range m.Zones {
		q, ok := tainters[k]
		if !ok {
			return fmt.Errorf("memory.zones[%q]: upstream has no such zone", k)
		}
		if st := node.ZoneState(states[k]); z.State != st {
			return fmt.Errorf("memory.zones[%q].state %q, upstream %q", k, z.State, st)
		}
		lim := difftest.QueueLimiter(q).Interface().(flowcontrol.RateLimiter)
		if r := u.zoneRate(lim); z.Limiter.Rate != r {
			return fmt.Errorf("memory.zones[%q].limiter.rate %v, upstream %v", k, z.Limiter.Rate, r)
		}
		if never := z.Limiter.Rate <= 0 && !z.Limiter.Bucket; never != difftest.IsNeverLimiter(lim) {
			return fmt.Errorf("memory.zones[%q].limiter %+v, upstream %T", k, z.Limiter, lim)
		}
		if !difftest.IsNeverLimiter(lim) {
			bucket, _ := difftest.TokenBucket(lim)
			if got, want := stepTokensAt(z.Limiter, now), bucket.TokensAt(now); got != want {
				return fmt.Errorf("memory.zones[%q].limiter %+v holds %v tokens at now, upstream %v", k, z.Limiter, got, want)
			}
		}
		var queue []node.Queued
		inHeap := sets.New[string]()
		for _, v := range *difftest.QueueHeap(q) {
			queue = append(queue, node.Queued{Node: v.Value, AddedAt: v.AddedAt, ProcessAt: v.ProcessAt})
			inHeap.Insert(v.Value)
		}
		slices.SortFunc(queue, func(a, b node.Queued) int {
			if c := a.ProcessAt.Compare(b.ProcessAt); c != 0 {
				return c
			}
			return strings.Compare(a.Node, b.Node)
		})
		if len(queue) != len(z.Queue) {
			return fmt.Errorf("memory.zones[%q].queue %+v, upstream %+v", k, z.Queue, queue)
		}
		for i := range queue {
			if queue[i].Node != z.Queue[i].Node || !queue[i].AddedAt.Equal(z.Queue[i].AddedAt) || !queue[i].ProcessAt.Equal(z.Queue[i].ProcessAt) {
				return fmt.Errorf("memory.zones[%q].queue %+v, upstream %+v", k, z.Queue, queue)
			}
		}
		done := sets.List(stepSet(q).Difference(inHeap))
		if !slices.Equal(done, z.Done) && len(done)+len(z.Done) > 0 {
			return fmt.Errorf("memory.zones[%q].done %v, upstream %v", k, z.Done, done)
		}
	}
	// A tainter kubesem forgot must be one that can do nothing: no zone
	// state (a node of that zone would get a new tainter) and no node
	// waiting.
	for k, q := range tainters {
		if _, ok := m.Zones[k]; ok {
			continue
		}
		if _, ok := states[k]; ok || len(*difftest.QueueHeap(q)) > 0 {
			return fmt.Errorf("memory.zones lacks %q; upstream has state %q and queue %d", k, states[k], len(*difftest.QueueHeap(q)))
		}
	}
	return nil
}

// generation

// stepSeq draws one sequence: a cluster, then passes with the kubelets,
// leases and users acting between them.
type stepSeq struct {
	t     *rapid.T
	u     *stepUp
	now   time.Time
	alive map[string]bool // the kubelet posts status
	lease map[string]int  // 0 none, 1 renewed, 2 not renewed, 3 without renewTime
	large bool
	next  int // next node name
}

var stepTaintPool = []v1.Taint{
	{Key: v1.TaintNodeNotReady, Effect: v1.TaintEffectNoExecute},
	{Key: v1.TaintNodeUnreachable, Effect: v1.TaintEffectNoExecute},
	{Key: v1.TaintNodeNotReady, Effect: v1.TaintEffectNoSchedule},
	{Key: v1.TaintNodeUnreachable, Effect: v1.TaintEffectNoSchedule},
	{Key: v1.TaintNodeMemoryPressure, Effect: v1.TaintEffectNoSchedule},
	{Key: v1.TaintNodeUnschedulable, Effect: v1.TaintEffectNoSchedule},
	{Key: v1.TaintNodeNetworkUnavailable, Effect: v1.TaintEffectNoSchedule},
	{Key: "example.com/custom", Effect: v1.TaintEffectNoSchedule},
	{Key: "example.com/custom", Effect: v1.TaintEffectNoExecute},
	{Key: v1.TaintNodeNotReady, Effect: v1.TaintEffectPreferNoSchedule},
}

func (s *stepSeq) labels() map[string]string {
	l := map[string]string{}
	z := rapid.SampledFrom([]string{"", "a", "a", "b", "b", "c"}).Draw(s.t, "zone")
	if s.large {
		z = rapid.SampledFrom([]string{"big", "big", "big", "big", "big", "big", "big", "a"}).Draw(s.t, "zone")
	}
	if z != "" {
		if rapid.IntRange(0, 3).Draw(s.t, "betaZone") == 0 {
			l[v1.LabelFailureDomainBetaZone] = z
		} else {
			l[v1.LabelTopologyZone] = z
		}
	}
	if rapid.IntRange(0, 5).Draw(s.t, "region") == 0 {
		l[v1.LabelTopologyRegion] = "r1"
	}
	if rapid.IntRange(0, 7).Draw(s.t, "excluded") == 0 {
		l[stepExcludeLabel] = ""
	}
	// the OS and architecture labels, stable and beta, agreeing or not
	// (the node worker sets the beta ones from the stable ones)
	for _, k := range [][2]string{{v1.LabelOSStable, "beta.kubernetes.io/os"}, {v1.LabelArchStable, "beta.kubernetes.io/arch"}} {
		switch rapid.IntRange(0, 4).Draw(s.t, "platform") {
		case 1:
			l[k[0]] = "linux"
		case 2:
			l[k[0]], l[k[1]] = "linux", "linux"
		case 3:
			l[k[0]], l[k[1]] = "linux", "windows"
		case 4:
			l[k[1]] = "linux"
		}
	}
	return l
}

func (s *stepSeq) drawStatus(label string) v1.ConditionStatus {
	w := []v1.ConditionStatus{v1.ConditionTrue, v1.ConditionTrue, v1.ConditionTrue, v1.ConditionTrue, v1.ConditionTrue,
		v1.ConditionFalse, v1.ConditionFalse, v1.ConditionUnknown}
	if s.large {
		w = []v1.ConditionStatus{v1.ConditionTrue, v1.ConditionFalse, v1.ConditionFalse, v1.ConditionUnknown}
	}
	return rapid.SampledFrom(w).Draw(s.t, label)
}

func (s *stepSeq) addTaint(n *v1.Node) {
	tt := rapid.SampledFrom(stepTaintPool).Draw(s.t, "taint")
	if slices.ContainsFunc(n.Spec.Taints, func(x v1.Taint) bool { return x.MatchTaint(&tt) }) {
		return
	}
	if tt.Effect == v1.TaintEffectNoExecute && rapid.IntRange(0, 3).Draw(s.t, "stamp") > 0 {
		at := metav1.NewTime(s.now.Truncate(time.Second).Add(-time.Hour))
		tt.TimeAdded = &at
	}
	n.Spec.Taints = append(n.Spec.Taints, tt)
}

// newNode is a node created at created (whole seconds) whose kubelet has
// posted status at hb, or never (no conditions).
func (s *stepSeq) newNode(created, hb time.Time) *v1.Node {
	name := fmt.Sprintf("n%02d", s.next)
	s.next++
	n := &v1.Node{ObjectMeta: metav1.ObjectMeta{Name: name, CreationTimestamp: metav1.NewTime(created), Labels: s.labels()}}
	n.Spec.Unschedulable = rapid.IntRange(0, 5).Draw(s.t, "unschedulable") == 0
	for range rapid.IntRange(0, 3).Draw(s.t, "taints") {
		s.addTaint(n)
	}
	if rapid.IntRange(0, 5).Draw(s.t, "neverPosted") > 0 {
		for _, ct := range []v1.NodeConditionType{v1.NodeReady, v1.NodeMemoryPressure, v1.NodeDiskPressure, v1.NodePIDPressure, v1.NodeNetworkUnavailable} {
			if ct != v1.NodeReady && rapid.IntRange(0, 3).Draw(s.t, "skipCondition") == 0 {
				continue
			}
			st := s.drawStatus("status")
			if ct != v1.NodeReady && (ct == v1.NodeNetworkUnavailable || rapid.IntRange(0, 3).Draw(s.t, "pressure") > 0) {
				st = rapid.SampledFrom([]v1.ConditionStatus{v1.ConditionFalse, v1.ConditionFalse, v1.ConditionTrue}).Draw(s.t, "pstatus")
			}
			n.Status.Conditions = append(n.Status.Conditions, v1.NodeCondition{Type: ct, Status: st, Reason: "Kubelet" + string(ct),
				LastHeartbeatTime: metav1.NewTime(hb), LastTransitionTime: metav1.NewTime(created)})
		}
	}
	s.alive[name] = rapid.IntRange(0, 3).Draw(s.t, "alive") > 0
	if s.large {
		s.alive[name] = rapid.IntRange(0, 2).Draw(s.t, "alive") == 0
	}
	s.lease[name] = rapid.IntRange(0, 3).Draw(s.t, "leaseMode")
	s.u.putNode(n)
	s.renewLease(name, s.now)
	return n
}

func (s *stepSeq) renewLease(name string, at time.Time) {
	switch s.lease[name] {
	case 0:
		s.u.deleteLease(name)
	case 1:
		rt := metav1.NewMicroTime(at.Add(-time.Duration(rapid.IntRange(0, 3_000_000).Draw(s.t, "leaseLag")) * time.Microsecond).Truncate(time.Microsecond))
		s.u.setLease(&coordv1.Lease{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: v1.NamespaceNodeLease}, Spec: coordv1.LeaseSpec{RenewTime: &rt}})
	case 2:
		if _, ok, _ := s.u.leases.GetByKey(v1.NamespaceNodeLease + "/" + name); !ok {
			rt := metav1.NewMicroTime(at.Add(-time.Minute).Truncate(time.Microsecond))
			s.u.setLease(&coordv1.Lease{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: v1.NamespaceNodeLease}, Spec: coordv1.LeaseSpec{RenewTime: &rt}})
		}
	case 3:
		s.u.setLease(&coordv1.Lease{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: v1.NamespaceNodeLease}})
	}
}

// post is the kubelet posting status at hb: every condition it finds gets
// the heartbeat; with change (or when the controller set Ready to Unknown,
// or the node never posted) the statuses are drawn again.
func (s *stepSeq) post(n *v1.Node, hb time.Time, change bool) {
	i := slices.IndexFunc(n.Status.Conditions, func(c v1.NodeCondition) bool { return c.Type == v1.NodeReady })
	if i < 0 {
		n.Status.Conditions = append([]v1.NodeCondition{{Type: v1.NodeReady, Status: v1.ConditionUnknown, LastTransitionTime: metav1.NewTime(hb)}}, n.Status.Conditions...)
		change = true
	}
	for i := range n.Status.Conditions {
		c := &n.Status.Conditions[i]
		if c.Type == v1.NodeNetworkUnavailable {
			continue
		}
		c.LastHeartbeatTime = metav1.NewTime(hb)
		if !change && c.Reason != "NodeStatusUnknown" && c.Reason != "NodeStatusNeverUpdated" {
			continue
		}
		st := s.drawStatus("newStatus")
		if c.Type != v1.NodeReady {
			st = rapid.SampledFrom([]v1.ConditionStatus{v1.ConditionFalse, v1.ConditionFalse, v1.ConditionTrue}).Draw(s.t, "newPressure")
		}
		if st != c.Status {
			c.LastTransitionTime = metav1.NewTime(hb)
		}
		c.Status, c.Reason, c.Message = st, "Kubelet"+string(c.Type), ""
	}
}

// interval is what happens between the last pass and the pass at tn.
func (s *stepSeq) interval(tn time.Time) {
	sec := tn.Truncate(time.Second)
	for _, n := range s.u.worldNodes() {
		if rapid.IntRange(0, 6).Draw(s.t, "flip") == 0 {
			s.alive[n.Name] = !s.alive[n.Name]
		}
		if s.alive[n.Name] {
			hb := sec.Add(-time.Duration(rapid.IntRange(0, 2).Draw(s.t, "lag")) * time.Second)
			c := n.DeepCopy()
			switch rapid.IntRange(0, 29).Draw(s.t, "kubelet") {
			case 0, 1, 2, 3:
				s.post(c, hb, true)
			case 4:
				c.Status.Conditions = slices.DeleteFunc(c.Status.Conditions, func(x v1.NodeCondition) bool { return x.Type == v1.NodeReady })
			default:
				s.post(c, hb, false)
			}
			s.u.putNode(c)
		}
		if rapid.IntRange(0, 7).Draw(s.t, "leaseFlip") == 0 {
			s.lease[n.Name] = rapid.IntRange(0, 3).Draw(s.t, "leaseMode")
		}
		s.renewLease(n.Name, tn)
	}
	nodes := s.u.worldNodes()
	switch rapid.IntRange(0, 15).Draw(s.t, "change") {
	case 0:
		if len(nodes) > 0 && !s.large {
			s.u.deleteNode(rapid.SampledFrom(nodes).Draw(s.t, "delete").Name)
		}
	case 1:
		s.newNode(sec.Add(-time.Duration(rapid.IntRange(0, 5).Draw(s.t, "age"))*time.Second), sec)
	case 2:
		if len(nodes) > 0 {
			c := rapid.SampledFrom(nodes).Draw(s.t, "relabel").DeepCopy()
			c.Labels = s.labels()
			s.u.putNode(c)
		}
	case 3:
		if len(nodes) > 0 {
			c := rapid.SampledFrom(nodes).Draw(s.t, "cordon").DeepCopy()
			c.Spec.Unschedulable = !c.Spec.Unschedulable
			s.u.putNode(c)
		}
	case 4, 5:
		if len(nodes) > 0 {
			c := rapid.SampledFrom(nodes).Draw(s.t, "taint").DeepCopy()
			if len(c.Spec.Taints) > 0 && rapid.Bool().Draw(s.t, "untaint") {
				i := rapid.IntRange(0, len(c.Spec.Taints)-1).Draw(s.t, "which")
				c.Spec.Taints = slices.Delete(c.Spec.Taints, i, i+1)
			} else {
				s.addTaint(c)
			}
			s.u.putNode(c)
		}
	}
}

// nextTime draws the next pass's instant: the monitor period, any time, or
// a boundary (a grace period running out from the controller's probe time
// or from a heartbeat, a node's startup grace, a zone's token bucket
// refilling) exactly or a nanosecond or two either side.
func (s *stepSeq) nextTime(counts map[string]int) time.Time {
	cfg := s.u.cfg
	if rapid.IntRange(0, 9).Draw(s.t, "boundary") < 5 {
		var cands []time.Time
		healths := difftest.Field(difftest.Field(s.u.ncv, "nodeHealthMap").Elem(), "nodeHealths")
		for it := healths.MapRange(); it.Next(); {
			probe := difftest.Field(it.Value().Elem(), "probeTimestamp").Interface().(metav1.Time).Time
			cands = append(cands, probe.Add(cfg.MonitorGrace), probe.Add(cfg.StartupGrace))
		}
		for _, n := range s.u.worldNodes() {
			cands = append(cands, n.CreationTimestamp.Add(cfg.StartupGrace))
			for _, c := range n.Status.Conditions {
				if c.Type == v1.NodeReady {
					cands = append(cands, c.LastHeartbeatTime.Add(cfg.MonitorGrace))
				}
			}
		}
		for _, q := range s.u.tainters() {
			l := difftest.QueueLimiter(q).Interface().(flowcontrol.RateLimiter)
			if !s.u.mine[l] || l.QPS() <= 0 {
				continue
			}
			b, _ := difftest.TokenBucket(l)
			if tok := b.TokensAt(s.now); tok < 1 {
				cands = append(cands, s.now.Add(time.Duration((1-tok)/float64(l.QPS())*1e9)+1))
			}
		}
		cands = slices.DeleteFunc(cands, func(c time.Time) bool { return !c.After(s.now.Add(2)) })
		if len(cands) > 0 {
			slices.SortFunc(cands, time.Time.Compare)
			cands = slices.CompactFunc(cands, time.Time.Equal)
			d := rapid.SampledFrom([]time.Duration{-2, -1, 0, 0, 0, 1, 2}).Draw(s.t, "offset")
			counts[fmt.Sprintf("passes at a boundary %+dns", d)]++
			return rapid.SampledFrom(cands).Draw(s.t, "at").Add(d)
		}
	}
	if rapid.Bool().Draw(s.t, "period") {
		return s.now.Add(cfg.MonitorPeriod)
	}
	d := time.Duration(rapid.IntRange(1, 90).Draw(s.t, "seconds")) * time.Second
	if rapid.Bool().Draw(s.t, "subsecond") {
		d += time.Duration(rapid.IntRange(0, 999_999_999).Draw(s.t, "ns"))
	}
	return s.now.Add(d)
}

func stepDump(world []*v1.Node, leases []node.Lease, mem node.Memory, p node.Plan) string {
	var b strings.Builder
	for _, n := range world {
		fmt.Fprintf(&b, "  node %s created %v labels %v unschedulable %v\n    taints %v\n", n.Name, n.CreationTimestamp.UTC(), n.Labels, n.Spec.Unschedulable, n.Spec.Taints)
		for _, c := range n.Status.Conditions {
			fmt.Fprintf(&b, "    %s=%s %s hb %v tr %v\n", c.Type, c.Status, c.Reason, c.LastHeartbeatTime.UTC(), c.LastTransitionTime.UTC())
		}
	}
	for _, l := range leases {
		fmt.Fprintf(&b, "  lease %s %v\n", l.Name, l.Spec.RenewTime)
	}
	mj, _ := json.Marshal(mem)
	pj, _ := json.Marshal(p)
	fmt.Fprintf(&b, "  memory in %s\n  plan %s\n", mj, pj)
	return b.String()
}

func stepCheckSequence(t *rapid.T, opts node.Options, counts map[string]int) {
	ctx := klog.NewContext(context.Background(), logr.Discard())
	u := stepNewUpWith(t, ctx, stepConfigFor(t, opts))
	defer u.close()
	stepCurrent = u
	s := &stepSeq{t: t, u: u, alive: map[string]bool{}, lease: map[string]int{}}
	s.now = stepT0
	if rapid.Bool().Draw(t, "subsecondStart") {
		s.now = s.now.Add(time.Duration(rapid.IntRange(1, 999_999_999).Draw(t, "startNs")))
	}
	u.clock.SetTime(s.now)
	size := rapid.IntRange(1, 7).Draw(t, "nodes")
	if rapid.IntRange(0, 39).Draw(t, "largeZone") == 0 {
		s.large = true
		size = rapid.IntRange(51, 56).Draw(t, "nodes")
	}
	sec := s.now.Truncate(time.Second)
	for range size {
		s.newNode(sec.Add(-time.Duration(rapid.IntRange(0, 120).Draw(t, "age"))*time.Second),
			sec.Add(-time.Duration(rapid.IntRange(0, 40).Draw(t, "heartbeatAge"))*time.Second))
	}
	var mem node.Memory
	passes := rapid.IntRange(2, 10).Draw(t, "passes")
	for i := range passes {
		if i > 0 {
			tn := s.nextTime(counts)
			s.interval(tn)
			s.now = tn
		}
		world := u.worldNodes()
		in := make([]*node.Node, len(world))
		for j, n := range world {
			in[j] = difftest.Must(k8s.FromNode(n))
		}
		leases := u.worldLeases()
		var kpods []*podstatus.Pod
		for _, x := range u.pods.List() {
			kpods = append(kpods, difftest.Must(k8s.FromPod(x.(*v1.Pod))))
		}
		p, err := node.Step(in, leases, kpods, mem, s.now, opts)
		if err != nil {
			t.Fatalf("pass %d: Step: %v", i, err)
		}
		o := u.pass(t, ctx, s.now)
		if err := stepComparePodEvents(p, o); err != nil {
			t.Fatalf("pass %d at %v: %v", i, s.now.Format(time.RFC3339Nano), err)
		}
		if o.kept > 0 {
			counts["zones without nodes kept in map order, dropped"] += o.kept
		}
		if err := stepCompare(p, o, in, s.now, u); err != nil {
			t.Fatalf("pass %d at %v: %v\n%s", i, s.now.Format(time.RFC3339Nano), err, stepDump(world, leases, mem, p))
		}
		counts["passes compared"]++
		for _, w := range p.Conditions {
			for _, c := range w.Conditions {
				if c.Type == node.Ready {
					counts["Ready → Unknown written"]++
				}
			}
		}
		for _, w := range p.Taints {
			counts["taint writes: "+string(w.Reason)]++
		}
		for _, z := range p.Zones {
			counts["zones "+string(z.State)]++
		}
		if p.Disrupted {
			counts["passes in master disruption"]++
		}
		if len(p.MarkPodsNotReady) > 0 {
			counts["passes marking pods not ready"]++
		}
		b, err := json.Marshal(p.Memory)
		if err != nil {
			t.Fatal(err)
		}
		mem = node.Memory{}
		if err := json.Unmarshal(b, &mem); err != nil {
			t.Fatal(err)
		}
		u.normalize()
	}
	counts["sequences"]++
	if s.large {
		counts["sequences with a zone of more than 50 nodes"]++
	}
}

// TestNodeStepDifferential runs node.Step and the v1.36.3 node lifecycle
// controller side by side over sequences of monitor passes, carrying
// Plan.Memory from pass to pass on the kubesem side and the controller's
// own state on the other. The controller is configured the way
// kube-controller-manager configures it with no flags (its component-config
// defaulting and flag defaults: 5 s monitor period, 50 s and 60 s grace
// periods, 0.1/s and 0.01/s, 50 nodes, 0.55), kubesem with the zero Options.
//
// A sequence is a cluster of 1–7 nodes (about one in ten: 51–56, most in
// one zone, so that a partially disrupted zone gets the secondary rate)
// in up to three zones, by GA or beta labels, some with a region, some
// excluded from disruption checks, with taints of their own; then 2–10
// passes. Between passes kubelets post status or fall silent, conditions
// change or lose Ready, leases are renewed, frozen or lose their renew
// time, and a user adds, deletes, relabels, cordons or taints a node. A
// pass falls on the monitor period, any time, or a boundary: a probe time,
// heartbeat or creation plus the grace period, a zone's token bucket
// refilling — exactly or 1–2 ns either side.
//
// A pass upstream is monitorNodeHealth, then one doNoExecuteTaintingPass,
// then doNoScheduleTaintingPass for every node, the node informer cache
// caught up with the writes in between (as the 100 ms tainter and the
// node-update workers see them). The fake API keeps what the API server
// keeps: a status update leaves the stored taints alone, and objects are
// stored as JSON stores them (times in seconds). Compared, every pass: the node status
// writes (whole condition lists), every taint change per node in order
// (key, effect, value, timeAdded set, and which of the three parts made
// it), the taints each node is left with, the pods marked not ready, the
// events, each zone's state, size, not-ready count and rate, master
// disruption, the requeue (the controller's monitor period) and the whole
// memory: registered nodes, health records (probe time, Ready heartbeat,
// lease), and per zone the state, rate, tokens at now, queue (node, added,
// process time) and handled nodes.
//
// Where upstream reads the wall clock or Go's scheduling, the harness
// decides, and says so:
//   - The controller's clock and the tainting queue's clock are the pass
//     instant; every zone token bucket is moved onto that clock (same rate,
//     burst and token) right after the monitor pass that created it, so
//     buckets refill in controller time, as they do when the controller's
//     clock is the wall clock.
//   - Taints upstream stamps with the wall clock: timeAdded is compared as
//     set; kubesem's must be the pass instant.
//   - Nodes enter a zone's queue from eight parallel workers: before the
//     tainter runs, equal process times are ordered by node name (a sorted
//     slice is a valid heap; it is the order kubesem documents). With burst
//     1 a tainter takes at most one node per pass, so that choice is the
//     only one the interleaving makes.
//   - handleDisruption stops deleting the zones that lost their nodes at
//     the first zone, in map order, that was not fully disrupted; when it
//     kept one, the harness deletes it as the other map orders do (and
//     puts its limiter back if the pass set every limiter to 0), counted.
//
// KUBESEM_NODE_STEP_SEQUENCES sets the number of sequences (default 1000).
func TestNodeStepDifferential(t *testing.T) { stepRunDifferential(t, node.Options{}, 1000) }

// TestNodeStepDifferentialFlags is TestNodeStepDifferential with every
// node lifecycle flag set away from its default, on both sides:
// --node-monitor-grace-period=20s, --node-startup-grace-period=30s,
// --node-eviction-rate=1, --secondary-node-eviction-rate=0.5,
// --large-cluster-size-threshold=2, --unhealthy-zone-threshold=0.3 (a
// rate of 1 is the QPS the never-accepting limiter reports), then with
// --node-eviction-rate=0 (a new zone's bucket at rate 0 spends its one
// token). 300 and 200 sequences; KUBESEM_NODE_STEP_SEQUENCES scales them
// (per 1000).
func TestNodeStepDifferentialFlags(t *testing.T) {
	one, half, two, low, zero := float32(1), float32(0.5), int32(2), float32(0.3), float32(0)
	opts := node.Options{NodeMonitorGracePeriod: 20 * time.Second, NodeStartupGracePeriod: 30 * time.Second,
		EvictionRate: &one, SecondaryEvictionRate: &half, LargeClusterThreshold: &two, UnhealthyZoneThreshold: &low}
	t.Run("rate1", func(t *testing.T) { stepRunDifferential(t, opts, 300) })
	opts.EvictionRate = &zero
	t.Run("rate0", func(t *testing.T) { stepRunDifferential(t, opts, 200) })
}

func stepRunDifferential(t *testing.T, opts node.Options, n int) {
	if v := os.Getenv("KUBESEM_NODE_STEP_SEQUENCES"); v != "" {
		m, err := strconv.Atoi(v)
		if err != nil || m <= 0 {
			t.Fatalf("KUBESEM_NODE_STEP_SEQUENCES=%q", v)
		}
		n = max(1, m*n/1000)
	}
	f := flag.Lookup("rapid.checks")
	old := f.Value.String()
	if err := f.Value.Set(strconv.Itoa(n)); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = f.Value.Set(old) }()
	defer difftest.SetNodeSchedulerNow(func() time.Time { return stepCurrent.clock.Now() })()
	counts := map[string]int{}
	rapid.Check(t, func(t *rapid.T) { stepCheckSequence(t, opts, counts) })
	for _, k := range slices.Sorted(maps.Keys(counts)) {
		t.Logf("%6d %s", counts[k], k)
	}
	if counts["passes compared"] == 0 {
		t.Fatal("nothing compared")
	}
}

// vectors

// stepConfigFor is upstream's configuration with the flags a vector's options
// set explicitly.
func stepConfigFor(t interface{ Fatal(...any) }, opts node.Options) difftest.NodeConfig {
	cfg, err := difftest.UpstreamNodeConfig()
	if err != nil {
		t.Fatal(err)
	}
	if opts.NodeMonitorGracePeriod > 0 {
		cfg.MonitorGrace = opts.NodeMonitorGracePeriod
	}
	if opts.NodeStartupGracePeriod > 0 {
		cfg.StartupGrace = opts.NodeStartupGracePeriod
	}
	if opts.EvictionRate != nil {
		cfg.EvictionRate = *opts.EvictionRate
	}
	if opts.SecondaryEvictionRate != nil {
		cfg.SecondaryRate = *opts.SecondaryEvictionRate
	}
	if opts.LargeClusterThreshold != nil {
		cfg.LargeCluster = *opts.LargeClusterThreshold
	}
	if opts.UnhealthyZoneThreshold != nil {
		cfg.Unhealthy = *opts.UnhealthyZoneThreshold
	}
	return cfg
}

// setWorld makes the stored nodes and leases those of a vector's input.
func (u *stepUp) setWorld(nodes []*node.Node, leases []node.Lease) {
	want := map[string]bool{}
	for _, n := range nodes {
		want[n.Name] = true
		u.putNode(difftest.Must(k8s.ToNode(n)))
	}
	for _, n := range u.worldNodes() {
		if !want[n.Name] {
			u.deleteNode(n.Name)
		}
	}
	for _, o := range u.leases.List() {
		_ = u.leases.Delete(o)
	}
	for _, l := range leases {
		u.setLease(k8s.ToLease(l))
	}
}

type stepVectorInput struct {
	Nodes  []*node.Node `json:"nodes"`
	Leases []node.Lease `json:"leases,omitempty"`
	Memory *node.Memory `json:"memory,omitempty"`
	Now    time.Time    `json:"now"`
}

type stepWant struct {
	Outcome          node.Reason           `json:"outcome"`
	Conditions       []node.ConditionWrite `json:"conditions"`
	Taints           []node.TaintWrite     `json:"taints"`
	MarkPodsNotReady []string              `json:"markPodsNotReady"`
	Zones            []node.ZoneReport     `json:"zones"`
	Disrupted        bool                  `json:"disrupted"`
	Events           []plan.Event          `json:"events"`
	Requeue          []struct {
		After  string      `json:"after"`
		Reason node.Reason `json:"reason"`
	} `json:"requeue"`
	Memory node.Memory `json:"memory"`
}

func stepDecodeStrict(b []byte, v any) error {
	dec := json.NewDecoder(strings.NewReader(string(b)))
	dec.DisallowUnknownFields()
	return dec.Decode(v)
}

func (w stepWant) plan() (node.Plan, error) {
	p := node.Plan{Outcome: w.Outcome, Conditions: w.Conditions, Taints: w.Taints, MarkPodsNotReady: w.MarkPodsNotReady, Zones: w.Zones,
		Disrupted: w.Disrupted, Events: w.Events, Memory: w.Memory}
	for _, r := range w.Requeue {
		d, err := time.ParseDuration(r.After)
		if err != nil {
			return p, err
		}
		p.Requeue = append(p.Requeue, plan.Requeue{After: d, Reason: r.Reason})
	}
	return p, nil
}

// TestNodeStepVectorsReplay replays testdata/node/step.json and
// step_flags.json through the v1.36.3 controller (the harness of TestNodeStepDifferential, configured
// from kube-controller-manager's defaults and the flags a vector's options
// set) and checks every key of each want with TestNodeStepDifferential's
// comparison: a vector without input memory starts a new controller, one
// with memory continues the previous vector's controller, whose state must
// be that memory. The taint writes' reason is checked as the part of the
// pass that made the change (monitor, NoExecute tainter, NoSchedule).
func TestNodeStepVectorsReplay(t *testing.T) {
	defer difftest.SetNodeSchedulerNow(func() time.Time { return stepCurrent.clock.Now() })()
	ctx := klog.NewContext(context.Background(), logr.Discard())
	var vs []struct {
		Decision, Name, Source string
		Options, Input, Want   json.RawMessage
		WantError              json.RawMessage
	}
	for _, f := range []string{"step.json", "step_flags.json"} {
		data, err := os.ReadFile(difftest.Repo("testdata/node", f))
		if err != nil {
			t.Fatal(err)
		}
		var fvs []struct {
			Decision, Name, Source string
			Options, Input, Want   json.RawMessage
			WantError              json.RawMessage
		}
		if err := json.Unmarshal(data, &fvs); err != nil {
			t.Fatal(err)
		}
		vs = append(vs, fvs...)
	}
	var u *stepUp
	defer func() {
		if u != nil {
			u.close()
		}
	}()
	checked := 0
	for _, v := range vs {
		if v.Decision != "node.Step" || v.WantError != nil {
			continue
		}
		var in stepVectorInput
		var opts node.Options
		var w stepWant
		if err := stepDecodeStrict(v.Input, &in); err != nil {
			t.Fatalf("%s: input: %v", v.Name, err)
		}
		if v.Options != nil {
			if err := json.Unmarshal(v.Options, &opts); err != nil {
				t.Fatalf("%s: options: %v", v.Name, err)
			}
		}
		if err := stepDecodeStrict(v.Want, &w); err != nil {
			t.Fatalf("%s: want: %v", v.Name, err)
		}
		want, err := w.plan()
		if err != nil {
			t.Fatalf("%s: want: %v", v.Name, err)
		}
		if in.Memory == nil {
			if u != nil {
				u.close()
			}
			u = stepNewUpWith(t, ctx, stepConfigFor(t, opts))
			stepCurrent = u
		} else if u == nil {
			t.Errorf("%s: input memory, but no vector before it to continue", v.Name)
			continue
		} else if err := stepCompareMemory(*in.Memory, in.Now, u); err != nil {
			t.Errorf("%s: input memory is not the controller's after the vector before: %v", v.Name, err)
			u.close()
			u = nil
			continue
		}
		u.setWorld(in.Nodes, in.Leases)
		o := u.pass(t, ctx, in.Now)
		if err := stepCompare(want, o, in.Nodes, in.Now, u); err != nil {
			t.Errorf("%s: %v", v.Name, err)
		}
		checked++
	}
	if checked < 35 {
		t.Fatalf("replayed only %d vectors", checked)
	}
	t.Logf("%d node.Step vectors replayed through upstream", checked)
}

// stepScenario is a chain of node.Step vectors: the world before the first
// pass, then passes, each changing the world first (kubelets posting).
type stepScenario struct {
	file   string // under testdata/node
	opts   node.Options
	nodes  []*v1.Node
	passes []stepScenarioPass
}

type stepScenarioPass struct {
	name, source string
	now          time.Time
	edit         func(nodes map[string]*v1.Node)
}

func stepScenarioNode(name, zone string, excluded bool, ready v1.ConditionStatus, hb time.Time) *v1.Node {
	n := &v1.Node{ObjectMeta: metav1.ObjectMeta{Name: name, CreationTimestamp: metav1.NewTime(stepT0.Add(-time.Hour)),
		Labels: map[string]string{v1.LabelTopologyZone: zone}}}
	if excluded {
		n.Labels[stepExcludeLabel] = ""
	}
	n.Status.Conditions = []v1.NodeCondition{{Type: v1.NodeReady, Status: ready, LastHeartbeatTime: metav1.NewTime(hb),
		LastTransitionTime: metav1.NewTime(stepT0.Add(-time.Hour))}}
	return n
}

func stepPost(n *v1.Node, ready v1.ConditionStatus, hb time.Time) {
	c := &n.Status.Conditions[0]
	if c.Status != ready {
		c.LastTransitionTime = metav1.NewTime(hb)
	}
	c.Status, c.LastHeartbeatTime = ready, metav1.NewTime(hb)
}

const stepFound = "TestNodeStepDifferential (conformance/upstream, v1.36.3 node lifecycle controller): "

var (
	stepRate1 = float32(1)
	stepRate0 = float32(0)
)

var stepScenarios = []stepScenario{
	{
		file:  "step.json",
		nodes: []*v1.Node{stepScenarioNode("ex", "z2", true, v1.ConditionFalse, stepT0)},
		passes: []stepScenarioPass{{name: "step-excluded-alone-in-its-zone-tainted", now: stepT0,
			source: stepFound + "a zone whose only node is excluded from disruption checks has no zone state (handleDisruption deletes it), but its NoExecute tainter keeps running: zoneNoExecuteTainter entries are never removed"}},
	},
	{
		file: "step.json",
		nodes: []*v1.Node{stepScenarioNode("a", "z1", false, v1.ConditionFalse, stepT0), stepScenarioNode("b", "z1", false, v1.ConditionTrue, stepT0),
			stepScenarioNode("c", "z1", false, v1.ConditionTrue, stepT0)},
		passes: []stepScenarioPass{
			{name: "step-token-bucket-1", now: stepT0,
				source: stepFound + "the zone's tainter spends its one token on a (burst 1, 0.1/s)"},
			{name: "step-token-bucket-2-a-nanosecond-and-a-half-short", now: stepT0.Add(9_999_999_849),
				source: stepFound + "x/time/rate refuses: the wait for the missing 1.5e-10 token, (1 - tokens) / float32(0.1) s, truncates to 1 ns",
				edit: func(ns map[string]*v1.Node) {
					stepPost(ns["a"], v1.ConditionFalse, stepT0.Add(9*time.Second))
					stepPost(ns["b"], v1.ConditionFalse, stepT0.Add(9*time.Second))
					stepPost(ns["c"], v1.ConditionTrue, stepT0.Add(9*time.Second))
				}},
			{name: "step-token-bucket-3-under-a-nanosecond-short", now: stepT0.Add(9_999_999_850),
				source: stepFound + "x/time/rate accepts 1 ns later, 9.99999985 s after the last token (float32(0.1) = 0.100000001): the wait for the missing 0.5e-10 token truncates to 0 ns, and the bucket goes slightly negative"},
		},
	},
	{
		file:  "step.json",
		nodes: []*v1.Node{stepScenarioNode("a", "z1", false, v1.ConditionFalse, stepT0), stepScenarioNode("b", "z1", false, v1.ConditionTrue, stepT0)},
		passes: []stepScenarioPass{
			{name: "step-disruption-keeps-new-taint-1", now: stepT0,
				source: stepFound + "a is tainted not-ready by the zone's tainter"},
			{name: "step-disruption-keeps-new-taint-2", now: stepT0.Add(50*time.Second + 1),
				source: stepFound + "both nodes go Unknown; a's not-ready taint is swapped for unreachable at once; the zone is fully disrupted and so is the cluster, and markNodeAsReachable removes only taints the node had as listed (RemoveTaintOffNode's check): a keeps the unreachable taint added in the same pass"},
		},
	},
	{
		file: "step_flags.json", opts: node.Options{EvictionRate: &stepRate1},
		nodes: []*v1.Node{stepScenarioNode("a", "z1", false, v1.ConditionFalse, stepT0), stepScenarioNode("b", "z1", false, v1.ConditionFalse, stepT0)},
		passes: []stepScenarioPass{
			{name: "step-flags-rate-1-stopped-zone-1", now: stepT0,
				source: stepFound + "--node-eviction-rate=1: every zone fully disrupted, the zone's limiter is set to 0 (the never-accepting limiter)"},
			{name: "step-flags-rate-1-stopped-zone-2-stays-stopped", now: stepT0.Add(5 * time.Second),
				source: stepFound + "--node-eviction-rate=1: a is Ready again and the zone Normal, but SwapLimiter(1) keeps the never-accepting limiter, whose QPS reads 1: b is queued and never tainted",
				edit: func(ns map[string]*v1.Node) {
					stepPost(ns["a"], v1.ConditionTrue, stepT0.Add(5*time.Second))
					stepPost(ns["b"], v1.ConditionFalse, stepT0.Add(5*time.Second))
				}},
		},
	},
	{
		file: "step_flags.json", opts: node.Options{EvictionRate: &stepRate0},
		nodes: []*v1.Node{stepScenarioNode("a", "z1", false, v1.ConditionFalse, stepT0), stepScenarioNode("b", "z1", false, v1.ConditionTrue, stepT0),
			stepScenarioNode("c", "z1", false, v1.ConditionTrue, stepT0)},
		passes: []stepScenarioPass{
			{name: "step-flags-rate-0-first-token-1", now: stepT0,
				source: stepFound + "--node-eviction-rate=0: a new zone's limiter is a token bucket at rate 0, which still holds the token it starts with; a is tainted"},
			{name: "step-flags-rate-0-first-token-2-none-after", now: stepT0.Add(5 * time.Second),
				source: stepFound + "--node-eviction-rate=0: the bucket never refills; b is queued and not tainted",
				edit: func(ns map[string]*v1.Node) {
					stepPost(ns["a"], v1.ConditionFalse, stepT0.Add(5*time.Second))
					stepPost(ns["b"], v1.ConditionFalse, stepT0.Add(5*time.Second))
					stepPost(ns["c"], v1.ConditionTrue, stepT0.Add(5*time.Second))
				}},
		},
	},
}

// TestNodeStepVectorsWrite writes the vectors of stepScenarios into
// testdata/node/step.json (KUBESEM_WRITE_NODE_STEP_VECTORS=1): each pass is
// run through node.Step and the v1.36.3 controller and written only when
// TestNodeStepDifferential's comparison finds no difference; the next
// pass's nodes are the previous pass's writes applied, stored as the API
// server stores them, then changed by the scenario. TestNodeStepVectorsReplay
// checks them on every run.
func TestNodeStepVectorsWrite(t *testing.T) {
	if os.Getenv("KUBESEM_WRITE_NODE_STEP_VECTORS") != "1" {
		t.Skip("set KUBESEM_WRITE_NODE_STEP_VECTORS=1 to write testdata/node/step.json")
	}
	defer difftest.SetNodeSchedulerNow(func() time.Time { return stepCurrent.clock.Now() })()
	ctx := klog.NewContext(context.Background(), logr.Discard())
	out := map[string][]stepVectorOut{}
	for _, sc := range stepScenarios {
		u := stepNewUpWith(t, ctx, stepConfigFor(t, sc.opts))
		stepCurrent = u
		world := map[string]*v1.Node{}
		for _, n := range sc.nodes {
			world[n.Name] = n.DeepCopy()
		}
		var mem *node.Memory
		for _, ps := range sc.passes {
			if ps.edit != nil {
				ps.edit(world)
			}
			var in []*node.Node
			for _, name := range slices.Sorted(maps.Keys(world)) {
				in = append(in, difftest.Must(k8s.FromNode(stepNormalize(world[name]))))
			}
			var m node.Memory
			if mem != nil {
				m = *mem
			}
			p, err := node.Step(in, nil, nil, m, ps.now, sc.opts)
			if err != nil {
				t.Fatal(err)
			}
			u.setWorld(in, nil)
			if mem != nil {
				if err := stepCompareMemory(*mem, ps.now, u); err != nil {
					t.Fatalf("%s: %v", ps.name, err)
				}
			}
			o := u.pass(t, ctx, ps.now)
			if err := stepCompare(p, o, in, ps.now, u); err != nil {
				t.Fatalf("%s: %v", ps.name, err)
			}
			v := stepVectorOut{Decision: "node.Step", Name: ps.name, Source: ps.source, Input: stepVectorInput{Nodes: in, Memory: mem, Now: ps.now}, Want: p}
			if sc.opts != (node.Options{}) {
				v.Options = &sc.opts
			}
			out[sc.file] = append(out[sc.file], v)
			// the writes, applied
			for _, n := range in {
				c := *n
				for _, w := range p.Conditions {
					if w.Node == n.Name {
						c.Status.Conditions = w.Conditions
					}
				}
				ts := slices.Clone(n.Spec.Taints)
				for _, w := range p.Taints {
					if w.Node != n.Name {
						continue
					}
					for _, a := range w.Add {
						if i := slices.IndexFunc(ts, a.MatchTaint); i >= 0 {
							ts[i] = a
						} else {
							ts = append(ts, a)
						}
					}
					for _, r := range w.Remove {
						ts = slices.DeleteFunc(ts, r.MatchTaint)
					}
				}
				c.Spec.Taints = ts
				world[n.Name] = stepNormalize(difftest.Must(k8s.ToNode(&c)))
			}
			b, _ := json.Marshal(p.Memory)
			mem = &node.Memory{}
			if err := json.Unmarshal(b, mem); err != nil {
				t.Fatal(err)
			}
		}
		u.close()
	}
	for name, vs := range out {
		stepWriteVectors(t, difftest.Repo("testdata/node", name), vs)
	}
}

type stepVectorOut struct {
	Decision string          `json:"decision"`
	Name     string          `json:"name"`
	Source   string          `json:"source"`
	Options  *node.Options   `json:"options,omitempty"`
	Input    stepVectorInput `json:"input"`
	Want     node.Plan       `json:"want"`
}

// stepWriteVectors replaces the vectors of file with the same names as vs and
// appends the others (before a trailing error vector).
func stepWriteVectors(t *testing.T, file string, out []stepVectorOut) {
	var vs []json.RawMessage
	if data, err := os.ReadFile(file); err == nil {
		if err := json.Unmarshal(data, &vs); err != nil {
			t.Fatal(err)
		}
	} else if !os.IsNotExist(err) {
		t.Fatal(err)
	}
	names := map[string]int{}
	for i, v := range vs {
		var h struct{ Name string }
		_ = json.Unmarshal(v, &h)
		names[h.Name] = i
	}
	for _, v := range out {
		var buf strings.Builder
		enc := json.NewEncoder(&buf)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(v); err != nil {
			t.Fatal(err)
		}
		raw := json.RawMessage(buf.String())
		if i, ok := names[v.Name]; ok {
			vs[i] = raw
		} else if n := len(vs); n > 0 && strings.Contains(string(vs[n-1]), `"wantError"`) {
			vs = append(vs[:n-1], raw, vs[n-1]) // keep the error vector last
		} else {
			vs = append(vs, raw)
		}
	}
	var buf strings.Builder
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(vs); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(file, []byte(buf.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("wrote %d vectors into %s", len(out), file)
}
