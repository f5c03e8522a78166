package upstream_test

import (
	"bytes"
	"context"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"sync"
	"testing"
	"time"
	"unsafe" // go:linkname to the Job controller's unexported rules

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

	"github.com/kubesem/kubesem/conformance"
	"github.com/kubesem/kubesem/job"
	"github.com/kubesem/kubesem/k8s"
	"github.com/kubesem/kubesem/meta"
	"github.com/kubesem/kubesem/plan"
	"github.com/kubesem/kubesem/podstatus"
)

// This file checks the Job helper decisions against v1.36.3: for each, a
// differential draws random boundary-heavy inputs, asks kubesem through the
// conformance binding (conformance.Kubesem().Decide, so the binding's
// decoding and validation are covered too) and asks upstream's function
// (dhUpstream), and fails on any difference; TestJobHelperVectorsUpstream
// replays every vector of these decisions through the same upstream oracle,
// which pins the vectors' wants to upstream's answers. Upstream runs with
// its own defaults (DefaultJobPodFailureBackOff, MaxJobPodFailureBackOff,
// SetObjectDefaults_Job); only a vector's or a draw's explicit backoffBase /
// backoffCap option is passed to both sides.

// dhInterval mirrors upstream's unexported interval.
type dhInterval struct{ First, Last int }

// dhBackoffRecord mirrors upstream's unexported backoffRecord.
type dhBackoffRecord struct {
	key                      string
	failuresAfterLastSuccess int32
	lastFailureTime          *time.Time
}

// dhSyncJobCtx mirrors upstream's unexported syncJobCtx (job_controller.go,
// v1.36.3) field for field; the pointers to unexported types are
// unsafe.Pointer. TestJobHelperLayout checks it on fixed cases.
type dhSyncJobCtx struct {
	job                             *batch.Job
	pods                            []*v1.Pod
	finishedCondition               *batch.JobCondition
	activePods                      []*v1.Pod
	succeeded                       int32
	failed                          int32
	prevSucceededIndexes            []dhInterval
	succeededIndexes                []dhInterval
	failedIndexes                   *[]dhInterval
	newBackoffRecord                dhBackoffRecord
	expectedRmFinalizers            map[types.UID]struct{}
	uncounted                       unsafe.Pointer
	podsWithDelayedDeletionPerIndex map[int]*v1.Pod
	terminating                     *int32
	ready                           int32
	podGroup                        unsafe.Pointer
}

//go:linkname dhGetCompletionIndex k8s.io/kubernetes/pkg/controller/job.getCompletionIndex
func dhGetCompletionIndex(map[string]string) int

//go:linkname dhGenerateName k8s.io/kubernetes/pkg/controller/job.podGenerateNameWithIndex
func dhGenerateName(string, int) string

//go:linkname dhHas k8s.io/kubernetes/pkg/controller/job.orderedIntervals.has
func dhHas([]dhInterval, int) bool

//go:linkname dhString k8s.io/kubernetes/pkg/controller/job.orderedIntervals.String
func dhString([]dhInterval) string

//go:linkname dhTotal k8s.io/kubernetes/pkg/controller/job.orderedIntervals.total
func dhTotal([]dhInterval) int

//go:linkname dhFirstPending k8s.io/kubernetes/pkg/controller/job.firstPendingIndexes
func dhFirstPending(*dhSyncJobCtx, int, int) []int

//go:linkname dhSucceededIndexes k8s.io/kubernetes/pkg/controller/job.calculateSucceededIndexes
func dhSucceededIndexes(klog.Logger, *batch.Job, []*v1.Pod) ([]dhInterval, []dhInterval)

//go:linkname dhFailedIndexes k8s.io/kubernetes/pkg/controller/job.calculateFailedIndexes
func dhFailedIndexes(klog.Logger, *batch.Job, []*v1.Pod) *[]dhInterval

//go:linkname dhNewIndexFailureCounts k8s.io/kubernetes/pkg/controller/job.getNewIndexFailureCounts
func dhNewIndexFailureCounts(klog.Logger, *batch.Job, *v1.Pod) (int32, int32)

//go:linkname dhRemainingForCount k8s.io/kubernetes/pkg/controller/job.getRemainingTimeForFailuresCount
func dhRemainingForCount(clock.WithTicker, time.Duration, time.Duration, int32, *time.Time) time.Duration

//go:linkname dhRemainingPerIndex k8s.io/kubernetes/pkg/controller/job.getRemainingTimePerIndex
func dhRemainingPerIndex(klog.Logger, clock.WithTicker, time.Duration, time.Duration, *v1.Pod) time.Duration

//go:linkname dhAbsoluteFailureCount k8s.io/kubernetes/pkg/controller/job.getIndexAbsoluteFailureCount
func dhAbsoluteFailureCount(klog.Logger, *v1.Pod) int32

//go:linkname dhFinishedTime k8s.io/kubernetes/pkg/controller/job.getFinishedTime
func dhFinishedTime(*v1.Pod) time.Time

//go:linkname dhPastActiveDeadline k8s.io/kubernetes/pkg/controller/job.(*Controller).pastActiveDeadline
func dhPastActiveDeadline(*jobcontroller.Controller, *batch.Job) bool

//go:linkname dhManageJob k8s.io/kubernetes/pkg/controller/job.(*Controller).manageJob
func dhManageJob(*jobcontroller.Controller, context.Context, *batch.Job, *dhSyncJobCtx) (int32, string, error)

//go:linkname dhNewJobController k8s.io/kubernetes/pkg/controller/job.newControllerWithClock
func dhNewJobController(ctx context.Context, kubeClient clientset.Interface, clk clock.WithTicker, podInformer coreinformers.PodInformer, jobInformer batchinformers.JobInformer, workloadInformer schedinformers.WorkloadInformer, podGroupInformer schedinformers.PodGroupInformer) (*jobcontroller.Controller, error)

// dhTB is what the oracles need of *testing.T and *rapid.T.
type dhTB interface {
	Helper()
	Fatalf(format string, args ...any)
}

var (
	dhLog     = logr.Discard()
	dhKubesem = conformance.Kubesem()
)

// dhDecide asks kubesem through the conformance binding and returns its
// JSON answer (an input error is an answer too: {"error": ...}).
func dhDecide(t dhTB, decision string, options, input any) json.RawMessage {
	t.Helper()
	var o json.RawMessage
	if options != nil {
		o = dhJSON(t, options)
	}
	out, err := dhKubesem.Decide(decision, o, dhJSON(t, input))
	if err != nil {
		t.Fatalf("%s: %v", decision, err)
	}
	return out
}

func dhJSON(t dhTB, v any) json.RawMessage {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatalf("marshal: %v", err)
	}
	return b
}

// dhEncode writes an oracle's answer as kubesem writes its outputs
// (plan.Encode: durations as Go duration strings).
func dhEncode(t dhTB, v any) json.RawMessage {
	t.Helper()
	b, err := plan.Encode(v)
	if err != nil {
		t.Fatalf("encode: %v", err)
	}
	return b
}

// dhSame reports whether two JSON documents are equal as values.
func dhSame(a, b json.RawMessage) bool {
	if bytes.Equal(a, b) {
		return true
	}
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return false
	}
	return reflect.DeepEqual(x, y)
}

// dhOracle is upstream's answer to one input of a decision, in the
// binding's output shape.
type dhOracle func(t dhTB, decision string, options, input json.RawMessage) json.RawMessage

// dhCheck runs one differential state of a Job decision.
func dhCheck(t dhTB, decision string, options, input any) {
	t.Helper()
	dhCheckWith(t, dhUpstream, decision, options, input)
}

// dhCheckWith runs one differential state: kubesem's answer through the
// binding against the upstream oracle's, exactly.
func dhCheckWith(t dhTB, oracle dhOracle, decision string, options, input any) {
	t.Helper()
	var o json.RawMessage
	if options != nil {
		o = dhJSON(t, options)
	}
	in := dhJSON(t, input)
	want := oracle(t, decision, o, in)
	got := dhDecide(t, decision, options, input)
	if !dhSame(want, got) {
		t.Fatalf("%s differs from v1.36.3\ninput:    %s\noptions:  %s\nkubesem:  %s\nupstream: %s", decision, in, o, got, want)
	}
}

// dhOptions is job.Options as vectors write it.
type dhOptions struct {
	BackoffBase string `json:"backoffBase,omitempty"`
	BackoffCap  string `json:"backoffCap,omitempty"`
}

// durations returns the base and cap upstream is given: its own constants,
// or the explicit option.
func (o dhOptions) durations(t dhTB) (base, limit time.Duration) {
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
	dhIntervals [][2]int
	dhJobIn     struct {
		Job job.Job `json:"job"`
	}
	dhJobPodsIn struct {
		Job  job.Job          `json:"job"`
		Pods []*podstatus.Pod `json:"pods"`
	}
	dhJobNowIn struct {
		Job job.Job   `json:"job"`
		Now time.Time `json:"now"`
	}
	dhWantActiveIn struct {
		Job       job.Job `json:"job"`
		Succeeded int32   `json:"succeeded"`
		Active    int32   `json:"active"`
	}
	dhPendingIn struct {
		Count       int              `json:"count"`
		Completions int              `json:"completions"`
		Succeeded   dhIntervals      `json:"succeeded"`
		ActivePods  []*podstatus.Pod `json:"activePods"`
		Failed      dhIntervals      `json:"failed"`
	}
	dhHasIn struct {
		Intervals dhIntervals `json:"intervals"`
		Index     int         `json:"index"`
	}
	dhIntervalsIn struct {
		Intervals dhIntervals `json:"intervals"`
	}
	dhDelayIn struct {
		Failures int32 `json:"failures"`
	}
	dhRemainingIndexIn struct {
		Pod *podstatus.Pod `json:"pod"`
		Now time.Time      `json:"now"`
	}
	dhGenerateNameIn struct {
		JobName string `json:"jobName"`
		Index   int    `json:"index"`
	}
	dhPodIn struct {
		Pod podstatus.Pod `json:"pod"`
	}
	dhIndexCountsIn struct {
		Job job.Job        `json:"job"`
		Pod *podstatus.Pod `json:"pod"`
	}
)

func (x dhIntervals) up() []dhInterval {
	out := make([]dhInterval, len(x))
	for i, v := range x {
		out[i] = dhInterval{v[0], v[1]}
	}
	return out
}

func dhDecode(t dhTB, raw json.RawMessage, v any) {
	t.Helper()
	if len(raw) == 0 {
		return
	}
	if err := json.Unmarshal(raw, v); err != nil {
		t.Fatalf("decode %s: %v", raw, err)
	}
}

// dhUpJob is upstream's Job for a kubesem one: converted by the adapter and
// defaulted by upstream's own SetObjectDefaults_Job, as the API server
// stores it.
func dhUpJob(j *job.Job) *batch.Job {
	out := must(k8s.ToJob(j))
	batchv1defaults.SetObjectDefaults_Job(out)
	return out
}

func dhUpPods(pods []*podstatus.Pod) []*v1.Pod {
	out := make([]*v1.Pod, 0, len(pods))
	for _, p := range pods {
		out = append(out, must(k8s.ToPod(p)))
	}
	return out
}

// dhUpstream is upstream v1.36.3's answer to one input of decision, in the
// binding's output shape.
func dhUpstream(t dhTB, decision string, options, input json.RawMessage) json.RawMessage {
	t.Helper()
	var opts dhOptions
	dhDecode(t, options, &opts)
	var out any
	switch decision {
	case "job.BackoffDelay":
		// The delay before the next pod after `failures` failures is what
		// getRemainingTimeForFailuresCount leaves at the instant of the
		// last failure (no time elapsed).
		var in dhDelayIn
		dhDecode(t, input, &in)
		base, limit := opts.durations(t)
		now := jobT0
		out = map[string]time.Duration{"delay": dhRemainingForCount(clocktesting.NewFakeClock(now), base, limit, in.Failures, &now)}
	case "job.RemainingIndexBackoff":
		var in dhRemainingIndexIn
		dhDecode(t, input, &in)
		base, limit := opts.durations(t)
		var p *v1.Pod
		if in.Pod != nil {
			p = must(k8s.ToPod(in.Pod))
		}
		out = map[string]time.Duration{"remaining": dhRemainingPerIndex(dhLog, clocktesting.NewFakeClock(in.Now), base, limit, p)}
	case "job.CompletionIndex":
		var in dhPodIn
		dhDecode(t, input, &in)
		out = map[string]int{"index": dhGetCompletionIndex(must(k8s.ToPod(&in.Pod)).Annotations)}
	case "job.GenerateNameWithIndex":
		var in dhGenerateNameIn
		dhDecode(t, input, &in)
		out = map[string]string{"generateName": dhGenerateName(in.JobName, in.Index)}
	case "job.Indexes.Has":
		var in dhHasIn
		dhDecode(t, input, &in)
		out = map[string]bool{"has": dhHas(in.Intervals.up(), in.Index)}
	case "job.Indexes.String":
		var in dhIntervalsIn
		dhDecode(t, input, &in)
		out = map[string]string{"string": dhString(in.Intervals.up())}
	case "job.FirstPendingIndexes":
		// The pods are the job's active pods; a job that does not replace
		// only failed pods adds no terminating ones (onlyReplaceFailedPods).
		var in dhPendingIn
		dhDecode(t, input, &in)
		pods := dhUpPods(in.ActivePods)
		failed := in.Failed.up()
		ctx := &dhSyncJobCtx{job: &batch.Job{}, pods: pods, activePods: pods, succeededIndexes: in.Succeeded.up(), failedIndexes: &failed}
		ix := dhFirstPending(ctx, in.Count, in.Completions)
		if ix == nil {
			ix = []int{}
		}
		out = map[string][]int{"indexes": ix}
	case "job.SucceededIndexes":
		var in dhJobPodsIn
		dhDecode(t, input, &in)
		prev, now := dhSucceededIndexes(dhLog, dhUpJob(&in.Job), dhUpPods(in.Pods))
		out = map[string]any{"previous": dhString(prev), "succeeded": dhString(now), "total": dhTotal(now)}
	case "job.FailedIndexes":
		var in dhJobPodsIn
		dhDecode(t, input, &in)
		out = map[string]string{"failedIndexes": dhString(*dhFailedIndexes(dhLog, dhUpJob(&in.Job), dhUpPods(in.Pods)))}
	case "job.NewIndexFailureCounts":
		var in dhIndexCountsIn
		dhDecode(t, input, &in)
		var p *v1.Pod
		if in.Pod != nil {
			p = must(k8s.ToPod(in.Pod))
		}
		f, i := dhNewIndexFailureCounts(dhLog, dhUpJob(&in.Job), p)
		out = map[string]int32{"indexFailureCount": f, "indexIgnoredFailureCount": i}
	case "job.IsSucceeded":
		var in dhJobIn
		dhDecode(t, input, &in)
		out = map[string]bool{"succeeded": jobutil.IsJobSucceeded(dhUpJob(&in.Job))}
	case "job.FinishedCondition":
		var in dhJobIn
		dhDecode(t, input, &in)
		ok, typ := jobutil.FinishedCondition(dhUpJob(&in.Job))
		out = map[string]any{"finished": ok, "type": string(typ)}
	case "job.PastActiveDeadline":
		var in dhJobNowIn
		dhDecode(t, input, &in)
		// pastActiveDeadline reads only the controller's clock. A bare
		// controller with its own fake clock: the shared controller's
		// clock drives its queues' tickers, which a jump of centuries
		// would step through one by one.
		jm := &jobcontroller.Controller{}
		dhSetField(jm, "clock", clock.WithTicker(clocktesting.NewFakeClock(in.Now)))
		out = map[string]bool{"past": dhPastActiveDeadline(jm, dhUpJob(&in.Job))}
	case "job.WantActive":
		var in dhWantActiveIn
		dhDecode(t, input, &in)
		out = map[string]int32{"wantActive": dhUpstreamWantActive(t, dhUpJob(&in.Job), in.Succeeded, int(in.Active))}
	default:
		t.Fatalf("no upstream oracle for %s", decision)
	}
	return dhEncode(t, out)
}

var (
	dhJobControllerOnce sync.Once
	dhJobCtl            *jobcontroller.Controller
	dhJobCtlErr         error
)

// dhJobController is one upstream Job controller on a fake clientset with
// a fake clock standing at jobT0, shared by the manageJob runs (which read
// the clock, the pod control and the expectations).
func dhJobController(t dhTB) *jobcontroller.Controller {
	t.Helper()
	dhJobControllerOnce.Do(func() {
		ctx := context.Background()
		client := fake.NewClientset()
		inf := informers.NewSharedInformerFactory(client, 0)
		dhJobCtl, dhJobCtlErr = dhNewJobController(ctx, client, clocktesting.NewFakeClock(jobT0), inf.Core().V1().Pods(), inf.Batch().V1().Jobs(),
			inf.Scheduling().V1alpha2().Workloads(), inf.Scheduling().V1alpha2().PodGroups())
	})
	if dhJobCtlErr != nil {
		t.Fatalf("upstream job controller: %v", dhJobCtlErr)
	}
	return dhJobCtl
}

func dhSetField(obj any, name string, v any) {
	f := reflect.ValueOf(obj).Elem().FieldByName(name)
	reflect.NewAt(f.Type(), unsafe.Pointer(f.UnsafeAddr())).Elem().Set(reflect.ValueOf(v))
}

// dhSink records the wanted-active count manageJob logs on the way to
// creating ("Too few pods running", need) or deleting ("Too many pods
// running for job", target) pods.
type dhSink struct {
	mu           sync.Mutex
	need, target []int32
	bad          []any // logged counts that are not int32
}

func (s *dhSink) Init(logr.RuntimeInfo)          {}
func (s *dhSink) Enabled(int) bool               { return true }
func (s *dhSink) Error(error, string, ...any)    {}
func (s *dhSink) WithValues(...any) logr.LogSink { return s }
func (s *dhSink) WithName(string) logr.LogSink   { return s }
func (s *dhSink) Info(_ int, msg string, kv ...any) {
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

// dhUpstreamWantActive runs upstream's manageJob for a job (not
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
func dhUpstreamWantActive(t dhTB, j *batch.Job, succeeded int32, active int) int32 {
	t.Helper()
	if j.Spec.Suspend != nil && *j.Spec.Suspend {
		t.Fatalf("WantActive oracle: a suspended job never reaches wantActive in manageJob")
	}
	jm := dhJobController(t)
	pc := &controller.FakePodControl{}
	dhSetField(jm, "podControl", controller.PodControlInterface(pc))
	pods := make([]*v1.Pod, active)
	for i := range pods {
		pods[i] = &v1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "a" + strconv.Itoa(i), Namespace: j.Namespace, UID: types.UID("a" + strconv.Itoa(i)),
			CreationTimestamp: metav1.NewTime(jobT0.Add(time.Duration(i) * time.Second))}, Status: v1.PodStatus{Phase: v1.PodRunning}}
		if dhIndexed(j) {
			pods[i].Annotations = map[string]string{batch.JobCompletionIndexAnnotation: strconv.Itoa(i)}
		}
	}
	var terminating int32
	jc := &dhSyncJobCtx{job: j, pods: pods, activePods: pods, succeeded: succeeded, terminating: &terminating, expectedRmFinalizers: map[types.UID]struct{}{}}
	sink := &dhSink{}
	ctx := klog.NewContext(context.Background(), logr.New(sink))
	if _, _, err := dhManageJob(jm, ctx, j, jc); err != nil {
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
			!dhIndexed(j) && creates != min(int(want)-active, jobcontroller.MaxPodCreateDeletePerSync) {
			t.Fatalf("manageJob logged need %d with %d active but created %d pods", want, active, creates)
		}
		return want
	case len(sink.target) == 1 && len(sink.need) == 0 && creates == 0:
		// An Indexed job also deletes pods whose index is out of range or
		// repeated (activePodsForRemoval), so more than active-wantActive.
		want := sink.target[0]
		if !dhIndexed(j) && (int(want) >= active || deletes != active-int(want)) || deletes < active-int(want) {
			t.Fatalf("manageJob logged target %d with %d active but deleted %d pods", want, active, deletes)
		}
		return want
	case len(sink.need)+len(sink.target)+creates+deletes == 0:
		return int32(active)
	}
	t.Fatalf("manageJob: logged need %v target %v, created %d, deleted %d", sink.need, sink.target, creates, deletes)
	return 0
}

func dhIndexed(j *batch.Job) bool {
	return j.Spec.CompletionMode != nil && *j.Spec.CompletionMode == batch.IndexedCompletion
}

// ---- generators ----

// dhInt32 draws an int32, heavy on 0, 1, small values and the int32 edges.
func dhInt32(t *rapid.T, label string, lo, hi int32) int32 {
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

// dhCountAnnotation draws the value of a counter annotation: small,
// boundary (int32 edges, one past them), negative or not a number.
func dhCountAnnotation(t *rapid.T, label string) string {
	return rapid.SampledFrom([]string{"0", "1", "2", "3", "6", "-1", "2147483646", "2147483647", "2147483648", "-2147483648",
		"9223372036854775807", "9223372036854775808", "x", "", "+1", "-0", "01", " 1"}).Draw(t, label)
}

// dhIndexAnnotation draws a completion-index annotation value around
// completions c.
func dhIndexAnnotation(t *rapid.T, label string, c int) string {
	switch rapid.IntRange(0, 3).Draw(t, label+"Kind") {
	case 0:
		return rapid.SampledFrom([]string{"0", "1", "-1", "-0", "+0", "+1", "+-1", "x", "", "1.0", "0x1", "1_0", " 1", "1 ",
			"2147483646", "2147483647", "2147483648", "9223372036854775807", "9223372036854775808", "-9223372036854775808", "00", "007"}).Draw(t, label)
	case 1:
		return strconv.Itoa(max(c+rapid.IntRange(-3, 2).Draw(t, label+"Near"), 0))
	}
	return strconv.Itoa(rapid.IntRange(0, 12).Draw(t, label))
}

// dhGenIntervals draws well-formed intervals (what the binding accepts:
// increasing, disjoint, within [0, job.MaxIndex]), near 0, near hint and
// near the top.
func dhGenIntervals(t *rapid.T, label string, hint int) dhIntervals {
	out := dhIntervals{}
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

// dhIndexString draws a status.completedIndexes / failedIndexes value:
// well-formed around completions c, or corrupted.
func dhIndexString(t *rapid.T, label string, c int) string {
	if rapid.IntRange(0, 4).Draw(t, label+"Garbage") == 0 {
		return rapid.StringMatching(`[0-9,\-x]{0,14}`).Draw(t, label+"Raw")
	}
	var parts []string
	for _, iv := range dhGenIntervals(t, label, c) {
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

// dhGenJob draws a valid Job: indexed or not, completions and parallelism
// at the int32 edges, optionally backoffLimitPerIndex and a valid pod
// failure policy.
func dhGenJob(t *rapid.T, indexed, perIndex bool) *job.Job {
	j := &job.Job{ObjectMeta: meta.ObjectMeta{Name: "j", Namespace: "ns", UID: "juid"}}
	j.Spec.Template.Spec.RestartPolicy = rapid.SampledFrom([]podstatus.RestartPolicy{podstatus.RestartNever, podstatus.RestartOnFailure}).Draw(t, "restartPolicy")
	c := dhInt32(t, "completions", 0, math.MaxInt32)
	j.Spec.Completions = &c
	if !indexed && rapid.IntRange(0, 3).Draw(t, "nilCompletions") == 0 {
		j.Spec.Completions = nil
	}
	if rapid.IntRange(0, 4).Draw(t, "nilParallelism") > 0 {
		p := dhInt32(t, "parallelism", 0, math.MaxInt32)
		if indexed {
			p = min(p, 10_000)
		}
		j.Spec.Parallelism = &p
	}
	if indexed {
		j.Spec.CompletionMode = jobPtr(job.Indexed)
	} else if rapid.Bool().Draw(t, "explicitNonIndexed") {
		j.Spec.CompletionMode = jobPtr(job.NonIndexed)
	}
	if perIndex {
		j.Spec.BackoffLimitPerIndex = jobPtr(dhInt32(t, "backoffLimitPerIndex", 0, math.MaxInt32))
		if c > 100_000 || rapid.Bool().Draw(t, "hasMaxFailed") {
			j.Spec.MaxFailedIndexes = jobPtr(min(c, dhInt32(t, "maxFailedIndexes", 0, 10_000)))
		}
	}
	if rapid.Bool().Draw(t, "hasBackoffLimit") {
		j.Spec.BackoffLimit = jobPtr(dhInt32(t, "backoffLimit", 0, math.MaxInt32))
	}
	if rapid.IntRange(0, 2).Draw(t, "hasPFP") == 0 {
		j.Spec.PodFailurePolicy = dhGenPolicy(t, perIndex)
		j.Spec.Template.Spec.RestartPolicy = podstatus.RestartNever
		if rapid.Bool().Draw(t, "explicitFailed") {
			j.Spec.PodReplacementPolicy = jobPtr(job.FailedOnly)
		}
	} else {
		switch rapid.IntRange(0, 2).Draw(t, "replacement") {
		case 1:
			j.Spec.PodReplacementPolicy = jobPtr(job.FailedOnly)
		case 2:
			j.Spec.PodReplacementPolicy = jobPtr(job.TerminatingOrFailed)
		}
	}
	return j
}

// dhGenPolicy draws a pod failure policy API validation accepts.
func dhGenPolicy(t *rapid.T, perIndex bool) *job.PodFailurePolicy {
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
				e.ContainerName = jobPtr(rapid.SampledFrom([]string{"main", "side", "init"}).Draw(t, "cn"))
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

// dhGenPod draws a pod (jobGenPod's fields) whose counter and index
// annotations are boundary-heavy.
func dhGenPod(t *rapid.T, i, completions int) *podstatus.Pod {
	p := jobGenPod(t, i)
	ann := map[string]string{}
	if rapid.IntRange(0, 4).Draw(t, "hasIdx") > 0 {
		ann[job.CompletionIndexAnnotation] = dhIndexAnnotation(t, "idx", completions)
	}
	if rapid.Bool().Draw(t, "hasFC") {
		ann[job.IndexFailureCountAnnotation] = dhCountAnnotation(t, "fc")
	}
	if rapid.Bool().Draw(t, "hasIFC") {
		ann[job.IndexIgnoredFailureCountAnnotation] = dhCountAnnotation(t, "ifc")
	}
	p.Annotations = nil
	if len(ann) > 0 {
		p.Annotations = ann
	}
	return p
}

// dhGenConditions draws a job's status conditions.
func dhGenConditions(t *rapid.T) []job.Condition {
	var out []job.Condition
	for n := rapid.IntRange(0, 4).Draw(t, "conds"); n > 0; n-- {
		out = append(out, job.Condition{
			Type:               rapid.SampledFrom([]job.ConditionType{job.Complete, job.Failed, job.Suspended, job.FailureTarget, job.SuccessCriteriaMet, "Custom"}).Draw(t, "type"),
			Status:             rapid.SampledFrom([]meta.ConditionStatus{meta.ConditionTrue, meta.ConditionFalse, meta.ConditionUnknown}).Draw(t, "status"),
			LastTransitionTime: jobT0,
		})
	}
	return out
}

// dhGenOptions draws no options (upstream's defaults) three times in four,
// else an explicit backoffBase and/or backoffCap, given to both sides.
func dhGenOptions(t *rapid.T) *dhOptions {
	if rapid.IntRange(0, 3).Draw(t, "hasOptions") > 0 {
		return nil
	}
	o := &dhOptions{}
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
		o := dhGenOptions(t)
		in := dhDelayIn{Failures: dhInt32(t, "failures", math.MinInt32, math.MaxInt32)}
		if o == nil {
			dhCheck(t, "job.BackoffDelay", nil, in)
		} else {
			dhCheck(t, "job.BackoffDelay", o, in)
		}
	})
}

func TestJobRemainingIndexBackoffDifferential(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		o := dhGenOptions(t)
		in := dhRemainingIndexIn{Now: jobT0}
		if rapid.IntRange(0, 7).Draw(t, "nilPod") > 0 {
			p := dhGenPod(t, 0, 4)
			in.Pod = p
			up := must(k8s.ToPod(p))
			finished := dhFinishedTime(up)
			// The delay upstream computes for this pod (its failure count,
			// from its last failure), to land now on the exact expiry and
			// one nanosecond either side of it.
			var oo dhOptions
			if o != nil {
				oo = *o
			}
			base, limit := oo.durations(t)
			n := dhAbsoluteFailureCount(dhLog, up) + 1
			delay := dhRemainingForCount(clocktesting.NewFakeClock(finished), base, limit, n, &finished)
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
				in.Now = jobTime(t, "now")
			default:
				in.Now = finished.Add(time.Duration(rapid.Int64Range(-int64(time.Hour), int64(time.Hour)).Draw(t, "nowOffset")))
			}
		}
		if o == nil {
			dhCheck(t, "job.RemainingIndexBackoff", nil, in)
		} else {
			dhCheck(t, "job.RemainingIndexBackoff", o, in)
		}
	})
}

func TestJobCompletionIndexDifferential(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		p := podstatus.Pod{ObjectMeta: meta.ObjectMeta{Name: "p", UID: "u"}}
		switch rapid.IntRange(0, 3).Draw(t, "kind") {
		case 0:
		case 1:
			p.Annotations = map[string]string{job.CompletionIndexAnnotation: dhIndexAnnotation(t, "idx", 5)}
		case 2:
			p.Annotations = map[string]string{job.CompletionIndexAnnotation: rapid.StringMatching(`[+\-]{0,2}[0-9]{0,21}`).Draw(t, "digits")}
		default:
			p.Annotations = map[string]string{"other": "1", job.CompletionIndexAnnotation: rapid.StringMatching(`[0-9+\-_ xe.]{0,6}`).Draw(t, "raw")}
		}
		dhCheck(t, "job.CompletionIndex", nil, dhPodIn{Pod: p})
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
		dhCheck(t, "job.GenerateNameWithIndex", nil, dhGenerateNameIn{JobName: name, Index: index})
	})
}

func TestJobHasIndexDifferential(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		x := dhGenIntervals(t, "iv", rapid.IntRange(0, 20).Draw(t, "hint"))
		cands := []int{0, -1, 1, math.MaxInt, math.MinInt, job.MaxIndex, job.MaxIndex + 1, math.MaxInt32}
		for _, iv := range x {
			cands = append(cands, iv[0]-1, iv[0], iv[0]+1, iv[1]-1, iv[1], iv[1]+1)
		}
		dhCheck(t, "job.Indexes.Has", nil, dhHasIn{Intervals: x, Index: rapid.SampledFrom(cands).Draw(t, "index")})
	})
}

func TestJobFormatIndexesDifferential(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		dhCheck(t, "job.Indexes.String", nil, dhIntervalsIn{Intervals: dhGenIntervals(t, "iv", rapid.IntRange(0, 20).Draw(t, "hint"))})
	})
}

func TestJobFirstPendingIndexesDifferential(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		c := int(dhInt32(t, "completions", 0, math.MaxInt32))
		count := rapid.SampledFrom([]int{0, 1, 2, 3, 5, 500, job.MaxPendingIndexes - 1, job.MaxPendingIndexes}).Draw(t, "count")
		if rapid.IntRange(0, 39).Draw(t, "bigCount") > 0 {
			count = min(count, 500)
		}
		in := dhPendingIn{Count: count, Completions: c, Succeeded: dhGenIntervals(t, "succ", c), Failed: dhGenIntervals(t, "failed", c), ActivePods: []*podstatus.Pod{}}
		for i := rapid.IntRange(0, 4).Draw(t, "pods"); i > 0; i-- {
			p := &podstatus.Pod{ObjectMeta: meta.ObjectMeta{Name: "p" + strconv.Itoa(i), UID: "u" + strconv.Itoa(i)}, Status: podstatus.Status{Phase: podstatus.Running}}
			if rapid.IntRange(0, 5).Draw(t, "hasIdx") > 0 {
				p.Annotations = map[string]string{job.CompletionIndexAnnotation: dhIndexAnnotation(t, "idx", c)}
			}
			in.ActivePods = append(in.ActivePods, p)
		}
		dhCheck(t, "job.FirstPendingIndexes", nil, in)
	})
}

func TestJobSucceededIndexesDifferential(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		j := dhGenJob(t, rapid.Bool().Draw(t, "indexed"), false)
		if j.Spec.Completions == nil {
			j.Spec.Completions = jobPtr(dhInt32(t, "completions2", 0, math.MaxInt32))
			if j.Spec.CompletionMode == nil {
				j.Spec.CompletionMode = jobPtr(job.NonIndexed)
			}
		}
		c := int(*j.Spec.Completions)
		j.Status.CompletedIndexes = dhIndexString(t, "completed", c)
		in := dhJobPodsIn{Job: *j, Pods: []*podstatus.Pod{}}
		for i := rapid.IntRange(0, 5).Draw(t, "pods"); i > 0; i-- {
			in.Pods = append(in.Pods, dhGenPod(t, i, c))
		}
		dhCheck(t, "job.SucceededIndexes", nil, in)
	})
}

func TestJobFailedIndexesDifferential(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		j := dhGenJob(t, true, true)
		c := int(*j.Spec.Completions)
		if rapid.Bool().Draw(t, "hasFailed") {
			j.Status.FailedIndexes = jobPtr(dhIndexString(t, "failedIndexes", c))
		}
		in := dhJobPodsIn{Job: *j, Pods: []*podstatus.Pod{}}
		for i := rapid.IntRange(0, 5).Draw(t, "pods"); i > 0; i-- {
			in.Pods = append(in.Pods, dhGenPod(t, i, c))
		}
		dhCheck(t, "job.FailedIndexes", nil, in)
	})
}

func TestJobNewIndexFailureCountsDifferential(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		j := dhGenJob(t, true, true)
		in := dhIndexCountsIn{Job: *j}
		if rapid.IntRange(0, 7).Draw(t, "nilPod") > 0 {
			in.Pod = dhGenPod(t, 0, int(*j.Spec.Completions))
		}
		dhCheck(t, "job.NewIndexFailureCounts", nil, in)
	})
}

func TestJobFinishedConditionDifferential(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		j := dhGenJob(t, false, false)
		j.Status.Conditions = dhGenConditions(t)
		dhCheck(t, "job.FinishedCondition", nil, dhJobIn{Job: *j})
		dhCheck(t, "job.IsSucceeded", nil, dhJobIn{Job: *j})
	})
}

func TestJobPastActiveDeadlineDifferential(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		j := dhGenJob(t, rapid.Bool().Draw(t, "indexed"), false)
		if rapid.Bool().Draw(t, "hasSuspend") {
			j.Spec.Suspend = jobPtr(rapid.IntRange(0, 2).Draw(t, "suspend") == 0)
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
		start := rapid.SampledFrom([]time.Time{jobT0, jobFarPast, jobFarFuture, time.Date(1, 1, 1, 0, 0, 0, 0, time.UTC),
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
			now = jobTime(t, "now")
		case 4:
			now = start
		default:
			now = start.Add(time.Duration(rapid.Int64Range(-int64(time.Hour), math.MaxInt64).Draw(t, "since")))
		}
		if now.Year() < 0 || now.Year() > 9999 {
			now = start // beyond what JSON (and the API) can write
		}
		dhCheck(t, "job.PastActiveDeadline", nil, dhJobNowIn{Job: *j, Now: now})
	})
}

// TestJobWantActiveDifferential compares WantActive with the number of
// pods upstream's manageJob wants active (dhUpstreamWantActive: seen
// through the pods it creates or deletes and the count it logs), on jobs
// that are not suspended, with completions, parallelism and successes at
// the int32 edges (successes wrapped below 0 included: syncJob sums them
// in int32).
func TestJobWantActiveDifferential(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		j := dhGenJob(t, rapid.IntRange(0, 3).Draw(t, "indexed") == 0, false)
		if rapid.IntRange(0, 5).Draw(t, "bothNil") == 0 {
			j.Spec.Completions, j.Spec.Parallelism, j.Spec.CompletionMode = nil, nil, nil
		}
		if rapid.Bool().Draw(t, "hasSuspend") {
			j.Spec.Suspend = jobPtr(false)
		}
		in := dhWantActiveIn{Job: *j, Succeeded: dhInt32(t, "succeeded", math.MinInt32, math.MaxInt32), Active: int32(rapid.IntRange(0, 6).Draw(t, "active"))}
		dhCheck(t, "job.WantActive", nil, in)
	})
}

// TestJobHelperLayout checks the syncJobCtx mirror on fixed cases: were a
// field out of place, firstPendingIndexes would read the wrong slices.
func TestJobHelperLayout(t *testing.T) {
	pods := []*v1.Pod{{ObjectMeta: metav1.ObjectMeta{Name: "a", Annotations: map[string]string{batch.JobCompletionIndexAnnotation: "1"}}}}
	failed := []dhInterval{{4, 4}}
	ctx := &dhSyncJobCtx{job: &batch.Job{}, pods: pods, activePods: pods, succeededIndexes: []dhInterval{{0, 0}, {2, 2}}, failedIndexes: &failed}
	if got := dhFirstPending(ctx, 3, 7); !slices.Equal(got, []int{3, 5, 6}) {
		t.Fatalf("firstPendingIndexes through the mirror = %v; want [3 5 6]", got)
	}
	for _, c := range []struct {
		completions, parallelism *int32
		succeeded                int32
		active                   int
		want                     int32
	}{
		{jobPtr[int32](5), jobPtr[int32](3), 4, 0, 1},
		{jobPtr[int32](5), jobPtr[int32](3), 0, 5, 3},
		{nil, jobPtr[int32](4), 1, 2, 2},
		{jobPtr[int32](3), jobPtr[int32](1000), 0, 0, 3},
	} {
		j := &batch.Job{ObjectMeta: metav1.ObjectMeta{Name: "j", Namespace: "ns"}, Spec: batch.JobSpec{Completions: c.completions, Parallelism: c.parallelism}}
		batchv1defaults.SetObjectDefaults_Job(j)
		if got := dhUpstreamWantActive(t, j, c.succeeded, c.active); got != c.want {
			t.Fatalf("manageJob wants %d active for %+v; want %d", got, c, c.want)
		}
	}
}

// ---- vectors ----

// dhDecisions are the decisions whose vectors TestJobHelperVectorsUpstream
// replays, with how many it must find with a want.
var dhDecisions = map[string]int{
	"job.BackoffDelay": 14, "job.CompletionIndex": 8, "job.FailedIndexes": 9, "job.FinishedCondition": 9,
	"job.FirstPendingIndexes": 7, "job.Indexes.String": 5, "job.GenerateNameWithIndex": 3, "job.Indexes.Has": 6,
	"job.IsSucceeded": 3, "job.NewIndexFailureCounts": 4, "job.PastActiveDeadline": 8, "job.RemainingIndexBackoff": 3,
	"job.SucceededIndexes": 12, "job.WantActive": 15,
}

type dhVector struct {
	Decision  string          `json:"decision"`
	Name      string          `json:"name"`
	Input     json.RawMessage `json:"input"`
	Options   json.RawMessage `json:"options"`
	Want      json.RawMessage `json:"want"`
	WantError json.RawMessage `json:"wantError"`
}

func dhReadVectors(t *testing.T, pkg string) []dhVector {
	t.Helper()
	files, err := filepath.Glob(filepath.Join("..", "..", "testdata", pkg, "*.json"))
	if err != nil {
		t.Fatal(err)
	}
	var out []dhVector
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var vs []dhVector
		if err := json.Unmarshal(b, &vs); err != nil {
			continue // not a vector file
		}
		for i := range vs {
			vs[i].Name = filepath.Base(f) + ": " + vs[i].Name
		}
		out = append(out, vs...)
	}
	return out
}

// dhReplay replays the vectors of the given decisions through oracle: each
// want must hold of upstream's answer (conformance.Match: the keys a want
// states), and kubesem's whole answer through the binding must be
// upstream's. A wantError vector (an input API validation refuses) has no
// upstream answer and is left to the registry tests.
func dhReplay(t *testing.T, pkg string, decisions map[string]int, oracle dhOracle) {
	dhReplayCanon(t, pkg, decisions, oracle, func(_ dhTB, raw json.RawMessage) json.RawMessage { return raw })
}

// dhReplayCanon is dhReplay comparing kubesem's and upstream's answers
// after canon.
func dhReplayCanon(t *testing.T, pkg string, decisions map[string]int, oracle dhOracle, canon func(dhTB, json.RawMessage) json.RawMessage) {
	impl := dhKubesem
	seen := map[string]int{}
	for _, v := range dhReadVectors(t, pkg) {
		if _, ok := decisions[v.Decision]; !ok || v.Want == nil {
			continue
		}
		t.Run(v.Name, func(t *testing.T) {
			up := oracle(t, v.Decision, v.Options, v.Input)
			if ok, why := conformance.Match(v.Want, up); !ok {
				t.Fatalf("the vector's want is not upstream's: %s\nvector:   %s\nupstream: %s", why, compactJSON(v.Want), up)
			}
			got, err := impl.Decide(v.Decision, v.Options, v.Input)
			if err != nil {
				t.Fatal(err)
			}
			if !dhSame(canon(t, got), canon(t, up)) {
				t.Fatalf("kubesem differs from v1.36.3:\nupstream: %s\nkubesem:  %s", up, got)
			}
			seen[v.Decision]++
		})
	}
	for d, n := range decisions {
		if seen[d] < n {
			t.Errorf("%s: %d vectors replayed, want at least %d", d, seen[d], n)
		}
	}
}

// TestJobHelperVectorsUpstream replays the vectors of the Job helper
// decisions through upstream (dhUpstream).
func TestJobHelperVectorsUpstream(t *testing.T) {
	dhReplay(t, "job", dhDecisions, dhUpstream)
}
