package podgc_test

import (
	"bytes"
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
	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes/fake"
	clienttesting "k8s.io/client-go/testing"
	"k8s.io/client-go/util/workqueue"
	"k8s.io/klog/v2"
	kcmoptions "k8s.io/kubernetes/cmd/kube-controller-manager/app/options"
	upodgc "k8s.io/kubernetes/pkg/controller/podgc"
	testingclock "k8s.io/utils/clock/testing"

	"github.com/kubesem/kubesem/conformance"
	"github.com/kubesem/kubesem/conformance/upstream/internal/difftest"
	"github.com/kubesem/kubesem/meta"
	"github.com/kubesem/kubesem/plan"
	"github.com/kubesem/kubesem/podgc"
	"github.com/kubesem/kubesem/podstatus"
)

// The controller's gc pass is these four steps over one listing of the
// pod and node caches, the first only with a threshold above 0; the replay
// calls them one by one to tell which step deleted a pod.

//go:linkname upTerminated k8s.io/kubernetes/pkg/controller/podgc.(*PodGCController).gcTerminated
func upTerminated(gcc *upodgc.PodGCController, ctx context.Context, pods []*v1.Pod)

//go:linkname upTerminating k8s.io/kubernetes/pkg/controller/podgc.(*PodGCController).gcTerminating
func upTerminating(gcc *upodgc.PodGCController, ctx context.Context, pods []*v1.Pod)

//go:linkname upOrphaned k8s.io/kubernetes/pkg/controller/podgc.(*PodGCController).gcOrphaned
func upOrphaned(gcc *upodgc.PodGCController, ctx context.Context, pods []*v1.Pod, nodes []*v1.Node)

//go:linkname upUnscheduledTerminating k8s.io/kubernetes/pkg/controller/podgc.(*PodGCController).gcUnscheduledTerminating
func upUnscheduledTerminating(gcc *upodgc.PodGCController, ctx context.Context, pods []*v1.Pod)

//go:linkname upLess k8s.io/kubernetes/pkg/controller/podgc.byEvictionAndCreationTimestamp.Less
func upLess(o []*v1.Pod, i, j int) bool

// upThreshold is --terminated-pod-gc-threshold as kube-controller-manager
// defaults it.
func upThreshold(t testing.TB) int {
	cfg, err := kcmoptions.NewDefaultComponentConfig()
	if err != nil {
		t.Fatal(err)
	}
	return int(cfg.PodGCController.TerminatedPodGCThreshold)
}

// upStep is one replayed step: the pods it deleted and the status
// patches it wrote (the pod after each patch), in the order made.
type upStep struct {
	reason  podgc.Reason
	deleted []*v1.Pod
	patched []*v1.Pod
	// writes are the step's requests, save those on pods an earlier step
	// deleted (which fail upstream)
	writes []difftest.WriteKey
}

// TestPodGCVectorsUpstream replays every podgc.Step vector through the
// v1.36.3 pod GC controller (built by NewPodGC; a vector's quarantine
// option replaces its quarantine time, its threshold option the default
// threshold) and checks every key of the vector's Plan:
//   - delete and patch: the four steps run one by one on fakes (the pods
//     and listed nodes in the caches, every node in the API, the node queue
//     on a fake clock at now, loaded with the vector's memory); each step's
//     deletions (a pod's first) and status patches must be the vector's,
//     step by step. Upstream deletes within a step in goroutines (terminated
//     and out-of-service pods) or in cache order (orphans, unscheduled), so
//     within a step the pods are compared as sets, and the vector's order of
//     terminated and out-of-service pods must follow upstream's
//     byEvictionAndCreationTimestamp. A patch's phase and DisruptionTarget
//     condition are compared; a condition upstream stamps anew carries the
//     wall clock, so its transition time must then be the vector's now.
//   - memory: each node the vector quarantines becomes ready in upstream's
//     queue exactly at its readyAt (not 1 ns before), and no other node is
//     waiting.
//   - requeue: upstream's gcCheckPeriod, reason Periodic; outcome is
//     kubesem's name for every pass (GarbageCollected).
//   - events: always empty, as upstream's PodGCController has no event
//     recorder (hasRecorder checks its fields).
//   - writes: the want's Plan.Writes over the vector's pods are the
//     requests the fake clientset received, step by step (within a step as
//     a set, a pod's status patch always just before its delete): verb,
//     resource, subresource, namespace, name, a patch's uid precondition,
//     a delete's grace period (0) and the patched pod's phase and
//     conditions; a later step's failed attempt on a pod already deleted is
//     not a write kubesem lists.
//
// The vectors of testdata/podgc/check-*.json (the decisions along a
// model-checker counterexample, written by kubesem check --vectors with
// want {}) are replayed the same way (checkVectorsUpstream), and kubesem's
// answer must match their want.
//
// With KUBESEM_WRITE_VECTORS=1 it writes the keys a step.json want lacks
// that the replay fixes from upstream alone (events: [], from hasRecorder)
// into testdata/podgc/step.json without checking them, and fills each
// empty want of a check-*.json file with upstream's pass (render).
func TestPodGCVectorsUpstream(t *testing.T) {
	file := difftest.Repo("testdata/podgc/step.json")
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if hasRecorder() {
		t.Fatal("upstream's PodGCController has an event recorder: podgc.Plan.Events cannot stay empty")
	}
	write := os.Getenv(difftest.WriteVectorsEnv) == "1"
	if write {
		writeEvents(t, file, data)
	} else {
		vs := readPodGCVectors(t, file)
		checked := 0
		for _, v := range vs {
			if v.Decision != "podgc.Step" || v.WantError != nil {
				continue
			}
			if err := v.replay(t, v.Want); err != nil {
				t.Errorf("%s: %v", v.Name, err)
			}
			checked++
		}
		if checked < 35 {
			t.Fatalf("replayed only %d vectors", checked)
		}
		t.Logf("%d podgc.Step vectors replayed through upstream", checked)
	}
	n := checkVectorsUpstream(t, write)
	t.Logf("%d podgc.Step vectors of check-*.json replayed through upstream", n)
}

// checkVectorsUpstream replays the podgc.Step vectors of
// testdata/podgc/check-*.json as TestPodGCVectorsUpstream replays
// step.json's, and checks that kubesem's answer (conformance.Kubesem)
// matches each want. A want {} states nothing: it fails, save with write
// (KUBESEM_WRITE_VECTORS=1), which fills it with upstream's pass (render),
// never kubesem's, before the replay checks it. It returns the vectors
// replayed.
func checkVectorsUpstream(t *testing.T, write bool) int {
	n := 0
	for _, file := range difftest.CheckFiles(t, "podgc") {
		fills := map[string]map[string]any{} // vector → key → value
		for _, v := range readPodGCVectors(t, file) {
			if v.Decision != "podgc.Step" {
				continue
			}
			n++
			t.Run(v.Name, func(t *testing.T) {
				if v.WantError != nil {
					t.Fatalf("wantError %s: a check vector's input is one the world's Step accepted", v.WantError)
				}
				want := v.Want
				if difftest.EmptyWant(want) {
					if !write {
						t.Fatal("want {} states nothing; fill it from upstream: KUBESEM_WRITE_VECTORS=1 go -C conformance/upstream test -run TestPodGCVectorsUpstream ./podgc/")
					}
					pass, done, err := v.run(t)
					if err != nil {
						t.Fatal(err)
					}
					want = render(t, pass, v.Input.Pods, v.Input.Memory, v.Input.Now)
					done()
					var m map[string]json.RawMessage
					if err := json.Unmarshal(want, &m); err != nil {
						t.Fatal(err)
					}
					fills[v.Name] = map[string]any{}
					for k, x := range m {
						fills[v.Name][k] = x // as plan.Encode wrote it
					}
				}
				if err := v.replay(t, want); err != nil {
					t.Errorf("upstream: %v", err)
				}
				got, err := conformance.Kubesem().Decide(v.Decision, v.Options, v.rawInput)
				if err != nil {
					t.Fatalf("kubesem: %v", err)
				}
				if ok, why := conformance.Match(want, got); !ok {
					t.Errorf("kubesem differs from v1.36.3: %s\nwant:    %s\nkubesem: %s", why, difftest.CompactJSON(want), got)
				}
			})
		}
		if write && len(fills) > 0 && !t.Failed() {
			difftest.WriteFills(t, file, "podgc.Step", fills, difftest.PlanKeysOf(reflect.TypeFor[podgc.Plan]()), nil, "TestPodGCVectorsUpstream")
		}
	}
	return n
}

// podgcVector is a podgc.Step vector as stored.
type podgcVector struct {
	Decision string          `json:"decision"`
	Name     string          `json:"name"`
	Options  json.RawMessage `json:"options"`
	Input    struct {
		Pods     []*v1.Pod    `json:"pods"`
		Nodes    []*v1.Node   `json:"nodes"`
		Unlisted []string     `json:"unlisted"`
		Memory   podgc.Memory `json:"memory"`
		Now      time.Time    `json:"now"`
	} `json:"input"`
	Want      json.RawMessage `json:"want"`
	WantError json.RawMessage `json:"wantError"`

	// rawInput is the input as stored; kpods are its pods as kubesem
	// reads them (for Plan.Writes).
	rawInput json.RawMessage
	kpods    []*podstatus.Pod
}

// readPodGCVectors reads a file of testdata/podgc.
func readPodGCVectors(t *testing.T, file string) []podgcVector {
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var vs []podgcVector
	if err := json.Unmarshal(data, &vs); err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	var raws []struct {
		Input json.RawMessage `json:"input"`
	}
	if err := json.Unmarshal(data, &raws); err != nil {
		t.Fatal(err)
	}
	var kvs []struct {
		Input struct {
			Pods []*podstatus.Pod `json:"pods"`
		} `json:"input"`
	}
	if err := json.Unmarshal(data, &kvs); err != nil {
		t.Fatal(err)
	}
	for i := range vs {
		vs[i].rawInput, vs[i].kpods = raws[i].Input, kvs[i].Input.Pods
	}
	return vs
}

// config returns the vector's threshold (upstream's default unless the
// options set one), quarantine time (0: upstream's) and nodes: every node
// of the API, the unlisted ones (lacking from the informer cache) marked.
func (v podgcVector) config(t *testing.T) (threshold int, quarantine time.Duration, nodes []*v1.Node, unlisted []bool) {
	var o struct {
		TerminatedPodThreshold *int   `json:"terminatedPodThreshold"`
		Quarantine             string `json:"quarantine"`
	}
	if len(v.Options) > 0 {
		if err := json.Unmarshal(v.Options, &o); err != nil {
			t.Fatalf("options: %v", err)
		}
	}
	threshold = upThreshold(t)
	if o.TerminatedPodThreshold != nil {
		threshold = *o.TerminatedPodThreshold
	}
	if o.Quarantine != "" {
		var err error
		if quarantine, err = time.ParseDuration(o.Quarantine); err != nil {
			t.Fatalf("options: %v", err)
		}
	}
	for _, n := range v.Input.Nodes {
		nodes, unlisted = append(nodes, n), append(unlisted, false)
	}
	for _, name := range v.Input.Unlisted {
		nodes, unlisted = append(nodes, &v1.Node{ObjectMeta: metav1.ObjectMeta{Name: name}}), append(unlisted, true)
	}
	return threshold, quarantine, nodes, unlisted
}

// run runs upstream's pass on the vector's world (runPass); done releases
// the controller.
func (v podgcVector) run(t *testing.T) (*upPass, func(), error) {
	threshold, quarantine, nodes, unlisted := v.config(t)
	return runPass(t, v.Input.Pods, nodes, unlisted, v.Input.Memory, v.Input.Now, threshold, quarantine)
}

// replay runs upstream's pass on the vector's world and checks want (the
// vector's want, or the one render filled) against it: its keys, and
// every key of the Plan upstream fixes (checkPass).
func (v podgcVector) replay(t *testing.T, raw json.RawMessage) error {
	var want wantPlan
	if err := json.Unmarshal(raw, &want); err != nil {
		return err
	}
	var keys map[string]json.RawMessage
	_ = json.Unmarshal(raw, &keys)
	if string(keys["events"]) != "[]" {
		return fmt.Errorf("want events %s; upstream records none", keys["events"])
	}
	for _, k := range []string{"outcome", "patch", "delete", "events", "requeue", "memory"} {
		if _, ok := keys[k]; !ok {
			return fmt.Errorf("want has no %q", k)
		}
	}
	pass, done, err := v.run(t)
	if err != nil {
		return err
	}
	defer done()
	return checkPass(pass, v.Input.Pods, v.kpods, v.Input.Now, want)
}

// wantPlan is a podgc.Plan as vectors write it (durations as strings).
type wantPlan struct {
	Outcome podgc.Reason     `json:"outcome"`
	Patch   []podgc.PodPatch `json:"patch"`
	Delete  []plan.Deletion  `json:"delete"`
	Events  []plan.Event     `json:"events"`
	Requeue []struct {
		After  string      `json:"after"`
		Reason plan.Reason `json:"reason"`
	} `json:"requeue"`
	Memory podgc.Memory `json:"memory"`
}

// render states upstream's pass (runPass) on a vector's world as a
// podgc.Plan's JSON:
//   - outcome GarbageCollected, kubesem's name for every pass; events
//     none (upstream has no recorder); requeue the controller's
//     gcCheckPeriod, reason Periodic;
//   - delete: the pods each step deleted, the steps in upstream's order,
//     each with the step's reason. Within a step upstream's order is not
//     fixed (goroutines, or the cache's order), so the pods are put in
//     namespace, name, UID order, and the terminated and out-of-service
//     steps' then (stably) by upstream's byEvictionAndCreationTimestamp;
//   - patch: the status patch upstream sent before each deletion that had
//     one, in deletion order: uid, phase and, for an orphan, its
//     DisruptionTarget condition (type, status, reason, message; its
//     transition time the input's when upstream kept it, else the
//     vector's now, as upstream stamps it from the wall clock);
//   - memory: the nodes the queue still holds: each input entry not yet
//     due and each node the pass added with a delay, at its earliest time
//     (checkPass then probes the queue for exactly these).
func render(t *testing.T, pass *upPass, pods []*v1.Pod, mem podgc.Memory, now time.Time) json.RawMessage {
	p := podgc.Plan{Outcome: podgc.ReasonGarbageCollected, Patch: []podgc.PodPatch{}, Delete: []plan.Deletion{}, Events: []plan.Event{},
		Requeue: []plan.Requeue{{After: pass.checkPeriod, Reason: podgc.ReasonPeriodic}}, Memory: podgc.Memory{Quarantine: []podgc.Quarantined{}}}
	key := func(p *v1.Pod) string { return p.Namespace + "/" + p.Name + "/" + string(p.UID) }
	for _, s := range pass.steps {
		del := slices.Clone(s.deleted)
		slices.SortStableFunc(del, func(a, b *v1.Pod) int { return strings.Compare(key(a), key(b)) })
		if s.reason == podgc.ReasonTerminated || s.reason == podgc.ReasonTerminatingOutOfService {
			sort.SliceStable(del, func(i, j int) bool { return upLess(del, i, j) })
		}
		for _, d := range del {
			for _, u := range s.patched {
				if u.Namespace != d.Namespace || u.Name != d.Name {
					continue
				}
				pp := podgc.PodPatch{Name: u.Name, Namespace: u.Namespace, UID: string(u.UID), Phase: podstatus.Phase(u.Status.Phase)}
				for _, c := range u.Status.Conditions {
					if c.Type != v1.DisruptionTarget || s.reason != podgc.ReasonOrphaned {
						continue
					}
					at := now
					for _, c0 := range d.Status.Conditions {
						if c0.Type == v1.DisruptionTarget && c0.LastTransitionTime.Equal(&c.LastTransitionTime) {
							at = c0.LastTransitionTime.Time
						}
					}
					pp.Condition = &podstatus.Condition{Type: podstatus.DisruptionTarget, Status: meta.ConditionStatus(c.Status), Reason: c.Reason, Message: c.Message, LastTransitionTime: at,
						ObservedGeneration: c.ObservedGeneration}
				}
				p.Patch = append(p.Patch, pp)
			}
			p.Delete = append(p.Delete, plan.Deletion{Name: d.Name, Namespace: d.Namespace, UID: string(d.UID), Reason: s.reason})
		}
	}
	waiting := map[string]time.Time{}
	for _, e := range mem.Quarantine {
		if e.ReadyAt.After(now) {
			waiting[e.Node] = e.ReadyAt
		}
	}
	for n, at := range pass.added {
		if cur, ok := waiting[n]; !ok || at.Before(cur) {
			waiting[n] = at
		}
	}
	for n, at := range waiting {
		p.Memory.Quarantine = append(p.Memory.Quarantine, podgc.Quarantined{Node: n, ReadyAt: at})
	}
	slices.SortFunc(p.Memory.Quarantine, func(a, b podgc.Quarantined) int { return strings.Compare(a.Node, b.Node) })
	b, err := plan.Encode(p)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// upPass is what upstream's pass did on a vector's world (runPass).
type upPass struct {
	steps       []upStep
	checkPeriod time.Duration
	// q is the controller's node queue on clock (at the vector's now).
	q     workqueue.TypedDelayingInterface[string]
	clock *testingclock.FakeClock
	// added is, per node, the earliest time the pass's AddAfter calls
	// asked it to become ready (those with a positive delay).
	added map[string]time.Time
}

// addRecorder is the controller's node queue, recording its AddAfter
// calls.
type addRecorder struct {
	workqueue.TypedDelayingInterface[string]
	now   time.Time
	added map[string]time.Time
}

func (r *addRecorder) AddAfter(item string, d time.Duration) {
	if at := r.now.Add(d); d > 0 {
		if cur, ok := r.added[item]; !ok || at.Before(cur) {
			r.added[item] = at
		}
	}
	r.TypedDelayingInterface.AddAfter(item, d)
}

// runPass runs upstream's gc pass at now, its four steps one by one, on
// fakes: the pods and listed nodes in the informer caches, every node in
// the API, the node queue on a fake clock at now loaded with mem. done
// shuts the controller's queue and context down.
func runPass(t *testing.T, pods []*v1.Pod, nodes []*v1.Node, unlisted []bool, mem podgc.Memory, now time.Time, threshold int, quarantine time.Duration) (_ *upPass, done func(), _ error) {
	var objs []runtime.Object
	for _, p := range pods {
		objs = append(objs, p.DeepCopy())
	}
	for _, n := range nodes {
		objs = append(objs, n.DeepCopy())
	}
	client := fake.NewSimpleClientset(objs...)
	var patched []*v1.Pod
	apply := clienttesting.ObjectReaction(client.Tracker())
	client.PrependReactor("patch", "pods", func(a clienttesting.Action) (bool, runtime.Object, error) {
		handled, obj, err := apply(a)
		if err == nil {
			if p, ok := obj.(*v1.Pod); ok {
				patched = append(patched, p.DeepCopy())
			}
		}
		return handled, obj, err
	})
	factory := informers.NewSharedInformerFactory(client, 0)
	podInf, nodeInf := factory.Core().V1().Pods(), factory.Core().V1().Nodes()
	ctx, cancel := context.WithCancel(klog.NewContext(context.Background(), logr.Discard()))
	gcc := upodgc.NewPodGC(ctx, client, podInf, nodeInf, threshold)
	fields := reflect.ValueOf(gcc).Elem()
	if quarantine != 0 {
		setDuration(gcc, "quarantineTime", quarantine)
	}
	checkPeriod := time.Duration(fields.FieldByName("gcCheckPeriod").Int())
	clock := testingclock.NewFakeClock(now)
	q := setQueue(gcc, clock)
	done = func() { q.ShutDown(); cancel() }
	for _, e := range mem.Quarantine {
		q.AddAfter(e.Node, e.ReadyAt.Sub(now))
	}
	rec := &addRecorder{TypedDelayingInterface: q, now: now, added: map[string]time.Time{}}
	f := fields.FieldByName("nodeQueue")
	*(*workqueue.TypedDelayingInterface[string])(unsafe.Pointer(f.UnsafeAddr())) = rec
	for _, p := range pods {
		if err := podInf.Informer().GetStore().Add(p.DeepCopy()); err != nil {
			done()
			return nil, nil, err
		}
	}
	for i, n := range nodes {
		if !unlisted[i] {
			if err := nodeInf.Informer().GetStore().Add(n.DeepCopy()); err != nil {
				done()
				return nil, nil, err
			}
		}
	}
	listedPods, _ := podInf.Lister().List(labels.Everything())
	listedNodes, _ := nodeInf.Lister().List(labels.Everything())

	// Run the steps, each with its own actions.
	deleted := map[string]bool{}
	var steps []upStep
	run := func(reason podgc.Reason, f func()) {
		client.ClearActions()
		patched = nil
		f()
		s := upStep{reason: reason, patched: patched}
		ws, err := difftest.WriteKeysOfActions(client.Actions())
		if err != nil {
			t.Fatal(err)
		}
		for _, w := range ws {
			if !deleted[w.Namespace+"/"+w.Name] {
				s.writes = append(s.writes, w)
			}
		}
		for _, a := range client.Actions() {
			if a.GetVerb() != "delete" || a.GetResource().Resource != "pods" {
				continue
			}
			d := a.(clienttesting.DeleteAction)
			key := d.GetNamespace() + "/" + d.GetName()
			if deleted[key] {
				continue // a later step's attempt on a pod already gone
			}
			deleted[key] = true
			for _, p := range listedPods {
				if p.Namespace == d.GetNamespace() && p.Name == d.GetName() {
					s.deleted = append(s.deleted, p)
				}
			}
		}
		steps = append(steps, s)
	}
	if threshold > 0 {
		run(podgc.ReasonTerminated, func() { upTerminated(gcc, ctx, listedPods) })
	}
	run(podgc.ReasonTerminatingOutOfService, func() { upTerminating(gcc, ctx, listedPods) })
	run(podgc.ReasonOrphaned, func() { upOrphaned(gcc, ctx, listedPods, listedNodes) })
	run(podgc.ReasonTerminatingUnscheduled, func() { upUnscheduledTerminating(gcc, ctx, listedPods) })
	return &upPass{steps: steps, checkPeriod: checkPeriod, q: q, clock: clock, added: rec.added}, done, nil
}

// checkPass checks want, a vector's Plan, against upstream's pass on its
// world (pods as upstream and as kubesem read them) at now: every key, as
// TestPodGCVectorsUpstream says.
func checkPass(pass *upPass, pods []*v1.Pod, kpods []*podstatus.Pod, now time.Time, want wantPlan) error {
	steps, checkPeriod, q, clock := pass.steps, pass.checkPeriod, pass.q, pass.clock
	// delete and patch, step by step
	wantDel := map[podgc.Reason][]plan.Deletion{}
	var order []podgc.Reason
	for _, d := range want.Delete {
		if len(order) == 0 || order[len(order)-1] != d.Reason {
			order = append(order, d.Reason)
		}
		wantDel[d.Reason] = append(wantDel[d.Reason], d)
	}
	var upOrder []podgc.Reason
	for _, s := range steps {
		if len(s.deleted) > 0 {
			upOrder = append(upOrder, s.reason)
		}
	}
	if !slices.Equal(order, upOrder) {
		return fmt.Errorf("delete steps %v, upstream %v", order, upOrder)
	}
	patchAt := 0
	for _, s := range steps {
		var got, up []string
		for _, d := range wantDel[s.reason] {
			got = append(got, d.Namespace+"/"+d.Name+"/"+d.UID)
		}
		for _, p := range s.deleted {
			up = append(up, p.Namespace+"/"+p.Name+"/"+string(p.UID))
		}
		if !difftest.SameSet(got, up) {
			return fmt.Errorf("%s deletes %v, upstream %v", s.reason, got, up)
		}
		if s.reason == podgc.ReasonTerminated || s.reason == podgc.ReasonTerminatingOutOfService {
			byKey := map[string]*v1.Pod{}
			for _, p := range s.deleted {
				byKey[p.Namespace+"/"+p.Name+"/"+string(p.UID)] = p
			}
			seq := make([]*v1.Pod, len(got))
			for i, k := range got {
				seq[i] = byKey[k]
			}
			for i := 1; i < len(seq); i++ {
				if upLess(seq, i, i-1) {
					return fmt.Errorf("%s order %v: upstream sorts %s before %s", s.reason, got, seq[i].Name, seq[i-1].Name)
				}
			}
		}
		// the vector's patches of this step, in its deletion order
		var wantPatch []podgc.PodPatch
		for patchAt < len(want.Patch) && len(wantPatch) < len(s.patched) {
			wantPatch = append(wantPatch, want.Patch[patchAt])
			patchAt++
		}
		if err := samePatches(s, wantPatch, pods, now); err != nil {
			return err
		}
	}
	if patchAt != len(want.Patch) {
		return fmt.Errorf("patch %+v: upstream writes %d patches", want.Patch, patchAt)
	}
	if err := sameWrites(podgc.Plan{Patch: want.Patch, Delete: want.Delete}, kpods, steps); err != nil {
		return err
	}
	if len(want.Events) != 0 {
		return fmt.Errorf("events %+v: upstream records none", want.Events)
	}

	if want.Outcome != podgc.ReasonGarbageCollected {
		return fmt.Errorf("outcome %q", want.Outcome)
	}
	if len(want.Requeue) != 1 || want.Requeue[0].After != checkPeriod.String() || want.Requeue[0].Reason != podgc.ReasonPeriodic {
		return fmt.Errorf("requeue %+v, upstream gcCheckPeriod %v", want.Requeue, checkPeriod)
	}
	return probeQueue(q, clock, now, want.Memory.Quarantine)
}

// sameWrites checks the Plan's Writes over the vector's pods against the
// requests each step sent: per step (the writes carry the step's reason),
// the same pods, each with the same sequence of requests, and each pod's
// requests adjacent in the Plan's order (upstream's may interleave: its
// out-of-service pass works on each pod in a goroutine); a patched pod's phase and
// conditions (type, status, reason, message) as upstream's patch left it.
func sameWrites(p podgc.Plan, kpods []*podstatus.Pod, steps []upStep) error {
	ws, err := p.Writes(kpods)
	if err != nil {
		return fmt.Errorf("Writes: %v", err)
	}
	at := 0
	for _, s := range steps {
		var mine []plan.Write
		for at < len(ws) && ws[at].Reason == s.reason {
			mine = append(mine, ws[at])
			at++
		}
		// group gathers each pod's requests in order; adjacent requires
		// them adjacent (kubesem's Plan). Upstream's requests need not be:
		// gcTerminating patches and deletes each pod in its own goroutine,
		// so two pods' requests may interleave.
		group := func(keys []difftest.WriteKey, adjacent bool) (map[string][]string, error) {
			g := map[string][]string{}
			last := ""
			for _, k := range keys {
				pod := k.Namespace + "/" + k.Name
				if _, seen := g[pod]; seen && pod != last && adjacent {
					return nil, fmt.Errorf("%s: requests on %s not adjacent", s.reason, pod)
				}
				g[pod] = append(g[pod], k.String())
				last = pod
			}
			return g, nil
		}
		var keys []difftest.WriteKey
		for _, w := range mine {
			keys = append(keys, difftest.WriteKeyOf(w))
		}
		got, err := group(keys, true)
		if err != nil {
			return err
		}
		up, err := group(s.writes, false)
		if err != nil {
			return err
		}
		if !reflect.DeepEqual(got, up) {
			return fmt.Errorf("%s writes %v, upstream %v", s.reason, got, up)
		}
		for _, w := range mine {
			if w.Verb != plan.VerbPatch {
				continue
			}
			obj := w.Object.(*podstatus.Pod)
			for _, u := range s.patched {
				if u.Namespace != w.Namespace || u.Name != w.Name {
					continue
				}
				var a, b []string
				for _, c := range obj.Status.Conditions {
					a = append(a, fmt.Sprint(c.Type, c.Status, c.Reason, c.Message, c.ObservedGeneration))
				}
				for _, c := range u.Status.Conditions {
					b = append(b, fmt.Sprint(c.Type, c.Status, c.Reason, c.Message, c.ObservedGeneration))
				}
				if string(obj.Status.Phase) != string(u.Status.Phase) || !slices.Equal(a, b) || obj.Status.ObservedGeneration != u.Status.ObservedGeneration {
					return fmt.Errorf("%s: patched %s phase %s conditions %v observedGeneration %d, upstream phase %s conditions %v observedGeneration %d",
						s.reason, w.Name, obj.Status.Phase, a, obj.Status.ObservedGeneration, u.Status.Phase, b, u.Status.ObservedGeneration)
				}
			}
		}
	}
	if at != len(ws) {
		return fmt.Errorf("writes %+v: reasons out of the steps' order", ws[at:])
	}
	return nil
}

// hasRecorder reports whether upstream's PodGCController holds anything
// that records events (a field whose type mentions a recorder or a
// broadcaster).
func hasRecorder() bool {
	t := reflect.TypeFor[upodgc.PodGCController]()
	for i := range t.NumField() {
		name := strings.ToLower(t.Field(i).Name + " " + t.Field(i).Type.String())
		if strings.Contains(name, "record") || strings.Contains(name, "broadcast") || strings.Contains(name, "event") {
			return true
		}
	}
	return false
}

// writeEvents adds "events": [] after "delete" in every podgc.Step want
// that lacks it, keeping the file's layout.
func writeEvents(t *testing.T, file string, data []byte) {
	var vs []map[string]json.RawMessage
	if err := json.Unmarshal(data, &vs); err != nil {
		t.Fatal(err)
	}
	var out [][]byte
	n := 0
	for _, v := range vs {
		var want map[string]json.RawMessage
		if v["want"] != nil {
			if err := json.Unmarshal(v["want"], &want); err != nil {
				t.Fatal(err)
			}
		}
		if string(v["decision"]) == `"podgc.Step"` && want != nil && want["events"] == nil {
			// rebuild the want in the Plan's key order
			var b bytes.Buffer
			b.WriteByte('{')
			first := true
			for _, k := range []string{"outcome", "patch", "delete", "events", "requeue", "memory"} {
				raw := want[k]
				if k == "events" {
					raw = json.RawMessage("[]")
				}
				if raw == nil {
					continue
				}
				if !first {
					b.WriteByte(',')
				}
				first = false
				kb, _ := json.Marshal(k)
				b.Write(kb)
				b.WriteByte(':')
				b.Write(raw)
			}
			b.WriteByte('}')
			if len(want) != 5 {
				t.Fatalf("%s: want keys %d, expected the five of the old Plan", v["name"], len(want))
			}
			v["want"] = b.Bytes()
			n++
		}
		// keep the vector's key order
		for k := range v {
			if !slices.Contains([]string{"decision", "name", "source", "options", "input", "want", "wantError"}, k) {
				t.Fatalf("%s: unexpected key %q", v["name"], k)
			}
		}
		var b bytes.Buffer
		b.WriteByte('{')
		first := true
		for _, k := range []string{"decision", "name", "source", "options", "input", "want", "wantError"} {
			if v[k] == nil {
				continue
			}
			if !first {
				b.WriteByte(',')
			}
			first = false
			kb, _ := json.Marshal(k)
			b.Write(kb)
			b.WriteByte(':')
			b.Write(v[k])
		}
		b.WriteByte('}')
		out = append(out, b.Bytes())
	}
	var b bytes.Buffer
	raw := append([]byte("["), bytes.Join(out, []byte(","))...)
	raw = append(raw, ']')
	if err := json.Indent(&b, raw, "", " "); err != nil {
		t.Fatal(err)
	}
	b.WriteByte('\n')
	if err := os.WriteFile(file, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("wrote events into %d podgc.Step wants of %s", n, file)
}

// samePatches checks a step's patches against the vector's: the same
// pods, phase and DisruptionTarget condition (the orphan step's).
func samePatches(s upStep, want []podgc.PodPatch, input []*v1.Pod, now time.Time) error {
	if len(want) != len(s.patched) {
		return fmt.Errorf("%s patches %+v, upstream %d", s.reason, want, len(s.patched))
	}
	byKey := map[string]podgc.PodPatch{}
	for _, w := range want {
		byKey[w.Namespace+"/"+w.Name] = w
	}
	for _, p := range s.patched {
		key := p.Namespace + "/" + p.Name
		w, ok := byKey[key]
		if !ok {
			return fmt.Errorf("%s: upstream patches %s, the vector %+v", s.reason, key, want)
		}
		if w.UID != string(p.UID) || string(w.Phase) != string(p.Status.Phase) {
			return fmt.Errorf("%s: patch %+v, upstream uid %q phase %q", s.reason, w, p.UID, p.Status.Phase)
		}
		var up *v1.PodCondition
		if s.reason == podgc.ReasonOrphaned {
			for i := range p.Status.Conditions {
				if p.Status.Conditions[i].Type == v1.DisruptionTarget {
					up = &p.Status.Conditions[i]
				}
			}
		}
		if (up == nil) != (w.Condition == nil) {
			return fmt.Errorf("%s: patch %+v condition, upstream %+v", s.reason, w, up)
		}
		if up == nil {
			continue
		}
		c := w.Condition
		if string(c.Type) != string(up.Type) || string(c.Status) != string(up.Status) || c.Reason != up.Reason || c.Message != up.Message {
			return fmt.Errorf("%s: condition %+v, upstream %+v", s.reason, *c, *up)
		}
		// The transition time is the old one when upstream kept it, else
		// the wall clock when it stamped it: then the vector's now.
		var old *v1.PodCondition
		for _, ip := range input {
			if ip.Namespace == p.Namespace && ip.Name == p.Name {
				for i := range ip.Status.Conditions {
					if ip.Status.Conditions[i].Type == v1.DisruptionTarget {
						old = &ip.Status.Conditions[i]
					}
				}
			}
		}
		wantLTT := now
		if old != nil && up.LastTransitionTime.Equal(&old.LastTransitionTime) {
			wantLTT = old.LastTransitionTime.Time
		}
		if !c.LastTransitionTime.Equal(wantLTT) {
			return fmt.Errorf("%s: condition transition time %v, upstream's rule gives %v", s.reason, c.LastTransitionTime, wantLTT)
		}
	}
	return nil
}

// probeQueue checks the node queue against the vector's memory: moving
// the fake clock to 1 ns before each readyAt, then to it, the nodes that
// become ready are exactly those whose readyAt has come; far in the future
// no other node is waiting.
func probeQueue(q workqueue.TypedDelayingInterface[string], clock *testingclock.FakeClock, now time.Time, want []podgc.Quarantined) error {
	entries := slices.Clone(want)
	sort.Slice(entries, func(i, j int) bool { return entries[i].ReadyAt.Before(entries[j].ReadyAt) })
	if q.Len() != 0 {
		return fmt.Errorf("memory %+v: upstream has %d nodes ready at now", want, q.Len())
	}
	settle := func(n int, wait time.Duration) int {
		deadline := time.Now().Add(wait)
		for q.Len() != n && time.Now().Before(deadline) {
			time.Sleep(100 * time.Microsecond)
		}
		if q.Len() == n {
			// give an unexpected item a moment to show up
			time.Sleep(2 * time.Millisecond)
		}
		return q.Len()
	}
	for i := 0; i < len(entries); {
		at := entries[i].ReadyAt
		if !at.After(now) {
			return fmt.Errorf("memory %+v: %s ready at %v, not after now", want, entries[i].Node, at)
		}
		if !at.Add(-1).Before(clock.Now()) {
			clock.SetTime(at.Add(-1))
		}
		if got := settle(i, 5*time.Millisecond); got != i {
			return fmt.Errorf("memory %+v: at %v upstream has %d nodes ready, want %d", want, at.Add(-1), got, i)
		}
		j := i
		for j < len(entries) && entries[j].ReadyAt.Equal(at) {
			j++
		}
		clock.SetTime(at)
		if got := settle(j, 5*time.Second); got != j {
			return fmt.Errorf("memory %+v: at %v upstream has %d nodes ready, want %d", want, at, got, j)
		}
		i = j
	}
	clock.SetTime(now.Add(1000 * time.Hour))
	if got := settle(len(entries), 5*time.Millisecond); got != len(entries) {
		return fmt.Errorf("memory %+v: upstream has %d nodes waiting", want, got)
	}
	var names, up []string
	for _, e := range entries {
		names = append(names, e.Node)
	}
	for range entries {
		item, _ := q.Get()
		up = append(up, item)
		q.Done(item)
	}
	if !difftest.SameSet(names, up) {
		return fmt.Errorf("memory %+v: upstream queues %v", want, up)
	}
	return nil
}

// setDuration sets a duration field of the controller.
func setDuration(gcc *upodgc.PodGCController, name string, d time.Duration) {
	f := reflect.ValueOf(gcc).Elem().FieldByName(name)
	*(*time.Duration)(unsafe.Pointer(f.UnsafeAddr())) = d
}
