package job_test

import (
	"math"
	"strconv"
	"testing"
	"time"
	_ "unsafe" // go:linkname to the Job controller's unexported rules

	"github.com/go-logr/logr"
	batch "k8s.io/api/batch/v1"
	v1 "k8s.io/api/core/v1"
	"k8s.io/klog/v2"
	_ "k8s.io/kubernetes/pkg/controller/job"              // linked for go:linkname
	_ "k8s.io/kubernetes/pkg/controller/ttlafterfinished" // linked for go:linkname
	"k8s.io/utils/clock"
	clocktesting "k8s.io/utils/clock/testing"
	"pgregory.net/rapid"

	"github.com/kubesem/kubesem/conformance/upstream/internal/difftest"
	"github.com/kubesem/kubesem/job"
	"github.com/kubesem/kubesem/k8s"
	"github.com/kubesem/kubesem/meta"
	"github.com/kubesem/kubesem/podstatus"
)

// interval mirrors the layout of upstream's unexported interval type.
type interval struct{ First, Last int }

// backoffRecord mirrors the layout of upstream's unexported backoffRecord.
type backoffRecord struct {
	key                      string
	failuresAfterLastSuccess int32
	lastFailureTime          *time.Time
}

type backoffStore struct{}

//go:linkname matchPodFailurePolicy k8s.io/kubernetes/pkg/controller/job.matchPodFailurePolicy
func matchPodFailurePolicy(*batch.PodFailurePolicy, *v1.Pod) (*string, bool, *batch.PodFailurePolicyAction)

//go:linkname parseIndexes k8s.io/kubernetes/pkg/controller/job.parseIndexesFromString
func parseIndexes(klog.Logger, string, int) []interval

//go:linkname intervalsString k8s.io/kubernetes/pkg/controller/job.orderedIntervals.String
func intervalsString([]interval) string

//go:linkname matchSuccessPolicy k8s.io/kubernetes/pkg/controller/job.matchSuccessPolicy
func matchSuccessPolicy(klog.Logger, *batch.SuccessPolicy, int32, []interval) (string, bool)

//go:linkname remaining k8s.io/kubernetes/pkg/controller/job.getRemainingTimeForFailuresCount
func remaining(clock.WithTicker, time.Duration, time.Duration, int32, *time.Time) time.Duration

//go:linkname finishedTime k8s.io/kubernetes/pkg/controller/job.getFinishedTime
func finishedTime(*v1.Pod) time.Time

//go:linkname newBackoffStore k8s.io/kubernetes/pkg/controller/job.newBackoffStore
func newBackoffStore() *backoffStore

//go:linkname updateBackoffRecord k8s.io/kubernetes/pkg/controller/job.(*backoffStore).updateBackoffRecord
func updateBackoffRecord(*backoffStore, backoffRecord) error

//go:linkname newBackoffRecord k8s.io/kubernetes/pkg/controller/job.(*backoffStore).newBackoffRecord
func newBackoffRecord(*backoffStore, string, []*v1.Pod, []*v1.Pod) backoffRecord

//go:linkname pastBackoffLimitOnFailure k8s.io/kubernetes/pkg/controller/job.pastBackoffLimitOnFailure
func pastBackoffLimitOnFailure(*batch.Job, []*v1.Pod) bool

//go:linkname isPodFailed k8s.io/kubernetes/pkg/controller/job.isPodFailed
func isPodFailed(*v1.Pod, *batch.Job) bool

//go:linkname activePodsForRemoval k8s.io/kubernetes/pkg/controller/job.activePodsForRemoval
func activePodsForRemoval(*batch.Job, []*v1.Pod, int) []*v1.Pod

//go:linkname timeLeft k8s.io/kubernetes/pkg/controller/ttlafterfinished.timeLeft
func timeLeft(klog.Logger, *batch.Job, *time.Time) (*time.Duration, *time.Time, error)

func drawTime(t *rapid.T, label string) time.Time {
	if rapid.IntRange(0, 24).Draw(t, label+"Far") == 0 {
		// Centuries away: upstream's time.Since saturates and its
		// subtractions wrap.
		return rapid.SampledFrom([]time.Time{farPast, farFuture}).Draw(t, label)
	}
	return difftest.JobT0.Add(time.Duration(rapid.IntRange(-3, 40).Draw(t, label)) * time.Second)
}

// Times more than 292 years from difftest.JobT0 (beyond time.Duration's range); the
// API accepts any RFC 3339 time from year 0 to 9999.
var (
	farPast   = time.Date(1600, 1, 1, 0, 0, 0, 0, time.UTC)
	farFuture = time.Date(2400, 1, 1, 0, 0, 0, 0, time.UTC)
)

// wide32 draws a count, sometimes at the int32 edge where upstream's sums wrap.
func wide32(t *rapid.T, label string, lo, hi int) int32 {
	if rapid.IntRange(0, 9).Draw(t, label+"Wide") == 0 {
		return rapid.SampledFrom([]int32{1 << 30, math.MaxInt32 - 1, math.MaxInt32}).Draw(t, label)
	}
	return int32(rapid.IntRange(lo, hi).Draw(t, label))
}

// drawPod draws a pod with the fields the Job rules read.
func drawPod(t *rapid.T, i int) *podstatus.Pod {
	p := &podstatus.Pod{ObjectMeta: meta.ObjectMeta{Name: "p" + strconv.Itoa(i), Namespace: "ns", UID: "u" + strconv.Itoa(i)}}
	p.Status.Phase = rapid.SampledFrom([]podstatus.Phase{"", podstatus.Pending, podstatus.Running, podstatus.Succeeded, podstatus.Failed, podstatus.Unknown}).Draw(t, "phase")
	if rapid.Bool().Draw(t, "fin") {
		p.Finalizers = []string{job.TrackingFinalizer}
	}
	ann := map[string]string{}
	if rapid.Bool().Draw(t, "hasIdx") {
		ann[job.CompletionIndexAnnotation] = rapid.SampledFrom([]string{"0", "1", "2", "3", "5", "-1", "x", "+1", "-0"}).Draw(t, "idx")
	}
	if rapid.Bool().Draw(t, "hasFC") {
		ann[job.IndexFailureCountAnnotation] = rapid.SampledFrom([]string{"0", "1", "2", "x", "-1"}).Draw(t, "fc")
	}
	if rapid.Bool().Draw(t, "hasIFC") {
		ann[job.IndexIgnoredFailureCountAnnotation] = rapid.SampledFrom([]string{"0", "1", "3"}).Draw(t, "ifc")
	}
	if len(ann) > 0 {
		p.Annotations = ann
	}
	if rapid.Bool().Draw(t, "node") {
		p.Spec.NodeName = "n" + strconv.Itoa(rapid.IntRange(0, 1).Draw(t, "nodeN"))
	}
	if rapid.Bool().Draw(t, "created") {
		p.CreationTimestamp = drawTime(t, "creation")
	}
	if rapid.IntRange(0, 3).Draw(t, "deleting") == 0 {
		d := drawTime(t, "deletion")
		p.DeletionTimestamp = &d
		if rapid.Bool().Draw(t, "grace") {
			p.DeletionGracePeriodSeconds = ptr(int64(rapid.IntRange(0, 30).Draw(t, "graceS")))
		}
	}
	if rapid.Bool().Draw(t, "sidecar") {
		always := podstatus.RestartAlways
		p.Spec.InitContainers = []podstatus.Container{{Name: "side", RestartPolicy: &always}, {Name: "init"}}
	}
	names := []string{"main", "side", "init", "other"}
	status := func(label string) []podstatus.ContainerStatus {
		var out []podstatus.ContainerStatus
		for n := rapid.IntRange(0, 2).Draw(t, label); n > 0; n-- {
			cs := podstatus.ContainerStatus{Name: rapid.SampledFrom(names).Draw(t, "cname"), RestartCount: wide32(t, "restarts", 0, 3)}
			switch rapid.IntRange(0, 2).Draw(t, "state") {
			case 0:
				ft := time.Time{}
				if rapid.Bool().Draw(t, "hasFinish") {
					ft = drawTime(t, "finish")
				}
				cs.State.Terminated = &podstatus.StateTerminated{ExitCode: int32(rapid.IntRange(-1, 3).Draw(t, "exit")), FinishedAt: ft}
			case 1:
				cs.State.Running = &podstatus.StateRunning{}
			}
			out = append(out, cs)
		}
		return out
	}
	p.Status.ContainerStatuses = status("ncs")
	p.Status.InitContainerStatuses = status("nics")
	for n := rapid.IntRange(0, 2).Draw(t, "nconds"); n > 0; n-- {
		c := podstatus.Condition{Type: rapid.SampledFrom([]podstatus.ConditionType{podstatus.Ready, podstatus.DisruptionTarget, "Custom"}).Draw(t, "ctype"),
			Status: rapid.SampledFrom([]meta.ConditionStatus{meta.ConditionTrue, meta.ConditionFalse, meta.ConditionUnknown}).Draw(t, "cstatus")}
		if rapid.Bool().Draw(t, "cltt") {
			c.LastTransitionTime = drawTime(t, "ltt")
		}
		p.Status.Conditions = append(p.Status.Conditions, c)
	}
	return p
}

func ptr[T any](v T) *T { return &v }

// v1Pod is the adapter's pod.
func v1Pod(p *podstatus.Pod) *v1.Pod { return difftest.Must(k8s.ToPod(p)) }

func drawPolicy(t *rapid.T) *job.PodFailurePolicy {
	if rapid.IntRange(0, 4).Draw(t, "nilPolicy") == 0 {
		return nil
	}
	p := &job.PodFailurePolicy{}
	for n := rapid.IntRange(0, 4).Draw(t, "rules"); n > 0; n-- {
		r := job.PodFailurePolicyRule{Action: rapid.SampledFrom([]job.PodFailurePolicyAction{job.ActionFailJob, job.ActionFailIndex, job.ActionIgnore, job.ActionCount, "Unknown"}).Draw(t, "action")}
		if rapid.Bool().Draw(t, "byExit") {
			r.OnExitCodes = &job.OnExitCodesRequirement{Operator: rapid.SampledFrom([]string{job.OpIn, job.OpNotIn, "Bad"}).Draw(t, "op")}
			if rapid.Bool().Draw(t, "cn") {
				r.OnExitCodes.ContainerName = ptr(rapid.SampledFrom([]string{"main", "side", "init"}).Draw(t, "cnv"))
			}
			for k := rapid.IntRange(0, 3).Draw(t, "nvals"); k > 0; k-- {
				r.OnExitCodes.Values = append(r.OnExitCodes.Values, int32(rapid.IntRange(-1, 3).Draw(t, "val")))
			}
		} else {
			for k := rapid.IntRange(0, 2).Draw(t, "npc"); k > 0; k-- {
				r.OnPodConditions = append(r.OnPodConditions, job.OnPodConditionsRequirement{
					Type:   rapid.SampledFrom([]podstatus.ConditionType{podstatus.DisruptionTarget, podstatus.Ready, "Custom"}).Draw(t, "pct"),
					Status: rapid.SampledFrom([]meta.ConditionStatus{"", meta.ConditionTrue, meta.ConditionFalse, meta.ConditionUnknown}).Draw(t, "pcs")})
			}
			if r.OnPodConditions == nil {
				r.OnPodConditions = []job.OnPodConditionsRequirement{}
			}
		}
		p.Rules = append(p.Rules, r)
	}
	return p
}

// v1Policy converts a policy, applying the API default status True.
func v1Policy(p *job.PodFailurePolicy) *batch.PodFailurePolicy {
	return v1Job(&job.Job{Spec: job.Spec{PodFailurePolicy: p}}).Spec.PodFailurePolicy
}

func TestJobMatchPodFailurePolicyDifferential(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		pol := drawPolicy(t)
		p := drawPod(t, 0)
		got := job.MatchPodFailurePolicy(pol, p)
		msg, count, action := matchPodFailurePolicy(v1Policy(pol), v1Pod(p))
		wantMsg, wantAction := "", job.PodFailurePolicyAction("")
		if msg != nil {
			wantMsg = *msg
		}
		if action != nil {
			wantAction = job.PodFailurePolicyAction(*action)
		}
		if got.Message != wantMsg || got.CountFailed != count || got.Action != wantAction {
			t.Fatalf("MatchPodFailurePolicy = %+v; upstream (%q, %v, %q)", got, wantMsg, count, wantAction)
		}
	})
}

func indexString(t *rapid.T) string {
	if rapid.IntRange(0, 4).Draw(t, "garbage") == 0 {
		return rapid.StringMatching(`[0-9,+\-a]{0,12}`).Draw(t, "raw")
	}
	var s string
	next := 0
	for n := rapid.IntRange(0, 5).Draw(t, "n"); n > 0; n-- {
		if s != "" {
			s += ","
		}
		first := next + rapid.IntRange(0, 3).Draw(t, "gap")
		last := first + rapid.IntRange(0, 4).Draw(t, "len")
		if first == last {
			s += strconv.Itoa(first)
		} else {
			s += strconv.Itoa(first) + "-" + strconv.Itoa(last)
		}
		next = last + rapid.IntRange(0, 2).Draw(t, "skip")
	}
	return s
}

func toUp(x job.Indexes) []interval {
	out := make([]interval, len(x))
	for i, v := range x {
		out[i] = interval{v.First, v.Last}
	}
	return out
}

func TestJobParseIndexesDifferential(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		s := indexString(t)
		c := rapid.IntRange(-1, 30).Draw(t, "completions")
		got := job.ParseIndexes(s, c)
		want := parseIndexes(logr.Discard(), s, c)
		if len(got) != len(want) {
			t.Fatalf("ParseIndexes(%q, %d) = %v; upstream %v", s, c, got, want)
		}
		for i := range want {
			if got[i].First != want[i].First || got[i].Last != want[i].Last {
				t.Fatalf("ParseIndexes(%q, %d) = %v; upstream %v", s, c, got, want)
			}
		}
		if g, w := got.String(), intervalsString(want); g != w {
			t.Fatalf("String(%v) = %q; upstream %q", got, g, w)
		}
	})
}

func TestJobMatchSuccessPolicyDifferential(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		c := int32(rapid.IntRange(0, 20).Draw(t, "completions"))
		succ := job.ParseIndexes(indexString(t), int(c)+rapid.IntRange(0, 3).Draw(t, "slack"))
		var pol *job.SuccessPolicy
		var up *batch.SuccessPolicy
		if rapid.IntRange(0, 4).Draw(t, "nilPolicy") > 0 {
			pol, up = &job.SuccessPolicy{}, &batch.SuccessPolicy{}
			for n := rapid.IntRange(0, 3).Draw(t, "rules"); n > 0; n-- {
				var r job.SuccessPolicyRule
				if rapid.Bool().Draw(t, "hasIdx") {
					r.SucceededIndexes = ptr(indexString(t))
				}
				if rapid.Bool().Draw(t, "hasCount") {
					r.SucceededCount = ptr(int32(rapid.IntRange(0, 12).Draw(t, "count")))
				}
				pol.Rules = append(pol.Rules, r)
				up.Rules = append(up.Rules, batch.SuccessPolicyRule{SucceededIndexes: r.SucceededIndexes, SucceededCount: r.SucceededCount})
			}
		}
		gm, gok := job.MatchSuccessPolicy(pol, c, succ)
		wm, wok := matchSuccessPolicy(logr.Discard(), up, c, toUp(succ))
		if gm != wm || gok != wok {
			t.Fatalf("MatchSuccessPolicy = (%q, %v); upstream (%q, %v)", gm, gok, wm, wok)
		}
	})
}

func TestJobRemainingBackoffDifferential(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		n := int32(rapid.IntRange(0, 40).Draw(t, "failures"))
		last := drawTime(t, "last")
		now := difftest.JobT0.Add(time.Duration(rapid.Int64Range(-int64(time.Hour), int64(2*time.Hour)).Draw(t, "now")))
		base := time.Duration(rapid.IntRange(1, 20).Draw(t, "base")) * time.Second
		capD := time.Duration(rapid.IntRange(1, 1200).Draw(t, "cap")) * time.Second
		got := job.RemainingBackoff(n, &last, now, job.Options{BackoffBase: base, BackoffCap: capD})
		want := remaining(clocktesting.NewFakeClock(now), base, capD, n, &last)
		if got != want {
			t.Fatalf("RemainingBackoff(%d, %v, %v, base %v, cap %v) = %v; upstream %v", n, last, now, base, capD, got, want)
		}
	})
}

func TestJobBackoffRecordDifferential(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		var succ, failed []*podstatus.Pod
		var usucc, ufailed []*v1.Pod
		for i := rapid.IntRange(0, 3).Draw(t, "ns"); i > 0; i-- {
			p := drawPod(t, i)
			succ, usucc = append(succ, p), append(usucc, v1Pod(p))
		}
		for i := rapid.IntRange(0, 4).Draw(t, "nf"); i > 0; i-- {
			p := drawPod(t, 10+i)
			failed, ufailed = append(failed, p), append(ufailed, v1Pod(p))
		}
		prev := job.BackoffRecord{FailuresAfterLastSuccess: int32(rapid.IntRange(0, 5).Draw(t, "prevN"))}
		if rapid.Bool().Draw(t, "prevT") {
			pt := drawTime(t, "prevTime")
			prev.LastFailureTime = &pt
		}
		store := newBackoffStore()
		if err := updateBackoffRecord(store, backoffRecord{key: "k", failuresAfterLastSuccess: prev.FailuresAfterLastSuccess, lastFailureTime: prev.LastFailureTime}); err != nil {
			t.Fatal(err)
		}
		got := job.NewBackoffRecord(prev, succ, failed)
		want := newBackoffRecord(store, "k", usucc, ufailed)
		if got.FailuresAfterLastSuccess != want.failuresAfterLastSuccess || (got.LastFailureTime == nil) != (want.lastFailureTime == nil) ||
			(got.LastFailureTime != nil && !got.LastFailureTime.Equal(*want.lastFailureTime)) {
			t.Fatalf("NewBackoffRecord = %+v; upstream %d %v", got, want.failuresAfterLastSuccess, want.lastFailureTime)
		}
		for i, p := range failed {
			if g, w := job.FinishedTime(p), finishedTime(v1Pod(p)); !g.Equal(w) {
				t.Fatalf("FinishedTime(pod %d) = %v; upstream %v", i, g, w)
			}
		}
	})
}

// drawJob draws a job spec with the fields the rules read.
func drawJob(t *rapid.T) *job.Job {
	j := &job.Job{ObjectMeta: meta.ObjectMeta{Name: "j", Namespace: "ns", UID: "juid"}}
	j.Spec.Completions = ptr(int32(rapid.IntRange(0, 6).Draw(t, "completions")))
	if rapid.IntRange(0, 3).Draw(t, "wq") == 0 {
		j.Spec.Completions = nil
	}
	j.Spec.Parallelism = ptr(int32(rapid.IntRange(0, 6).Draw(t, "parallelism")))
	j.Spec.BackoffLimit = ptr(wide32(t, "backoffLimit", 0, 6))
	if j.Spec.Completions != nil && rapid.Bool().Draw(t, "indexed") {
		j.Spec.CompletionMode = ptr(job.Indexed)
	}
	j.Spec.Template.Spec.RestartPolicy = rapid.SampledFrom([]podstatus.RestartPolicy{podstatus.RestartNever, podstatus.RestartOnFailure}).Draw(t, "restartPolicy")
	if rapid.Bool().Draw(t, "replFailed") {
		j.Spec.PodReplacementPolicy = ptr(job.FailedOnly)
	}
	if rapid.IntRange(0, 3).Draw(t, "pfp") == 0 {
		j.Spec.PodFailurePolicy = &job.PodFailurePolicy{Rules: []job.PodFailurePolicyRule{{Action: job.ActionIgnore,
			OnPodConditions: []job.OnPodConditionsRequirement{{Type: podstatus.DisruptionTarget, Status: meta.ConditionTrue}}}}}
	}
	return j
}

// v1Job is the adapter's Job, with the API default status True on
// onPodConditions patterns.
func v1Job(j *job.Job) *batch.Job {
	out := difftest.Must(k8s.ToJob(j))
	// API defaulting gives an onPodConditions pattern status True.
	if pfp := out.Spec.PodFailurePolicy; pfp != nil {
		for i := range pfp.Rules {
			for k := range pfp.Rules[i].OnPodConditions {
				if pfp.Rules[i].OnPodConditions[k].Status == "" {
					pfp.Rules[i].OnPodConditions[k].Status = v1.ConditionTrue
				}
			}
		}
	}
	return out
}

func TestJobPodRulesDifferential(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		j := drawJob(t)
		var pods []*podstatus.Pod
		var up []*v1.Pod
		for i := rapid.IntRange(0, 6).Draw(t, "pods"); i > 0; i-- {
			p := drawPod(t, i)
			pods, up = append(pods, p), append(up, v1Pod(p))
		}
		uj := v1Job(j)
		if g, w := job.PastBackoffLimitOnFailure(j, pods), pastBackoffLimitOnFailure(uj, up); g != w {
			t.Fatalf("PastBackoffLimitOnFailure = %v; upstream %v", g, w)
		}
		for i := range pods {
			if g, w := job.IsPodFailed(j, pods[i]), isPodFailed(up[i], uj); g != w {
				t.Fatalf("IsPodFailed(pod %d) = %v; upstream %v", i, g, w)
			}
		}
	})
}

// TestJobPodsForRemovalDifferential compares the set of pods chosen for
// removal. Pods get distinct creation times so that ActivePods has no ties
// outside the groups whose order upstream leaves open.
func TestJobPodsForRemovalDifferential(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		j := drawJob(t)
		var pods []*podstatus.Pod
		var up []*v1.Pod
		for i := rapid.IntRange(0, 8).Draw(t, "pods"); i > 0; i-- {
			p := drawPod(t, i)
			p.DeletionTimestamp = nil
			p.Status.Phase = rapid.SampledFrom([]podstatus.Phase{"", podstatus.Pending, podstatus.Running, podstatus.Unknown}).Draw(t, "activePhase")
			p.CreationTimestamp = difftest.JobT0.Add(time.Duration(i) * time.Second)
			for k := range p.Status.Conditions {
				p.Status.Conditions[k].LastTransitionTime = difftest.JobT0.Add(time.Duration(10*i+k) * time.Second)
			}
			pods, up = append(pods, p), append(up, v1Pod(p))
		}
		rm := rapid.IntRange(0, len(pods)).Draw(t, "rmAtLeast")
		got := map[string]int{}
		for _, r := range job.PodsForRemoval(j, pods, rm) {
			got[r.Pod.Name]++
		}
		want := map[string]int{}
		for _, p := range activePodsForRemoval(v1Job(j), up, rm) {
			want[p.Name]++
		}
		if len(got) != len(want) {
			t.Fatalf("PodsForRemoval = %v; upstream %v", got, want)
		}
		for k, v := range want {
			if got[k] != v {
				t.Fatalf("PodsForRemoval = %v; upstream %v", got, want)
			}
		}
	})
}

func TestJobTimeLeftDifferential(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		j := &job.Job{ObjectMeta: meta.ObjectMeta{Name: "j", Namespace: "ns"}}
		if rapid.Bool().Draw(t, "ttl") {
			j.Spec.TTLSecondsAfterFinished = ptr(int32(rapid.IntRange(0, 200).Draw(t, "ttlS")))
		}
		for n := rapid.IntRange(0, 3).Draw(t, "conds"); n > 0; n-- {
			c := job.Condition{Type: rapid.SampledFrom([]job.ConditionType{job.Complete, job.Failed, job.Suspended, job.FailureTarget}).Draw(t, "type"),
				Status: rapid.SampledFrom([]meta.ConditionStatus{meta.ConditionTrue, meta.ConditionFalse}).Draw(t, "status")}
			if rapid.IntRange(0, 5).Draw(t, "zero") > 0 {
				c.LastTransitionTime = drawTime(t, "ltt")
			}
			j.Status.Conditions = append(j.Status.Conditions, c)
		}
		now := difftest.JobT0.Add(time.Duration(rapid.IntRange(-10, 300).Draw(t, "now")) * time.Second)
		if rapid.Bool().Draw(t, "atExpiry") {
			// Exactly at the expiry upstream computes, or 1ns either side.
			if _, expire, err := timeLeft(logr.Discard(), v1Job(j), &now); err == nil {
				now = expire.Add(time.Duration(rapid.IntRange(-1, 1).Draw(t, "expiryOff")))
			}
		}
		got, err := job.TimeLeft(j, now)
		left, expire, uerr := timeLeft(logr.Discard(), v1Job(j), &now)
		if (err != nil) != (uerr != nil) {
			t.Fatalf("TimeLeft error = %v; upstream %v", err, uerr)
		}
		if err == nil && (got.Remaining != *left || !got.ExpireAt.Equal(*expire) || got.Expired != (*left <= 0)) {
			t.Fatalf("TimeLeft = %+v; upstream %v %v", got, *left, *expire)
		}
	})
}
