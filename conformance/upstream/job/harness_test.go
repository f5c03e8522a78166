package job_test

import (
	"cmp"
	"context"
	"fmt"
	"reflect"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
	"unsafe"

	batch "k8s.io/api/batch/v1"
	v1 "k8s.io/api/core/v1"
	apimeta "k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	k8sruntime "k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/sets"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes/fake"
	k8stesting "k8s.io/client-go/testing"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/tools/record"
	"k8s.io/client-go/util/workqueue"
	"k8s.io/klog/v2"
	"k8s.io/kubernetes/pkg/controller"
	jobcontroller "k8s.io/kubernetes/pkg/controller/job"
	clocktesting "k8s.io/utils/clock/testing"

	"github.com/kubesem/kubesem/conformance/upstream/internal/difftest"
)

// This file runs one upstream v1.36.3 syncJob and records everything it
// does that a job.Plan states: pod creations, deletions and patches (each
// with the upstream function that issued it), status writes, requeues,
// events and the backoff record the controller keeps for the job
// afterwards. The controller talks to a client-go fake clientset through
// upstream's own RealPodControl and records events on a FakeRecorder, so
// the requests it sends (the clientset's actions) and the events it
// records are upstream's own; the fake's reactors answer every write as
// successful (a created pod is named from its generateName and a counter),
// as upstream's unit tests with FakePodControl assume.

//go:linkname upActivePodsForRemoval k8s.io/kubernetes/pkg/controller/job.activePodsForRemoval
func upActivePodsForRemoval(*batch.Job, []*v1.Pod, int) []*v1.Pod

//go:linkname upDuplicatedIndexPods k8s.io/kubernetes/pkg/controller/job.appendDuplicatedIndexPodsForRemoval
func upDuplicatedIndexPods(rm, left, pods []*v1.Pod, completions int) ([]*v1.Pod, []*v1.Pod)

//go:linkname upCompletionIndex k8s.io/kubernetes/pkg/controller/job.getCompletionIndex
func upCompletionIndex(map[string]string) int

//go:linkname upHasBackoffLimitPerIndex k8s.io/kubernetes/pkg/controller/job.hasBackoffLimitPerIndex
func upHasBackoffLimitPerIndex(*batch.Job) bool

//go:linkname upIsIndexed k8s.io/kubernetes/pkg/controller/job.isIndexedJob
func upIsIndexed(*batch.Job) bool

// call is one call upstream made: the object it named and the
// job-controller functions on the stack, innermost first (closures folded
// into the function that declares them).
type call struct {
	name  string
	by    []string
	after time.Duration // queue calls: the delay
	verb  string        // queue calls: Add, AddAfter, AddRateLimited
}

// issuedBy reports whether fn is on the call's stack.
func (c call) issuedBy(fn string) bool {
	for _, b := range c.by {
		if b == fn {
			return true
		}
	}
	return false
}

// callers returns the job-controller functions on the current stack,
// innermost first.
func callers() []string {
	pcs := make([]uintptr, 64)
	frames := runtime.CallersFrames(pcs[:runtime.Callers(3, pcs)])
	var out []string
	for {
		f, more := frames.Next()
		if rest, ok := strings.CutPrefix(f.Function, "k8s.io/kubernetes/pkg/controller/job."); ok {
			rest = strings.TrimPrefix(rest, "(*Controller).")
			if i := strings.IndexByte(rest, '.'); i >= 0 {
				rest = rest[:i]
			}
			if len(out) == 0 || out[len(out)-1] != rest {
				out = append(out, rest)
			}
		}
		if !more {
			return out
		}
	}
}

// podControl is upstream's RealPodControl that also records which pods
// were deleted and patched, and by which upstream function.
type podControl struct {
	controller.PodControlInterface
	mu               sync.Mutex
	deleted, patched []call
}

func (c *podControl) DeletePod(ctx context.Context, ns, name string, obj k8sruntime.Object) error {
	c.mu.Lock()
	c.deleted = append(c.deleted, call{name: name, by: callers()})
	c.mu.Unlock()
	return c.PodControlInterface.DeletePod(ctx, ns, name, obj)
}

func (c *podControl) PatchPod(ctx context.Context, ns, name string, data []byte) error {
	c.mu.Lock()
	c.patched = append(c.patched, call{name: name, by: callers()})
	c.mu.Unlock()
	return c.PodControlInterface.PatchPod(ctx, ns, name, data)
}

// fakeClient is a fake clientset whose reactors take every write as
// successful without storing it: creates return the object (a pod without
// a name named <generateName><counter>), patches return an empty pod,
// deletes nothing, updates the object sent. Reads go to the empty tracker.
func fakeClient() *fake.Clientset {
	client := fake.NewSimpleClientset()
	n := 0
	client.PrependReactor("*", "*", func(a k8stesting.Action) (bool, k8sruntime.Object, error) {
		switch a.GetVerb() {
		case "create":
			obj := a.(k8stesting.CreateAction).GetObject().DeepCopyObject()
			if p, ok := obj.(*v1.Pod); ok && p.Name == "" {
				n++
				p.Name = p.GenerateName + strconv.Itoa(n)
			}
			return true, obj, nil
		case "update":
			return true, a.(k8stesting.UpdateAction).GetObject(), nil
		case "patch":
			return true, &v1.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: a.GetNamespace(), Name: a.(k8stesting.PatchAction).GetName()}}, nil
		case "delete":
			return true, nil, nil
		}
		return false, nil, nil
	})
	return client
}

// queue records what the controller puts back on its work queue.
type queue struct {
	workqueue.TypedRateLimitingInterface[string]
	mu    sync.Mutex
	calls []call
}

func (q *queue) add(verb, key string, after time.Duration) {
	q.mu.Lock()
	q.calls = append(q.calls, call{name: key, verb: verb, after: after, by: callers()})
	q.mu.Unlock()
}

func (q *queue) Add(key string) { q.add("Add", key, 0) }

func (q *queue) AddAfter(key string, d time.Duration) { q.add("AddAfter", key, d) }

func (q *queue) AddRateLimited(key string) { q.add("AddRateLimited", key, 0) }

func (q *queue) snapshot() []call {
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.calls
}

// backoffStoreLayout mirrors upstream's backoffStore.
type backoffStoreLayout struct{ store cache.Store }

// tb is what the harness needs of *testing.T and *rapid.T.
type tb interface {
	Helper()
	Fatalf(format string, args ...any)
}

// syncInput is one upstream sync's input: the job (defaulted, with selector
// and template labels set), its pods (owned, labelled), now and the
// controller's backoff record for the job before the sync (nil: none).
type syncInput struct {
	job     *batch.Job
	pods    []*v1.Pod
	now     time.Time
	backoff *backoffRecord
}

// syncResult is what upstream did in the sync.
type syncResult struct {
	creations        []*v1.PodTemplateSpec
	deleted, patched []call
	queued           []call
	status           batch.JobStatus
	updated          bool
	err              error
	// backoff is the controller's record for the job after the sync; nil
	// when it holds none.
	backoff *backoffRecord
	// actions are the requests the sync sent to the clientset, in order;
	// created the pods it created (named by the fake); events the events
	// it recorded ("<type> <reason> <message>"), in order; flushes, per
	// status write, whether flushUncountedAndRemoveFinalizers made it (the
	// write before finalizers are removed), and statuses what each wrote.
	actions  []k8stesting.Action
	created  []*v1.Pod
	events   []string
	flushes  []bool
	statuses []batch.JobStatus
}

// syncUpstream runs one upstream syncJob on a fresh controller, with
// fake pod control, status writes captured and the work queue recorded, as
// TestControllerSyncJob does. The pods go straight into the informer's
// store, as upstream's unit tests put them (no informer events).
func syncUpstream(tb tb, in syncInput) syncResult {
	tb.Helper()
	c := newHarnessCtl(tb, in.job, in.now)
	defer c.close()
	c.setBackoff(tb, in.backoff)
	for _, p := range in.pods {
		if err := c.podIndexer().Add(p); err != nil {
			tb.Fatalf("pod informer: %v", err)
		}
	}
	return c.sync(tb, in.job, in.now)
}

// harnessCtl is one upstream v1.36.3 Job controller kept across syncs, with its
// memory: the backoff store, the pod expectations, the expected finalizer
// removals. Pod control is fake and records its calls, status writes are
// captured, the work queue records what is put on it; pods reach its
// informer through podEvent, which also runs the controller's own pod event
// handlers (addPod, updatePod, deletePod), as a running informer would.
type harnessCtl struct {
	jm    *jobcontroller.Controller
	clock *clocktesting.FakeClock
	pc    *podControl
	q     *queue
	inf   informers.SharedInformerFactory
	store *backoffStore
	key   string
	kc    *fake.Clientset
	rec   *record.FakeRecorder
	res   *syncResult // the sync in progress
	rv    int         // the last resourceVersion given out
}

func newHarnessCtl(tb tb, j *batch.Job, now time.Time) *harnessCtl {
	tb.Helper()
	ctx := context.Background()
	client := fakeClient()
	c := &harnessCtl{clock: clocktesting.NewFakeClock(now), key: j.Namespace + "/" + j.Name, kc: client, rec: record.NewFakeRecorder(100000)}
	c.inf = informers.NewSharedInformerFactory(client, 0)
	jm, err := difftest.NewJobController(ctx, client, c.clock, c.inf.Core().V1().Pods(), c.inf.Batch().V1().Jobs(),
		c.inf.Scheduling().V1alpha2().Workloads(), c.inf.Scheduling().V1alpha2().PodGroups())
	if err != nil {
		tb.Fatalf("upstream controller: %v", err)
	}
	c.jm = jm
	c.pc = &podControl{PodControlInterface: controller.RealPodControl{KubeClient: client, Recorder: c.rec}}
	setField(jm, "podControl", controller.PodControlInterface(c.pc))
	setField(jm, "recorder", record.EventRecorder(c.rec))
	c.q = &queue{TypedRateLimitingInterface: getField(jm, "queue").Interface().(workqueue.TypedRateLimitingInterface[string])}
	setField(jm, "queue", workqueue.TypedRateLimitingInterface[string](c.q))
	always := cache.InformerSynced(func() bool { return true })
	setField(jm, "podStoreSynced", always)
	setField(jm, "podIndexer", cache.Indexer(byNameIndexer{c.podIndexer()}))
	setField(jm, "jobStoreSynced", always)
	setField(jm, "updateStatusHandler", func(ctx context.Context, job *batch.Job) (*batch.Job, error) {
		c.res.status = *job.Status.DeepCopy()
		c.res.updated = true
		c.res.statuses = append(c.res.statuses, *job.Status.DeepCopy())
		c.res.flushes = append(c.res.flushes, slices.Contains(callers(), "flushUncountedAndRemoveFinalizers"))
		// Upstream's own handler sends this request (updateJobStatus).
		return client.BatchV1().Jobs(job.Namespace).UpdateStatus(ctx, job, metav1.UpdateOptions{})
	})
	c.store = (*backoffStore)(unsafe.Pointer(getField(jm, "podBackoffStore").Pointer()))
	return c
}

// close shuts the controller's queues and event broadcaster down.
func (c *harnessCtl) close() {
	difftest.Stop(c.jm)
}

func (c *harnessCtl) podIndexer() cache.Indexer {
	return c.inf.Core().V1().Pods().Informer().GetIndexer()
}

// byNameIndexer is the pod informer's indexer as the controller reads it:
// ByIndex (getPodsForJob lists a job's pods with it) and List give the
// pods by name, then UID. A running informer lists them in the order of
// its store's maps, which changes from run to run, and some of upstream's
// decisions turn on that order: getPodsWithDelayedDeletionPerIndex keeps
// the pod it met last among failed pods of one index when a later one has
// the higher failure count but the earlier finish time, and the other is
// released and counted. Step walks pods by name, then UID (package job,
// Divergences: informer order); listing them so makes upstream's sync one
// of its possible orders, that one, and a sequence replay from rapid's
// draws alone.
type byNameIndexer struct{ cache.Indexer }

func (x byNameIndexer) ByIndex(index, value string) ([]any, error) {
	objs, err := x.Indexer.ByIndex(index, value)
	sortByName(objs)
	return objs, err
}

func (x byNameIndexer) List() []any {
	objs := x.Indexer.List()
	sortByName(objs)
	return objs
}

// sortByName sorts the objects of a store (fresh slices each call) by
// namespace, name, then UID.
func sortByName(objs []any) {
	key := func(o any) metav1.Object {
		m, err := apimeta.Accessor(o)
		if err != nil {
			panic(fmt.Sprintf("pod informer holds %T: %v", o, err))
		}
		return m
	}
	slices.SortFunc(objs, func(a, b any) int {
		ma, mb := key(a), key(b)
		return cmp.Or(strings.Compare(ma.GetNamespace(), mb.GetNamespace()), strings.Compare(ma.GetName(), mb.GetName()),
			strings.Compare(string(ma.GetUID()), string(mb.GetUID())))
	})
}

// setBackoff stores r (nil: nothing) as the controller's backoff record for
// the job.
func (c *harnessCtl) setBackoff(tb tb, b *backoffRecord) {
	tb.Helper()
	if b == nil {
		return
	}
	r := *b
	r.key = c.key
	if err := updateBackoffRecord(c.store, r); err != nil {
		tb.Fatalf("upstream backoff store: %v", err)
	}
}

// backoff returns the controller's backoff record for the job, nil when it
// holds none.
func (c *harnessCtl) backoff(tb tb) *backoffRecord {
	tb.Helper()
	layout := (*backoffStoreLayout)(unsafe.Pointer(c.store))
	obj, ok, err := layout.store.GetByKey(c.key)
	if err != nil {
		tb.Fatalf("upstream backoff store: %v", err)
	}
	if !ok {
		return nil
	}
	r := *(*backoffRecord)(reflect.ValueOf(obj).UnsafePointer())
	return &r
}

// podEvent puts a pod change into the controller's informer and runs the
// controller's handler for it: old nil is a creation (addPod), cur nil the
// final deletion (deletePod), otherwise an update (updatePod) with a new
// resourceVersion on cur.
func (c *harnessCtl) podEvent(tb tb, old, cur *v1.Pod) {
	tb.Helper()
	logger := klog.Background()
	var err error
	if cur != nil {
		c.rv++
		cur.ResourceVersion = strconv.Itoa(c.rv)
	}
	switch {
	case old == nil:
		if err = c.podIndexer().Add(cur); err == nil {
			upAddPod(c.jm, logger, cur)
		}
	case cur == nil:
		if err = c.podIndexer().Delete(old); err == nil {
			upDeletePod(c.jm, logger, old, true)
		}
	default:
		if err = c.podIndexer().Update(cur); err == nil {
			upUpdatePod(c.jm, logger, old, cur)
		}
	}
	if err != nil {
		tb.Fatalf("pod informer: %v", err)
	}
}

// settled reports whether the controller expects nothing more of its
// informer for the job: its pod creations and deletions observed, its
// finalizer removals seen.
func (c *harnessCtl) settled() bool {
	exp := getField(c.jm, "expectations").Interface().(controller.ControllerExpectationsInterface)
	fin := (*uidExpectations)(unsafe.Pointer(getField(c.jm, "finalizerExpectations").Pointer()))
	return exp.SatisfiedExpectations(klog.Background(), c.key) && upExpectedUIDs(fin, c.key).Len() == 0
}

// sync puts j into the controller's informer, sets its clock to now and runs
// one syncJob, returning what that sync did.
func (c *harnessCtl) sync(tb tb, j *batch.Job, now time.Time) syncResult {
	tb.Helper()
	c.clock.SetTime(now)
	jobs := c.inf.Batch().V1().Jobs().Informer().GetIndexer()
	if err := jobs.Update(j); err != nil {
		tb.Fatalf("job informer: %v", err)
	}
	c.pc.mu.Lock()
	c.pc.deleted, c.pc.patched = nil, nil
	c.pc.mu.Unlock()
	c.kc.ClearActions()
	queued := len(c.q.snapshot())
	res := syncResult{status: j.Status}
	c.res = &res
	sync := getField(c.jm, "syncHandler").Interface().(func(context.Context, string) error)
	res.err = sync(context.Background(), c.key)
	c.res = nil
	res.actions = c.kc.Actions()
	for _, a := range res.actions {
		if ca, ok := a.(k8stesting.CreateAction); ok && a.GetVerb() == "create" {
			if p, ok := ca.GetObject().(*v1.Pod); ok {
				res.created = append(res.created, p)
				res.creations = append(res.creations, &v1.PodTemplateSpec{ObjectMeta: metav1.ObjectMeta{
					GenerateName: p.GenerateName, Labels: p.Labels, Annotations: p.Annotations, Finalizers: p.Finalizers, OwnerReferences: p.OwnerReferences}, Spec: p.Spec})
			}
		}
	}
	for len(c.rec.Events) > 0 {
		res.events = append(res.events, <-c.rec.Events)
	}
	res.deleted, res.patched, res.queued = c.pc.deleted, c.pc.patched, c.q.snapshot()[queued:]
	res.backoff = c.backoff(tb)
	return res
}

//go:linkname upAddPod k8s.io/kubernetes/pkg/controller/job.(*Controller).addPod
func upAddPod(*jobcontroller.Controller, klog.Logger, interface{})

//go:linkname upUpdatePod k8s.io/kubernetes/pkg/controller/job.(*Controller).updatePod
func upUpdatePod(*jobcontroller.Controller, klog.Logger, interface{}, interface{})

//go:linkname upDeletePod k8s.io/kubernetes/pkg/controller/job.(*Controller).deletePod
func upDeletePod(*jobcontroller.Controller, klog.Logger, interface{}, bool)

// uidExpectations stands for upstream's uidTrackingExpectations.
type uidExpectations struct{}

//go:linkname upExpectedUIDs k8s.io/kubernetes/pkg/controller/job.(*uidTrackingExpectations).getExpectedUIDs
func upExpectedUIDs(*uidExpectations, string) sets.Set[types.UID]
