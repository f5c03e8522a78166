package daemonset_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
	"unsafe"

	apps "k8s.io/api/apps/v1"
	v1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	genericapirequest "k8s.io/apiserver/pkg/endpoints/request"
	"k8s.io/apiserver/pkg/registry/rest"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes/fake"
	core "k8s.io/client-go/testing"
	"k8s.io/client-go/tools/record"
	"k8s.io/client-go/util/flowcontrol"
	"k8s.io/client-go/util/workqueue"
	"k8s.io/klog/v2"
	api "k8s.io/kubernetes/pkg/apis/core"
	"k8s.io/kubernetes/pkg/controller"
	"k8s.io/kubernetes/pkg/controller/daemon"
	"k8s.io/kubernetes/pkg/controller/util/consistency"
	registrypod "k8s.io/kubernetes/pkg/registry/core/pod"
	testingclock "k8s.io/utils/clock/testing"

	"github.com/kubesem/kubesem/conformance/upstream/internal/difftest"
	"github.com/kubesem/kubesem/daemonset"
	"github.com/kubesem/kubesem/history"
	"github.com/kubesem/kubesem/k8s"
	"github.com/kubesem/kubesem/plan"
)

// This file is the upstream side of the DaemonSet differentials: one
// v1.36.3 DaemonSetsController on a fake clientset, instrumented so that
// everything one syncDaemonSet decides can be read back:
//
//   - pod creations (target node, controller-revision-hash label), pod
//     deletions, status writes, ControllerRevision creations, updates and
//     deletions, through reactors that record instead of storing;
//   - events, through a FakeRecorder in place of the controller's
//     recorder (the pod control's per-write events are implied by the
//     writes and not collected);
//   - requeues, through a queue whose AddAfter and AddRateLimited record;
//   - the phases, through expectations that log each call: manage sets
//     expectations first (its creations and deletions), the rolling
//     update runs only when they are satisfied afterwards;
//   - the failed-pod backoff, a flowcontrol.Backoff on a fake clock that
//     lives as long as the rig, so its memory carries across syncs as it
//     does in kube-controller-manager; it is read and written by
//     reflection.
//
// Each sync starts with fresh, satisfied expectations and no recorded
// writes (kubesem takes expectations as satisfied: UPSTREAM divergence in
// the package doc), and with a no-op consistency store (the informers are
// filled directly, so every write is already "observed").

//go:linkname syncDaemonSet k8s.io/kubernetes/pkg/controller/daemon.(*DaemonSetsController).syncDaemonSet
func syncDaemonSet(dsc *daemon.DaemonSetsController, ctx context.Context, key string) error

//go:linkname getPatch k8s.io/kubernetes/pkg/controller/daemon.getPatch
func getPatch(ds *apps.DaemonSet) ([]byte, error)

//go:linkname updatedDesiredNodeCounts k8s.io/kubernetes/pkg/controller/daemon.(*DaemonSetsController).updatedDesiredNodeCounts
func updatedDesiredNodeCounts(dsc *daemon.DaemonSetsController, ctx context.Context, ds *apps.DaemonSet, nodeList []*v1.Node, nodeToDaemonPods map[string][]*v1.Pod) (int, int, int, error)

// TestDaemonSetUpstreamBackoffPinned reads kube-controller-manager's
// source in the module cache and checks that difftest.DaemonSetBackoff's bounds
// are the ones it passes, so the differentials configure upstream from
// upstream, never from kubesem's DefaultBackoffBase/Cap.
func TestDaemonSetUpstreamBackoffPinned(t *testing.T) {
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", "k8s.io/kubernetes").Output()
	if err != nil {
		t.Skipf("go list: %v", err)
	}
	src, err := os.ReadFile(filepath.Join(strings.TrimSpace(string(out)), "cmd", "kube-controller-manager", "app", "apps.go"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(src), "flowcontrol.NewBackOff(1*time.Second, 15*time.Minute)") {
		t.Fatal("kube-controller-manager no longer passes NewBackOff(1*time.Second, 15*time.Minute) to the DaemonSet controller: update difftest.DaemonSetBackoff")
	}
	b := difftest.DaemonSetBackoff(testingclock.NewFakeClock(t0))
	if backoffBounds(b) != [2]time.Duration{time.Second, 15 * time.Minute} {
		t.Fatalf("difftest.DaemonSetBackoff bounds %v", backoffBounds(b))
	}
}

// fieldOf returns the addressable (unexported) field name of *obj.
func fieldOf(obj any, name string) reflect.Value {
	f := reflect.ValueOf(obj).Elem().FieldByName(name)
	if !f.IsValid() {
		panic("no field " + name)
	}
	return reflect.NewAt(f.Type(), unsafe.Pointer(f.UnsafeAddr())).Elem()
}

// backoffBounds returns a Backoff's initial and maximum delay.
func backoffBounds(b *flowcontrol.Backoff) [2]time.Duration {
	return [2]time.Duration{time.Duration(fieldOf(b, "defaultDuration").Int()), time.Duration(fieldOf(b, "maxDuration").Int())}
}

// readBackoff returns the Backoff's per-item memory.
func readBackoff(b *flowcontrol.Backoff) daemonset.Backoff {
	b.RLock()
	defer b.RUnlock()
	out := daemonset.Backoff{}
	it := fieldOf(b, "perItemBackoff").MapRange()
	for it.Next() {
		e := it.Value().Elem()
		d := reflect.NewAt(e.FieldByName("backoff").Type(), unsafe.Pointer(e.FieldByName("backoff").UnsafeAddr())).Elem().Interface().(time.Duration)
		lu := reflect.NewAt(e.FieldByName("lastUpdate").Type(), unsafe.Pointer(e.FieldByName("lastUpdate").UnsafeAddr())).Elem().Interface().(time.Time)
		out[it.Key().String()] = daemonset.BackoffEntry{Delay: d, LastUpdate: lu}
	}
	return out
}

// writeBackoff replaces the Backoff's per-item memory with m.
func writeBackoff(b *flowcontrol.Backoff, m daemonset.Backoff) {
	b.Lock()
	defer b.Unlock()
	mv := fieldOf(b, "perItemBackoff")
	fresh := reflect.MakeMap(mv.Type())
	for k, e := range m {
		p := reflect.New(mv.Type().Elem().Elem())
		s := p.Elem()
		reflect.NewAt(s.FieldByName("backoff").Type(), unsafe.Pointer(s.FieldByName("backoff").UnsafeAddr())).Elem().Set(reflect.ValueOf(e.Delay))
		reflect.NewAt(s.FieldByName("lastUpdate").Type(), unsafe.Pointer(s.FieldByName("lastUpdate").UnsafeAddr())).Elem().Set(reflect.ValueOf(e.LastUpdate))
		fresh.SetMapIndex(reflect.ValueOf(k), p)
	}
	mv.Set(fresh)
}

// eventLog is the ordered record of one sync's calls into the queue and the
// expectations.
type eventLog struct {
	mu      sync.Mutex
	entries []logEntry
}

type logEntry struct {
	kind       string // "satisfied", "set", "after", "ratelimited"
	ok         bool
	add, del   int
	after      time.Duration
	controller string
}

func (l *eventLog) add(e logEntry) {
	l.mu.Lock()
	l.entries = append(l.entries, e)
	l.mu.Unlock()
}

// recordingQueue records AddAfter and AddRateLimited; nothing is queued.
type recordingQueue struct {
	workqueue.TypedRateLimitingInterface[string]
	log *eventLog
}

func (q *recordingQueue) AddAfter(key string, d time.Duration) {
	q.log.add(logEntry{kind: "after", after: d, controller: key})
}

func (q *recordingQueue) AddRateLimited(key string) {
	q.log.add(logEntry{kind: "ratelimited", controller: key})
}

func (q *recordingQueue) Add(string) {}

// expectations logs SatisfiedExpectations and SetExpectations over real
// expectations.
type expectations struct {
	controller.ControllerExpectationsInterface
	log *eventLog
}

func (e *expectations) SatisfiedExpectations(logger klog.Logger, key string) bool {
	ok := e.ControllerExpectationsInterface.SatisfiedExpectations(logger, key)
	e.log.add(logEntry{kind: "satisfied", ok: ok, controller: key})
	return ok
}

func (e *expectations) SetExpectations(logger klog.Logger, key string, add, del int) error {
	e.log.add(logEntry{kind: "set", add: add, del: del, controller: key})
	return e.ControllerExpectationsInterface.SetExpectations(logger, key, add, del)
}

// rig is one instrumented upstream DaemonSet controller.
type rig struct {
	dsc      *daemon.DaemonSetsController
	factory  informers.SharedInformerFactory
	clock    *testingclock.FakeClock
	backoff  *flowcontrol.Backoff
	recorder *record.FakeRecorder
	log      *eventLog

	mu         sync.Mutex
	created    []upCreate
	deleted    []string
	status     *apps.DaemonSetStatus
	revCreated []*apps.ControllerRevision
	revUpdated []*apps.ControllerRevision
	revDeleted []string
	podPatched []string
	// podRelabel: the controller-revision-hash label each patch set
	podRelabel map[string]string
	// podClaimed and revClaimed are the claim's patches (adoptions and
	// releases), one per listing; live is the DaemonSet the recheck reads.
	podClaimed, revClaimed []string
	live                   *apps.DaemonSet
	conflict               bool
	// pods are the listed pods by name; removed the ones a delete of
	// this sync removed from the API at once (removedAtOnce)
	pods    map[string]*v1.Pod
	removed map[string]bool
	client  *fake.Clientset
}

// upCreate is one pod upstream created: its target node and hash label.
type upCreate struct {
	Node, Hash string
}

func newRig(t testing.TB) *rig {
	r := &rig{log: &eventLog{}}
	client := fake.NewSimpleClientset()
	r.client = client
	client.PrependReactor("create", "pods", func(a core.Action) (bool, runtime.Object, error) {
		p := a.(core.CreateAction).GetObject().(*v1.Pod)
		r.mu.Lock()
		r.created = append(r.created, upCreate{
			Node: p.Spec.Affinity.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution.NodeSelectorTerms[0].MatchFields[0].Values[0],
			Hash: p.Labels[apps.DefaultDaemonSetUniqueLabelKey],
		})
		r.mu.Unlock()
		return true, p, nil
	})
	client.PrependReactor("delete", "pods", func(a core.Action) (bool, runtime.Object, error) {
		d := a.(core.DeleteActionImpl)
		r.mu.Lock()
		defer r.mu.Unlock()
		r.deleted = append(r.deleted, d.GetName())
		if p := r.pods[d.GetName()]; p != nil && removedAtOnce(p, d.DeleteOptions) {
			r.removed[d.GetName()] = true
		}
		return true, nil, nil
	})
	client.PrependReactor("patch", "pods", func(a core.Action) (bool, runtime.Object, error) {
		pa := a.(core.PatchAction)
		r.mu.Lock()
		defer r.mu.Unlock()
		if r.removed[pa.GetName()] {
			// a pod this sync's delete removed: the API server has none
			// (the claim of a later listing, from the cache, ignores it)
			r.podClaimed = append(r.podClaimed, pa.GetName())
			return true, nil, apierrors.NewNotFound(v1.Resource("pods"), pa.GetName())
		}
		if pa.GetPatchType() == types.StrategicMergePatchType && strings.Contains(string(pa.GetPatch()), "ownerReferences") {
			// the claim's adoption or release
			r.podClaimed = append(r.podClaimed, pa.GetName())
			return true, &v1.Pod{}, nil
		}
		r.podPatched = append(r.podPatched, pa.GetName())
		var body struct {
			Metadata struct {
				Labels map[string]string `json:"labels"`
			} `json:"metadata"`
		}
		if err := json.Unmarshal(pa.GetPatch(), &body); err == nil {
			if h, ok := body.Metadata.Labels[apps.DefaultDaemonSetUniqueLabelKey]; ok {
				r.podRelabel[pa.GetName()] = h
			}
		}
		return true, &v1.Pod{}, nil
	})
	client.PrependReactor("patch", "controllerrevisions", func(a core.Action) (bool, runtime.Object, error) {
		r.mu.Lock()
		r.revClaimed = append(r.revClaimed, a.(core.PatchAction).GetName())
		r.mu.Unlock()
		return true, &apps.ControllerRevision{}, nil
	})
	// the claim's recheck of the DaemonSet (RecheckDeletionTimestamp)
	// reads it live: the cached copy
	client.PrependReactor("get", "daemonsets", func(a core.Action) (bool, runtime.Object, error) {
		r.mu.Lock()
		defer r.mu.Unlock()
		return true, r.live.DeepCopy(), nil
	})
	client.PrependReactor("update", "daemonsets", func(a core.Action) (bool, runtime.Object, error) {
		ds := a.(core.UpdateAction).GetObject().(*apps.DaemonSet)
		st := *ds.Status.DeepCopy()
		r.mu.Lock()
		r.status = &st
		r.mu.Unlock()
		return true, ds, nil
	})
	client.PrependReactor("create", "controllerrevisions", func(a core.Action) (bool, runtime.Object, error) {
		cr := a.(core.CreateAction).GetObject().(*apps.ControllerRevision)
		r.mu.Lock()
		r.revCreated = append(r.revCreated, cr.DeepCopy())
		r.mu.Unlock()
		return true, cr, nil
	})
	client.PrependReactor("update", "controllerrevisions", func(a core.Action) (bool, runtime.Object, error) {
		cr := a.(core.UpdateAction).GetObject().(*apps.ControllerRevision)
		r.mu.Lock()
		defer r.mu.Unlock()
		if slices.Contains(r.revClaimed, cr.Name) {
			// sent from the cached copy the claim's patch made stale
			r.conflict = true
			return true, nil, apierrors.NewConflict(apps.Resource("controllerrevisions"), cr.Name, fmt.Errorf("the object has been modified"))
		}
		r.revUpdated = append(r.revUpdated, cr.DeepCopy())
		return true, cr, nil
	})
	client.PrependReactor("delete", "controllerrevisions", func(a core.Action) (bool, runtime.Object, error) {
		r.mu.Lock()
		r.revDeleted = append(r.revDeleted, a.(core.DeleteAction).GetName())
		r.mu.Unlock()
		return true, nil, nil
	})
	r.factory = informers.NewSharedInformerFactory(client, controller.NoResyncPeriodFunc())
	r.clock = testingclock.NewFakeClock(t0)
	r.backoff = difftest.DaemonSetBackoff(r.clock)
	dsc, err := daemon.NewDaemonSetsController(context.Background(),
		r.factory.Apps().V1().DaemonSets(), r.factory.Apps().V1().ControllerRevisions(),
		r.factory.Core().V1().Pods(), r.factory.Core().V1().Nodes(), client, r.backoff)
	if err != nil {
		t.Fatal(err)
	}
	difftest.StopOn(t, dsc)
	r.dsc = dsc
	r.recorder = record.NewFakeRecorder(1 << 14)
	fieldOf(dsc, "eventRecorder").Set(reflect.ValueOf(record.EventRecorder(r.recorder)))
	fieldOf(dsc, "queue").Set(reflect.ValueOf(workqueue.TypedRateLimitingInterface[string](&recordingQueue{TypedRateLimitingInterface: fieldOf(dsc, "queue").Interface().(workqueue.TypedRateLimitingInterface[string]), log: r.log})))
	fieldOf(dsc, "consistencyStore").Set(reflect.ValueOf(consistency.ConsistencyStore(consistency.NewNoopConsistencyStore())))
	return r
}

// removedAtOnce reports whether the API server removes pod p at a DELETE
// with opts: v1.36.3's BeforeDelete with the pod strategy finds no grace
// (unscheduled, terminal, or a grace of 0), and no finalizer keeps it.
func removedAtOnce(p *v1.Pod, opts metav1.DeleteOptions) bool {
	if len(p.Finalizers) > 0 {
		return false
	}
	u := &api.Pod{ObjectMeta: metav1.ObjectMeta{Name: p.Name, Namespace: p.Namespace,
		DeletionTimestamp: p.DeletionTimestamp, DeletionGracePeriodSeconds: p.DeletionGracePeriodSeconds}}
	u.Spec.NodeName, u.Spec.TerminationGracePeriodSeconds = p.Spec.NodeName, p.Spec.TerminationGracePeriodSeconds
	u.Status.Phase = api.PodPhase(p.Status.Phase)
	u = u.DeepCopy()
	o := opts.DeepCopy()
	graceful, pending, err := rest.BeforeDelete(registrypod.Strategy, genericapirequest.WithNamespace(context.Background(), p.Namespace), u, o)
	if err != nil || pending {
		return false
	}
	return !graceful || u.DeletionGracePeriodSeconds != nil && *u.DeletionGracePeriodSeconds == 0
}

// upResult is what one upstream sync did.
type upResult struct {
	Err        error
	Created    []upCreate
	Deleted    []string
	Status     *apps.DaemonSetStatus // nil: no status write
	Events     []plan.Event
	Log        []logEntry
	RevCreated []*apps.ControllerRevision
	RevUpdated []*apps.ControllerRevision
	RevDeleted []string
	PodPatched []string
	PodRelabel map[string]string
	PodClaimed []string
	RevClaimed []string
	// Conflict: a revision update the API server refused as stale.
	Conflict bool
	Backoff  daemonset.Backoff
	// Actions are the writes the fake clientset received, in order.
	Actions []core.Action
}

// Queried reports whether the sync reached the expectations check (it
// returns earlier for a DaemonSet being deleted or selecting all).
func (u *upResult) Queried() bool {
	return slices.ContainsFunc(u.Log, func(e logEntry) bool { return e.kind == "satisfied" })
}

// ManageWrites is the creations and deletions manage asked for: the first
// SetExpectations.
func (u *upResult) ManageWrites() (add, del int) {
	for _, e := range u.Log {
		if e.kind == "set" {
			return e.add, e.del
		}
	}
	return 0, 0
}

// Afters splits the AddAfter delays into those before manage set its
// expectations (the failed-pod backoff, in manage) and those after (the
// minReadySeconds resync of the status update).
func (u *upResult) Afters() (backoff, minReady []time.Duration) {
	set := false
	for _, e := range u.Log {
		switch e.kind {
		case "set":
			set = true
		case "after":
			if set {
				minReady = append(minReady, e.after)
			} else {
				backoff = append(backoff, e.after)
			}
		}
	}
	return backoff, minReady
}

// sync stores the objects in the informers, sets the clock to now and
// runs one syncDaemonSet of ds.
func (r *rig) sync(t interface{ Fatal(...any) }, ds *apps.DaemonSet, nodes []*v1.Node, pods []*v1.Pod, revs []*apps.ControllerRevision, now time.Time) *upResult {
	r.created, r.deleted, r.status, r.revCreated, r.revUpdated, r.revDeleted, r.podPatched = nil, nil, nil, nil, nil, nil, nil
	r.podRelabel = map[string]string{}
	r.pods, r.removed = map[string]*v1.Pod{}, map[string]bool{}
	for _, p := range pods {
		r.pods[p.Name] = p
	}
	r.podClaimed, r.revClaimed, r.live, r.conflict = nil, nil, ds, false
	r.log.entries = nil
	r.client.ClearActions()
	fieldOf(r.dsc, "expectations").Set(reflect.ValueOf(controller.ControllerExpectationsInterface(&expectations{ControllerExpectationsInterface: controller.NewControllerExpectations(), log: r.log})))
	r.clock.SetTime(now)
	store := func(s cacheStore, objs []any) {
		if err := s.Replace(objs, "1"); err != nil {
			t.Fatal(err)
		}
	}
	store(r.factory.Core().V1().Nodes().Informer().GetStore(), anys(nodes))
	store(r.factory.Core().V1().Pods().Informer().GetStore(), anys(pods))
	store(r.factory.Apps().V1().ControllerRevisions().Informer().GetStore(), anys(revs))
	store(r.factory.Apps().V1().DaemonSets().Informer().GetStore(), []any{ds})
	err := syncDaemonSet(r.dsc, klog.NewContext(context.Background(), klog.Background()), ds.Namespace+"/"+ds.Name)
	res := &upResult{Err: err, Created: r.created, Deleted: r.deleted, Status: r.status, Log: slices.Clone(r.log.entries),
		RevCreated: r.revCreated, RevUpdated: r.revUpdated, RevDeleted: r.revDeleted, PodPatched: r.podPatched, PodRelabel: r.podRelabel, PodClaimed: r.podClaimed, RevClaimed: r.revClaimed, Conflict: r.conflict, Backoff: readBackoff(r.backoff)}
	for _, a := range r.client.Actions() {
		switch a.GetVerb() {
		case "create", "update", "delete", "patch":
			res.Actions = append(res.Actions, a)
		}
	}
	for {
		select {
		case e := <-r.recorder.Events:
			res.Events = append(res.Events, parseEvent(e))
			continue
		default:
		}
		break
	}
	return res
}

type cacheStore interface {
	Replace([]any, string) error
}

func anys[T any](s []T) []any {
	out := make([]any, len(s))
	for i, x := range s {
		out[i] = x
	}
	return out
}

// parseEvent reads a FakeRecorder line ("Warning FailedDaemonPod Found
// failed daemon pod default/p-1 on node n, will try to kill it") as a
// plan.Event: type, reason, and the pod the message names.
func parseEvent(s string) plan.Event {
	parts := strings.SplitN(s, " ", 3)
	ev := plan.Event{Type: plan.EventType(parts[0]), Reason: plan.Reason(parts[1])}
	if len(parts) == 3 {
		for _, prefix := range []string{"Found failed daemon pod ", "Found succeeded daemon pod "} {
			if rest, ok := strings.CutPrefix(parts[2], prefix); ok {
				nsName, _, _ := strings.Cut(rest, " ")
				_, name, _ := strings.Cut(nsName, "/")
				ev.Object = name
			}
		}
	}
	return ev
}

// ownerRef is the controller reference that makes ds claim an object.
func ownerRef(ds *apps.DaemonSet) []metav1.OwnerReference {
	return []metav1.OwnerReference{*metav1.NewControllerRef(ds, apps.SchemeGroupVersion.WithKind("DaemonSet"))}
}

// revisions builds the ControllerRevisions of a kubesem History for
// upstream: the revisions with the current hash or named in Same hold ds's
// own patch (so upstream's Match finds them current), the others a patch
// of their own;
// each with its metadata as given (labels, owner references, namespace
// defaulting to ds's), labelled with its hash unless it has no
// controller-revision-hash label (upstream then labels it with its name).
func revisions(t interface{ Fatal(...any) }, ds *apps.DaemonSet, h daemonset.History) []*apps.ControllerRevision {
	patch, err := getPatch(ds)
	if err != nil {
		t.Fatal(err)
	}
	var out []*apps.ControllerRevision
	for i := range h.Revisions {
		r := &h.Revisions[i]
		hash := daemonset.RevisionHash(r)
		cr := k8s.ToControllerRevision(*r)
		cr.TypeMeta = metav1.TypeMeta{}
		if cr.Namespace == "" {
			cr.Namespace = ds.Namespace
		}
		if _, ok := r.Labels[history.HashLabel]; ok {
			if cr.Labels == nil {
				cr.Labels = map[string]string{}
			}
			cr.Labels[apps.DefaultDaemonSetUniqueLabelKey] = hash
		}
		if hash == h.Hash || slices.Contains(h.Same, r.Name) {
			cr.Data.Raw = patch
		} else {
			cr.Data.Raw = []byte(fmt.Sprintf(`{"spec":{"template":{"$patch":"replace","metadata":{"name":%q}}}}`, r.Name))
		}
		out = append(out, cr)
	}
	return out
}
