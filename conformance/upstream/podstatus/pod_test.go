package podstatus_test

import (
	"encoding/json"
	"strconv"
	"testing"
	"time"
	_ "unsafe" // go:linkname to controller_utils.go's maxContainerRestarts

	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	podutil "k8s.io/kubernetes/pkg/api/v1/pod"
	corehelper "k8s.io/kubernetes/pkg/apis/core/helper"
	"k8s.io/kubernetes/pkg/controller"
	testingclock "k8s.io/utils/clock/testing"
	"pgregory.net/rapid"

	"github.com/kubesem/kubesem/conformance/upstream/internal/difftest"
	"github.com/kubesem/kubesem/k8s"
	"github.com/kubesem/kubesem/meta"
	"github.com/kubesem/kubesem/podstatus"
)

//go:linkname maxContainerRestarts k8s.io/kubernetes/pkg/controller.maxContainerRestarts
func maxContainerRestarts(pod *v1.Pod) (regularRestarts, sidecarRestarts int)

var base = time.Date(2025, 1, 1, 12, 0, 0, 0, time.UTC)

// drawTime draws a time near base: whole seconds often (so that
// readyTime+minReadySeconds lands exactly on now), milliseconds otherwise.
func drawTime(t *rapid.T, label string) time.Time {
	if rapid.Bool().Draw(t, label+"Whole") {
		return base.Add(time.Duration(rapid.IntRange(-120, 120).Draw(t, label+"S")) * time.Second)
	}
	return base.Add(time.Duration(rapid.IntRange(-120_000, 120_000).Draw(t, label+"Ms")) * time.Millisecond)
}

// drawPod draws a pod with every field the podstatus rules read.
func drawPod(t *rapid.T, label string) *podstatus.Pod {
	p := &podstatus.Pod{}
	p.Name = label
	p.Status.Phase = rapid.SampledFrom([]podstatus.Phase{"", podstatus.Pending, podstatus.Running, podstatus.Succeeded, podstatus.Failed, podstatus.Unknown}).Draw(t, label+"Phase")
	if rapid.Bool().Draw(t, label+"Deleting") {
		ts := drawTime(t, label+"Deleted")
		p.DeletionTimestamp = &ts
	}
	for range rapid.IntRange(0, 3).Draw(t, label+"Conditions") {
		c := podstatus.Condition{
			Type:   rapid.SampledFrom([]podstatus.ConditionType{podstatus.Ready, podstatus.Ready, podstatus.ContainersReady, podstatus.PodScheduled}).Draw(t, label+"Type"),
			Status: rapid.SampledFrom([]meta.ConditionStatus{meta.ConditionTrue, meta.ConditionTrue, meta.ConditionFalse, meta.ConditionUnknown, ""}).Draw(t, label+"Status"),
		}
		if !rapid.Bool().Draw(t, label+"ZeroLTT") {
			c.LastTransitionTime = drawTime(t, label+"LTT")
		}
		p.Status.Conditions = append(p.Status.Conditions, c)
	}
	names := []string{"a", "b", "c"}
	policies := []podstatus.RestartPolicy{"", podstatus.RestartAlways, podstatus.RestartOnFailure, podstatus.RestartNever}
	for range rapid.IntRange(0, 3).Draw(t, label+"Inits") {
		c := podstatus.Container{Name: rapid.SampledFrom(names).Draw(t, label+"InitName")}
		if pol := rapid.SampledFrom(policies).Draw(t, label+"InitPolicy"); pol != "" {
			c.RestartPolicy = &pol
		}
		p.Spec.InitContainers = append(p.Spec.InitContainers, c)
	}
	restarts := rapid.OneOf(rapid.Int32Range(-2, 20), rapid.Int32())
	for range rapid.IntRange(0, 3).Draw(t, label+"InitStatuses") {
		p.Status.InitContainerStatuses = append(p.Status.InitContainerStatuses, podstatus.ContainerStatus{
			Name: rapid.SampledFrom(names).Draw(t, label+"InitStatusName"), RestartCount: restarts.Draw(t, label+"InitRestarts")})
	}
	for i := range rapid.IntRange(0, 3).Draw(t, label+"Statuses") {
		p.Status.ContainerStatuses = append(p.Status.ContainerStatuses, podstatus.ContainerStatus{
			Name: "app" + strconv.Itoa(i), RestartCount: restarts.Draw(t, label+"Restarts")})
	}
	if rapid.Bool().Draw(t, label+"Annotated") {
		p.Annotations = map[string]string{podstatus.DeletionCostAnnotation: costString().Draw(t, label+"Cost")}
	}
	return p
}

// costString draws deletion-cost annotations: decimal int32 and int64
// values, signs, leading zeros, and arbitrary text.
func costString() *rapid.Generator[string] {
	return rapid.OneOf(
		rapid.Map(rapid.Int32(), func(n int32) string { return strconv.Itoa(int(n)) }),
		rapid.Map(rapid.Int64(), func(n int64) string { return strconv.FormatInt(n, 10) }),
		rapid.StringMatching(`[+-]?0{0,3}[0-9]{0,12}`),
		rapid.SampledFrom([]string{"", "0", "-0", "+0", "00", "-", "+10", "008", "-007", "abc", "2147483647", "2147483648", "-2147483648", "-2147483649", " 5", "5 ", "1e3", "0x10", "1_000"}),
		rapid.String(),
	)
}

func drawMinReady(t *rapid.T) int32 {
	return rapid.OneOf(rapid.SampledFrom([]int32{0, 1, 10, 30, 50, 51, 52, -1}), rapid.Int32Range(-10, 300)).Draw(t, "minReadySeconds")
}

// toV1 converts a kubesem pod to the upstream API type, field by field.
func toV1(p *podstatus.Pod) *v1.Pod { return difftest.Must(k8s.ToPod(p)) }

// checkAvailable: IsReady and IsAvailable agree with IsPodReady and
// IsPodAvailable for any pod, minReadySeconds (negative included) and now.
func checkAvailable(t *rapid.T) {
	p := drawPod(t, "pod")
	m := drawMinReady(t)
	now := drawTime(t, "now")
	u := toV1(p)
	if got, want := podstatus.IsReady(p), podutil.IsPodReady(u); got != want {
		t.Fatalf("IsReady = %v; upstream %v (%+v)", got, want, p.Status.Conditions)
	}
	if got, want := podstatus.IsAvailable(p, m, now), podutil.IsPodAvailable(u, m, metav1.NewTime(now)); got != want {
		t.Fatalf("IsAvailable(min %d, now %v) = %v; upstream %v (%+v)", m, now, got, want, p.Status.Conditions)
	}
}

func TestPodstatusAvailableDifferential(t *testing.T) { rapid.Check(t, checkAvailable) }

// checkLifecycle: IsActive, IsTerminating and IsTerminal agree with
// IsPodActive, IsPodTerminating and IsPodTerminal.
func checkLifecycle(t *rapid.T) {
	p := drawPod(t, "pod")
	u := toV1(p)
	if got, want := podstatus.IsActive(p), controller.IsPodActive(u); got != want {
		t.Fatalf("IsActive(%q, deleting %v) = %v; upstream %v", p.Status.Phase, p.DeletionTimestamp != nil, got, want)
	}
	if got, want := podstatus.IsTerminating(p), controller.IsPodTerminating(u); got != want {
		t.Fatalf("IsTerminating(%q, deleting %v) = %v; upstream %v", p.Status.Phase, p.DeletionTimestamp != nil, got, want)
	}
	if got, want := podstatus.IsTerminal(p), podutil.IsPodTerminal(u); got != want {
		t.Fatalf("IsTerminal(%q) = %v; upstream %v", p.Status.Phase, got, want)
	}
	for i := range p.Spec.InitContainers {
		if got, want := podstatus.IsRestartableInit(&p.Spec.InitContainers[i]), podutil.IsRestartableInitContainer(&u.Spec.InitContainers[i]); got != want {
			t.Fatalf("IsRestartableInit(%+v) = %v; upstream %v", p.Spec.InitContainers[i], got, want)
		}
	}
}

func TestPodstatusLifecycleDifferential(t *testing.T) { rapid.Check(t, checkLifecycle) }

// checkNextCheck: NextAvailabilityCheckSince(pods, m, evaluated, now)
// agrees with FindMinNextPodAvailabilityCheck(pods, m, evaluated, clock at
// now), and NextAvailabilityCheck with the same call when evaluated == now.
func checkNextCheck(t *rapid.T) {
	n := rapid.IntRange(0, 8).Draw(t, "pods")
	pods := make([]*podstatus.Pod, n)
	for i := range pods {
		pods[i] = drawPod(t, "pod"+strconv.Itoa(i))
	}
	upods := make([]*v1.Pod, n)
	for i, p := range pods {
		upods[i] = toV1(p)
	}
	m := drawMinReady(t)
	evaluated := drawTime(t, "evaluated")
	now := evaluated
	if rapid.Bool().Draw(t, "delayed") {
		now = evaluated.Add(time.Duration(rapid.IntRange(0, 120_000).Draw(t, "delayMs")) * time.Millisecond)
	}
	want := controller.FindMinNextPodAvailabilityCheck(upods, m, evaluated, testingclock.NewFakePassiveClock(now))
	got, ok := podstatus.NextAvailabilityCheckSince(pods, m, evaluated, now)
	if ok != (want != nil) || (ok && got != *want) {
		t.Fatalf("NextAvailabilityCheckSince(min %d, evaluated %v, now %v) = %v, %v; upstream %v", m, evaluated, now, got, ok, formatDur(want))
	}
	if now.Equal(evaluated) {
		got2, ok2 := podstatus.NextAvailabilityCheck(pods, m, now)
		if got2 != got || ok2 != ok {
			t.Fatalf("NextAvailabilityCheck = %v, %v; upstream %v", got2, ok2, formatDur(want))
		}
	}
}

func formatDur(d *time.Duration) string {
	if d == nil {
		return "nil"
	}
	return d.String()
}

func TestPodstatusNextCheckDifferential(t *testing.T) { rapid.Check(t, checkNextCheck) }

// checkDeletionCost: DeletionCost agrees with
// GetDeletionCostFromPodAnnotations: same cost, valid exactly when upstream
// returns no error.
func checkDeletionCost(t *rapid.T) {
	p := &podstatus.Pod{}
	if rapid.IntRange(0, 9).Draw(t, "annotated") > 0 {
		p.Annotations = map[string]string{podstatus.DeletionCostAnnotation: costString().Draw(t, "cost")}
	}
	cost, valid := podstatus.DeletionCost(p)
	want, err := corehelper.GetDeletionCostFromPodAnnotations(p.Annotations)
	if cost != want || valid != (err == nil) {
		t.Fatalf("DeletionCost(%q) = %d, %v; upstream %d, %v", p.Annotations[podstatus.DeletionCostAnnotation], cost, valid, want, err)
	}
}

func TestPodstatusDeletionCostDifferential(t *testing.T) { rapid.Check(t, checkDeletionCost) }

// checkMaxRestarts: MaxRestarts agrees with maxContainerRestarts,
// duplicate init-container names included.
func checkMaxRestarts(t *rapid.T) {
	p := drawPod(t, "pod")
	r, s := podstatus.MaxRestarts(p)
	wr, ws := maxContainerRestarts(toV1(p))
	if int(r) != wr || int(s) != ws {
		t.Fatalf("MaxRestarts = %d, %d; upstream %d, %d (spec %+v, status %+v)", r, s, wr, ws, p.Spec.InitContainers, p.Status.InitContainerStatuses)
	}
}

func TestPodstatusMaxRestartsDifferential(t *testing.T) { rapid.Check(t, checkMaxRestarts) }

// replayedElsewhere names the podstatus decisions whose vectors are not
// replayed by TestPodstatusVectorsUpstream, and the test that checks them
// against v1.36.3 instead ("" when none does).
var replayedElsewhere = map[string]string{
	"podstatus.KubeletPhase":                     "TestPodStatusVectorsUpstream (getPhase)",
	"podstatus.ContainersReadyCondition":         "TestPodStatusVectorsUpstream (GenerateContainersReadyCondition)",
	"podstatus.ReadyCondition":                   "TestPodStatusVectorsUpstream (GeneratePodReadyCondition)",
	"podstatus.InitializedCondition":             "TestPodStatusVectorsUpstream (GeneratePodInitializedCondition)",
	"podstatus.ShouldRestart":                    "TestPodStatusVectorsUpstream (ContainerShouldRestart)",
	"podstatus.MatchRule":                        "TestPodStatusVectorsUpstream (FindMatchingContainerRestartRule)",
	"podstatus.Generate":                         "TestPodStatusStatusVectorsUpstream (generateAPIPodStatus's generators, each vector); TestPodStatusGenerateDifferential (random)",
	"podstatus.AllContainersRestartingCondition": "TestPodStatusStatusVectorsUpstream (GenerateAllContainersRestartingCondition)",
	"podstatus.CanRestartAll":                    "TestPodStatusStatusVectorsUpstream (AllContainersCouldRestart)",
	"podstatus.CrashLoopBounds":                  "TestPodStatusCrashLoopVectorsUpstream (kubelet config defaulting + newCrashLoopBackOff, each vector)",
	"podstatus.RestartBackoff":                   "TestPodStatusBackoffDifferential (random; not per vector)",
	"podstatus.CrashLoopDelays":                  "TestPodStatusCrashLoopVectorsUpstream (newCrashLoopBackOff + client-go Backoff, each vector but the input errors: negative n, n past MaxCrashLoopDelays)",
	"podstatus.BackoffKey":                       "TestPodStatusBackoffKey (random; not per vector)",
	"podstatus.GracefulDelete":                   "TestPodStatusGracefulDeleteDifferential (random; not per vector)",
	// Not replayed against v1.36.3: the kubelet's stop timing has no
	// callable pure counterpart; the vectors come from the seed and
	// killContainer's documented order.
	"podstatus.PlanKill":       "",
	"podstatus.ValidateUpdate": "TestPodStatusUpdateVectorsUpstream (ValidatePodUpdate, each vector); TestPodStatusUpdateDifferential (random)",
}

// TestPodstatusVectorsUpstream decodes every podstatus vector's pods as
// upstream v1.Pods and checks that upstream's functions give the vector's
// expected output: the expectations are upstream's answers.
func TestPodstatusVectorsUpstream(t *testing.T) {
	for _, v := range difftest.FoundationVectors(t, "podstatus") {
		var in struct {
			Pod               *v1.Pod    `json:"pod"`
			Pods              []*v1.Pod  `json:"pods"`
			MinReadySeconds   int32      `json:"minReadySeconds"`
			Now               time.Time  `json:"now"`
			StatusEvaluatedAt *time.Time `json:"statusEvaluatedAt"`
			A                 *v1.Pod    `json:"a"`
			B                 *v1.Pod    `json:"b"`
			RankA             int        `json:"rankA"`
			RankB             int        `json:"rankB"`
		}
		if _, ok := replayedElsewhere[v.Decision]; ok {
			continue
		}
		difftest.DecodeJSON(t, v.Input, &in)
		if v.WantError != nil {
			// Input API validation rejects (a negative minReadySeconds):
			// upstream's helpers compute something, kubesem answers the
			// field error the vector names.
			if v.WantError.Field != "minReadySeconds" || in.MinReadySeconds >= 0 {
				t.Errorf("%s: error vector %v not explained by API validation", v.Name, v.WantError)
			}
			continue
		}
		var got any
		switch v.Decision {
		case "podstatus.IsReady":
			got = map[string]bool{"ready": podutil.IsPodReady(in.Pod)}
		case "podstatus.IsAvailable":
			got = map[string]bool{"available": podutil.IsPodAvailable(in.Pod, in.MinReadySeconds, metav1.NewTime(in.Now))}
		case "podstatus.IsActive":
			got = map[string]bool{"active": controller.IsPodActive(in.Pod)}
		case "podstatus.IsTerminating":
			got = map[string]bool{"terminating": controller.IsPodTerminating(in.Pod)}
		case "podstatus.IsTerminal":
			got = map[string]bool{"terminal": podutil.IsPodTerminal(in.Pod)}
		case "podstatus.NextAvailabilityCheck":
			evaluated := in.Now
			if in.StatusEvaluatedAt != nil {
				evaluated = *in.StatusEvaluatedAt
			}
			d := controller.FindMinNextPodAvailabilityCheck(in.Pods, in.MinReadySeconds, evaluated, testingclock.NewFakePassiveClock(in.Now))
			if d == nil {
				got = map[string]any{"requeue": false}
			} else {
				got = map[string]any{"requeue": true, "after": d.String()}
			}
		case "podstatus.DeletionCost":
			cost, err := corehelper.GetDeletionCostFromPodAnnotations(in.Pod.Annotations)
			got = map[string]any{"cost": cost, "valid": err == nil}
		case "podstatus.MaxRestarts":
			r, s := maxContainerRestarts(in.Pod)
			got = map[string]int{"regular": r, "sidecar": s}
		case "podstatus.DeletesBefore":
			if v.Options != nil {
				continue // the PodDeletionCost gate off: not reachable through this helper
			}
			up := controller.ActivePodsWithRanks{Pods: []*v1.Pod{in.A, in.B}, Rank: []int{in.RankA, in.RankB}, Now: metav1.NewTime(in.Now)}
			got = map[string]bool{"aFirst": up.Less(0, 1), "bFirst": up.Less(1, 0)}
		case "podstatus.RankActive":
			// Upstream's unstable sort leaves ties open: check that the
			// vector's order agrees with ActivePods.Less between groups
			// and that pods within a tie compare equal.
			checkActiveOrder(t, v, in.Pods)
			continue
		default:
			t.Errorf("%s: decision %s has no upstream counterpart here", v.Name, v.Decision)
			continue
		}
		gotJSON, _ := json.Marshal(got)
		var g, w any
		difftest.DecodeJSON(t, gotJSON, &g)
		difftest.DecodeJSON(t, v.Want, &w)
		if !subset(w, g) {
			t.Errorf("%s (%s): upstream %s; vector wants %s", v.Name, v.Decision, gotJSON, v.Want)
		}
	}
}

// subset reports whether every key of want is in got with an equal value.
func subset(want, got any) bool {
	wm, ok := want.(map[string]any)
	if !ok {
		wb, _ := json.Marshal(want)
		gb, _ := json.Marshal(got)
		return string(wb) == string(gb)
	}
	gm, ok := got.(map[string]any)
	if !ok {
		return false
	}
	for k, wv := range wm {
		gv, ok := gm[k]
		if !ok || !subset(wv, gv) {
			return false
		}
	}
	return true
}

// checkActiveOrder checks a podstatus.RankActive vector against upstream's
// ActivePods.Less: every pod of the wanted order precedes the pods after it
// unless both are in one tie group, where neither precedes the other.
func checkActiveOrder(t *testing.T, v difftest.FoundationVector, pods []*v1.Pod) {
	t.Helper()
	var want struct {
		Order []string   `json:"order"`
		Ties  [][]string `json:"ties"`
	}
	difftest.DecodeJSON(t, v.Want, &want)
	byName := map[string]int{}
	for i, p := range pods {
		byName[p.Name] = i
	}
	group := map[string]int{}
	for g, tie := range want.Ties {
		for _, n := range tie {
			group[n] = g + 1
		}
	}
	up := controller.ActivePods(pods)
	for i, a := range want.Order {
		for _, b := range want.Order[i+1:] {
			ia, ib := byName[a], byName[b]
			tied := group[a] != 0 && group[a] == group[b]
			if tied && (up.Less(ia, ib) || up.Less(ib, ia)) {
				t.Errorf("%s: upstream orders tied pods %s and %s", v.Name, a, b)
			}
			if !tied && (!up.Less(ia, ib) || up.Less(ib, ia)) {
				t.Errorf("%s: upstream does not put %s before %s", v.Name, a, b)
			}
		}
	}
}
