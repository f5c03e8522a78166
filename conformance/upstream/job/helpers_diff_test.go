package job_test

import (
	"context"
	"encoding/json"
	"math"
	"slices"
	"strconv"
	"sync"
	"testing"
	"time"
	"unsafe"

	"github.com/go-logr/logr"
	batch "k8s.io/api/batch/v1"
	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/informers"
	batchinformers "k8s.io/client-go/informers/batch/v1"
	coreinformers "k8s.io/client-go/informers/core/v1"
	schedinformers "k8s.io/client-go/informers/scheduling/v1alpha2"
	clientset "k8s.io/client-go/kubernetes"
	"k8s.io/client-go/kubernetes/fake"
	"k8s.io/klog/v2"
	batchv1defaults "k8s.io/kubernetes/pkg/apis/batch/v1"
	"k8s.io/kubernetes/pkg/controller"
	jobcontroller "k8s.io/kubernetes/pkg/controller/job"
	jobutil "k8s.io/kubernetes/pkg/controller/job/util"
	"k8s.io/utils/clock"
	clocktesting "k8s.io/utils/clock/testing"
	"pgregory.net/rapid"

	"github.com/kubesem/kubesem/conformance/upstream/internal/difftest"
	"github.com/kubesem/kubesem/job"
	"github.com/kubesem/kubesem/k8s"
	"github.com/kubesem/kubesem/meta"
	"github.com/kubesem/kubesem/podstatus"
)

// This file checks the Job helper decisions against v1.36.3: for each, a
// differential draws random boundary-heavy inputs, asks kubesem through the
// conformance binding (conformance.Kubesem().Decide, so the binding's
// decoding and validation are covered too) and asks upstream's function
// (helperUpstream), and fails on any difference; TestJobHelperVectorsUpstream
// replays every vector of these decisions through the same upstream oracle,
// which pins the vectors' wants to upstream's answers. Upstream runs with
// its own defaults (DefaultJobPodFailureBackOff, MaxJobPodFailureBackOff,
// SetObjectDefaults_Job); only a vector's or a draw's explicit backoffBase /
// backoffCap option is passed to both sides.

// helperInterval mirrors upstream's unexported interval.
type helperInterval struct{ First, Last int }

// helperBackoffRecord mirrors upstream's unexported backoffRecord.
type helperBackoffRecord struct {
	key                      string
	failuresAfterLastSuccess int32
	lastFailureTime          *time.Time
}

// helperSyncJobCtx mirrors upstream's unexported syncJobCtx (job_controller.go,
// v1.36.3) field for field; the pointers to unexported types are
// unsafe.Pointer. TestJobHelperLayout checks it on fixed cases.
type helperSyncJobCtx struct {
	job                             *batch.Job
	pods                            []*v1.Pod
	finishedCondition               *batch.JobCondition
	activePods                      []*v1.Pod
	succeeded                       int32
	failed                          int32
	prevSucceededIndexes            []helperInterval
	succeededIndexes                []helperInterval
	failedIndexes                   *[]helperInterval
	newBackoffRecord                helperBackoffRecord
	expectedRmFinalizers            map[types.UID]struct{}
	uncounted                       unsafe.Pointer
	podsWithDelayedDeletionPerIndex map[int]*v1.Pod
	terminating                     *int32
	ready                           int32
	podGroup                        unsafe.Pointer
}

//go:linkname helperGetCompletionIndex k8s.io/kubernetes/pkg/controller/job.getCompletionIndex
func helperGetCompletionIndex(map[string]string) int

//go:linkname helperGenerateName k8s.io/kubernetes/pkg/controller/job.podGenerateNameWithIndex
func helperGenerateName(string, int) string

//go:linkname helperHas k8s.io/kubernetes/pkg/controller/job.orderedIntervals.has
func helperHas([]helperInterval, int) bool

//go:linkname helperString k8s.io/kubernetes/pkg/controller/job.orderedIntervals.String
func helperString([]helperInterval) string

//go:linkname helperTotal k8s.io/kubernetes/pkg/controller/job.orderedIntervals.total
func helperTotal([]helperInterval) int

//go:linkname helperFirstPending k8s.io/kubernetes/pkg/controller/job.firstPendingIndexes
func helperFirstPending(*helperSyncJobCtx, int, int) []int

//go:linkname helperSucceededIndexes k8s.io/kubernetes/pkg/controller/job.calculateSucceededIndexes
func helperSucceededIndexes(klog.Logger, *batch.Job, []*v1.Pod) ([]helperInterval, []helperInterval)

//go:linkname helperFailedIndexes k8s.io/kubernetes/pkg/controller/job.calculateFailedIndexes
func helperFailedIndexes(klog.Logger, *batch.Job, []*v1.Pod) *[]helperInterval

//go:linkname helperNewIndexFailureCounts k8s.io/kubernetes/pkg/controller/job.getNewIndexFailureCounts
func helperNewIndexFailureCounts(klog.Logger, *batch.Job, *v1.Pod) (int32, int32)

//go:linkname helperRemainingForCount k8s.io/kubernetes/pkg/controller/job.getRemainingTimeForFailuresCount
func helperRemainingForCount(clock.WithTicker, time.Duration, time.Duration, int32, *time.Time) time.Duration

//go:linkname helperRemainingPerIndex k8s.io/kubernetes/pkg/controller/job.getRemainingTimePerIndex
func helperRemainingPerIndex(klog.Logger, clock.WithTicker, time.Duration, time.Duration, *v1.Pod) time.Duration

//go:linkname helperAbsoluteFailureCount k8s.io/kubernetes/pkg/controller/job.getIndexAbsoluteFailureCount
func helperAbsoluteFailureCount(klog.Logger, *v1.Pod) int32

//go:linkname helperFinishedTime k8s.io/kubernetes/pkg/controller/job.getFinishedTime
func helperFinishedTime(*v1.Pod) time.Time

//go:linkname helperPastActiveDeadline k8s.io/kubernetes/pkg/controller/job.(*Controller).pastActiveDeadline
func helperPastActiveDeadline(*jobcontroller.Controller, *batch.Job) bool

//go:linkname helperManageJob k8s.io/kubernetes/pkg/controller/job.(*Controller).manageJob
func helperManageJob(*jobcontroller.Controller, context.Context, *batch.Job, *helperSyncJobCtx) (int32, string, error)

//go:linkname helperNewJobController k8s.io/kubernetes/pkg/controller/job.newControllerWithClock
func helperNewJobController(ctx context.Context, kubeClient clientset.Interface, clk clock.WithTicker, podInformer coreinformers.PodInformer, jobInformer batchinformers.JobInformer, workloadInformer schedinformers.WorkloadInformer, podGroupInformer schedinformers.PodGroupInformer) (*jobcontroller.Controller, error)

// helperCheck runs one differential state of a Job decision.
func helperCheck(t difftest.TB, decision string, options, input any) {
	t.Helper()
	difftest.CheckWith(t, helperUpstream, decision, options, input)
}

// helperOptions is job.Options as vectors write it.
type helperOptions struct {
	BackoffBase string `json:"backoffBase,omitempty"`
	BackoffCap  string `json:"backoffCap,omitempty"`
}

// durations returns the base and cap upstream is given: its own constants,
// or the explicit option.
func (o helperOptions) durations(t difftest.TB) (base, limit time.Duration) {
	t.Helper()
	base, limit = jobcontroller.DefaultJobPodFailureBackOff, jobcontroller.MaxJobPodFailureBackOff
	var err error
	if o.BackoffBase != "" {
		if base, err = time.ParseDuration(o.BackoffBase); err != nil {
			t.Fatalf("backoffBase: %v", err)
		}
	}
	if o.BackoffCap != "" {
		if limit, err = time.ParseDuration(o.BackoffCap); err != nil {
			t.Fatalf("backoffCap: %v", err)
		}
	}
	return base, limit
}

type (
	helperIntervals [][2]int
	helperJobIn     struct {
		Job job.Job `json:"job"`
	}
	helperJobPodsIn struct {
		Job  job.Job          `json:"job"`
		Pods []*podstatus.Pod `json:"pods"`
	}
	helperJobNowIn struct {
		Job job.Job   `json:"job"`
		Now time.Time `json:"now"`
	}
	helperWantActiveIn struct {
		Job       job.Job `json:"job"`
		Succeeded int32   `json:"succeeded"`
		Active    int32   `json:"active"`
	}
	helperPendingIn struct {
		Count       int              `json:"count"`
		Completions int              `json:"completions"`
		Succeeded   helperIntervals  `json:"succeeded"`
		ActivePods  []*podstatus.Pod `json:"activePods"`
		Failed      helperIntervals  `json:"failed"`
	}
	helperHasIn struct {
		Intervals helperIntervals `json:"intervals"`
		Index     int             `json:"index"`
	}
	helperIntervalsIn struct {
		Intervals helperIntervals `json:"intervals"`
	}
	helperDelayIn struct {
		Failures int32 `json:"failures"`
	}
	helperRemainingIndexIn struct {
		Pod *podstatus.Pod `json:"pod"`
		Now time.Time      `json:"now"`
	}
	helperGenerateNameIn struct {
		JobName string `json:"jobName"`
		Index   int    `json:"index"`
	}
	helperPodIn struct {
		Pod podstatus.Pod `json:"pod"`
	}
	helperIndexCountsIn struct {
		Job job.Job        `json:"job"`
		Pod *podstatus.Pod `json:"pod"`
	}
)

func (x helperIntervals) up() []helperInterval {
	out := make([]helperInterval, len(x))
	for i, v := range x {
		out[i] = helperInterval{v[0], v[1]}
	}
	return out
}

// upJob is upstream's Job for a kubesem one: converted by the adapter and
// defaulted by upstream's own SetObjectDefaults_Job, as the API server
// stores it.
func upJob(j *job.Job) *batch.Job {
	out := difftest.Must(k8s.ToJob(j))
	batchv1defaults.SetObjectDefaults_Job(out)
	return out
}

func upPods(pods []*podstatus.Pod) []*v1.Pod {
	out := make([]*v1.Pod, 0, len(pods))
	for _, p := range pods {
		out = append(out, difftest.Must(k8s.ToPod(p)))
	}
	return out
}

// helperUpstream is upstream v1.36.3's answer to one input of decision, in the
// binding's output shape.
func helperUpstream(t difftest.TB, decision string, options, input json.RawMessage) json.RawMessage {
	t.Helper()
	var opts helperOptions
	difftest.Decode(t, options, &opts)
	var out any
	switch decision {
	case "job.BackoffDelay":
		// The delay before the next pod after `failures` failures is what
		// getRemainingTimeForFailuresCount leaves at the instant of the
		// last failure (no time elapsed).
		var in helperDelayIn
		difftest.Decode(t, input, &in)
		base, limit := opts.durations(t)
		now := difftest.JobT0
		out = map[string]time.Duration{"delay": helperRemainingForCount(clocktesting.NewFakeClock(now), base, limit, in.Failures, &now)}
	case "job.RemainingIndexBackoff":
		var in helperRemainingIndexIn
		difftest.Decode(t, input, &in)
		base, limit := opts.durations(t)
		var p *v1.Pod
		if in.Pod != nil {
			p = difftest.Must(k8s.ToPod(in.Pod))
		}
		out = map[string]time.Duration{"remaining": helperRemainingPerIndex(difftest.Log, clocktesting.NewFakeClock(in.Now), base, limit, p)}
	case "job.CompletionIndex":
		var in helperPodIn
		difftest.Decode(t, input, &in)
		out = map[string]int{"index": helperGetCompletionIndex(difftest.Must(k8s.ToPod(&in.Pod)).Annotations)}
	case "job.GenerateNameWithIndex":
		var in helperGenerateNameIn
		difftest.Decode(t, input, &in)
		out = map[string]string{"generateName": helperGenerateName(in.JobName, in.Index)}
	case "job.Indexes.Has":
		var in helperHasIn
		difftest.Decode(t, input, &in)
		out = map[string]bool{"has": helperHas(in.Intervals.up(), in.Index)}
	case "job.Indexes.String":
		var in helperIntervalsIn
		difftest.Decode(t, input, &in)
		out = map[string]string{"string": helperString(in.Intervals.up())}
	case "job.FirstPendingIndexes":
		// The pods are the job's active pods; a job that does not replace
		// only failed pods adds no terminating ones (onlyReplaceFailedPods).
		var in helperPendingIn
		difftest.Decode(t, input, &in)
		pods := upPods(in.ActivePods)
		failed := in.Failed.up()
		ctx := &helperSyncJobCtx{job: &batch.Job{}, pods: pods, activePods: pods, succeededIndexes: in.Succeeded.up(), failedIndexes: &failed}
		ix := helperFirstPending(ctx, in.Count, in.Completions)
		if ix == nil {
			ix = []int{}
		}
		out = map[string][]int{"indexes": ix}
	case "job.SucceededIndexes":
		var in helperJobPodsIn
		difftest.Decode(t, input, &in)
		prev, now := helperSucceededIndexes(difftest.Log, upJob(&in.Job), upPods(in.Pods))
		out = map[string]any{"previous": helperString(prev), "succeeded": helperString(now), "total": helperTotal(now)}
	case "job.FailedIndexes":
		var in helperJobPodsIn
		difftest.Decode(t, input, &in)
		out = map[string]string{"failedIndexes": helperString(*helperFailedIndexes(difftest.Log, upJob(&in.Job), upPods(in.Pods)))}
	case "job.NewIndexFailureCounts":
		var in helperIndexCountsIn
		difftest.Decode(t, input, &in)
		var p *v1.Pod
		if in.Pod != nil {
			p = difftest.Must(k8s.ToPod(in.Pod))
		}
		f, i := helperNewIndexFailureCounts(difftest.Log, upJob(&in.Job), p)
		out = map[string]int32{"indexFailureCount": f, "indexIgnoredFailureCount": i}
	case "job.IsSucceeded":
		var in helperJobIn
		difftest.Decode(t, input, &in)
		out = map[string]bool{"succeeded": jobutil.IsJobSucceeded(upJob(&in.Job))}
	case "job.FinishedCondition":
		var in helperJobIn
		difftest.Decode(t, input, &in)
		ok, typ := jobutil.FinishedCondition(upJob(&in.Job))
		out = map[string]any{"finished": ok, "type": string(typ)}
	case "job.PastActiveDeadline":
		var in helperJobNowIn
		difftest.Decode(t, input, &in)
		// pastActiveDeadline reads only the controller's clock. A bare
		// controller with its own fake clock: the shared controller's
		// clock drives its queues' tickers, which a jump of centuries
		// would step through one by one.
		jm := &jobcontroller.Controller{}
		difftest.SetField(jm, "clock", clock.WithTicker(clocktesting.NewFakeClock(in.Now)))
		out = map[string]bool{"past": helperPastActiveDeadline(jm, upJob(&in.Job))}
	case "job.WantActive":
		var in helperWantActiveIn
		difftest.Decode(t, input, &in)
		out = map[string]int32{"wantActive": helperUpstreamWantActive(t, upJob(&in.Job), in.Succeeded, int(in.Active))}
	default:
		t.Fatalf("no upstream oracle for %s", decision)
	}
	return difftest.Encode(t, out)
}

var (
	helperJobControllerOnce sync.Once
	helperJobCtl            *jobcontroller.Controller
	helperJobCtlErr         error
)

// helperJobController is one upstream Job controller on a fake clientset with
// a fake clock standing at difftest.JobT0, shared by the manageJob runs (which read
// the clock, the pod control and the expectations).
func helperJobController(t difftest.TB) *jobcontroller.Controller {
	t.Helper()
	helperJobControllerOnce.Do(func() {
		ctx := context.Background()
		client := fake.NewClientset()
		inf := informers.NewSharedInformerFactory(client, 0)
		helperJobCtl, helperJobCtlErr = helperNewJobController(ctx, client, clocktesting.NewFakeClock(difftest.JobT0), inf.Core().V1().Pods(), inf.Batch().V1().Jobs(),
			inf.Scheduling().V1alpha2().Workloads(), inf.Scheduling().V1alpha2().PodGroups())
	})
	if helperJobCtlErr != nil {
		t.Fatalf("upstream job controller: %v", helperJobCtlErr)
	}
	return helperJobCtl
}

// helperSink records the wanted-active count manageJob logs on the way to
// creating ("Too few pods running", need) or deleting ("Too many pods
// running for job", target) pods.
type helperSink struct {
	mu           sync.Mutex
	need, target []int32
	bad          []any // logged counts that are not int32
}

func (s *helperSink) Init(logr.RuntimeInfo) {}

func (s *helperSink) Enabled(int) bool { return true }

func (s *helperSink) Error(error, string, ...any) {}

func (s *helperSink) WithValues(...any) logr.LogSink { return s }

func (s *helperSink) WithName(string) logr.LogSink { return s }

func (s *helperSink) Info(_ int, msg string, kv ...any) {
	key := map[string]string{"Too few pods running": "need", "Too many pods running for job": "target"}[msg]
	if key == "" {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for i := 0; i+1 < len(kv); i += 2 {
		if kv[i] == key {
			n, ok := kv[i+1].(int32)
			if !ok {
				s.bad = append(s.bad, kv[i+1])
			}
			if key == "need" {
				s.need = append(s.need, n)
			} else {
				s.target = append(s.target, n)
			}
		}
	}
}

// helperUpstreamWantActive runs upstream's manageJob for a job (not
// suspended, no failures to back off from) with `active` running pods and
// `succeeded` successes, and returns the number of pods it wanted active.
//
// manageJob keeps that number in a local variable, wantActive, which no
// function returns; it is seen through what manageJob does with it: it
// deletes active-wantActive pods (an Indexed job also those whose index is
// out of range) and logs "target" wantActive, or creates wantActive-active
// pods (at most MaxPodCreateDeletePerSync; for an Indexed job at most the
// pending indexes) and logs "need" wantActive, or, wantActive == active,
// does neither. The writes and the log are checked against each other.
func helperUpstreamWantActive(t difftest.TB, j *batch.Job, succeeded int32, active int) int32 {
	t.Helper()
	if j.Spec.Suspend != nil && *j.Spec.Suspend {
		t.Fatalf("WantActive oracle: a suspended job never reaches wantActive in manageJob")
	}
	jm := helperJobController(t)
	pc := &controller.FakePodControl{}
	difftest.SetField(jm, "podControl", controller.PodControlInterface(pc))
	pods := make([]*v1.Pod, active)
	for i := range pods {
		pods[i] = &v1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "a" + strconv.Itoa(i), Namespace: j.Namespace, UID: types.UID("a" + strconv.Itoa(i)),
			CreationTimestamp: metav1.NewTime(difftest.JobT0.Add(time.Duration(i) * time.Second))}, Status: v1.PodStatus{Phase: v1.PodRunning}}
		if helperIndexed(j) {
			pods[i].Annotations = map[string]string{batch.JobCompletionIndexAnnotation: strconv.Itoa(i)}
		}
	}
	var terminating int32
	jc := &helperSyncJobCtx{job: j, pods: pods, activePods: pods, succeeded: succeeded, terminating: &terminating, expectedRmFinalizers: map[types.UID]struct{}{}}
	sink := &helperSink{}
	ctx := klog.NewContext(context.Background(), logr.New(sink))
	if _, _, err := helperManageJob(jm, ctx, j, jc); err != nil {
		t.Fatalf("manageJob: %v", err)
	}
	if len(sink.bad) > 0 {
		t.Fatalf("manageJob logged counts of an unexpected type: %#v", sink.bad)
	}
	creates, deletes := len(pc.Templates), len(pc.DeletePodName)
	switch {
	case len(sink.need) == 1 && len(sink.target) == 0 && deletes == 0:
		want := sink.need[0]
		if int(want) <= active || creates > int(want)-active || creates > jobcontroller.MaxPodCreateDeletePerSync ||
			!helperIndexed(j) && creates != min(int(want)-active, jobcontroller.MaxPodCreateDeletePerSync) {
			t.Fatalf("manageJob logged need %d with %d active but created %d pods", want, active, creates)
		}
		return want
	case len(sink.target) == 1 && len(sink.need) == 0 && creates == 0:
		// An Indexed job also deletes pods whose index is out of range or
		// repeated (activePodsForRemoval), so more than active-wantActive.
		want := sink.target[0]
		if !helperIndexed(j) && (int(want) >= active || deletes != active-int(want)) || deletes < active-int(want) {
			t.Fatalf("manageJob logged target %d with %d active but deleted %d pods", want, active, deletes)
		}
		return want
	case len(sink.need)+len(sink.target)+creates+deletes == 0:
		return int32(active)
	}
	t.Fatalf("manageJob: logged need %v target %v, created %d, deleted %d", sink.need, sink.target, creates, deletes)
	return 0
}

func helperIndexed(j *batch.Job) bool {
	return j.Spec.CompletionMode != nil && *j.Spec.CompletionMode == batch.IndexedCompletion
}

// ---- generators ----

// helperInt32 draws an int32, heavy on 0, 1, small values and the int32 edges.
func helperInt32(t *rapid.T, label string, lo, hi int32) int32 {
	edges := []int32{lo, hi, 0, 1, 2, -1, math.MaxInt32, math.MaxInt32 - 1, math.MinInt32, math.MinInt32 + 1, 1 << 30}
	switch rapid.IntRange(0, 3).Draw(t, label+"Kind") {
	case 0:
		var in []int32
		for _, e := range edges {
			if e >= lo && e <= hi {
				in = append(in, e)
			}
		}
		return rapid.SampledFrom(in).Draw(t, label)
	case 1:
		return int32(rapid.Int64Range(int64(lo), int64(hi)).Draw(t, label))
	}
	return int32(rapid.Int64Range(int64(max(lo, -8)), int64(min(hi, 12))).Draw(t, label))
}

// helperCountAnnotation draws the value of a counter annotation: small,
// boundary (int32 edges, one past them), negative or not a number.
func helperCountAnnotation(t *rapid.T, label string) string {
	return rapid.SampledFrom([]string{"0", "1", "2", "3", "6", "-1", "2147483646", "2147483647", "2147483648", "-2147483648",
		"9223372036854775807", "9223372036854775808", "x", "", "+1", "-0", "01", " 1"}).Draw(t, label)
}

// helperIndexAnnotation draws a completion-index annotation value around
// completions c.
func helperIndexAnnotation(t *rapid.T, label string, c int) string {
	switch rapid.IntRange(0, 3).Draw(t, label+"Kind") {
	case 0:
		return rapid.SampledFrom([]string{"0", "1", "-1", "-0", "+0", "+1", "+-1", "x", "", "1.0", "0x1", "1_0", " 1", "1 ",
			"2147483646", "2147483647", "2147483648", "9223372036854775807", "9223372036854775808", "-9223372036854775808", "00", "007"}).Draw(t, label)
	case 1:
		return strconv.Itoa(max(c+rapid.IntRange(-3, 2).Draw(t, label+"Near"), 0))
	}
	return strconv.Itoa(rapid.IntRange(0, 12).Draw(t, label))
}

// helperGenIntervals draws well-formed intervals (what the binding accepts:
// increasing, disjoint, within [0, job.MaxIndex]), near 0, near hint and
// near the top.
func helperGenIntervals(t *rapid.T, label string, hint int) helperIntervals {
	out := helperIntervals{}
	next := 0
	for n := rapid.IntRange(0, 4).Draw(t, label+"N"); n > 0 && next <= job.MaxIndex; n-- {
		var first int
		switch rapid.IntRange(0, 5).Draw(t, label+"Where") {
		case 0:
			first = max(next, hint+rapid.IntRange(-3, 2).Draw(t, label+"NearHint"))
		case 1:
			first = max(next, job.MaxIndex-rapid.IntRange(0, 4).Draw(t, label+"NearTop"))
		default:
			first = next + rapid.IntRange(0, 3).Draw(t, label+"Gap")
		}
		if first > job.MaxIndex {
			break
		}
		last := min(first+rapid.IntRange(0, 4).Draw(t, label+"Len"), job.MaxIndex)
		if rapid.IntRange(0, 7).Draw(t, label+"Huge") == 0 {
			last = job.MaxIndex
		}
		out = append(out, [2]int{first, last})
		// Adjacent intervals are well-formed too: [1,2],[3,4].
		next = last + 1 + rapid.IntRange(0, 2).Draw(t, label+"Skip")
	}
	return out
}

// helperIndexString draws a status.completedIndexes / failedIndexes value:
// well-formed around completions c, or corrupted.
func helperIndexString(t *rapid.T, label string, c int) string {
	if rapid.IntRange(0, 4).Draw(t, label+"Garbage") == 0 {
		return rapid.StringMatching(`[0-9,\-x]{0,14}`).Draw(t, label+"Raw")
	}
	var parts []string
	for _, iv := range helperGenIntervals(t, label, c) {
		if iv[0] == iv[1] {
			parts = append(parts, strconv.Itoa(iv[0]))
		} else {
			parts = append(parts, strconv.Itoa(iv[0])+"-"+strconv.Itoa(iv[1]))
		}
	}
	s := ""
	for i, p := range parts {
		if i > 0 {
			s += ","
		}
		s += p
	}
	return s
}

// helperGenJob draws a valid Job: indexed or not, completions and parallelism
// at the int32 edges, optionally backoffLimitPerIndex and a valid pod
// failure policy.
func helperGenJob(t *rapid.T, indexed, perIndex bool) *job.Job {
	j := &job.Job{ObjectMeta: meta.ObjectMeta{Name: "j", Namespace: "ns", UID: "juid"}}
	j.Spec.Template.Spec.RestartPolicy = rapid.SampledFrom([]podstatus.RestartPolicy{podstatus.RestartNever, podstatus.RestartOnFailure}).Draw(t, "restartPolicy")
	c := helperInt32(t, "completions", 0, math.MaxInt32)
	j.Spec.Completions = &c
	if !indexed && rapid.IntRange(0, 3).Draw(t, "nilCompletions") == 0 {
		j.Spec.Completions = nil
	}
	if rapid.IntRange(0, 4).Draw(t, "nilParallelism") > 0 {
		p := helperInt32(t, "parallelism", 0, math.MaxInt32)
		if indexed {
			p = min(p, 10_000)
		}
		j.Spec.Parallelism = &p
	}
	if indexed {
		j.Spec.CompletionMode = ptr(job.Indexed)
	} else if rapid.Bool().Draw(t, "explicitNonIndexed") {
		j.Spec.CompletionMode = ptr(job.NonIndexed)
	}
	if perIndex {
		j.Spec.BackoffLimitPerIndex = ptr(helperInt32(t, "backoffLimitPerIndex", 0, math.MaxInt32))
		if c > 100_000 || rapid.Bool().Draw(t, "hasMaxFailed") {
			j.Spec.MaxFailedIndexes = ptr(min(c, helperInt32(t, "maxFailedIndexes", 0, 10_000)))
		}
	}
	if rapid.Bool().Draw(t, "hasBackoffLimit") {
		j.Spec.BackoffLimit = ptr(helperInt32(t, "backoffLimit", 0, math.MaxInt32))
	}
	if rapid.IntRange(0, 2).Draw(t, "hasPFP") == 0 {
		j.Spec.PodFailurePolicy = helperGenPolicy(t, perIndex)
		j.Spec.Template.Spec.RestartPolicy = podstatus.RestartNever
		if rapid.Bool().Draw(t, "explicitFailed") {
			j.Spec.PodReplacementPolicy = ptr(job.FailedOnly)
		}
	} else {
		switch rapid.IntRange(0, 2).Draw(t, "replacement") {
		case 1:
			j.Spec.PodReplacementPolicy = ptr(job.FailedOnly)
		case 2:
			j.Spec.PodReplacementPolicy = ptr(job.TerminatingOrFailed)
		}
	}
	return j
}

// helperGenPolicy draws a pod failure policy API validation accepts.
func helperGenPolicy(t *rapid.T, perIndex bool) *job.PodFailurePolicy {
	actions := []job.PodFailurePolicyAction{job.ActionFailJob, job.ActionIgnore, job.ActionCount}
	if perIndex {
		actions = append(actions, job.ActionFailIndex)
	}
	p := &job.PodFailurePolicy{Rules: []job.PodFailurePolicyRule{}}
	for n := rapid.IntRange(0, 3).Draw(t, "rules"); n > 0; n-- {
		r := job.PodFailurePolicyRule{Action: rapid.SampledFrom(actions).Draw(t, "action")}
		if rapid.Bool().Draw(t, "byExit") {
			e := &job.OnExitCodesRequirement{Operator: rapid.SampledFrom([]string{job.OpIn, job.OpNotIn}).Draw(t, "op")}
			if rapid.Bool().Draw(t, "containerName") {
				e.ContainerName = ptr(rapid.SampledFrom([]string{"main", "side", "init"}).Draw(t, "cn"))
			}
			lo := -1
			if e.Operator == job.OpIn {
				lo = 1
			}
			set := map[int32]bool{}
			for k := rapid.IntRange(1, 3).Draw(t, "nvals"); k > 0; k-- {
				set[int32(rapid.IntRange(lo, 3).Draw(t, "val"))] = true
			}
			for v := range set {
				e.Values = append(e.Values, v)
			}
			slices.Sort(e.Values)
			r.OnExitCodes = e
		} else {
			for k := rapid.IntRange(1, 2).Draw(t, "npc"); k > 0; k-- {
				r.OnPodConditions = append(r.OnPodConditions, job.OnPodConditionsRequirement{
					Type:   rapid.SampledFrom([]podstatus.ConditionType{podstatus.DisruptionTarget, podstatus.Ready, "Custom"}).Draw(t, "pct"),
					Status: rapid.SampledFrom([]meta.ConditionStatus{"", meta.ConditionTrue, meta.ConditionFalse, meta.ConditionUnknown}).Draw(t, "pcs")})
			}
		}
		p.Rules = append(p.Rules, r)
	}
	return p
}

// helperGenPod draws a pod (drawPod's fields) whose counter and index
// annotations are boundary-heavy.
func helperGenPod(t *rapid.T, i, completions int) *podstatus.Pod {
	p := drawPod(t, i)
	ann := map[string]string{}
	if rapid.IntRange(0, 4).Draw(t, "hasIdx") > 0 {
		ann[job.CompletionIndexAnnotation] = helperIndexAnnotation(t, "idx", completions)
	}
	if rapid.Bool().Draw(t, "hasFC") {
		ann[job.IndexFailureCountAnnotation] = helperCountAnnotation(t, "fc")
	}
	if rapid.Bool().Draw(t, "hasIFC") {
		ann[job.IndexIgnoredFailureCountAnnotation] = helperCountAnnotation(t, "ifc")
	}
	p.Annotations = nil
	if len(ann) > 0 {
		p.Annotations = ann
	}
	return p
}

// helperGenConditions draws a job's status conditions.
func helperGenConditions(t *rapid.T) []job.Condition {
	var out []job.Condition
	for n := rapid.IntRange(0, 4).Draw(t, "conds"); n > 0; n-- {
		out = append(out, job.Condition{
			Type:               rapid.SampledFrom([]job.ConditionType{job.Complete, job.Failed, job.Suspended, job.FailureTarget, job.SuccessCriteriaMet, "Custom"}).Draw(t, "type"),
			Status:             rapid.SampledFrom([]meta.ConditionStatus{meta.ConditionTrue, meta.ConditionFalse, meta.ConditionUnknown}).Draw(t, "status"),
			LastTransitionTime: difftest.JobT0,
		})
	}
	return out
}

// helperGenOptions draws no options (upstream's defaults) three times in four,
// else an explicit backoffBase and/or backoffCap, given to both sides.
func helperGenOptions(t *rapid.T) *helperOptions {
	if rapid.IntRange(0, 3).Draw(t, "hasOptions") > 0 {
		return nil
	}
	o := &helperOptions{}
	if rapid.Bool().Draw(t, "hasBase") {
		o.BackoffBase = rapid.SampledFrom([]string{"1ns", "1s", "5s", "10s", "1m", "7m"}).Draw(t, "base")
	}
	if rapid.Bool().Draw(t, "hasCap") {
		o.BackoffCap = rapid.SampledFrom([]string{"1ns", "1s", "6m", "10m", "700s", "1h"}).Draw(t, "cap")
	}
	return o
}

// ---- differentials ----

func TestJobBackoffDelayDifferential(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		o := helperGenOptions(t)
		in := helperDelayIn{Failures: helperInt32(t, "failures", math.MinInt32, math.MaxInt32)}
		if o == nil {
			helperCheck(t, "job.BackoffDelay", nil, in)
		} else {
			helperCheck(t, "job.BackoffDelay", o, in)
		}
	})
}

func TestJobRemainingIndexBackoffDifferential(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		o := helperGenOptions(t)
		in := helperRemainingIndexIn{Now: difftest.JobT0}
		if rapid.IntRange(0, 7).Draw(t, "nilPod") > 0 {
			p := helperGenPod(t, 0, 4)
			in.Pod = p
			up := difftest.Must(k8s.ToPod(p))
			finished := helperFinishedTime(up)
			// The delay upstream computes for this pod (its failure count,
			// from its last failure), to land now on the exact expiry and
			// one nanosecond either side of it.
			var oo helperOptions
			if o != nil {
				oo = *o
			}
			base, limit := oo.durations(t)
			n := helperAbsoluteFailureCount(difftest.Log, up) + 1
			delay := helperRemainingForCount(clocktesting.NewFakeClock(finished), base, limit, n, &finished)
			switch rapid.IntRange(0, 5).Draw(t, "nowKind") {
			case 0:
				in.Now = finished.Add(delay)
			case 1:
				in.Now = finished.Add(delay - 1)
			case 2:
				in.Now = finished.Add(delay + 1)
			case 3:
				in.Now = finished
			case 4:
				in.Now = drawTime(t, "now")
			default:
				in.Now = finished.Add(time.Duration(rapid.Int64Range(-int64(time.Hour), int64(time.Hour)).Draw(t, "nowOffset")))
			}
		}
		if o == nil {
			helperCheck(t, "job.RemainingIndexBackoff", nil, in)
		} else {
			helperCheck(t, "job.RemainingIndexBackoff", o, in)
		}
	})
}

func TestJobCompletionIndexDifferential(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		p := podstatus.Pod{ObjectMeta: meta.ObjectMeta{Name: "p", UID: "u"}}
		switch rapid.IntRange(0, 3).Draw(t, "kind") {
		case 0:
		case 1:
			p.Annotations = map[string]string{job.CompletionIndexAnnotation: helperIndexAnnotation(t, "idx", 5)}
		case 2:
			p.Annotations = map[string]string{job.CompletionIndexAnnotation: rapid.StringMatching(`[+\-]{0,2}[0-9]{0,21}`).Draw(t, "digits")}
		default:
			p.Annotations = map[string]string{"other": "1", job.CompletionIndexAnnotation: rapid.StringMatching(`[0-9+\-_ xe.]{0,6}`).Draw(t, "raw")}
		}
		helperCheck(t, "job.CompletionIndex", nil, helperPodIn{Pod: p})
	})
}

func TestJobGenerateNameWithIndexDifferential(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		index := rapid.SampledFrom([]int{0, 1, 9, 10, 99, 100, 99_999, 100_000, math.MaxInt32 - 1, math.MaxInt32}).Draw(t, "index")
		if rapid.Bool().Draw(t, "randomIndex") {
			index = rapid.IntRange(0, math.MaxInt32).Draw(t, "indexR")
		}
		// Name lengths around the 58-character cut for each suffix length.
		cut := 58 - len("-"+strconv.Itoa(index)+"-")
		n := rapid.SampledFrom([]int{0, 1, cut - 1, cut, cut + 1, 57, 58, 59, 63, 64, 253}).Draw(t, "len")
		if rapid.Bool().Draw(t, "randomLen") {
			n = rapid.IntRange(0, 80).Draw(t, "lenR")
		}
		name := rapid.StringOfN(rapid.SampledFrom([]rune("abcz09-.")), n, n, n).Draw(t, "name")
		helperCheck(t, "job.GenerateNameWithIndex", nil, helperGenerateNameIn{JobName: name, Index: index})
	})
}

func TestJobHasIndexDifferential(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		x := helperGenIntervals(t, "iv", rapid.IntRange(0, 20).Draw(t, "hint"))
		cands := []int{0, -1, 1, math.MaxInt, math.MinInt, job.MaxIndex, job.MaxIndex + 1, math.MaxInt32}
		for _, iv := range x {
			cands = append(cands, iv[0]-1, iv[0], iv[0]+1, iv[1]-1, iv[1], iv[1]+1)
		}
		helperCheck(t, "job.Indexes.Has", nil, helperHasIn{Intervals: x, Index: rapid.SampledFrom(cands).Draw(t, "index")})
	})
}

func TestJobFormatIndexesDifferential(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		helperCheck(t, "job.Indexes.String", nil, helperIntervalsIn{Intervals: helperGenIntervals(t, "iv", rapid.IntRange(0, 20).Draw(t, "hint"))})
	})
}

func TestJobFirstPendingIndexesDifferential(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		c := int(helperInt32(t, "completions", 0, math.MaxInt32))
		count := rapid.SampledFrom([]int{0, 1, 2, 3, 5, 500, job.MaxPendingIndexes - 1, job.MaxPendingIndexes}).Draw(t, "count")
		if rapid.IntRange(0, 39).Draw(t, "bigCount") > 0 {
			count = min(count, 500)
		}
		in := helperPendingIn{Count: count, Completions: c, Succeeded: helperGenIntervals(t, "succ", c), Failed: helperGenIntervals(t, "failed", c), ActivePods: []*podstatus.Pod{}}
		for i := rapid.IntRange(0, 4).Draw(t, "pods"); i > 0; i-- {
			p := &podstatus.Pod{ObjectMeta: meta.ObjectMeta{Name: "p" + strconv.Itoa(i), UID: "u" + strconv.Itoa(i)}, Status: podstatus.Status{Phase: podstatus.Running}}
			if rapid.IntRange(0, 5).Draw(t, "hasIdx") > 0 {
				p.Annotations = map[string]string{job.CompletionIndexAnnotation: helperIndexAnnotation(t, "idx", c)}
			}
			in.ActivePods = append(in.ActivePods, p)
		}
		helperCheck(t, "job.FirstPendingIndexes", nil, in)
	})
}

func TestJobSucceededIndexesDifferential(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		j := helperGenJob(t, rapid.Bool().Draw(t, "indexed"), false)
		if j.Spec.Completions == nil {
			j.Spec.Completions = ptr(helperInt32(t, "completions2", 0, math.MaxInt32))
			if j.Spec.CompletionMode == nil {
				j.Spec.CompletionMode = ptr(job.NonIndexed)
			}
		}
		c := int(*j.Spec.Completions)
		j.Status.CompletedIndexes = helperIndexString(t, "completed", c)
		in := helperJobPodsIn{Job: *j, Pods: []*podstatus.Pod{}}
		for i := rapid.IntRange(0, 5).Draw(t, "pods"); i > 0; i-- {
			in.Pods = append(in.Pods, helperGenPod(t, i, c))
		}
		helperCheck(t, "job.SucceededIndexes", nil, in)
	})
}

func TestJobFailedIndexesDifferential(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		j := helperGenJob(t, true, true)
		c := int(*j.Spec.Completions)
		if rapid.Bool().Draw(t, "hasFailed") {
			j.Status.FailedIndexes = ptr(helperIndexString(t, "failedIndexes", c))
		}
		in := helperJobPodsIn{Job: *j, Pods: []*podstatus.Pod{}}
		for i := rapid.IntRange(0, 5).Draw(t, "pods"); i > 0; i-- {
			in.Pods = append(in.Pods, helperGenPod(t, i, c))
		}
		helperCheck(t, "job.FailedIndexes", nil, in)
	})
}

func TestJobNewIndexFailureCountsDifferential(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		j := helperGenJob(t, true, true)
		in := helperIndexCountsIn{Job: *j}
		if rapid.IntRange(0, 7).Draw(t, "nilPod") > 0 {
			in.Pod = helperGenPod(t, 0, int(*j.Spec.Completions))
		}
		helperCheck(t, "job.NewIndexFailureCounts", nil, in)
	})
}

func TestJobFinishedConditionDifferential(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		j := helperGenJob(t, false, false)
		j.Status.Conditions = helperGenConditions(t)
		helperCheck(t, "job.FinishedCondition", nil, helperJobIn{Job: *j})
		helperCheck(t, "job.IsSucceeded", nil, helperJobIn{Job: *j})
	})
}

func TestJobPastActiveDeadlineDifferential(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		j := helperGenJob(t, rapid.Bool().Draw(t, "indexed"), false)
		if rapid.Bool().Draw(t, "hasSuspend") {
			j.Spec.Suspend = ptr(rapid.IntRange(0, 2).Draw(t, "suspend") == 0)
		}
		var d int64
		if rapid.IntRange(0, 7).Draw(t, "nilDeadline") > 0 {
			d = rapid.SampledFrom([]int64{0, 1, 2, 30, 100, math.MaxInt32, 9223372035, 9223372036, 9223372037, 18446744073, 18446744074,
				math.MaxInt64 / 2, math.MaxInt64 - 1, math.MaxInt64}).Draw(t, "deadline")
			if rapid.Bool().Draw(t, "randomDeadline") {
				d = rapid.Int64Range(0, 1_000_000).Draw(t, "deadlineR")
			}
			j.Spec.ActiveDeadlineSeconds = &d
		}
		// startTime is stored in whole seconds.
		start := rapid.SampledFrom([]time.Time{difftest.JobT0, farPast, farFuture, time.Date(1, 1, 1, 0, 0, 0, 0, time.UTC),
			time.Date(9999, 12, 31, 23, 59, 59, 0, time.UTC)}).Draw(t, "start").Add(time.Duration(rapid.IntRange(-5, 5).Draw(t, "startOff")) * time.Second)
		if start.Year() > 9999 {
			start = time.Date(9999, 12, 31, 23, 59, 59, 0, time.UTC)
		}
		if rapid.IntRange(0, 7).Draw(t, "nilStart") > 0 {
			j.Status.StartTime = &start
		}
		// now at the deadline (start + d*1s as upstream computes it, wrap
		// included), one nanosecond either side, or elsewhere.
		at := start.Add(time.Duration(d) * time.Second)
		var now time.Time
		switch rapid.IntRange(0, 5).Draw(t, "nowKind") {
		case 0:
			now = at
		case 1:
			now = at.Add(-1)
		case 2:
			now = at.Add(1)
		case 3:
			now = drawTime(t, "now")
		case 4:
			now = start
		default:
			now = start.Add(time.Duration(rapid.Int64Range(-int64(time.Hour), math.MaxInt64).Draw(t, "since")))
		}
		if now.Year() < 0 || now.Year() > 9999 {
			now = start // beyond what JSON (and the API) can write
		}
		helperCheck(t, "job.PastActiveDeadline", nil, helperJobNowIn{Job: *j, Now: now})
	})
}

// TestJobWantActiveDifferential compares WantActive with the number of
// pods upstream's manageJob wants active (helperUpstreamWantActive: seen
// through the pods it creates or deletes and the count it logs), on jobs
// that are not suspended, with completions, parallelism and successes at
// the int32 edges (successes wrapped below 0 included: syncJob sums them
// in int32).
func TestJobWantActiveDifferential(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		j := helperGenJob(t, rapid.IntRange(0, 3).Draw(t, "indexed") == 0, false)
		if rapid.IntRange(0, 5).Draw(t, "bothNil") == 0 {
			j.Spec.Completions, j.Spec.Parallelism, j.Spec.CompletionMode = nil, nil, nil
		}
		if rapid.Bool().Draw(t, "hasSuspend") {
			j.Spec.Suspend = ptr(false)
		}
		in := helperWantActiveIn{Job: *j, Succeeded: helperInt32(t, "succeeded", math.MinInt32, math.MaxInt32), Active: int32(rapid.IntRange(0, 6).Draw(t, "active"))}
		helperCheck(t, "job.WantActive", nil, in)
	})
}

// TestJobHelperLayout checks the syncJobCtx mirror on fixed cases: were a
// field out of place, firstPendingIndexes would read the wrong slices.
func TestJobHelperLayout(t *testing.T) {
	pods := []*v1.Pod{{ObjectMeta: metav1.ObjectMeta{Name: "a", Annotations: map[string]string{batch.JobCompletionIndexAnnotation: "1"}}}}
	failed := []helperInterval{{4, 4}}
	ctx := &helperSyncJobCtx{job: &batch.Job{}, pods: pods, activePods: pods, succeededIndexes: []helperInterval{{0, 0}, {2, 2}}, failedIndexes: &failed}
	if got := helperFirstPending(ctx, 3, 7); !slices.Equal(got, []int{3, 5, 6}) {
		t.Fatalf("firstPendingIndexes through the mirror = %v; want [3 5 6]", got)
	}
	for _, c := range []struct {
		completions, parallelism *int32
		succeeded                int32
		active                   int
		want                     int32
	}{
		{ptr[int32](5), ptr[int32](3), 4, 0, 1},
		{ptr[int32](5), ptr[int32](3), 0, 5, 3},
		{nil, ptr[int32](4), 1, 2, 2},
		{ptr[int32](3), ptr[int32](1000), 0, 0, 3},
	} {
		j := &batch.Job{ObjectMeta: metav1.ObjectMeta{Name: "j", Namespace: "ns"}, Spec: batch.JobSpec{Completions: c.completions, Parallelism: c.parallelism}}
		batchv1defaults.SetObjectDefaults_Job(j)
		if got := helperUpstreamWantActive(t, j, c.succeeded, c.active); got != c.want {
			t.Fatalf("manageJob wants %d active for %+v; want %d", got, c, c.want)
		}
	}
}

// ---- vectors ----

// helperDecisions are the decisions whose vectors TestJobHelperVectorsUpstream
// replays, with how many it must find with a want.
var helperDecisions = map[string]int{
	"job.BackoffDelay": 14, "job.CompletionIndex": 8, "job.FailedIndexes": 9, "job.FinishedCondition": 9,
	"job.FirstPendingIndexes": 7, "job.Indexes.String": 5, "job.GenerateNameWithIndex": 3, "job.Indexes.Has": 6,
	"job.IsSucceeded": 3, "job.NewIndexFailureCounts": 4, "job.PastActiveDeadline": 8, "job.RemainingIndexBackoff": 3,
	"job.SucceededIndexes": 12, "job.WantActive": 15,
}

// TestJobHelperVectorsUpstream replays the vectors of the Job helper
// decisions through upstream (helperUpstream).
func TestJobHelperVectorsUpstream(t *testing.T) {
	difftest.Replay(t, "job", helperDecisions, helperUpstream)
}
