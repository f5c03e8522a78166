package node_test

import (
	"context"
	"fmt"
	"reflect"
	"slices"
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
	"k8s.io/client-go/kubernetes/fake"
	clienttesting "k8s.io/client-go/testing"
	"k8s.io/client-go/tools/cache"
	"k8s.io/klog/v2"
	"k8s.io/kubernetes/pkg/controller"
	"k8s.io/kubernetes/pkg/controller/tainteviction"
	"pgregory.net/rapid"

	"github.com/kubesem/kubesem/cluster"
	"github.com/kubesem/kubesem/conformance/upstream/internal/difftest"
	"github.com/kubesem/kubesem/meta"
	"github.com/kubesem/kubesem/node"
	"github.com/kubesem/kubesem/plan"
	"github.com/kubesem/kubesem/podstatus"
)

// triggerToleration is one toleration the sequences draw: tolerate forever, for
// 0 s (evict now), or for an hour (never due while a sequence runs, on
// either clock).
type triggerToleration struct {
	key  string
	secs *int64
}

var (
	triggerZero, triggerHour = int64(0), int64(3600)
	triggerTolerations       = []triggerToleration{{"k1", nil}, {"k1", &triggerZero}, {"k2", &triggerHour}, {"", nil}, {"k2", nil}, {"k1", &triggerHour}}
	triggerTaintKeys         = []string{"k1", "k2"}
	triggerGrace             = int64(30)
)

// TestClusterDiffTaintEvictionTriggers runs random sequences of changes
// to one tainted node and its pods through the real taint-eviction
// controller — its informer handlers NodeUpdated and PodUpdated (which
// filter what they enqueue), its handleNodeUpdate and handlePodUpdate, its
// TimedWorkerQueue and deletePodHandler against a fake clientset whose
// DELETE marks the pod terminating as the API server does — and through
// the world (cluster.World with only the taint-eviction controller). After
// each change both must delete the same pods the same number of times:
// an eviction fires once, and a terminating pod is deleted again only
// when the node's NoExecute taints change or the pod's tolerations do
// (or it is recreated). Changes: the node's NoExecute taints (keys k1,
// k2, with or without timeAdded), a toleration added to a pod (the only
// toleration change the API server accepts), a label change, a new pod,
// a pod removed. Tolerations are forever, 0 s or an hour, so no timer
// comes due on the real clock (upstream) or the virtual one (the world).
func TestClusterDiffTaintEvictionTriggers(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		h := newTriggerHarness(t)
		defer h.cancel()
		nPods := rapid.IntRange(1, 3).Draw(t, "pods")
		taints := triggerDrawTaints(t)
		var objs []any
		objs = append(objs, triggerKNode(taints))
		h.addNode(triggerUNode(triggerUTaints(taints)))
		for i := range nPods {
			tols := triggerDrawTols(t)
			name := fmt.Sprintf("p%d", i)
			objs = append(objs, triggerKPod(name, tols))
			h.addPod(triggerUPod(name, tols))
		}
		w, err := cluster.New(cluster.Scenario{Start: t0, Objects: objs}, cluster.Options{Controllers: []string{cluster.CtlTaintEvictor}})
		if err != nil {
			t.Fatal(err)
		}
		now := t0
		// At the start upstream's informers deliver the node and every pod
		// at once; how often a pod is deleted then depends on how its
		// workers interleave (the eviction's work may finish before the
		// pod's add is handled, and then runs again). Both sides end with
		// no work pending for a pod they deleted; the start is not compared.
		h.compare(t, w, now, "")
		next := nPods
		for step := range rapid.IntRange(1, 8).Draw(t, "steps") {
			now = now.Add(time.Second)
			pods := w.State.PodsOnNode("n")
			var what string
			switch op := rapid.IntRange(0, 4).Draw(t, "op"); {
			case op == 0 || len(pods) == 0:
				taints = triggerDrawTaints(t)
				what = fmt.Sprintf("taints %v", taints)
				n := *w.State.Node("n")
				n.Spec.Taints = triggerKTaints(taints)
				triggerApply(t, w, plan.Write{Verb: plan.VerbUpdate, Resource: "nodes", Name: "n", Object: &n}, now)
				h.updateNode(triggerUTaints(taints))
			case op == 1:
				p := pods[rapid.IntRange(0, len(pods)-1).Draw(t, "pod")]
				tol := rapid.SampledFrom(triggerTolerations).Draw(t, "tol")
				what = fmt.Sprintf("toleration %v to %s", tol, p.Name)
				c := *p
				c.Spec.Tolerations = append(slices.Clone(p.Spec.Tolerations), triggerKTol(tol))
				triggerApply(t, w, plan.Write{Verb: plan.VerbUpdate, Resource: "pods", Namespace: "ns", Name: p.Name, Object: &c}, now)
				h.updatePod(p.Name, func(u *v1.Pod) { u.Spec.Tolerations = append(u.Spec.Tolerations, triggerUTol(tol)) })
			case op == 2:
				p := pods[rapid.IntRange(0, len(pods)-1).Draw(t, "pod")]
				what = "label on " + p.Name
				c := *p
				c.Labels = map[string]string{"step": fmt.Sprint(step)}
				triggerApply(t, w, plan.Write{Verb: plan.VerbUpdate, Resource: "pods", Namespace: "ns", Name: p.Name, Object: &c}, now)
				h.updatePod(p.Name, func(u *v1.Pod) { u.Labels = map[string]string{"step": fmt.Sprint(step)} })
			case op == 3:
				name := fmt.Sprintf("p%d", next)
				next++
				tols := triggerDrawTols(t)
				what = "new pod " + name
				kp := triggerKPod(name, tols)
				triggerApply(t, w, plan.Write{Verb: plan.VerbCreate, Resource: "pods", Namespace: "ns", Object: kp}, now)
				h.createPod(triggerUPod(name, tols))
			default:
				p := pods[rapid.IntRange(0, len(pods)-1).Draw(t, "pod")]
				what = "remove " + p.Name
				zero := int64(0)
				triggerApply(t, w, plan.Write{Verb: plan.VerbDelete, Resource: "pods", Namespace: "ns", Name: p.Name, GracePeriodSeconds: &zero}, now)
				h.removePod(p.Name)
			}
			h.compare(t, w, now, fmt.Sprintf("step %d (%s)", step, what))
		}
	})
}

func triggerApply(t *rapid.T, w *cluster.World, wr plan.Write, now time.Time) {
	if _, err := w.State.Apply(wr, now, w.Opts.Namer); err != nil {
		t.Fatalf("world refused %s %s: %v", wr.Verb, wr.Name, err)
	}
}

// triggerTaint is a drawn NoExecute taint: its key and whether timeAdded is set.
type triggerTaint struct {
	key   string
	added bool
}

func triggerDrawTaints(t *rapid.T) []triggerTaint {
	var out []triggerTaint
	for _, k := range triggerTaintKeys {
		if rapid.Bool().Draw(t, "taint") {
			out = append(out, triggerTaint{k, rapid.Bool().Draw(t, "timeAdded")})
		}
	}
	return out
}

func triggerDrawTols(t *rapid.T) []triggerToleration {
	var out []triggerToleration
	for range rapid.IntRange(0, 2).Draw(t, "tols") {
		out = append(out, rapid.SampledFrom(triggerTolerations).Draw(t, "tol"))
	}
	return out
}

var triggerAdded = time.Date(2025, 12, 31, 0, 0, 0, 0, time.UTC)

func triggerKTaints(ts []triggerTaint) []node.Taint {
	var out []node.Taint
	for _, x := range ts {
		n := node.Taint{Key: x.key, Effect: node.NoExecute}
		if x.added {
			a := triggerAdded
			n.TimeAdded = &a
		}
		out = append(out, n)
	}
	return out
}

func triggerUTaints(ts []triggerTaint) []v1.Taint {
	var out []v1.Taint
	for _, x := range ts {
		n := v1.Taint{Key: x.key, Effect: v1.TaintEffectNoExecute}
		if x.added {
			n.TimeAdded = &metav1.Time{Time: triggerAdded}
		}
		out = append(out, n)
	}
	return out
}

func triggerKTol(x triggerToleration) node.Toleration {
	return node.Toleration{Key: x.key, Operator: "Exists", Effect: string(node.NoExecute), TolerationSeconds: x.secs}
}

func triggerUTol(x triggerToleration) v1.Toleration {
	return v1.Toleration{Key: x.key, Operator: v1.TolerationOpExists, Effect: v1.TaintEffectNoExecute, TolerationSeconds: x.secs}
}

func triggerKNode(ts []triggerTaint) *node.Node {
	n := &node.Node{ObjectMeta: meta.ObjectMeta{Name: "n", UID: "node-uid"}}
	n.Spec.Taints = triggerKTaints(ts)
	// Not Ready: the world's kubelet for it does not run, so its pods
	// stay as the controllers leave them.
	n.Status.Conditions = []node.Condition{{Type: node.Ready, Status: meta.ConditionUnknown}}
	return n
}

func triggerUNode(ts []v1.Taint) *v1.Node {
	return &v1.Node{ObjectMeta: metav1.ObjectMeta{Name: "n", UID: "node-uid"}, Spec: v1.NodeSpec{Taints: ts}}
}

func triggerKPod(name string, tols []triggerToleration) *podstatus.Pod {
	p := &podstatus.Pod{ObjectMeta: meta.ObjectMeta{Name: name, Namespace: "ns", UID: "uid-" + name}}
	p.Spec.NodeName = "n"
	g := triggerGrace
	p.Spec.TerminationGracePeriodSeconds = &g
	p.Spec.Containers = []podstatus.Container{{Name: "c", Image: "i"}}
	for _, x := range tols {
		p.Spec.Tolerations = append(p.Spec.Tolerations, triggerKTol(x))
	}
	return p
}

func triggerUPod(name string, tols []triggerToleration) *v1.Pod {
	g := triggerGrace
	p := &v1.Pod{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "ns", UID: types.UID("uid-" + name)},
		Spec: v1.PodSpec{NodeName: "n", TerminationGracePeriodSeconds: &g, Containers: []v1.Container{{Name: "c", Image: "i"}}}}
	for _, x := range tols {
		p.Spec.Tolerations = append(p.Spec.Tolerations, triggerUTol(x))
	}
	return p
}

// triggerHarness is the real taint-eviction controller with its informers'
// stores fed by hand and its handlers called synchronously.
type triggerHarness struct {
	ctx        context.Context
	cancel     func()
	client     *fake.Clientset
	tc         *tainteviction.Controller
	pods       cache.Indexer
	nodes      cache.Indexer
	podQ       reflect.Value
	nodeQ      reflect.Value
	wg         *sync.WaitGroup
	seenDelete int
	seenTrace  int
}

var triggerPods = v1.SchemeGroupVersion.WithResource("pods")

func newTriggerHarness(t *rapid.T) *triggerHarness {
	ctx, cancel := context.WithCancel(klog.NewContext(context.Background(), logr.Discard()))
	client := fake.NewSimpleClientset()
	// DELETE of a pod with a grace period marks it terminating, as the
	// API server does; it stays in the store.
	client.PrependReactor("delete", "pods", func(a clienttesting.Action) (bool, runtime.Object, error) {
		da := a.(clienttesting.DeleteAction)
		obj, err := client.Tracker().Get(triggerPods, da.GetNamespace(), da.GetName())
		if err != nil {
			return true, nil, err
		}
		p := obj.(*v1.Pod).DeepCopy()
		if p.DeletionTimestamp == nil {
			p.DeletionTimestamp = &metav1.Time{Time: time.Now()}
			p.DeletionGracePeriodSeconds = p.Spec.TerminationGracePeriodSeconds
		}
		return true, p, client.Tracker().Update(triggerPods, p, p.Namespace)
	})
	factory := informers.NewSharedInformerFactory(client, 0)
	pi, ni := factory.Core().V1().Pods(), factory.Core().V1().Nodes()
	// kube-controller-manager adds this index for the controller.
	if err := controller.AddPodNodeNameIndexer(pi.Informer()); err != nil {
		t.Fatal(err)
	}
	tc, err := tainteviction.New(ctx, client, pi, ni, "taint-eviction-controller")
	if err != nil {
		t.Fatal(err)
	}
	difftest.StopOn(t, cancel, tc)
	var mu sync.Mutex
	var events []upEvent
	rf := reflect.ValueOf(tc).Elem().FieldByName("recorder")
	reflect.NewAt(rf.Type(), unsafe.Pointer(rf.UnsafeAddr())).Elem().Set(reflect.ValueOf(evRecorder{&mu, &events}))
	field := func(name string) reflect.Value {
		f := reflect.ValueOf(tc).Elem().FieldByName(name)
		return reflect.NewAt(f.Type(), unsafe.Pointer(f.UnsafeAddr())).Elem()
	}
	queue := field("taintEvictionQueue").Interface().(*tainteviction.TimedWorkerQueue)
	wgf := reflect.ValueOf(queue).Elem().FieldByName("workerWG")
	return &triggerHarness{ctx: ctx, cancel: cancel, client: client, tc: tc,
		pods: pi.Informer().GetIndexer(), nodes: ni.Informer().GetIndexer(),
		podQ: field("podUpdateQueue"), nodeQ: field("nodeUpdateQueue"),
		wg: (*sync.WaitGroup)(unsafe.Pointer(wgf.UnsafeAddr()))}
}

// drain processes the items the handlers enqueued (nodes first), waiting
// for the eviction workers after each (events spaced further apart than
// an eviction takes), and feeds the pods they changed back through
// PodUpdated, until nothing is left.
func (h *triggerHarness) drain() {
	for range 10 {
		for h.nodeQ.MethodByName("Len").Call(nil)[0].Int() > 0 {
			r := h.nodeQ.MethodByName("Get").Call(nil)
			c := reflect.New(r[0].Type())
			c.Elem().Set(r[0])
			difftest.TaintEvictionHandleNodeUpdate(h.tc, h.ctx, *(*difftest.TaintEvictionNodeItem)(c.UnsafePointer()))
			h.nodeQ.MethodByName("Done").Call([]reflect.Value{r[0]})
			h.wg.Wait()
		}
		for h.podQ.MethodByName("Len").Call(nil)[0].Int() > 0 {
			r := h.podQ.MethodByName("Get").Call(nil)
			c := reflect.New(r[0].Type())
			c.Elem().Set(r[0])
			difftest.TaintEvictionHandlePodUpdate(h.tc, h.ctx, *(*difftest.TaintEvictionPodItem)(c.UnsafePointer()))
			h.podQ.MethodByName("Done").Call([]reflect.Value{r[0]})
			h.wg.Wait()
		}
		h.wg.Wait()
		changed := false
		objs, _ := h.client.Tracker().List(triggerPods, v1.SchemeGroupVersion.WithKind("Pod"), "ns")
		for _, o := range objs.(*v1.PodList).Items {
			cur := o.DeepCopy()
			old, ok, _ := h.pods.GetByKey("ns/" + cur.Name)
			if ok && reflect.DeepEqual(old, cur) {
				continue
			}
			changed = true
			_ = h.pods.Update(cur)
			if ok {
				h.tc.PodUpdated(old.(*v1.Pod), cur)
			} else {
				h.tc.PodUpdated(nil, cur)
			}
		}
		if !changed && h.podQ.MethodByName("Len").Call(nil)[0].Int() == 0 {
			return
		}
	}
}

func (h *triggerHarness) addNode(n *v1.Node) {
	_ = h.client.Tracker().Add(n)
	_ = h.nodes.Add(n)
	h.tc.NodeUpdated(nil, n)
}

func (h *triggerHarness) addPod(p *v1.Pod) {
	_ = h.client.Tracker().Add(p)
	_ = h.pods.Add(p.DeepCopy())
	h.tc.PodUpdated(nil, p)
}

func (h *triggerHarness) updateNode(taints []v1.Taint) {
	o, _, _ := h.nodes.GetByKey("n")
	old := o.(*v1.Node)
	n := old.DeepCopy()
	n.Spec.Taints = taints
	_ = h.client.Tracker().Update(v1.SchemeGroupVersion.WithResource("nodes"), n, "")
	_ = h.nodes.Update(n)
	h.tc.NodeUpdated(old, n)
}

func (h *triggerHarness) updatePod(name string, change func(*v1.Pod)) {
	o, _ := h.client.Tracker().Get(triggerPods, "ns", name)
	p := o.(*v1.Pod).DeepCopy()
	change(p)
	_ = h.client.Tracker().Update(triggerPods, p, "ns")
	// drain feeds the change through PodUpdated.
}

func (h *triggerHarness) createPod(p *v1.Pod) {
	_ = h.client.Tracker().Add(p)
}

func (h *triggerHarness) removePod(name string) {
	o, ok, _ := h.pods.GetByKey("ns/" + name)
	_ = h.client.Tracker().Delete(triggerPods, "ns", name)
	if ok {
		_ = h.pods.Delete(o)
		h.tc.PodUpdated(o.(*v1.Pod), nil)
	}
}

// compare runs both sides to rest and compares the pods each deleted
// since the last comparison.
func (h *triggerHarness) compare(t *rapid.T, w *cluster.World, now time.Time, what string) {
	h.drain()
	var up []string
	acts := h.client.Actions()
	for _, a := range acts[h.seenDelete:] {
		if a.GetVerb() == "delete" && a.GetResource().Resource == "pods" {
			up = append(up, a.(clienttesting.DeleteAction).GetName())
		}
	}
	h.seenDelete = len(acts)
	for range 10 {
		n := len(w.Trace)
		w.Sync(now)
		if len(w.Trace) == n {
			break
		}
	}
	var ks []string
	for _, e := range w.Trace[h.seenTrace:] {
		if e.Controller == cluster.CtlTaintEvictor && e.Write != nil && e.Write.Verb == plan.VerbDelete {
			ks = append(ks, e.Write.Name)
		}
	}
	h.seenTrace = len(w.Trace)
	slices.Sort(up)
	slices.Sort(ks)
	if what != "" && !slices.Equal(up, ks) {
		t.Fatalf("%s: the world deletes %v, upstream %v (actions %v)", what, ks, up, acts)
	}
}

// TestClusterTaintEvictionAgainOnTaintChange pins the upstream fact the
// world follows: once a pod's eviction work has run, the TimedWorkerQueue
// forgets it (getWrappedWorkerFunc deletes the key), so a later change of
// the node's NoExecute taints deletes the terminating pod again, while a
// pod update that changes neither tolerations nor node does not.
func TestClusterTaintEvictionAgainOnTaintChange(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		h := newTriggerHarness(t)
		defer h.cancel()
		k1 := []triggerTaint{{"k1", false}}
		w, err := cluster.New(cluster.Scenario{Start: t0, Objects: []any{triggerKNode(k1), triggerKPod("p", nil)}},
			cluster.Options{Controllers: []string{cluster.CtlTaintEvictor}})
		if err != nil {
			t.Fatal(err)
		}
		h.addNode(triggerUNode(triggerUTaints(k1)))
		h.addPod(triggerUPod("p", nil))
		now := t0
		h.compare(t, w, now, "")
		now = now.Add(time.Second)
		c := *w.State.Pod("ns", "p")
		c.Labels = map[string]string{"x": "y"}
		triggerApply(t, w, plan.Write{Verb: plan.VerbUpdate, Resource: "pods", Namespace: "ns", Name: "p", Object: &c}, now)
		h.updatePod("p", func(u *v1.Pod) { u.Labels = map[string]string{"x": "y"} })
		if n := h.compareCount(t, w, now, "label"); n != 0 {
			t.Fatalf("a label change deleted the pod %d times", n)
		}
		now = now.Add(time.Second)
		both := []triggerTaint{{"k1", false}, {"k2", false}}
		n := *w.State.Node("n")
		n.Spec.Taints = triggerKTaints(both)
		triggerApply(t, w, plan.Write{Verb: plan.VerbUpdate, Resource: "nodes", Name: "n", Object: &n}, now)
		h.updateNode(triggerUTaints(both))
		if n := h.compareCount(t, w, now, "taints"); n != 1 {
			t.Fatalf("a taint change deleted the terminating pod %d times, want 1 (again)", n)
		}
	})
}

// compareCount is compare that returns how many deletes both made.
func (h *triggerHarness) compareCount(t *rapid.T, w *cluster.World, now time.Time, what string) int {
	before := len(h.client.Actions())
	h.compare(t, w, now, what)
	n := 0
	for _, a := range h.client.Actions()[before:] {
		if a.GetVerb() == "delete" && a.GetResource().Resource == "pods" {
			n++
		}
	}
	return n
}
