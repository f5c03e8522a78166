package wholecluster_test

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"os"
	"reflect"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unsafe"

	"github.com/go-logr/logr"
	apps "k8s.io/api/apps/v1"
	autoscalingv1 "k8s.io/api/autoscaling/v1"
	batch "k8s.io/api/batch/v1"
	coordv1 "k8s.io/api/coordination/v1"
	v1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	"k8s.io/apimachinery/pkg/api/equality"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	apimeta "k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	kruntime "k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/watch"
	genericapirequest "k8s.io/apiserver/pkg/endpoints/request"
	discoveryfake "k8s.io/client-go/discovery/fake"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes/fake"
	corelisters "k8s.io/client-go/listers/core/v1"
	scalefake "k8s.io/client-go/scale/fake"
	core "k8s.io/client-go/testing"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/tools/record"
	"k8s.io/client-go/util/flowcontrol"
	"k8s.io/client-go/util/workqueue"
	"k8s.io/klog/v2"
	policy "k8s.io/kubernetes/pkg/apis/policy"
	"k8s.io/kubernetes/pkg/controller"
	"k8s.io/kubernetes/pkg/controller/cronjob"
	"k8s.io/kubernetes/pkg/controller/daemon"
	"k8s.io/kubernetes/pkg/controller/deployment"
	"k8s.io/kubernetes/pkg/controller/disruption"
	"k8s.io/kubernetes/pkg/controller/garbagecollector"
	jobcontroller "k8s.io/kubernetes/pkg/controller/job"
	"k8s.io/kubernetes/pkg/controller/nodelifecycle"
	"k8s.io/kubernetes/pkg/controller/nodelifecycle/scheduler"
	upodgc "k8s.io/kubernetes/pkg/controller/podgc"
	"k8s.io/kubernetes/pkg/controller/replicaset"
	"k8s.io/kubernetes/pkg/controller/statefulset"
	"k8s.io/kubernetes/pkg/controller/tainteviction"
	podstorage "k8s.io/kubernetes/pkg/registry/core/pod/storage"
	testingclock "k8s.io/utils/clock/testing"

	"github.com/kubesem/kubesem/conformance/upstream/internal/difftest"
	"github.com/kubesem/kubesem/plan"
)

// Evict sends pods/eviction of pod ns/name as actor to v1.36.3's eviction
// subresource; its writes are traced as the environment's (Apply).
func (w *world) Evict(actor, ns, name string) (eviction, error) {
	if w.evictions == nil {
		w.evictions = newEvictionStorage(podStore{w: w}, w.client.PolicyV1())
	}
	w.begin(ctlEnvironment, actor)
	ctx := genericapirequest.WithNamespace(w.ctx, ns)
	obj, err := w.evictions.Create(ctx, name, &policy.Eviction{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: ns}}, nil, &metav1.CreateOptions{})
	if serr := w.end(nil); serr != nil {
		return eviction{}, serr
	}
	if err != nil {
		var se apierrors.APIStatus
		if !errors.As(err, &se) {
			return eviction{}, err
		}
		st := se.Status()
		out := eviction{code: st.Code, msg: st.Message}
		if st.Details != nil && len(st.Details.Causes) > 0 && st.Code == 429 {
			out.msg = st.Details.Causes[0].Message
		}
		return out, nil
	}
	if st, ok := obj.(*metav1.Status); ok && st.Status != metav1.StatusSuccess {
		return eviction{code: st.Code, msg: st.Message}, nil
	}
	return eviction{code: 201}, nil
}

// This file is the upstream side of the whole-cluster differential (issue
// 20 step 5): the REAL v1.36.3 controllers — deployment, replicaset,
// statefulset, daemonset, job, cronjob, disruption, podgc, node lifecycle
// and taint eviction — built by their own constructors on ONE fake
// clientset (k8s.io/client-go/kubernetes/fake) whose storage is
// apiServer (apiserver_test.go) and ONE shared informer
// factory whose informers really run (list and watch), driven
// synchronously:
//
//	w.syncAll(now)
//
// sets every injected clock to now and, for each controller in the order
// of CLUSTER.md (deployment, replicaset, statefulset, daemonset, job,
// cronjob, disruption, podgc, node lifecycle, then taint eviction) and
// each object in (namespace, name) order, calls the controller's sync
// handler directly — never its workers or queues — and then waits until
// every informer event handler of every controller has received every
// watch event the writes produced (world.settle: it counts, per
// resource, the events the API server sent and the calls each registered
// handler finished; no sleeping as a guess, a wall-clock bound only turns
// a hang into a failure). Each sync therefore sees the world as left by
// the writes before it, with the controller's expectations lowered by its
// own handlers, like kube-controller-manager with a perfectly fresh cache.
// During a sync the watch events are held back (apiServer.pause), so
// the informers do not change under the controller: upstream, a
// controller that reads its lister after writing (the DaemonSet status
// after its pod creations, for one) sees whichever of its writes the
// informer happened to receive; the harness fixes that to none of them.
//
// What each controller is given:
//
//   - deployment: NewDeploymentController; its syncHandler; the package
//     clocks deployment.nowFn and deployment/util.nowFn set to the harness
//     clock (both are package variables: one world runs at a time);
//   - replicaset: NewReplicaSetController(…, replicaset.BurstReplicas); its
//     syncHandler; its clock field;
//   - statefulset: NewStatefulSetController; sync; its clock field;
//   - daemonset: NewDaemonSetsController with kube-controller-manager's
//     failed-pod backoff (difftest.DaemonSetBackoff) on the harness clock; its
//     syncHandler;
//   - job: newControllerWithClock on the harness clock (no Workload or
//     PodGroup informers: that feature is off by default); syncHandler;
//     then its orphan worker's handleSingleOrphanPod for every pod that
//     carries the tracking finalizer (at least the pods its handlers
//     enqueue: an orphan pod's events, a deleted or finished Job's
//     selector; it writes only for an orphan);
//   - cronjob: NewControllerV2; sync; its now field;
//   - disruption: NewDisruptionControllerInternal on the harness clock with
//     the public constructor's stale-condition timeout (difftest.DisruptionStaleTimeout),
//     its pod lister listing in name order (sortedPods), a REST mapper,
//     discovery and scale client as kube-apiserver serves the modelled
//     kinds (scaleWorld);
//     sync for every budget its handlers or its recheck queue would sync
//     (pdbWake: the budget or a pod it selects changed since its last
//     sync, or a disruptedPods entry expired), then syncStalePodDisruption
//     for every pod carrying a DisruptionTarget condition;
//   - podgc: NewPodGC with kube-controller-manager's default threshold
//     (12,500, podgc/config/v1alpha1 defaults); one gc pass; its
//     orphan-node quarantine queue is replaced by delayQueue, the same
//     quarantine (upstream's) counted on the harness clock;
//   - node lifecycle: NewNodeLifecycleController with kube-controller-
//     manager's defaults (difftest.UpstreamNodeConfig); its now field and the
//     tainting queues' scheduler.now on the harness clock; one pass as the
//     node step differential runs it: monitorNodeHealth (only when its
//     period, counted from the first pass, is due, as wait.Until runs it), one
//     doNoExecuteTaintingPass, then its node worker's work for every node
//     in name order (doNoScheduleTaintingPass, reconcileNodeLabels: both
//     write only what is missing, so running them for every node is
//     running them for the nodes its handlers enqueue), then its pod
//     worker's processPod for every pod bound or moved since the last pass
//     (its podUpdated filter); the zone rate limiters are moved onto the
//     harness clock after monitorNodeHealth (adoptLimiters) and the
//     tainting heaps ordered by (time, name) (orderTainters);
//   - taint eviction: tainteviction.New; its timed-work queue's clock is a
//     second fake clock set to now at the start of this phase, so work due
//     by now fires (its goroutines are waited for); then what its node and
//     pod handlers and workers would do for the changes since the last
//     pass, with their filters (NodeUpdated: a node's NoExecute taints
//     changed; PodUpdated: a pod is new, gone, or its node or tolerations
//     changed), at now instead of the wall clock they read: for each
//     changed node in name order, processPodOnNode for each of its pods
//     (or cancellation when no NoExecute taint is left), then for each
//     changed pod not already handled in (namespace, name) order,
//     processPodOnNode if its node has NoExecute taints, and cancellation
//     for each pod gone. Upstream's workers interleave the two queues
//     (pod updates first when both are ready); the harness runs nodes
//     first.
//
// Every controller's event recorder — including those inside pod,
// ReplicaSet and ControllerRevision controls — is replaced (setRecorders)
// by a synchronous recorder that appends to the trace.
//
// The trace. Every request a controller or the environment sends that
// writes (create, update, patch, delete; with its subresource) is one
// traceRecord shaped like kubesem's plan.Write — verb, resource, subresource,
// namespace, name, uid precondition, grace period, and the object (for a
// create the object as sent, whose Name the record fills with the name the
// server assigned; for an update the object as sent; for a patch the
// object after the patch; nil for a delete) — with the time, the
// controller and the object being synced, and the API error if the write
// failed. Every event is a traceRecord with a plan.Event (Object is the
// involved object as "Kind namespace/name", "Kind name" when cluster-
// scoped; Message the formatted message).
//
// Nondeterminism upstream, and what the harness does about it:
//
//   - generateName suffixes and uids are random in the API server: the
//     harness derives them from the request (apiServer); canonical then
//     maps every generated name and every uid to its order of first
//     appearance in the trace, so traces from two implementations with
//     different namers compare;
//   - controllers write concurrently (slowStartBatch creations, parallel
//     deletions, the node lifecycle's eight workers, taint-eviction timers):
//     within one sync the order of consecutive writes of the same verb and
//     resource, and of the events recorded among them, is the goroutines'
//     interleaving, so each such segment is put in a canonical order
//     (sortRuns: the writes by (namespace, name, JSON), then the events)
//     — the order the kubesem side must produce too; resourceVersions
//     number concurrent requests in arrival order, so canonical drops
//     them;
//   - a controller reading its lister after its own writes: fixed by
//     holding the watch events back during a sync (above);
//   - wall-clock stamps upstream does not take from an injectable clock:
//     metav1.Now() in deployment/util.NewDeploymentCondition,
//     replicaset NewReplicaSetCondition and podutil.UpdatePodCondition
//     (node lifecycle's MarkPodsNotReady): the API server replaces every
//     metav1.Time in a written object that lies in the wall-clock window of
//     the run with the harness clock (truncated to seconds, as JSON
//     storage would). Within one sync the deployment controller compares
//     a condition it has just stamped with metav1.Now() against its
//     injected nowFn (DeploymentTimedOut); so that a fresh stamp never
//     looks old, every harness instant must be at least a day before the
//     wall clock (newWorld and syncAll refuse others): a fresh stamp is
//     then in the harness's future, as it is "now" upstream;
//   - the ReplicaSet controller ranks pods for scale-down at the wall
//     clock (getPodsRankedByRelatedPodsOnSameNode, replica_set.go): every
//     pod then counts as Ready for years, which only matters for
//     LogarithmicScaleDown's buckets of pods ready within the last
//     seconds; not canonicalized;
//   - map iteration inside the node lifecycle's zone handling: the
//     differential pins what it can (nodelifecycle in node_step_diff);
//     the harness orders the tainting queues only.
//
// The environment: Apply (any create, update — "status" and "binding"
// subresources included — or delete, by a named actor: scheduler,
// kubelet/<node>, user …), Evict (pods/eviction through v1.36.3's
// eviction subresource) and CollectGarbage are the hooks; the
// environment model itself (which pod binds where, when a kubelet reports
// what) is the caller's: the tests here drive a small one, the kubesem
// cluster package's is meant to drive both sides. syncQuiet repeats
// syncAll at one instant while it writes, as the informer events of those
// writes would trigger more syncs upstream.
//
// Simplifications (documented, not hidden): the garbage collector is an
// environment hook (CollectGarbage: background propagation and orphaning,
// run when the environment calls it); no scheduler or kubelet of upstream's; no
// ReplicationController controller (it is the ReplicaSet controller on
// RCs; no RC appears in these tests); no requeue bookkeeping (every
// object is synced at every syncAll, which is at least what a requeue or
// AddAfter asks for, and a due requeue between two instants waits for the
// next one), except for the CronJobs with cronRequeues and the budgets
// (pdbWake: the disruption controller's fail-safe status write is sent
// even when nothing changed, so a budget synced more often than its
// handlers would wake it writes more); taint-eviction work fires at the
// first syncAll at or after its time.

var (
	gvrPods         = v1.SchemeGroupVersion.WithResource("pods")
	gvrNodes        = v1.SchemeGroupVersion.WithResource("nodes")
	gvrLeases       = coordv1.SchemeGroupVersion.WithResource("leases")
	gvrPVCs         = v1.SchemeGroupVersion.WithResource("persistentvolumeclaims")
	gvrRCs          = v1.SchemeGroupVersion.WithResource("replicationcontrollers")
	gvrDeployments  = apps.SchemeGroupVersion.WithResource("deployments")
	gvrReplicaSets  = apps.SchemeGroupVersion.WithResource("replicasets")
	gvrStatefulSets = apps.SchemeGroupVersion.WithResource("statefulsets")
	gvrDaemonSets   = apps.SchemeGroupVersion.WithResource("daemonsets")
	gvrRevisions    = apps.SchemeGroupVersion.WithResource("controllerrevisions")
	gvrJobs         = batch.SchemeGroupVersion.WithResource("jobs")
	gvrCronJobs     = batch.SchemeGroupVersion.WithResource("cronjobs")
	gvrPDBs         = policyv1.SchemeGroupVersion.WithResource("poddisruptionbudgets")
)

// kinds maps each modelled Go type to its resource and kind.
var kinds = map[reflect.Type]struct {
	gvr schema.GroupVersionResource
	gvk schema.GroupVersionKind
}{
	reflect.TypeOf(&v1.Pod{}):                       {gvrPods, v1.SchemeGroupVersion.WithKind("Pod")},
	reflect.TypeOf(&v1.Node{}):                      {gvrNodes, v1.SchemeGroupVersion.WithKind("Node")},
	reflect.TypeOf(&coordv1.Lease{}):                {gvrLeases, coordv1.SchemeGroupVersion.WithKind("Lease")},
	reflect.TypeOf(&v1.PersistentVolumeClaim{}):     {gvrPVCs, v1.SchemeGroupVersion.WithKind("PersistentVolumeClaim")},
	reflect.TypeOf(&v1.ReplicationController{}):     {gvrRCs, v1.SchemeGroupVersion.WithKind("ReplicationController")},
	reflect.TypeOf(&apps.Deployment{}):              {gvrDeployments, apps.SchemeGroupVersion.WithKind("Deployment")},
	reflect.TypeOf(&apps.ReplicaSet{}):              {gvrReplicaSets, apps.SchemeGroupVersion.WithKind("ReplicaSet")},
	reflect.TypeOf(&apps.StatefulSet{}):             {gvrStatefulSets, apps.SchemeGroupVersion.WithKind("StatefulSet")},
	reflect.TypeOf(&apps.DaemonSet{}):               {gvrDaemonSets, apps.SchemeGroupVersion.WithKind("DaemonSet")},
	reflect.TypeOf(&apps.ControllerRevision{}):      {gvrRevisions, apps.SchemeGroupVersion.WithKind("ControllerRevision")},
	reflect.TypeOf(&batch.Job{}):                    {gvrJobs, batch.SchemeGroupVersion.WithKind("Job")},
	reflect.TypeOf(&batch.CronJob{}):                {gvrCronJobs, batch.SchemeGroupVersion.WithKind("CronJob")},
	reflect.TypeOf(&policyv1.PodDisruptionBudget{}): {gvrPDBs, policyv1.SchemeGroupVersion.WithKind("PodDisruptionBudget")},
}

func kindOf(gvr schema.GroupVersionResource) schema.GroupVersionKind {
	for _, k := range kinds {
		if k.gvr == gvr {
			return k.gvk
		}
	}
	panic("unmodelled resource " + gvr.String())
}

// Controller names, in the order syncAll runs them (CLUSTER.md).
const (
	ctlDeployment  = "deployment"
	ctlReplicaSet  = "replicaset"
	ctlStatefulSet = "statefulset"
	ctlDaemonSet   = "daemonset"
	ctlJob         = "job"
	ctlCronJob     = "cronjob"
	ctlDisruption  = "disruption"
	ctlPodGC       = "podgc"
	ctlNodeLife    = "nodelifecycle"
	ctlTaintEvict  = "tainteviction"
	ctlEnvironment = "environment"
	settleBound    = 3 * time.Second // wall-clock bound of one settle: a hang fails, it does not wait
	canonNameSep   = "#"
)

//go:linkname stsSync k8s.io/kubernetes/pkg/controller/statefulset.(*StatefulSetController).sync
func stsSync(ssc *statefulset.StatefulSetController, ctx context.Context, key string) error

//go:linkname nlProcessPod k8s.io/kubernetes/pkg/controller/nodelifecycle.(*Controller).processPod
func nlProcessPod(nc *nodelifecycle.Controller, ctx context.Context, item nlPodItem)

//go:linkname nlReconcileLabels k8s.io/kubernetes/pkg/controller/nodelifecycle.(*Controller).reconcileNodeLabels
func nlReconcileLabels(nc *nodelifecycle.Controller, ctx context.Context, nodeName string) error

// nlPodItem has the layout of nodelifecycle's podUpdateItem
// (namespace, name), the argument of processPod.
type nlPodItem struct{ namespace, name string }

//go:linkname jobHandleOrphan k8s.io/kubernetes/pkg/controller/job.(*Controller).handleSingleOrphanPod
func jobHandleOrphan(jm *jobcontroller.Controller, ctx context.Context, pod *v1.Pod) error

//go:linkname cronSync k8s.io/kubernetes/pkg/controller/cronjob.(*ControllerV2).sync
func cronSync(jm *cronjob.ControllerV2, ctx context.Context, key string) (*time.Duration, error)

// traceRecord is one entry of the trace: a write (shaped like plan.Write) or
// an event.
type traceRecord struct {
	Time       time.Time   `json:"time"`
	Controller string      `json:"controller"`
	Key        string      `json:"key,omitempty"` // the object synced; "" for a whole-cluster pass
	Write      *plan.Write `json:"write,omitempty"`
	Event      *plan.Event `json:"event,omitempty"`
	Err        string      `json:"err,omitempty"` // the API error a write got, or a sync's error
}

// apiField is the settable field name of *obj, exported or not.
func fieldOf(obj any, name string) reflect.Value {
	return difftest.Field(reflect.ValueOf(obj).Elem(), name)
}

// countingInformer wraps a shared informer so that every event handler
// registered on it counts the notifications it has finished handling.
type countingInformer struct {
	cache.SharedIndexInformer
	w        *world
	resource string
}

type counted struct {
	h cache.ResourceEventHandler
	n *atomic.Int64
}

func (c counted) OnAdd(obj any, initial bool) { c.h.OnAdd(obj, initial); c.n.Add(1) }

func (c counted) OnUpdate(old, cur any) { c.h.OnUpdate(old, cur); c.n.Add(1) }

func (c counted) OnDelete(obj any) { c.h.OnDelete(obj); c.n.Add(1) }

func (i *countingInformer) count(h cache.ResourceEventHandler) cache.ResourceEventHandler {
	n := &atomic.Int64{}
	i.w.mu.Lock()
	i.w.handlers[i.resource] = append(i.w.handlers[i.resource], n)
	i.w.mu.Unlock()
	return counted{h, n}
}

func (i *countingInformer) AddEventHandler(h cache.ResourceEventHandler) (cache.ResourceEventHandlerRegistration, error) {
	return i.SharedIndexInformer.AddEventHandler(i.count(h))
}

func (i *countingInformer) AddEventHandlerWithResyncPeriod(h cache.ResourceEventHandler, p time.Duration) (cache.ResourceEventHandlerRegistration, error) {
	return i.SharedIndexInformer.AddEventHandlerWithResyncPeriod(i.count(h), p)
}

func (i *countingInformer) AddEventHandlerWithOptions(h cache.ResourceEventHandler, o cache.HandlerOptions) (cache.ResourceEventHandlerRegistration, error) {
	return i.SharedIndexInformer.AddEventHandlerWithOptions(i.count(h), o)
}

// countedTyped is a typed informer (PodInformer, DeploymentInformer …) whose
// Informer is the counting wrapper.
type countedTyped[L any] struct {
	inf    *countingInformer
	lister L
}

func (x countedTyped[L]) Informer() cache.SharedIndexInformer { return x.inf }

func (x countedTyped[L]) Lister() L { return x.lister }

func wrapInformer[L any](w *world, resource string, typed interface {
	Informer() cache.SharedIndexInformer
	Lister() L
}) countedTyped[L] {
	inf := &countingInformer{SharedIndexInformer: typed.Informer(), w: w, resource: resource}
	w.stores[resource] = inf.GetStore()
	// one counting handler of the harness's own, so that every informer
	// is waited for even when no controller registers a handler on it
	if _, err := inf.AddEventHandler(cache.ResourceEventHandlerFuncs{}); err != nil {
		panic(err)
	}
	return countedTyped[L]{inf: inf, lister: typed.Lister()}
}

// recorder records events synchronously into the trace.
type recorder struct{ w *world }

func (r recorder) Event(o kruntime.Object, typ, reason, msg string) { r.w.event(o, typ, reason, msg) }

func (r recorder) Eventf(o kruntime.Object, typ, reason, f string, args ...any) {
	r.w.event(o, typ, reason, fmt.Sprintf(f, args...))
}

func (r recorder) AnnotatedEventf(o kruntime.Object, _ map[string]string, typ, reason, f string, args ...any) {
	r.w.event(o, typ, reason, fmt.Sprintf(f, args...))
}

func (r recorder) WithLogger(klog.Logger) record.EventRecorderLogger { return r }

var (
	recorderType       = reflect.TypeOf((*record.EventRecorder)(nil)).Elem()
	recorderLoggerType = reflect.TypeOf((*record.EventRecorderLogger)(nil)).Elem()
)

// setRecorders replaces every event recorder reachable from root
// through the controller packages' own structs (pointers, embedded and
// named fields, interfaces holding them) by rec.
func setRecorders(root any, rec recorder) int {
	seen := map[uintptr]bool{}
	n := 0
	var walk func(v reflect.Value) // v addressable struct
	inPkg := func(t reflect.Type) bool {
		return strings.HasPrefix(t.PkgPath(), "k8s.io/kubernetes/pkg/controller")
	}
	var visit func(f reflect.Value)
	visit = func(f reflect.Value) {
		switch f.Kind() {
		case reflect.Interface:
			if f.Type() == recorderType || f.Type() == recorderLoggerType {
				if !f.IsNil() {
					f.Set(reflect.ValueOf(rec))
					n++
				}
				return
			}
			if f.IsNil() {
				return
			}
			e := f.Elem()
			switch {
			case e.Kind() == reflect.Pointer && e.Elem().Kind() == reflect.Struct && inPkg(e.Elem().Type()):
				if !seen[e.Pointer()] {
					seen[e.Pointer()] = true
					walk(e.Elem())
				}
			case e.Kind() == reflect.Struct && inPkg(e.Type()):
				cp := reflect.New(e.Type()).Elem()
				cp.Set(e)
				walk(cp)
				f.Set(cp)
			}
		case reflect.Pointer:
			if !f.IsNil() && f.Elem().Kind() == reflect.Struct && inPkg(f.Elem().Type()) && !seen[f.Pointer()] {
				seen[f.Pointer()] = true
				walk(f.Elem())
			}
		case reflect.Struct:
			if inPkg(f.Type()) {
				walk(f)
			}
		}
	}
	walk = func(v reflect.Value) {
		for i := 0; i < v.NumField(); i++ {
			f := v.Field(i)
			visit(reflect.NewAt(f.Type(), unsafe.Pointer(f.UnsafeAddr())).Elem())
		}
	}
	rv := reflect.ValueOf(root)
	seen[rv.Pointer()] = true
	walk(rv.Elem())
	return n
}

// delayQueue is the pod GC's orphan-node queue on the harness clock: an
// item added after d becomes ready when the clock reaches now+d; ready
// items come out in (due, name) order. Len and Get see only ready items.
type delayQueue struct {
	now   func() time.Time
	mu    sync.Mutex
	wait  map[string]time.Time
	ready []string
	in    map[string]bool
}

func (q *delayQueue) promote() {
	var due []string
	t := q.now()
	for k, at := range q.wait {
		if !at.After(t) {
			due = append(due, k)
		}
	}
	sort.Slice(due, func(i, j int) bool {
		a, b := q.wait[due[i]], q.wait[due[j]]
		if !a.Equal(b) {
			return a.Before(b)
		}
		return due[i] < due[j]
	})
	for _, k := range due {
		delete(q.wait, k)
		if !q.in[k] {
			q.in[k] = true
			q.ready = append(q.ready, k)
		}
	}
}

func (q *delayQueue) Add(k string) { q.AddAfter(k, 0) }

func (q *delayQueue) AddAfter(k string, d time.Duration) {
	q.mu.Lock()
	defer q.mu.Unlock()
	at := q.now().Add(d)
	if cur, ok := q.wait[k]; !ok || at.Before(cur) {
		q.wait[k] = at
	}
	q.promote()
}

func (q *delayQueue) Len() int {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.promote()
	return len(q.ready)
}

func (q *delayQueue) Get() (string, bool) {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.promote()
	if len(q.ready) == 0 {
		return "", true
	}
	k := q.ready[0]
	q.ready = q.ready[1:]
	delete(q.in, k)
	return k, false
}

func (q *delayQueue) Done(string) {}

func (q *delayQueue) ShutDown() {}

func (q *delayQueue) ShutDownWithDrain() {}

func (q *delayQueue) ShuttingDown() bool { return false }

// world is the whole control plane of v1.36.3 on one fake API server.
type world struct {
	ctx    context.Context
	cancel context.CancelFunc

	clock      *testingclock.FakeClock // every controller's clock
	taintClock *testingclock.FakeClock // the taint-eviction timers
	wallStart  time.Time

	api     *apiServer
	client  *fake.Clientset
	factory informers.SharedInformerFactory

	dc   *deployment.DeploymentController
	rsc  *replicaset.ReplicaSetController
	ssc  *statefulset.StatefulSetController
	dsc  *daemon.DaemonSetsController
	jm   jobController
	jc   *jobcontroller.Controller // the Job controller jm syncs, kept for close
	cjm  *cronjob.ControllerV2
	pdbc *disruption.DisruptionController
	gcc  *upodgc.PodGCController
	nc   *nodelifecycle.Controller
	tc   *tainteviction.Controller

	ncLimiters map[flowcontrol.RateLimiter]bool // zone limiters already on the harness clock
	// monitorPeriod is kube-controller-manager's node monitor period;
	// monitorAt is when the next monitorNodeHealth is due (zero: it has
	// not run): upstream runs it every period (wait.UntilWithContext),
	// not on events.
	monitorPeriod time.Duration
	monitorAt     time.Time
	nlPods        map[string]string     // each pod's node at the last node lifecycle pass
	teNodes       map[string][]v1.Taint // NoExecute taints per node at the last taint-eviction pass
	tePods        map[string]tePod      // pods at the last taint-eviction pass
	taintQueue    *tainteviction.TimedWorkerQueue
	taintWG       *sync.WaitGroup

	mu       sync.Mutex
	handlers map[string][]*atomic.Int64 // resource → finished notifications of each handler
	stores   map[string]cache.Store     // resource → its informer's store
	// checkStores makes every settle also compare each informer store with
	// the API server, object by object (resourceVersions): a check of the
	// counting, for tests; the benchmark leaves it off.
	checkStores bool
	// cronRequeues makes the CronJob controller sync a CronJob only when
	// its handlers or its work queue would (the differential turns it on):
	// the CronJob or one of its Jobs changed since its last sync (its
	// informer handlers enqueue it at once), or the requeue its sync
	// returned (the next schedule time + 100 ms) is due. Off, every
	// CronJob syncs at every syncAll. (A schedule change is treated as any
	// change: upstream's updateCronJob then enqueues it after the new
	// schedule's next time instead.)
	cronRequeues bool
	cronDue      map[string]time.Time
	cronSeen     map[string]string
	// pdbSeen is each budget's wake fingerprint at its last sync, pdbLast
	// when that was (pdbWake): a budget syncs only when its handlers or
	// its recheck queue would sync it (its fail-safe status write, after
	// a failed sync, writes even when nothing changed)
	pdbSeen map[string]string
	pdbLast map[string]time.Time
	// evictions is the eviction subresource (eviction_test.go)
	evictions *podstorage.EvictionREST
	step      traceRecord   // the controller and key writing now
	cur       []traceRecord // records of the running step
	trace     []traceRecord
	restore   func()
}

// jobController is the Job controller's sync entry point.
type jobController struct {
	sync func(context.Context, string) error
}

// newWorld builds the control plane at start. start must be at least a
// day before the wall clock (see the wall-clock stamps above).
func newWorld(start time.Time) (_ *world, err error) {
	wall := time.Now()
	if wall.Sub(start) < 24*time.Hour {
		return nil, fmt.Errorf("harness start %v is not a day before the wall clock", start)
	}
	w := &world{
		clock:      testingclock.NewFakeClock(start),
		taintClock: testingclock.NewFakeClock(start),
		wallStart:  wall,
		handlers:   map[string][]*atomic.Int64{},
		stores:     map[string]cache.Store{},
		ncLimiters: map[flowcontrol.RateLimiter]bool{},
		nlPods:     map[string]string{},
		teNodes:    map[string][]v1.Taint{},
		tePods:     map[string]tePod{},
		cronDue:    map[string]time.Time{},
		cronSeen:   map[string]string{},
		pdbSeen:    map[string]string{},
		pdbLast:    map[string]time.Time{},
	}
	w.ctx, w.cancel = context.WithCancel(klog.NewContext(context.Background(), logr.Discard()))
	defer func() {
		if err != nil {
			w.close() // what was built so far
		}
	}()
	w.api = newAPIServer(w.clock.Now)
	w.api.fixTime = w.fixTime
	w.client = fake.NewClientset()
	w.client.PrependReactor("*", "*", w.react)
	w.client.PrependWatchReactor("*", func(a core.Action) (bool, watch.Interface, error) {
		rv := ""
		if wa, ok := a.(core.WatchActionImpl); ok {
			rv = wa.ListOptions.ResourceVersion
		}
		return true, w.api.watch(a.GetResource(), rv), nil
	})
	w.factory = informers.NewSharedInformerFactory(w.client, 0)
	f := w.factory
	pods := wrapInformer(w, "pods", f.Core().V1().Pods())
	nodes := wrapInformer(w, "nodes", f.Core().V1().Nodes())
	leases := wrapInformer(w, "leases", f.Coordination().V1().Leases())
	pvcs := wrapInformer(w, "persistentvolumeclaims", f.Core().V1().PersistentVolumeClaims())
	rcs := wrapInformer(w, "replicationcontrollers", f.Core().V1().ReplicationControllers())
	deps := wrapInformer(w, "deployments", f.Apps().V1().Deployments())
	rss := wrapInformer(w, "replicasets", f.Apps().V1().ReplicaSets())
	sss := wrapInformer(w, "statefulsets", f.Apps().V1().StatefulSets())
	dss := wrapInformer(w, "daemonsets", f.Apps().V1().DaemonSets())
	revs := wrapInformer(w, "controllerrevisions", f.Apps().V1().ControllerRevisions())
	jobs := wrapInformer(w, "jobs", f.Batch().V1().Jobs())
	cjs := wrapInformer(w, "cronjobs", f.Batch().V1().CronJobs())
	pdbs := wrapInformer(w, "poddisruptionbudgets", f.Policy().V1().PodDisruptionBudgets())
	ctx := w.ctx
	rec := recorder{w}

	// package clocks of the deployment controller
	oldD, oldU := difftest.DeploymentNowFn, difftest.DeploymentUtilNowFn
	difftest.DeploymentNowFn, difftest.DeploymentUtilNowFn = w.clock.Now, w.clock.Now
	oldSched := difftest.NodeSchedulerNow
	difftest.NodeSchedulerNow = w.clock.Now
	w.restore = func() {
		difftest.DeploymentNowFn, difftest.DeploymentUtilNowFn, difftest.NodeSchedulerNow = oldD, oldU, oldSched
	}

	if w.dc, err = deployment.NewDeploymentController(ctx, deps, rss, pods, w.client); err != nil {
		return nil, err
	}
	w.rsc = replicaset.NewReplicaSetController(ctx, rss, pods, w.client, replicaset.BurstReplicas)
	fieldOf(w.rsc, "clock").Set(reflect.ValueOf(w.clock))
	w.ssc = statefulset.NewStatefulSetController(ctx, pods, sss, pvcs, revs, w.client)
	fieldOf(w.ssc, "clock").Set(reflect.ValueOf(w.clock))
	if w.dsc, err = daemon.NewDaemonSetsController(ctx, dss, revs, pods, nodes, w.client, difftest.DaemonSetBackoff(w.clock)); err != nil {
		return nil, err
	}
	if w.jc, err = difftest.NewJobController(ctx, w.client, w.clock, pods, jobs, nil, nil); err != nil {
		return nil, err
	}
	jc := w.jc
	w.jm.sync = fieldOf(jc, "syncHandler").Interface().(func(context.Context, string) error)
	if w.cjm, err = cronjob.NewControllerV2(ctx, jobs, cjs, w.client); err != nil {
		return nil, err
	}
	fieldOf(w.cjm, "now").Set(reflect.ValueOf(w.clock.Now))
	mapper, disc, scales := w.scaleWorld()
	sortedPods := countedTyped[corelisters.PodLister]{inf: pods.inf, lister: sortedPods{pods.lister}}
	w.pdbc = disruption.NewDisruptionControllerInternal(ctx, sortedPods, pdbs, rcs, rss, deps, sss, w.client,
		mapper, scales, disc, w.clock, difftest.DisruptionStaleTimeout())
	w.gcc = upodgc.NewPodGC(ctx, w.client, pods, nodes, 12500)
	difftest.Stop(w.gcc) // its node queue, replaced by one on the harness clock
	fieldOf(w.gcc, "nodeQueue").Set(reflect.ValueOf(workqueue.TypedDelayingInterface[string](&delayQueue{now: w.clock.Now, wait: map[string]time.Time{}, in: map[string]bool{}})))
	cfg, err := difftest.UpstreamNodeConfig()
	if err != nil {
		return nil, err
	}
	w.monitorPeriod = cfg.MonitorPeriod
	if w.nc, err = nodelifecycle.NewNodeLifecycleController(ctx, leases, pods, nodes, dss, w.client, cfg.MonitorPeriod, cfg.StartupGrace,
		cfg.MonitorGrace, cfg.EvictionRate, cfg.SecondaryRate, cfg.LargeCluster, cfg.Unhealthy); err != nil {
		return nil, err
	}
	fieldOf(w.nc, "now").Set(reflect.ValueOf(func() metav1.Time { return metav1.NewTime(w.clock.Now()) }))
	if w.tc, err = tainteviction.New(ctx, w.client, pods, nodes, "taint-eviction-controller"); err != nil {
		return nil, err
	}
	w.taintQueue = fieldOf(w.tc, "taintEvictionQueue").Interface().(*tainteviction.TimedWorkerQueue)
	difftest.Field(reflect.ValueOf(w.taintQueue).Elem(), "clock").Set(reflect.ValueOf(w.taintClock))
	w.taintWG = (*sync.WaitGroup)(unsafe.Pointer(reflect.ValueOf(w.taintQueue).Elem().FieldByName("workerWG").UnsafeAddr()))
	// (the pod GC records no events)
	for _, c := range []any{w.dc, w.rsc, w.ssc, w.dsc, jc, w.cjm, w.pdbc, w.nc, w.tc} {
		if setRecorders(c, rec) == 0 {
			return nil, fmt.Errorf("%T: no event recorder found", c)
		}
	}
	w.factory.Start(w.ctx.Done())
	for typ, ok := range w.factory.WaitForCacheSync(w.ctx.Done()) {
		if !ok {
			return nil, fmt.Errorf("informer %v did not sync", typ)
		}
	}
	all := []schema.GroupVersionResource{gvrPods, gvrNodes, gvrLeases, gvrPVCs, gvrRCs, gvrDeployments, gvrReplicaSets,
		gvrStatefulSets, gvrDaemonSets, gvrRevisions, gvrJobs, gvrCronJobs, gvrPDBs}
	for deadline := time.Now().Add(settleBound); !w.api.watching(all); {
		if time.Now().After(deadline) {
			return nil, fmt.Errorf("informers did not start watching within %v", settleBound)
		}
		time.Sleep(100 * time.Microsecond)
	}
	return w, nil
}

// sortedPods is a pod lister whose lists are in (namespace, name) order:
// the disruption controller's. Upstream's lister lists in Go map order
// (cache.threadSafeMap's index sets), and the controller's fail-safe
// condition names the first pod in that order whose controller it cannot
// find (getExpectedScale: "found no controllers for pod …"), so any such
// pod is upstream's answer, and a message that changes from one sync to
// the next rewrites the status and wakes the budget again, a loop of
// random length; the harness pins the order to names (the world names the
// first by name), one of upstream's possible runs.
type sortedPods struct{ corelisters.PodLister }

func sortPods(ps []*v1.Pod, err error) ([]*v1.Pod, error) {
	slices.SortFunc(ps, func(a, b *v1.Pod) int {
		return cmp.Or(strings.Compare(a.Namespace, b.Namespace), strings.Compare(a.Name, b.Name))
	})
	return ps, err
}

func (l sortedPods) List(sel labels.Selector) ([]*v1.Pod, error) {
	return sortPods(l.PodLister.List(sel))
}

func (l sortedPods) Pods(ns string) corelisters.PodNamespaceLister {
	return sortedNSPods{l.PodLister.Pods(ns)}
}

type sortedNSPods struct{ corelisters.PodNamespaceLister }

func (l sortedNSPods) List(sel labels.Selector) ([]*v1.Pod, error) {
	return sortPods(l.PodNamespaceLister.List(sel))
}

// scaleWorld is what the disruption controller reaches beyond its listers
// (getScaleController): a REST mapper of every modelled workload kind,
// discovery listing their resources with a scale subresource (autoscaling/v1
// Scale) for the Deployments, ReplicaSets, StatefulSets and
// ReplicationControllers only, as kube-apiserver serves them, and a scale
// client answering from the harness's API server (NotFound for an object
// that does not exist or a resource without scale).
func (w *world) scaleWorld() (apimeta.RESTMapper, *discoveryfake.FakeDiscovery, *scalefake.FakeScaleClient) {
	mapper := apimeta.NewDefaultRESTMapper(nil)
	disc := &discoveryfake.FakeDiscovery{Fake: &core.Fake{}}
	lists := map[string]*metav1.APIResourceList{}
	scaled := map[schema.GroupResource]schema.GroupVersionResource{}
	for _, gvr := range []schema.GroupVersionResource{gvrDeployments, gvrReplicaSets, gvrStatefulSets, gvrRCs, gvrDaemonSets, gvrJobs, gvrCronJobs} {
		gvk := kindOf(gvr)
		mapper.Add(gvk, apimeta.RESTScopeNamespace)
		gv := gvr.GroupVersion().String()
		l := lists[gv]
		if l == nil {
			l = &metav1.APIResourceList{GroupVersion: gv}
			lists[gv] = l
			disc.Resources = append(disc.Resources, l)
		}
		l.APIResources = append(l.APIResources, metav1.APIResource{Name: gvr.Resource, Namespaced: true, Kind: gvk.Kind})
		switch gvr {
		case gvrDeployments, gvrReplicaSets, gvrStatefulSets, gvrRCs:
			l.APIResources = append(l.APIResources, metav1.APIResource{Name: gvr.Resource + "/scale", Namespaced: true,
				Group: "autoscaling", Version: "v1", Kind: "Scale"})
			scaled[gvr.GroupResource()] = gvr
		}
	}
	sc := &scalefake.FakeScaleClient{}
	sc.AddReactor("get", "*", func(a core.Action) (bool, kruntime.Object, error) {
		g := a.(core.GetAction)
		gr := g.GetResource().GroupResource()
		gvr, ok := scaled[gr]
		var o kruntime.Object
		if ok {
			o = w.get(gvr, g.GetNamespace(), g.GetName())
		}
		if o == nil {
			return true, nil, apierrors.NewNotFound(gr, g.GetName())
		}
		m, _ := apimeta.Accessor(o)
		replicas := fieldOf(o, "Spec").FieldByName("Replicas").Interface().(*int32)
		out := &autoscalingv1.Scale{ObjectMeta: metav1.ObjectMeta{Name: m.GetName(), Namespace: m.GetNamespace(), UID: m.GetUID()}}
		if replicas != nil {
			out.Spec.Replicas = *replicas
		}
		return true, out, nil
	})
	return mapper, disc, sc
}

// close stops the informers and the controllers' queues and event
// broadcasters, and restores the package clocks.
func (w *world) close() {
	difftest.Stop(w.cancel, w.dc, w.rsc, w.ssc, w.dsc, w.jc, w.cjm, w.pdbc, w.gcc, w.nc, w.tc, w.factory)
	if w.restore != nil {
		w.restore()
	}
}

// fixTime replaces a wall-clock stamp of this run by the harness clock.
func (w *world) fixTime(t metav1.Time) (metav1.Time, bool) {
	if t.IsZero() || t.Time.Before(w.wallStart.Add(-time.Second)) || t.Time.After(time.Now().Add(time.Second)) {
		return t, false
	}
	return metav1.NewTime(w.clock.Now().Truncate(time.Second)), true
}

// react records a write and passes every request to the API server.
func (w *world) react(a core.Action) (bool, kruntime.Object, error) {
	handled, obj, err := w.api.react(a)
	var wr *plan.Write
	switch x := a.(type) {
	case core.CreateActionImpl:
		wr = &plan.Write{Verb: plan.VerbCreate, Object: x.GetObject()}
		if obj != nil {
			m, _ := apimeta.Accessor(obj)
			wr.Name = m.GetName()
		}
	case core.UpdateActionImpl:
		m, _ := apimeta.Accessor(x.GetObject())
		wr = &plan.Write{Verb: plan.VerbUpdate, Name: m.GetName(), Object: x.GetObject()}
	case core.PatchActionImpl:
		wr = &plan.Write{Verb: plan.VerbPatch, Name: x.GetName()}
		if obj != nil {
			wr.Object = obj
		}
	case core.DeleteActionImpl:
		wr = &plan.Write{Verb: plan.VerbDelete, Name: x.GetName(), GracePeriodSeconds: x.DeleteOptions.GracePeriodSeconds}
		if p := x.DeleteOptions.PropagationPolicy; p != nil {
			wr.PropagationPolicy = string(*p)
		}
		if p := x.DeleteOptions.Preconditions; p != nil && p.UID != nil {
			wr.UID = string(*p.UID)
		}
	default:
		return handled, obj, err
	}
	wr.Resource, wr.Subresource, wr.Namespace = a.GetResource().Resource, a.GetSubresource(), a.GetNamespace()
	if wr.Object != nil {
		wr.Object = wr.Object.(kruntime.Object).DeepCopyObject()
		w.api.fixTimes(wr.Object.(kruntime.Object))
	}
	w.mu.Lock()
	r := w.step
	r.Write = wr
	if err != nil {
		r.Err = err.Error()
	}
	w.cur = append(w.cur, r)
	w.mu.Unlock()
	return handled, obj, err
}

func (w *world) event(o kruntime.Object, typ, reason, msg string) {
	e := &plan.Event{Type: plan.EventType(typ), Reason: plan.Reason(reason), Message: msg}
	name := func(kind, ns, n string) string {
		if ns == "" {
			return kind + " " + n
		}
		return kind + " " + ns + "/" + n
	}
	if o != nil {
		if ref, ok := o.(*v1.ObjectReference); ok {
			e.Object = name(ref.Kind, ref.Namespace, ref.Name)
		} else if m, err := apimeta.Accessor(o); err == nil {
			kind := ""
			if k, ok := kinds[reflect.TypeOf(o)]; ok {
				kind = k.gvk.Kind
			}
			e.Object = name(kind, m.GetNamespace(), m.GetName())
		}
	}
	w.mu.Lock()
	r := w.step
	r.Event = e
	w.cur = append(w.cur, r)
	w.mu.Unlock()
}

// settle waits until every handler of every informer has finished every
// event the API server has sent.
func (w *world) settle() error {
	deadline := time.Now().Add(settleBound)
	for spins := 0; ; spins++ {
		sent := w.api.eventCounts()
		w.mu.Lock()
		done := true
		for res, hs := range w.handlers {
			for _, h := range hs {
				if h.Load() != sent[res] {
					done = false
				}
			}
		}
		w.mu.Unlock()
		if done {
			if w.checkStores {
				return w.compareStores()
			}
			return nil
		}
		if time.Now().After(deadline) {
			// diagnostics: WC_STACKS=<file> writes every goroutine's stack
			// and each handler's count
			if os.Getenv("WC_STACKS") != "" {
				buf := make([]byte, 1<<22)
				os.WriteFile(os.Getenv("WC_STACKS"), buf[:runtime.Stack(buf, true)], 0o644)
				w.mu.Lock()
				for res, hs := range w.handlers {
					for _, h := range hs {
						fmt.Fprintf(os.Stderr, "%s handled %d of %d\n", res, h.Load(), sent[res])
					}
				}
				w.mu.Unlock()
			}
			return fmt.Errorf("informers did not catch up within %v", settleBound)
		}
		if spins < 100 {
			runtime.Gosched()
		} else {
			time.Sleep(50 * time.Microsecond)
		}
	}
}

// compareStores checks that every informer store holds exactly the API
// server's objects at their resourceVersions.
func (w *world) compareStores() error {
	for res, st := range w.stores {
		gvr := schema.GroupVersionResource{}
		for _, k := range kinds {
			if k.gvr.Resource == res {
				gvr = k.gvr
			}
		}
		want := map[string]string{}
		for _, o := range w.list(gvr) {
			m, _ := apimeta.Accessor(o)
			want[key(o)] = m.GetResourceVersion()
		}
		got := st.List()
		if len(got) != len(want) {
			return fmt.Errorf("informer of %s holds %d objects, the API server %d", res, len(got), len(want))
		}
		for _, o := range got {
			ro := o.(kruntime.Object)
			m, _ := apimeta.Accessor(ro)
			if rv, ok := want[key(ro)]; !ok || rv != m.GetResourceVersion() {
				return fmt.Errorf("informer of %s holds %s at resourceVersion %s, the API server at %q", res, key(ro), m.GetResourceVersion(), rv)
			}
		}
	}
	return nil
}

// begin starts a step: the records of the writes and events until end.
func (w *world) begin(controller, key string) {
	w.mu.Lock()
	w.step = traceRecord{Time: w.clock.Now(), Controller: controller, Key: key}
	w.cur = nil
	w.mu.Unlock()
	w.api.pause()
}

// end settles the informers and appends the step's records, each run of
// same-kind records sorted (see the file comment).
func (w *world) end(syncErr error) error {
	w.api.resume()
	if err := w.settle(); err != nil {
		return err
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	recs := w.cur
	w.cur = nil
	sortRuns(recs)
	if syncErr != nil {
		r := w.step
		r.Err = "sync: " + syncErr.Error()
		recs = append(recs, r)
	}
	w.trace = append(w.trace, recs...)
	w.client.ClearActions()
	return nil
}

func writeKey(r traceRecord) string {
	return string(r.Write.Verb) + " " + r.Write.Resource + "/" + r.Write.Subresource
}

func sortKey(r traceRecord) string {
	b, _ := json.Marshal(r)
	if r.Write != nil {
		return r.Write.Namespace + "\x00" + r.Write.Name + "\x00" + string(b)
	}
	return r.Event.Object + "\x00" + string(b)
}

// sortRuns puts one step's records in canonical order. The step is cut
// before every write whose (verb, resource, subresource) differs from the
// write before it; a segment is then that run of writes with the events
// recorded among and after them (the events before the step's first write
// are a segment of their own). Within a segment the writes come first,
// sorted by (namespace, name, JSON), then the events, sorted by (object,
// JSON): concurrent writes and their events (slowStartBatch's creations
// and their SuccessfulCreate events) come out in one order.
func sortRuns(recs []traceRecord) {
	out := make([]traceRecord, 0, len(recs))
	flush := func(seg []traceRecord) {
		var ws, es []traceRecord
		for _, r := range seg {
			if r.Write != nil {
				ws = append(ws, r)
			} else {
				es = append(es, r)
			}
		}
		for _, part := range [][]traceRecord{ws, es} {
			keys := make(map[int]string, len(part))
			idx := make([]int, len(part))
			for k := range part {
				idx[k], keys[k] = k, sortKey(part[k])
			}
			sort.SliceStable(idx, func(a, b int) bool { return keys[idx[a]] < keys[idx[b]] })
			for _, k := range idx {
				out = append(out, part[k])
			}
		}
	}
	segStart, lastKey := 0, ""
	for i, r := range recs {
		if r.Write == nil {
			continue
		}
		if k := writeKey(r); i == 0 || k != lastKey {
			flush(recs[segStart:i])
			segStart, lastKey = i, k
		}
	}
	flush(recs[segStart:])
	copy(recs, out)
}

// Apply is the environment hook: one create, update (subresource "" or
// "status") or delete (grace nil: the object's own) sent by actor
// ("scheduler", "kubelet/<node>", "user" …) to the API server, traced as
// the controllers' writes are, the informers settled afterwards.
func (w *world) Apply(actor string, verb plan.Verb, obj kruntime.Object, subresource string, grace *int64) (kruntime.Object, error) {
	return w.ApplyPolicy(actor, verb, obj, subresource, grace, "")
}

// ApplyPolicy is Apply with a delete's propagationPolicy ("": none sent).
func (w *world) ApplyPolicy(actor string, verb plan.Verb, obj kruntime.Object, subresource string, grace *int64, policy string) (kruntime.Object, error) {
	k, ok := kinds[reflect.TypeOf(obj)]
	if !ok {
		return nil, fmt.Errorf("unmodelled kind %T", obj)
	}
	m, err := apimeta.Accessor(obj)
	if err != nil {
		return nil, err
	}
	var a core.Action
	switch verb {
	case plan.VerbCreate:
		a = core.NewCreateAction(k.gvr, m.GetNamespace(), obj)
	case plan.VerbUpdate:
		if subresource != "" {
			a = core.NewUpdateSubresourceAction(k.gvr, subresource, m.GetNamespace(), obj)
		} else {
			a = core.NewUpdateAction(k.gvr, m.GetNamespace(), obj)
		}
	case plan.VerbDelete:
		opts := metav1.DeleteOptions{GracePeriodSeconds: grace}
		if policy != "" {
			p := metav1.DeletionPropagation(policy)
			opts.PropagationPolicy = &p
		}
		a = core.NewDeleteActionWithOptions(k.gvr, m.GetNamespace(), m.GetName(), opts)
	default:
		return nil, fmt.Errorf("verb %q not supported by Apply", verb)
	}
	w.begin(ctlEnvironment, actor)
	out, err := w.client.Invokes(a, nil)
	if serr := w.end(nil); serr != nil {
		return nil, serr
	}
	return out, err
}

// CollectGarbage is the environment's garbage collector: every object
// that has owner references of which none exists any more (by uid) and
// that is not being deleted is deleted, as actor "garbagecollector", with
// its uid as precondition and propagationPolicy Background — what
// upstream's attemptToDeleteItem (pkg/controller/garbagecollector) sends
// for an item without a solid owner and without an orphan or
// foreground finalizer (its resourceVersion precondition is left out) —
// in (resource, namespace, name) order; it repeats until nothing is left
// to collect. Simplified: it runs when the environment calls it, at once
// (upstream's runs on its own graph's events, with concurrent workers);
// an object with some owners left and some gone is not touched (upstream
// patches the dangling references away); foreground deletion is not
// modelled (the API server refuses it). First, every object being
// deleted with the orphan finalizer (an orphan delete) has, in (resource,
// namespace, name) order, each of its dependents patched with
// upstream's GenerateDeleteOwnerRefStrategicMergeBytes (its references
// to the owner removed, its uid in the patch) and then its finalizer
// removed with a merge patch carrying its resourceVersion — what
// upstream's attemptToOrphanWorker (orphanDependents, removeFinalizer)
// sends, which removes it. It returns the number of writes.
func (w *world) CollectGarbage() (int, error) {
	resources := []schema.GroupVersionResource{gvrDeployments, gvrReplicaSets, gvrStatefulSets, gvrDaemonSets, gvrRevisions,
		gvrJobs, gvrCronJobs, gvrPDBs, gvrPVCs, gvrRCs, gvrPods, gvrNodes, gvrLeases}
	n := 0
	for {
		uids := map[types.UID]bool{}
		byRes := map[schema.GroupVersionResource][]kruntime.Object{}
		for _, r := range resources {
			byRes[r] = w.list(r)
			for _, o := range byRes[r] {
				m, _ := apimeta.Accessor(o)
				uids[m.GetUID()] = true
			}
		}
		type item struct {
			gvr schema.GroupVersionResource
			obj kruntime.Object
		}
		// owners deleted with propagationPolicy Orphan: their dependents
		// lose their references to them, then they lose the finalizer
		var orphaning []item
		for _, r := range resources {
			for _, o := range byRes[r] {
				if m, _ := apimeta.Accessor(o); m.GetDeletionTimestamp() != nil && slices.Contains(m.GetFinalizers(), metav1.FinalizerOrphanDependents) {
					orphaning = append(orphaning, item{r, o})
				}
			}
		}
		for _, owner := range orphaning {
			om, _ := apimeta.Accessor(owner.obj)
			for _, r := range resources {
				for _, o := range byRes[r] {
					m, _ := apimeta.Accessor(o)
					if !slices.ContainsFunc(m.GetOwnerReferences(), func(ref metav1.OwnerReference) bool { return ref.UID == om.GetUID() }) {
						continue
					}
					patch, err := controller.GenerateDeleteOwnerRefStrategicMergeBytes(m.GetUID(), []types.UID{om.GetUID()})
					if err != nil {
						return n, err
					}
					if err := w.gcPatch(r, m.GetNamespace(), m.GetName(), types.StrategicMergePatchType, patch); err != nil {
						return n, err
					}
					n++
				}
			}
			var keep []string
			for _, f := range om.GetFinalizers() {
				if f != metav1.FinalizerOrphanDependents {
					keep = append(keep, f)
				}
			}
			patch, err := json.Marshal(map[string]any{"metadata": garbagecollector.ObjectMetaForFinalizersPatch{ResourceVersion: om.GetResourceVersion(), Finalizers: keep}})
			if err != nil {
				return n, err
			}
			if err := w.gcPatch(owner.gvr, om.GetNamespace(), om.GetName(), types.MergePatchType, patch); err != nil {
				return n, err
			}
			n++
		}
		if len(orphaning) > 0 {
			continue
		}
		var dead []item
		for _, r := range resources {
			for _, o := range byRes[r] {
				m, _ := apimeta.Accessor(o)
				refs := m.GetOwnerReferences()
				if len(refs) == 0 || m.GetDeletionTimestamp() != nil {
					continue
				}
				if !slices.ContainsFunc(refs, func(ref metav1.OwnerReference) bool { return uids[ref.UID] }) {
					dead = append(dead, item{r, o})
				}
			}
		}
		if len(dead) == 0 {
			return n, nil
		}
		for _, d := range dead {
			m, _ := apimeta.Accessor(d.obj)
			uid := m.GetUID()
			policy := metav1.DeletePropagationBackground
			a := core.NewDeleteActionWithOptions(d.gvr, m.GetNamespace(), m.GetName(),
				metav1.DeleteOptions{Preconditions: &metav1.Preconditions{UID: &uid}, PropagationPolicy: &policy})
			w.begin(ctlEnvironment, garbageCollector)
			_, err := w.client.Invokes(a, nil)
			if serr := w.end(nil); serr != nil {
				return n, serr
			}
			if err != nil && !apierrors.IsNotFound(err) {
				return n, err
			}
			n++
		}
	}
}

// gcPatch sends one patch of the garbage collector.
func (w *world) gcPatch(gvr schema.GroupVersionResource, ns, name string, pt types.PatchType, patch []byte) error {
	w.begin(ctlEnvironment, garbageCollector)
	_, err := w.client.Invokes(core.NewPatchAction(gvr, ns, name, pt, patch), nil)
	if serr := w.end(nil); serr != nil {
		return serr
	}
	if err != nil && !apierrors.IsNotFound(err) {
		return err
	}
	return nil
}

// garbageCollector is the garbage collector's actor name in the trace.
const garbageCollector = "garbagecollector"

// get returns the stored object (nil if none).
func (w *world) get(gvr schema.GroupVersionResource, ns, name string) kruntime.Object {
	o, err := w.api.inner.Get(gvr, ns, name)
	if err != nil {
		return nil
	}
	return o
}

// list returns the stored objects of a resource in (namespace, name) order.
func (w *world) list(gvr schema.GroupVersionResource) []kruntime.Object {
	return w.api.list(gvr, kindOf(gvr))
}

func key(o kruntime.Object) string {
	m, _ := apimeta.Accessor(o)
	if m.GetNamespace() == "" {
		return m.GetName()
	}
	return m.GetNamespace() + "/" + m.GetName()
}

// syncAll runs every controller once at now (see the file comment) and
// returns the records it added to the trace.
func (w *world) syncAll(now time.Time) ([]traceRecord, error) {
	if w.wallStart.Sub(now) < 24*time.Hour {
		return nil, fmt.Errorf("instant %v is not a day before the wall clock", now)
	}
	w.mu.Lock()
	from := len(w.trace)
	w.mu.Unlock()
	w.clock.SetTime(now)
	if err := w.settle(); err != nil {
		return nil, err
	}
	ctx := w.ctx
	perKey := func(name string, gvr schema.GroupVersionResource, sync func(key string) error) error {
		for _, o := range w.list(gvr) {
			key := key(o)
			w.begin(name, key)
			if err := w.end(sync(key)); err != nil {
				return err
			}
		}
		return nil
	}
	dsync := fieldOf(w.dc, "syncHandler").Interface().(func(context.Context, string) error)
	rssync := fieldOf(w.rsc, "syncHandler").Interface().(func(context.Context, string) error)
	dssync := fieldOf(w.dsc, "syncHandler").Interface().(func(context.Context, string) error)
	steps := []func() error{
		func() error {
			return perKey(ctlDeployment, gvrDeployments, func(k string) error { return dsync(ctx, k) })
		},
		func() error {
			return perKey(ctlReplicaSet, gvrReplicaSets, func(k string) error { return rssync(ctx, k) })
		},
		func() error {
			return perKey(ctlStatefulSet, gvrStatefulSets, func(k string) error { return stsSync(w.ssc, ctx, k) })
		},
		func() error {
			return perKey(ctlDaemonSet, gvrDaemonSets, func(k string) error { return dssync(ctx, k) })
		},
		func() error {
			if err := perKey(ctlJob, gvrJobs, func(k string) error { return w.jm.sync(ctx, k) }); err != nil {
				return err
			}
			// its orphan worker, for every pod that carries the tracking
			// finalizer (handleSingleOrphanPod writes only for an orphan)
			for _, o := range w.list(gvrPods) {
				p := o.(*v1.Pod)
				if !slices.Contains(p.Finalizers, batch.JobTrackingFinalizer) {
					continue
				}
				w.begin(ctlJob, key(p))
				if err := w.end(jobHandleOrphan(w.jc, ctx, p)); err != nil {
					return err
				}
			}
			return nil
		},
		func() error {
			if !w.cronRequeues {
				return perKey(ctlCronJob, gvrCronJobs, func(k string) error { _, err := cronSync(w.cjm, ctx, k); return err })
			}
			for _, o := range w.list(gvrCronJobs) {
				key := key(o)
				fp := w.cronFingerprint(o)
				if due, ok := w.cronDue[key]; w.cronSeen[key] == fp && (!ok || now.Before(due)) {
					continue
				}
				w.begin(ctlCronJob, key)
				d, err := cronSync(w.cjm, ctx, key)
				switch {
				case err != nil:
					w.cronDue[key] = now // retried (rate limited) before the next instant
				case d != nil:
					w.cronDue[key] = now.Add(*d)
				default:
					delete(w.cronDue, key)
				}
				if err := w.end(err); err != nil {
					return err
				}
				w.cronSeen[key] = w.cronFingerprint(o)
			}
			return nil
		},
		func() error {
			for _, o := range w.list(gvrPDBs) {
				key := key(o)
				fp, due := w.pdbWake(o.(*policyv1.PodDisruptionBudget), now)
				if seen, ok := w.pdbSeen[key]; ok && seen == fp && !due {
					continue
				}
				w.begin(ctlDisruption, key)
				err := difftest.DisruptionSync(w.pdbc, ctx, key)
				if err := w.end(err); err != nil {
					return err
				}
				// (seen as before the sync: its own writes wake it again)
				w.pdbSeen[key], w.pdbLast[key] = fp, now
			}
			for _, o := range w.list(gvrPods) {
				p := o.(*v1.Pod)
				if !slicesContainsCond(p.Status.Conditions, v1.DisruptionTarget) {
					continue
				}
				w.begin(ctlDisruption, key(p))
				if err := w.end(difftest.DisruptionSyncStale(w.pdbc, ctx, key(p))); err != nil {
					return err
				}
			}
			return nil
		},
		func() error {
			w.begin(ctlPodGC, "")
			difftest.PodGCPass(w.gcc, ctx)
			return w.end(nil)
		},
		func() error { return w.nodeLifecyclePass(ctx) },
		func() error { return w.taintEvictionPass(ctx) },
	}
	for _, s := range steps {
		if err := s(); err != nil {
			return nil, err
		}
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	return append([]traceRecord(nil), w.trace[from:]...), nil
}

// pdbWake is what wakes the disruption controller for budget b at now:
// the fingerprint of what its handlers react to (its own resourceVersion
// and those of the pods of its namespace its selector matches:
// addDB/updateDB and addPod/updatePod/deletePod through getPdbForPod),
// and whether its recheck is due (trySync's enqueuePdbForRecheck at the
// expiry, DeletionTimeout after it, of a disruptedPods entry, here one
// that expired since its last sync).
func (w *world) pdbWake(b *policyv1.PodDisruptionBudget, now time.Time) (string, bool) {
	parts := []string{b.ResourceVersion}
	sel, err := metav1.LabelSelectorAsSelector(b.Spec.Selector)
	if err == nil {
		for _, o := range w.list(gvrPods) {
			p := o.(*v1.Pod)
			if p.Namespace == b.Namespace && sel.Matches(labels.Set(p.Labels)) {
				parts = append(parts, p.Name+"@"+p.ResourceVersion)
			}
		}
	}
	due := false
	last := w.pdbLast[key(b)]
	for _, t := range b.Status.DisruptedPods {
		if at := t.Add(disruption.DeletionTimeout); at.After(last) && !at.After(now) {
			due = true
		}
	}
	return strings.Join(parts, ","), due
}

// cronFingerprint is what the CronJob controller's handlers react to: the
// resourceVersions of the CronJob (as stored now) and of the Jobs it
// controls.
func (w *world) cronFingerprint(cj kruntime.Object) string {
	m, _ := apimeta.Accessor(cj)
	cur := w.get(gvrCronJobs, m.GetNamespace(), m.GetName())
	if cur == nil {
		return ""
	}
	cm, _ := apimeta.Accessor(cur)
	parts := []string{cm.GetResourceVersion()}
	for _, o := range w.list(gvrJobs) {
		jm, _ := apimeta.Accessor(o)
		if ref := metav1.GetControllerOfNoCopy(jm); ref != nil && ref.UID == cm.GetUID() {
			parts = append(parts, jm.GetName()+"@"+jm.GetResourceVersion())
		}
	}
	return strings.Join(parts, ",")
}

// syncQuiet repeats syncAll at now while a round writes anything (as the
// informer events of those writes would trigger more syncs upstream), at
// most maxRounds times; it returns every round's records and the number
// of rounds, and an error if the last round still wrote.
func (w *world) syncQuiet(now time.Time, maxRounds int) ([]traceRecord, int, error) {
	var all []traceRecord
	for round := 1; round <= maxRounds; round++ {
		recs, err := w.syncAll(now)
		all = append(all, recs...)
		if err != nil {
			return all, round, err
		}
		if !slices.ContainsFunc(recs, func(r traceRecord) bool { return r.Write != nil }) {
			return all, round, nil
		}
	}
	if os.Getenv("WCD_DEBUG") != "" {
		for _, r := range all[max(0, len(all)-12):] {
			fmt.Fprintf(os.Stderr, "quiet %s %s %s\n", r.Controller, r.Key, diffShort(r))
		}
	}
	return all, maxRounds, fmt.Errorf("still writing after %d rounds at %v", maxRounds, now)
}

func slicesContainsCond(cs []v1.PodCondition, t v1.PodConditionType) bool {
	for _, c := range cs {
		if c.Type == t {
			return true
		}
	}
	return false
}

// nodeLifecyclePass is one pass of the node lifecycle controller at the
// harness clock (see the file comment); monitorNodeHealth only when its
// period is due.
func (w *world) nodeLifecyclePass(ctx context.Context) error {
	if now := w.clock.Now(); w.monitorAt.IsZero() || !now.Before(w.monitorAt) {
		w.monitorAt = now.Add(w.monitorPeriod)
		w.begin(ctlNodeLife, "")
		err := difftest.MonitorNodeHealth(w.nc, ctx)
		w.adoptLimiters()
		w.orderTainters()
		if err := w.end(err); err != nil {
			return err
		}
	}
	w.begin(ctlNodeLife, "")
	difftest.NoExecuteTaintingPass(w.nc, ctx)
	if err := w.end(nil); err != nil {
		return err
	}
	for _, o := range w.list(gvrNodes) {
		w.begin(ctlNodeLife, key(o))
		err := difftest.NoScheduleTaintingPass(w.nc, ctx, key(o))
		if err == nil {
			err = nlReconcileLabels(w.nc, ctx, key(o))
		}
		if err := w.end(err); err != nil {
			return err
		}
	}
	// the pod worker, for the pods its handler enqueues (podUpdated: a
	// pod bound, or moved, since the last pass)
	present := map[string]bool{}
	for _, o := range w.list(gvrPods) {
		p := o.(*v1.Pod)
		key := key(p)
		present[key] = true
		old, known := w.nlPods[key]
		w.nlPods[key] = p.Spec.NodeName
		if p.Spec.NodeName == "" || known && old == p.Spec.NodeName {
			continue
		}
		w.begin(ctlNodeLife, key)
		nlProcessPod(w.nc, ctx, nlPodItem{namespace: p.Namespace, name: p.Name})
		if err := w.end(nil); err != nil {
			return err
		}
	}
	for key := range w.nlPods {
		if !present[key] {
			delete(w.nlPods, key)
		}
	}
	return nil
}

func (w *world) tainters() map[string]*scheduler.RateLimitedTimedQueue {
	return fieldOf(w.nc, "zoneNoExecuteTainter").Interface().(map[string]*scheduler.RateLimitedTimedQueue)
}

// adoptLimiters moves each zone's eviction rate limiter onto the harness
// clock: a new one (created by this pass on the wall clock) is replaced
// by a token bucket of the same rate and burst on the harness clock,
// drained of the token it used if it was used.
func (w *world) adoptLimiters() {
	for _, q := range w.tainters() {
		lv := difftest.QueueLimiter(q)
		cur := lv.Interface().(flowcontrol.RateLimiter)
		if w.ncLimiters[cur] || difftest.IsNeverLimiter(cur) {
			continue
		}
		_, last := difftest.TokenBucket(cur)
		nl := flowcontrol.NewTokenBucketRateLimiterWithClock(cur.QPS(), scheduler.EvictionRateLimiterBurst, w.clock)
		if !last.IsZero() {
			nl.TryAccept()
		}
		lv.Set(reflect.ValueOf(nl))
		w.ncLimiters[nl] = true
	}
}

// orderTainters orders each tainting heap by (process time, node name).
func (w *world) orderTainters() {
	for _, q := range w.tainters() {
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

// taintEvictionPass fires the taint-eviction work due by now, then runs
// the per-node pass (see the file comment).
func (w *world) taintEvictionPass(ctx context.Context) error {
	now := w.clock.Now()
	w.begin(ctlTaintEvict, "")
	w.taintClock.SetTime(now)
	w.taintWG.Wait()
	if err := w.end(nil); err != nil {
		return err
	}
	// the handlers' filters: a node counts as updated when its NoExecute
	// taints changed (NodeUpdated), a pod when it is new, gone, or its
	// node or tolerations changed (PodUpdated)
	process := func(key string, f func()) error {
		w.begin(ctlTaintEvict, key)
		f()
		w.taintWG.Wait()
		return w.end(nil)
	}
	logger := klog.FromContext(ctx)
	nsn := func(p *v1.Pod) types.NamespacedName {
		return types.NamespacedName{Namespace: p.Namespace, Name: p.Name}
	}
	nodes := map[string][]v1.Taint{}
	seenNode := map[string]bool{}
	for _, o := range w.list(gvrNodes) {
		n := o.(*v1.Node)
		seenNode[n.Name] = true
		var ts []v1.Taint
		for _, t := range n.Spec.Taints {
			if t.Effect == v1.TaintEffectNoExecute {
				ts = append(ts, t)
			}
		}
		nodes[n.Name] = ts
	}
	podsOn := map[string][]*v1.Pod{}
	pods := w.list(gvrPods)
	for _, o := range pods {
		if p := o.(*v1.Pod); p.Spec.NodeName != "" {
			podsOn[p.Spec.NodeName] = append(podsOn[p.Spec.NodeName], p)
		}
	}
	done := map[string]bool{}
	for _, name := range slices.Sorted(maps.Keys(w.teNodes)) {
		if !seenNode[name] {
			delete(w.teNodes, name) // handleNodeUpdate of a deleted node
		}
	}
	for _, o := range w.list(gvrNodes) {
		name := o.(*v1.Node).Name
		old, known := w.teNodes[name]
		ts := nodes[name]
		w.teNodes[name] = ts
		if known && equality.Semantic.DeepEqual(old, ts) {
			continue
		}
		for _, p := range podsOn[name] {
			done[key(p)] = true
			if err := process(key(p), func() {
				if len(ts) == 0 {
					difftest.TaintEvictionCancelWork(w.tc, logger, nsn(p))
				} else {
					difftest.TaintEvictionProcessPodOnNode(w.tc, ctx, nsn(p), name, p.Spec.Tolerations, ts, now)
				}
			}); err != nil {
				return err
			}
		}
	}
	present := map[string]bool{}
	for _, o := range pods {
		p := o.(*v1.Pod)
		key := key(p)
		present[key] = true
		old, known := w.tePods[key]
		w.tePods[key] = tePod{node: p.Spec.NodeName, tolerations: p.Spec.Tolerations}
		if known && old.node == p.Spec.NodeName && equality.Semantic.DeepEqual(old.tolerations, p.Spec.Tolerations) || done[key] {
			continue
		}
		ts := nodes[p.Spec.NodeName]
		if p.Spec.NodeName == "" || len(ts) == 0 {
			continue // handlePodUpdate: unbound, or its node has no NoExecute taint
		}
		if err := process(key, func() {
			difftest.TaintEvictionProcessPodOnNode(w.tc, ctx, nsn(p), p.Spec.NodeName, p.Spec.Tolerations, ts, now)
		}); err != nil {
			return err
		}
	}
	for _, key := range slices.Sorted(maps.Keys(w.tePods)) {
		if present[key] {
			continue
		}
		delete(w.tePods, key)
		ns, name, _ := strings.Cut(key, "/")
		if err := process(key, func() {
			difftest.TaintEvictionCancelWork(w.tc, logger, types.NamespacedName{Namespace: ns, Name: name})
		}); err != nil {
			return err
		}
	}
	return nil
}

// tePod is what the taint-eviction pod handler compares.
type tePod struct {
	node        string
	tolerations []v1.Toleration
}

// traceCopy returns the whole trace so far.
func (w *world) traceCopy() []traceRecord {
	w.mu.Lock()
	defer w.mu.Unlock()
	return append([]traceRecord(nil), w.trace...)
}

// canonical renders a trace as JSON lines with every server-generated
// name (a create that carried only generateName) replaced by
// generateName + "#" + its order among the names generated from that
// prefix, and every uid by "uid#" + its order of first appearance, and
// resourceVersions dropped: two implementations whose namers differ then
// give the same lines.
func canonical(trace []traceRecord) []string {
	names := map[string]string{}
	perPrefix := map[string]int{}
	uids := map[string]string{}
	var lines []string
	for _, r := range trace {
		if r.Write != nil && r.Write.Verb == plan.VerbCreate && r.Write.Object != nil && r.Write.Name != "" {
			if m, err := apimeta.Accessor(r.Write.Object); err == nil && m.GetName() == "" && m.GetGenerateName() != "" {
				p := m.GetGenerateName()
				if _, ok := names[r.Write.Name]; !ok {
					perPrefix[p]++
					names[r.Write.Name] = fmt.Sprintf("%s%s%d", p, canonNameSep, perPrefix[p])
				}
			}
		}
		b, err := json.Marshal(r)
		if err != nil {
			panic(err)
		}
		lines = append(lines, string(b))
	}
	// uids in order of first appearance
	for _, l := range lines {
		for _, u := range uidPattern(l) {
			if _, ok := uids[u]; !ok {
				uids[u] = fmt.Sprintf("uid%s%d", canonNameSep, len(uids)+1)
			}
		}
	}
	keys := make([]string, 0, len(names)+len(uids))
	repl := map[string]string{}
	for k, v := range names {
		keys, repl[k] = append(keys, k), v
	}
	for k, v := range uids {
		keys, repl[k] = append(keys, k), v
	}
	// longer first: a generated name may extend another
	sort.Slice(keys, func(i, j int) bool {
		if len(keys[i]) != len(keys[j]) {
			return len(keys[i]) > len(keys[j])
		}
		return keys[i] < keys[j]
	})
	var pairs []string
	for _, k := range keys {
		pairs = append(pairs, k, repl[k])
	}
	rep := strings.NewReplacer(pairs...)
	for i := range lines {
		lines[i] = dropRVs(rep.Replace(lines[i]))
	}
	return lines
}

// dropRVs removes every resourceVersion from a record's JSON: the
// server's counter numbers concurrent requests in their arrival order,
// and another implementation need not count the same way.
func dropRVs(line string) string {
	var v any
	if err := json.Unmarshal([]byte(line), &v); err != nil {
		panic(err)
	}
	var walk func(v any)
	walk = func(v any) {
		switch x := v.(type) {
		case map[string]any:
			delete(x, "resourceVersion")
			for _, e := range x {
				walk(e)
			}
		case []any:
			for _, e := range x {
				walk(e)
			}
		}
	}
	walk(v)
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return string(b)
}

// uidPattern finds the harness's uids (8-4-4-4-12 hex) in s.
func uidPattern(s string) []string {
	var out []string
	isHex := func(c byte) bool { return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' }
	for i := 0; i+36 <= len(s); i++ {
		ok := true
		for j := 0; j < 36 && ok; j++ {
			c := s[i+j]
			switch j {
			case 8, 13, 18, 23:
				ok = c == '-'
			default:
				ok = isHex(c)
			}
		}
		if ok {
			out = append(out, s[i:i+36])
			i += 35
		}
	}
	return out
}

// load stores objs in the API server as they are (resourceVersions
// assigned, nothing reset) and waits until every informer has them.
func (w *world) load(objs []kruntime.Object) error {
	s := w.api
	s.mu.Lock()
	for _, o := range objs {
		o = o.DeepCopyObject()
		k, ok := kinds[reflect.TypeOf(o)]
		if !ok {
			s.mu.Unlock()
			return fmt.Errorf("unmodelled %T", o)
		}
		m, _ := apimeta.Accessor(o)
		m.SetResourceVersion(s.nextRV())
		if err := s.inner.Create(k.gvr, o, m.GetNamespace()); err != nil {
			s.mu.Unlock()
			return fmt.Errorf("%s: %w", key(o), err)
		}
		s.emit(k.gvr, watch.Added, o)
	}
	s.mu.Unlock()
	deadline := time.Now().Add(10 * time.Minute)
	for {
		sent := s.eventCounts()
		done := true
		w.mu.Lock()
		for res, hs := range w.handlers {
			for _, h := range hs {
				if h.Load() != sent[res] {
					done = false
				}
			}
		}
		w.mu.Unlock()
		if done {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("informers did not take the loaded objects within 10m")
		}
		time.Sleep(time.Millisecond)
	}
}

// fullSync runs every controller's sync handler over every key of its
// informer once at now (see the file comment); it adds each phase's time
// to spent (indexed as benchPhases) and returns the writes and events the
// controllers made and the number of sync handler errors.
func (w *world) fullSync(now time.Time, spent []time.Duration) (writes, events, errs int) {
	return w.fullSyncRecs(now, spent, nil)
}

// fullSyncRecs is fullSync that also hands the records made to *recs
// when recs is not nil.
func (w *world) fullSyncRecs(now time.Time, spent []time.Duration, recs *[]traceRecord) (writes, events, errs int) {
	ctx := w.ctx
	w.clock.SetTime(now)
	w.taintClock.SetTime(now)
	keys := func(res string) []string {
		ks := w.stores[res].ListKeys()
		sort.Strings(ks)
		return ks
	}
	count := func(err error) {
		if err != nil {
			errs++
		}
	}
	dsync := fieldOf(w.dc, "syncHandler").Interface().(func(context.Context, string) error)
	rssync := fieldOf(w.rsc, "syncHandler").Interface().(func(context.Context, string) error)
	dssync := fieldOf(w.dsc, "syncHandler").Interface().(func(context.Context, string) error)
	phase := 0
	mark := time.Now()
	next := func() {
		t := time.Now()
		spent[phase] += t.Sub(mark)
		phase, mark = phase+1, t
	}
	for _, k := range keys("deployments") {
		count(dsync(ctx, k))
	}
	next()
	for _, k := range keys("replicasets") {
		count(rssync(ctx, k))
	}
	next()
	for _, k := range keys("statefulsets") {
		count(stsSync(w.ssc, ctx, k))
	}
	next()
	for _, k := range keys("daemonsets") {
		count(dssync(ctx, k))
	}
	next()
	for _, k := range keys("jobs") {
		count(w.jm.sync(ctx, k))
	}
	next()
	for _, k := range keys("cronjobs") {
		_, err := cronSync(w.cjm, ctx, k)
		count(err)
	}
	next()
	for _, k := range keys("poddisruptionbudgets") {
		count(difftest.DisruptionSync(w.pdbc, ctx, k))
	}
	pods := w.stores["pods"].List()
	for _, o := range pods {
		if p := o.(*v1.Pod); slicesContainsCond(p.Status.Conditions, v1.DisruptionTarget) {
			count(difftest.DisruptionSyncStale(w.pdbc, ctx, p.Namespace+"/"+p.Name))
		}
	}
	next()
	difftest.PodGCPass(w.gcc, ctx)
	next()
	count(difftest.MonitorNodeHealth(w.nc, ctx))
	w.adoptLimiters()
	w.orderTainters()
	difftest.NoExecuteTaintingPass(w.nc, ctx)
	nodes := keys("nodes")
	for _, n := range nodes {
		count(difftest.NoScheduleTaintingPass(w.nc, ctx, n))
		count(nlReconcileLabels(w.nc, ctx, n))
	}
	for _, o := range pods {
		p := o.(*v1.Pod)
		nlProcessPod(w.nc, ctx, nlPodItem{namespace: p.Namespace, name: p.Name})
	}
	next()
	for _, n := range nodes {
		difftest.TaintEvictionHandleNodeUpdate(w.tc, ctx, difftest.TaintEvictionNodeItem{NodeName: n})
	}
	for _, o := range pods {
		p := o.(*v1.Pod)
		difftest.TaintEvictionHandlePodUpdate(w.tc, ctx, difftest.TaintEvictionPodItem{PodName: p.Name, PodNamespace: p.Namespace, NodeName: p.Spec.NodeName})
	}
	w.taintWG.Wait()
	next()
	w.mu.Lock()
	for _, r := range w.cur {
		if r.Write != nil {
			writes++
		} else {
			events++
		}
	}
	if recs != nil {
		*recs = w.cur
	}
	w.cur = nil
	w.mu.Unlock()
	w.client.ClearActions()
	return writes, events, errs
}
