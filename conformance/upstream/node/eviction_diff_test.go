package node_test

import (
	"context"
	"fmt"
	"math"
	"reflect"
	"slices"
	"sort"
	"sync"
	"testing"
	"time"
	"unsafe"

	"github.com/go-logr/logr"
	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/informers"
	clientset "k8s.io/client-go/kubernetes"
	"k8s.io/client-go/kubernetes/fake"
	clienttesting "k8s.io/client-go/testing"
	"k8s.io/client-go/tools/record"
	"k8s.io/klog/v2"
	v1helper "k8s.io/kubernetes/pkg/apis/core/v1/helper"
	"k8s.io/kubernetes/pkg/controller/tainteviction"
	"pgregory.net/rapid"

	"github.com/kubesem/kubesem/conformance/upstream/internal/difftest"
	"github.com/kubesem/kubesem/node"
	"github.com/kubesem/kubesem/plan"
	"github.com/kubesem/kubesem/podstatus"
)

// evictionSeconds are the tolerationSeconds TestNodeDiffEvictionStep
// draws: minutes (upstream's timers run on the real clock, so nothing due
// fires during the test on its own), values ≤ 0 (a time of 0: evict now,
// unless an earlier eviction is kept), and values past the int64
// nanosecond range: the int64 limit ("no limit"), 292 years, wraps to a
// negative duration (never evicted) and to exactly 0.
var evictionSeconds = []int64{60, 120, 300, 600, 60, 300, 0, -5, math.MaxInt64, math.MaxInt64 - 1,
	math.MaxInt64 / int64(time.Second), math.MaxInt64/int64(time.Second) + 1, 1 << 55, 1 << 40}

// TestNodeDiffEvictionStep drives one pod through three node updates with
// the taint-eviction controller (processPodOnNode, or the cancellation
// handleNodeUpdate does when no NoExecute taint is left) and with
// EvictionStep carrying the scheduled evictions: the scheduled work's
// creation and fire times after each update, and whether the pod is
// deleted. Between updates time moves by whole seconds or to exactly the
// scheduled fire time, 1 ns before or 1 ns after it. Upstream's queue
// fires work on the real clock, so work due at the update's time counts as
// fired: the pod is deleted when upstream's work fires at once (its fire
// time is its creation time) or is due (fire time ≤ now). The events are
// the controller's recorder's (cancellations, deletions of work that fired),
// with the deletion event of due work that has not fired yet.
func TestNodeDiffEvictionStep(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		ctx, cancel := context.WithCancel(klog.NewContext(context.Background(), logr.Discard()))
		defer cancel()
		upPod := &v1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "p", Namespace: "ns"}, Spec: v1.PodSpec{NodeName: "n"}}
		client := fake.NewSimpleClientset(upPod)
		factory := informers.NewSharedInformerFactory(client, 0)
		tc, err := tainteviction.New(ctx, client, factory.Core().V1().Pods(), factory.Core().V1().Nodes(), "taint-eviction")
		if err != nil {
			t.Fatal(err)
		}
		defer difftest.Stop(cancel, tc)
		var mu sync.Mutex
		var events []upEvent
		rf := reflect.ValueOf(tc).Elem().FieldByName("recorder")
		reflect.NewAt(rf.Type(), unsafe.Pointer(rf.UnsafeAddr())).Elem().Set(reflect.ValueOf(record.EventRecorder(evRecorder{&mu, &events})))
		q := reflect.ValueOf(tc).Elem().FieldByName("taintEvictionQueue")
		queue := reflect.NewAt(q.Type(), unsafe.Pointer(q.UnsafeAddr())).Elem().Interface().(*tainteviction.TimedWorkerQueue)
		wgf := reflect.ValueOf(queue).Elem().FieldByName("workerWG")
		wg := (*sync.WaitGroup)(unsafe.Pointer(wgf.UnsafeAddr()))
		key := types.NamespacedName{Namespace: "ns", Name: "p"}
		keys := []string{node.TaintNotReady, node.TaintUnreachable, "custom"}
		var scheduled []node.ScheduledEviction
		now := t0
		for step := 0; step < 3; step++ {
			if len(scheduled) > 0 && scheduled[0].FireAt.After(now) && rapid.Bool().Draw(t, "toFire") {
				now = scheduled[0].FireAt.Add(time.Duration(rapid.IntRange(-1, 1).Draw(t, "aroundFire")))
			} else {
				now = now.Add(time.Duration(rapid.IntRange(0, 30).Draw(t, "dt")) * time.Second)
			}
			var utaints []v1.Taint
			var ktaints []node.Taint
			for _, k := range keys {
				if rapid.IntRange(0, 2).Draw(t, "taint") == 0 {
					utaints = append(utaints, v1.Taint{Key: k, Effect: v1.TaintEffectNoExecute})
					ktaints = append(ktaints, node.Taint{Key: k, Effect: node.NoExecute})
				}
			}
			var utols []v1.Toleration
			var ktols []node.Toleration
			for _, k := range append(keys, "") {
				if rapid.IntRange(0, 2).Draw(t, "tol") == 0 {
					op := v1.TolerationOpExists
					var secs *int64
					if rapid.IntRange(0, 3).Draw(t, "forever") > 0 {
						s := rapid.SampledFrom(evictionSeconds).Draw(t, "secs")
						secs = &s
					}
					utols = append(utols, v1.Toleration{Key: k, Operator: op, Effect: v1.TaintEffectNoExecute, TolerationSeconds: secs})
					ktols = append(ktols, node.Toleration{Key: k, Operator: string(op), Effect: string(node.NoExecute), TolerationSeconds: secs})
				}
			}
			mu.Lock()
			events = nil
			mu.Unlock()
			if len(utaints) == 0 {
				difftest.TaintEvictionCancelWork(tc, klog.Background(), key)
			} else {
				difftest.TaintEvictionProcessPodOnNode(tc, ctx, key, "n", utols, utaints, now)
			}
			kn := &node.Node{}
			kn.Name, kn.Spec.Taints = "n", ktaints
			kp := &podstatus.Pod{}
			kp.Name, kp.Namespace, kp.Spec.NodeName, kp.Spec.Tolerations = "p", "ns", "n", ktols
			plan, err := node.EvictionStep(kn, []*podstatus.Pod{kp}, scheduled, now, node.Options{})
			if err != nil {
				t.Fatal(err)
			}
			w := queue.GetWorkerUnsafe(key.String())
			upDeleted := w != nil && !w.FireAt.After(now)
			if w == nil {
				// work firing at once runs in a goroutine of the queue's
				// wait group
				wg.Wait()
				upDeleted = podDeleted(client)
			}
			if upDeleted != (len(plan.Delete) > 0) {
				t.Fatalf("step %d at %v: kubesem deletes %v (%+v), upstream %v (worker %+v)", step, now, plan.Delete, plan.Decisions, upDeleted, w)
			}
			// events: upstream's recorder, plus the deletion event of due
			// work whose real-clock timer has not fired yet
			wg.Wait()
			mu.Lock()
			var upEv, ev []string
			for _, e := range events {
				upEv = append(upEv, e.eventtype+" "+e.reason+" "+e.message)
			}
			mu.Unlock()
			if w != nil && upDeleted {
				upEv = append(upEv, "Normal TaintManagerEviction Marking for deletion Pod ns/p")
			}
			for _, e := range plan.Events {
				ev = append(ev, string(e.Type)+" "+string(e.Reason)+" "+e.Message)
			}
			if !slices.Equal(ev, upEv) {
				t.Fatalf("step %d at %v: events %q, upstream %q (decisions %+v)", step, now, ev, upEv, plan.Decisions)
			}
			if upDeleted {
				return
			}
			scheduled = plan.Memory
			if (w == nil) != (len(scheduled) == 0) {
				t.Fatalf("step %d: scheduled %+v, upstream worker %v", step, scheduled, w)
			}
			if w != nil && (!w.CreatedAt.Equal(scheduled[0].CreatedAt) || !w.FireAt.Equal(scheduled[0].FireAt)) {
				t.Fatalf("step %d: scheduled %+v, upstream created %v fires %v", step, scheduled[0], w.CreatedAt, w.FireAt)
			}
		}
	})
}

// podDeleted reports whether the fake client saw a pod deletion.
func podDeleted(client *fake.Clientset) bool {
	for _, a := range client.Actions() {
		if a.GetVerb() == "delete" && a.GetResource().Resource == "pods" {
			return true
		}
	}
	return false
}

// upEvictionFor is the taint-eviction controller's answer for a pod
// with tolerations on a node with taints seen at seen, as processPodOnNode
// computes it: GetMatchingTolerations over the NoExecute taints (an
// untolerated taint deletes at once), then getMinTolerationTime of the
// tolerations used (negative: never; 0: at once; else after that long).
func upEvictionFor(tolerations []v1.Toleration, taints []v1.Taint, seen time.Time) node.Eviction {
	var ne []v1.Taint
	for _, x := range taints {
		if x.Effect == v1.TaintEffectNoExecute {
			ne = append(ne, x)
		}
	}
	if len(ne) == 0 {
		return node.Eviction{Kind: node.NotEvicted}
	}
	all, used := v1helper.GetMatchingTolerations(klog.Background(), ne, tolerations)
	if !all {
		return node.Eviction{Kind: node.EvictNow, At: seen}
	}
	switch d := upMinTolerationTime(used); {
	case d < 0:
		return node.Eviction{Kind: node.NotEvicted}
	case d == 0:
		return node.Eviction{Kind: node.EvictNow, At: seen}
	default:
		return node.Eviction{Kind: node.EvictAt, At: seen.Add(d), After: d}
	}
}

// upEvictionStep runs the taint-eviction controller's handling of a
// node update at now: its queue holds the scheduled evictions (added with
// their creation and fire times), then each pod bound to the node goes
// through processPodOnNode (or, without NoExecute taints, its work is
// cancelled, as handleNodeUpdate does). It returns the EvictionPlan keys
// upstream determines: each bound pod's decision (kept when its earlier
// work object is still in the queue), the pods deleted (work that fired at
// once, or is due at now), the scheduled work left as memory, the first
// fire time of a bound pod's work as the requeue, and the events the
// controller's recorder received. Work that is due at now but whose timer
// (on the real clock) has not fired is fired by the harness through
// upstream's own deletePodHandler, as the timer would; each pod's events
// keep their order, and pods are taken by name (fired work runs in
// goroutines, so upstream's order across pods is not fixed).
func upEvictionStep(t interface{ Fatal(...any) }, n *v1.Node, pods []*v1.Pod, scheduled []node.ScheduledEviction, now time.Time) node.EvictionPlan {
	p, _, _ := upEvictionStepWrites(t, n, pods, scheduled, now)
	return p
}

//go:linkname upDeletePodHandler k8s.io/kubernetes/pkg/controller/tainteviction.deletePodHandler
func upDeletePodHandler(c clientset.Interface, emitEventFunc func(types.NamespacedName), controllerName string) func(ctx context.Context, fireAt time.Time, args *tainteviction.WorkArgs) error

//go:linkname upEmitPodDeletionEvent k8s.io/kubernetes/pkg/controller/tainteviction.(*Controller).emitPodDeletionEvent
func upEmitPodDeletionEvent(tc *tainteviction.Controller, nsName types.NamespacedName)

// evRecorder collects events from the controller and its workers'
// goroutines.
type evRecorder struct {
	mu     *sync.Mutex
	events *[]upEvent
}

type upEvent struct {
	object                     runtime.Object
	eventtype, reason, message string
}

func (r evRecorder) Event(o runtime.Object, eventtype, reason, message string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	*r.events = append(*r.events, upEvent{o, eventtype, reason, message})
}

func (r evRecorder) Eventf(o runtime.Object, eventtype, reason, format string, args ...any) {
	r.Event(o, eventtype, reason, fmt.Sprintf(format, args...))
}

func (r evRecorder) AnnotatedEventf(o runtime.Object, _ map[string]string, eventtype, reason, format string, args ...any) {
	r.Eventf(o, eventtype, reason, format, args...)
}

// upEvictionStepWrites is upEvictionStep that also returns the
// requests the fake clientset received (reads left out) and each pod as
// its status patch left it.
func upEvictionStepWrites(t interface{ Fatal(...any) }, n *v1.Node, pods []*v1.Pod, scheduled []node.ScheduledEviction, now time.Time) (node.EvictionPlan, []difftest.WriteKey, []*v1.Pod) {
	ctx, cancel := context.WithCancel(klog.NewContext(context.Background(), logr.Discard()))
	defer cancel()
	var objs []runtime.Object
	ns := map[string]string{}
	for _, p := range pods {
		objs = append(objs, p.DeepCopy())
		ns[p.Name] = p.Namespace
	}
	client := fake.NewSimpleClientset(objs...)
	var mu sync.Mutex
	var patched []*v1.Pod
	apply := clienttesting.ObjectReaction(client.Tracker())
	client.PrependReactor("patch", "pods", func(a clienttesting.Action) (bool, runtime.Object, error) {
		handled, obj, err := apply(a)
		if err == nil {
			if p, ok := obj.(*v1.Pod); ok {
				mu.Lock()
				patched = append(patched, p.DeepCopy())
				mu.Unlock()
			}
		}
		return handled, obj, err
	})
	factory := informers.NewSharedInformerFactory(client, 0)
	tc, err := tainteviction.New(ctx, client, factory.Core().V1().Pods(), factory.Core().V1().Nodes(), "taint-eviction")
	if err != nil {
		t.Fatal(err)
	}
	defer difftest.Stop(cancel, tc)
	var events []upEvent
	rf := reflect.ValueOf(tc).Elem().FieldByName("recorder")
	reflect.NewAt(rf.Type(), unsafe.Pointer(rf.UnsafeAddr())).Elem().Set(reflect.ValueOf(record.EventRecorder(evRecorder{&mu, &events})))
	q := reflect.ValueOf(tc).Elem().FieldByName("taintEvictionQueue")
	queue := reflect.NewAt(q.Type(), unsafe.Pointer(q.UnsafeAddr())).Elem().Interface().(*tainteviction.TimedWorkerQueue)
	wgf := reflect.ValueOf(queue).Elem().FieldByName("workerWG")
	wg := (*sync.WaitGroup)(unsafe.Pointer(wgf.UnsafeAddr()))
	keyOf := func(pod string) types.NamespacedName {
		if s, ok := ns[pod]; ok {
			return types.NamespacedName{Namespace: s, Name: pod}
		}
		return types.NamespacedName{Namespace: "default", Name: pod}
	}
	before := map[string]*tainteviction.TimedWorker{}
	for _, s := range scheduled {
		k := keyOf(s.Pod)
		queue.AddWork(ctx, tainteviction.NewWorkArgs(k.Name, k.Namespace), s.CreatedAt, s.FireAt)
		before[s.Pod] = queue.GetWorkerUnsafe(k.String())
	}
	wg.Wait()
	var noExec []v1.Taint
	for _, x := range n.Spec.Taints {
		if x.Effect == v1.TaintEffectNoExecute {
			noExec = append(noExec, x)
		}
	}
	var mine []*v1.Pod
	for _, p := range pods {
		if p.Spec.NodeName == n.Name {
			mine = append(mine, p)
		}
	}
	sort.Slice(mine, func(i, j int) bool { return mine[i].Name < mine[j].Name })
	client.ClearActions()
	mu.Lock()
	events = nil
	mu.Unlock()
	for _, p := range mine {
		if len(noExec) == 0 {
			difftest.TaintEvictionCancelWork(tc, klog.Background(), keyOf(p.Name))
			continue
		}
		difftest.TaintEvictionProcessPodOnNode(tc, ctx, keyOf(p.Name), n.Name, p.Spec.Tolerations, noExec, now)
	}
	wg.Wait()
	fired := map[string]bool{}
	for _, a := range client.Actions() {
		if a.GetVerb() == "delete" && a.GetResource().Resource == "pods" {
			fired[a.(clienttesting.DeleteAction).GetName()] = true
		}
	}
	out := node.EvictionPlan{Outcome: node.ReasonEvictionsProcessed, Decisions: []node.PodEviction{}, Delete: []plan.Deletion{}, Events: []plan.Event{}, Requeue: []plan.Requeue{}, Memory: []node.ScheduledEviction{}}
	onNode := map[string]bool{}
	first := time.Duration(-1)
	for _, p := range mine {
		onNode[p.Name] = true
		w := queue.GetWorkerUnsafe(keyOf(p.Name).String())
		d := node.PodEviction{Pod: p.Name}
		switch {
		case fired[p.Name]:
			d.Kind, d.At = node.EvictNow, now
		case w == nil:
			d.Kind = node.NotEvicted
		case w == before[p.Name] && w.CreatedAt.Before(now):
			d.Kind, d.At, d.After, d.Kept = node.EvictAt, w.FireAt, w.FireAt.Sub(w.CreatedAt), true
			if !w.FireAt.After(now) {
				d.Kind = node.EvictNow
			}
		default:
			d.Kind, d.At, d.After = node.EvictAt, w.FireAt, w.FireAt.Sub(now)
		}
		if fired[p.Name] || w != nil && !w.FireAt.After(now) {
			out.Delete = append(out.Delete, plan.Deletion{Name: p.Name, Reason: node.ReasonTaintEviction})
			if !fired[p.Name] {
				// due work whose real-clock timer has not run: fire it
				k := keyOf(p.Name)
				h := upDeletePodHandler(client, func(nn types.NamespacedName) { upEmitPodDeletionEvent(tc, nn) }, "taint-eviction")
				if err := h(ctx, w.FireAt, tainteviction.NewWorkArgs(k.Name, k.Namespace)); err != nil {
					t.Fatal(err)
				}
			}
		} else if w != nil {
			if dd := w.FireAt.Sub(now); first < 0 || dd < first {
				first = dd
			}
		}
		out.Decisions = append(out.Decisions, d)
	}
	var names []string
	for _, s := range scheduled {
		names = append(names, s.Pod)
	}
	for _, p := range mine {
		names = append(names, p.Name)
	}
	sort.Strings(names)
	names = slices.Compact(names)
	for _, name := range names {
		w := queue.GetWorkerUnsafe(keyOf(name).String())
		if w == nil || onNode[name] && !w.FireAt.After(now) {
			continue
		}
		out.Memory = append(out.Memory, node.ScheduledEviction{Pod: name, CreatedAt: w.CreatedAt, FireAt: w.FireAt})
	}
	if first >= 0 {
		out.Requeue = append(out.Requeue, plan.Requeue{After: first, Reason: node.ReasonEvictionDue})
	}
	mu.Lock()
	defer mu.Unlock()
	byPod := map[string][]plan.Event{}
	for _, e := range events {
		ref, ok := e.object.(*v1.ObjectReference)
		if !ok || ref.Kind != "Pod" {
			t.Fatal(fmt.Sprintf("event %s about %T", e.reason, e.object))
		}
		byPod[ref.Name] = append(byPod[ref.Name], plan.Event{Type: plan.EventType(e.eventtype), Reason: plan.Reason(e.reason), Object: ref.Name, Message: e.message})
	}
	for _, name := range names {
		out.Events = append(out.Events, byPod[name]...)
		delete(byPod, name)
	}
	if len(byPod) > 0 {
		t.Fatal(fmt.Sprintf("events about pods not on the node: %v", byPod))
	}
	ws, err := difftest.WriteKeysOfActions(client.Actions())
	if err != nil {
		t.Fatal(err)
	}
	return out, ws, patched
}
