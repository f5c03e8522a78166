package upstream_test

import (
	"context"
	"reflect"
	"runtime"
	"strings"
	"sync"
	"time"
	"unsafe"

	batch "k8s.io/api/batch/v1"
	v1 "k8s.io/api/core/v1"
	k8sruntime "k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/informers"
	clientset "k8s.io/client-go/kubernetes"
	restclient "k8s.io/client-go/rest"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/util/workqueue"
	"k8s.io/kubernetes/pkg/controller"
	clocktesting "k8s.io/utils/clock/testing"
)

// This file runs one upstream v1.36.3 syncJob and records everything it
// does that a job.Plan states: pod creations, deletions and patches (each
// with the upstream function that issued it), status writes, requeues and
// the backoff record the controller keeps for the job afterwards.

//go:linkname jobUpActivePodsForRemoval k8s.io/kubernetes/pkg/controller/job.activePodsForRemoval
func jobUpActivePodsForRemoval(*batch.Job, []*v1.Pod, int) []*v1.Pod

//go:linkname jobUpDuplicatedIndexPods k8s.io/kubernetes/pkg/controller/job.appendDuplicatedIndexPodsForRemoval
func jobUpDuplicatedIndexPods(rm, left, pods []*v1.Pod, completions int) ([]*v1.Pod, []*v1.Pod)

//go:linkname jobUpCompletionIndex k8s.io/kubernetes/pkg/controller/job.getCompletionIndex
func jobUpCompletionIndex(map[string]string) int

//go:linkname jobUpHasBackoffLimitPerIndex k8s.io/kubernetes/pkg/controller/job.hasBackoffLimitPerIndex
func jobUpHasBackoffLimitPerIndex(*batch.Job) bool

//go:linkname jobUpIsIndexed k8s.io/kubernetes/pkg/controller/job.isIndexedJob
func jobUpIsIndexed(*batch.Job) bool

// jobCall is one call upstream made: the object it named and the
// job-controller functions on the stack, innermost first (closures folded
// into the function that declares them).
type jobCall struct {
	name  string
	by    []string
	after time.Duration // queue calls: the delay
	verb  string        // queue calls: Add, AddAfter, AddRateLimited
}

// issuedBy reports whether fn is on the call's stack.
func (c jobCall) issuedBy(fn string) bool {
	for _, b := range c.by {
		if b == fn {
			return true
		}
	}
	return false
}

// jobCallers returns the job-controller functions on the current stack,
// innermost first.
func jobCallers() []string {
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

// jobPodControl is FakePodControl that also records which pods were
// deleted and patched, and by which upstream function.
type jobPodControl struct {
	*controller.FakePodControl
	mu               sync.Mutex
	deleted, patched []jobCall
}

func (c *jobPodControl) DeletePod(ctx context.Context, ns, name string, obj k8sruntime.Object) error {
	c.mu.Lock()
	c.deleted = append(c.deleted, jobCall{name: name, by: jobCallers()})
	c.mu.Unlock()
	return c.FakePodControl.DeletePod(ctx, ns, name, obj)
}

func (c *jobPodControl) PatchPod(ctx context.Context, ns, name string, data []byte) error {
	c.mu.Lock()
	c.patched = append(c.patched, jobCall{name: name, by: jobCallers()})
	c.mu.Unlock()
	return c.FakePodControl.PatchPod(ctx, ns, name, data)
}

// jobQueue records what the controller puts back on its work queue.
type jobQueue struct {
	workqueue.TypedRateLimitingInterface[string]
	mu    sync.Mutex
	calls []jobCall
}

func (q *jobQueue) add(verb, key string, after time.Duration) {
	q.mu.Lock()
	q.calls = append(q.calls, jobCall{name: key, verb: verb, after: after, by: jobCallers()})
	q.mu.Unlock()
}
func (q *jobQueue) Add(key string)                       { q.add("Add", key, 0) }
func (q *jobQueue) AddAfter(key string, d time.Duration) { q.add("AddAfter", key, d) }
func (q *jobQueue) AddRateLimited(key string)            { q.add("AddRateLimited", key, 0) }
func (q *jobQueue) snapshot() []jobCall {
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.calls
}

// jobBackoffStoreLayout mirrors upstream's backoffStore.
type jobBackoffStoreLayout struct{ store cache.Store }

// jobTB is what the harness needs of *testing.T and *rapid.T.
type jobTB interface {
	Helper()
	Fatalf(format string, args ...any)
}

// jobSync is one upstream sync's input: the job (defaulted, with selector
// and template labels set), its pods (owned, labelled), now and the
// controller's backoff record for the job before the sync (nil: none).
type jobSync struct {
	job     *batch.Job
	pods    []*v1.Pod
	now     time.Time
	backoff *jobBackoffRecord
}

// jobSyncResult is what upstream did in the sync.
type jobSyncResult struct {
	creations        []*v1.PodTemplateSpec
	deleted, patched []jobCall
	queued           []jobCall
	status           batch.JobStatus
	updated          bool
	err              error
	// backoff is the controller's record for the job after the sync; nil
	// when it holds none.
	backoff *jobBackoffRecord
}

// jobSyncUpstream runs one upstream syncJob on a fresh controller, with
// fake pod control, status writes captured and the work queue recorded, as
// TestControllerSyncJob does.
func jobSyncUpstream(tb jobTB, in jobSync) jobSyncResult {
	tb.Helper()
	ctx := context.Background()
	client := clientset.NewForConfigOrDie(&restclient.Config{Host: "", ContentConfig: restclient.ContentConfig{GroupVersion: &schema.GroupVersion{Group: "", Version: "v1"}}})
	inf := informers.NewSharedInformerFactory(client, 0)
	jm, err := jobNewController(ctx, client, clocktesting.NewFakeClock(in.now), inf.Core().V1().Pods(), inf.Batch().V1().Jobs(),
		inf.Scheduling().V1alpha2().Workloads(), inf.Scheduling().V1alpha2().PodGroups())
	if err != nil {
		tb.Fatalf("upstream controller: %v", err)
	}
	pc := &jobPodControl{FakePodControl: &controller.FakePodControl{}}
	jobSetField(jm, "podControl", controller.PodControlInterface(pc))
	q := &jobQueue{TypedRateLimitingInterface: jobGetField(jm, "queue").Interface().(workqueue.TypedRateLimitingInterface[string])}
	jobSetField(jm, "queue", workqueue.TypedRateLimitingInterface[string](q))
	defer q.TypedRateLimitingInterface.ShutDown()
	orphans := jobGetField(jm, "orphanQueue")
	defer orphans.MethodByName("ShutDown").Call(nil)
	always := cache.InformerSynced(func() bool { return true })
	jobSetField(jm, "podStoreSynced", always)
	jobSetField(jm, "jobStoreSynced", always)
	res := jobSyncResult{status: in.job.Status}
	jobSetField(jm, "updateStatusHandler", func(_ context.Context, job *batch.Job) (*batch.Job, error) {
		res.status = *job.Status.DeepCopy()
		res.updated = true
		return job, nil
	})
	key := in.job.Namespace + "/" + in.job.Name
	store := (*jobBackoffStore)(unsafe.Pointer(jobGetField(jm, "podBackoffStore").Pointer()))
	if b := in.backoff; b != nil {
		r := *b
		r.key = key
		if err := jobUpdateBackoffRecord(store, r); err != nil {
			tb.Fatalf("upstream backoff store: %v", err)
		}
	}
	if err := inf.Batch().V1().Jobs().Informer().GetIndexer().Add(in.job); err != nil {
		tb.Fatalf("job informer: %v", err)
	}
	for _, p := range in.pods {
		if err := inf.Core().V1().Pods().Informer().GetIndexer().Add(p); err != nil {
			tb.Fatalf("pod informer: %v", err)
		}
	}
	sync := jobGetField(jm, "syncHandler").Interface().(func(context.Context, string) error)
	res.err = sync(ctx, key)
	for i := range pc.Templates {
		res.creations = append(res.creations, &pc.Templates[i])
	}
	res.deleted, res.patched, res.queued = pc.deleted, pc.patched, q.snapshot()
	layout := (*jobBackoffStoreLayout)(unsafe.Pointer(store))
	if obj, ok, err := layout.store.GetByKey(key); err != nil {
		tb.Fatalf("upstream backoff store: %v", err)
	} else if ok {
		r := *(*jobBackoffRecord)(reflect.ValueOf(obj).UnsafePointer())
		res.backoff = &r
	}
	return res
}
