package job_test

import (
	"strconv"
	"testing"
	"time"

	"github.com/kubesem/kubesem/job"
	"github.com/kubesem/kubesem/meta"
	"github.com/kubesem/kubesem/podstatus"
)

var (
	benchT0   = time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	benchMain = "main"
	benchPFP  = &job.PodFailurePolicy{Rules: []job.PodFailurePolicyRule{
		{Action: job.ActionFailJob, OnExitCodes: &job.OnExitCodesRequirement{ContainerName: &benchMain, Operator: job.OpIn, Values: []int32{42}}},
		{Action: job.ActionIgnore, OnPodConditions: []job.OnPodConditionsRequirement{{Type: podstatus.DisruptionTarget}}},
	}}
	benchFailed = &podstatus.Pod{ObjectMeta: meta.ObjectMeta{Name: "p", UID: "p", Finalizers: []string{job.TrackingFinalizer}},
		Status: podstatus.Status{Phase: podstatus.Failed, ContainerStatuses: []podstatus.ContainerStatus{{Name: "main",
			State: podstatus.ContainerState{Terminated: &podstatus.StateTerminated{ExitCode: 1, FinishedAt: benchT0}}}}}}
)

func benchPods(n int, indexed bool) []*podstatus.Pod {
	pods := make([]*podstatus.Pod, n)
	for i := range pods {
		p := &podstatus.Pod{ObjectMeta: meta.ObjectMeta{Name: "p" + strconv.Itoa(i), UID: "u" + strconv.Itoa(i), Finalizers: []string{job.TrackingFinalizer},
			CreationTimestamp: benchT0.Add(time.Duration(i) * time.Second)}, Spec: podstatus.Spec{NodeName: "n"}, Status: podstatus.Status{Phase: podstatus.Running}}
		if indexed {
			p.Annotations = map[string]string{job.CompletionIndexAnnotation: strconv.Itoa(i % (n/2 + 1))}
		}
		pods[i] = p
	}
	return pods
}

func BenchmarkParseIndexes(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		_ = job.ParseIndexes("1,3-5,7,9-200,202,204-1000", 1000)
	}
}

func BenchmarkIndexesString(b *testing.B) {
	x := job.Indexes{{1, 1}, {3, 5}, {7, 7}, {9, 200}, {202, 203}}
	b.ReportAllocs()
	for b.Loop() {
		_ = x.String()
	}
}

func BenchmarkIndexesHas(b *testing.B) {
	x := job.Indexes{{1, 1}, {3, 5}, {7, 7}, {9, 200}, {202, 203}}
	b.ReportAllocs()
	for b.Loop() {
		_ = x.Has(150)
	}
}

func BenchmarkFirstPendingIndexes(b *testing.B) {
	s := job.Indexes{{1, 1}, {5, 5}, {9, 9}}
	pods := indexedPods(3, 9)
	b.ReportAllocs()
	for b.Loop() {
		_, _ = job.FirstPendingIndexes(5, 20, s, pods, nil)
	}
}

func BenchmarkCompletionIndex(b *testing.B) {
	p := &podstatus.Pod{ObjectMeta: meta.ObjectMeta{Annotations: map[string]string{job.CompletionIndexAnnotation: "12345"}}}
	b.ReportAllocs()
	for b.Loop() {
		_ = job.CompletionIndex(p)
	}
}

func BenchmarkGenerateNameWithIndex(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		_ = job.GenerateNameWithIndex("indexed-job", 12)
	}
}

func BenchmarkMatchPodFailurePolicy(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		_ = job.MatchPodFailurePolicy(benchPFP, benchFailed)
	}
}

func BenchmarkMatchSuccessPolicy(b *testing.B) {
	sp := &job.SuccessPolicy{Rules: []job.SuccessPolicyRule{{SucceededIndexes: ptr("0-4,6-9"), SucceededCount: ptr(int32(5))}}}
	succ := job.Indexes{{1, 3}, {7, 8}}
	b.ReportAllocs()
	for b.Loop() {
		_, _ = job.MatchSuccessPolicy(sp, 10, succ)
	}
}

func BenchmarkBackoffDelay(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		_ = job.BackoffDelay(9, job.Options{})
	}
}

func BenchmarkRemainingBackoff(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		_ = job.RemainingBackoff(3, &benchT0, benchT0.Add(time.Second), job.Options{})
	}
}

func BenchmarkRemainingIndexBackoff(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		_ = job.RemainingIndexBackoff(benchFailed, benchT0.Add(time.Second), job.Options{})
	}
}

func BenchmarkFinishedTime(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		_ = job.FinishedTime(benchFailed)
	}
}

func BenchmarkNewBackoffRecord(b *testing.B) {
	failed := []*podstatus.Pod{benchFailed, benchFailed, benchFailed}
	b.ReportAllocs()
	for b.Loop() {
		_ = job.NewBackoffRecord(job.BackoffRecord{}, nil, failed)
	}
}

func BenchmarkPastBackoffLimitOnFailure(b *testing.B) {
	j := &job.Job{Spec: job.Spec{Template: podstatus.Template{Spec: podstatus.Spec{RestartPolicy: podstatus.RestartOnFailure}}}}
	pods := benchPods(50, false)
	b.ReportAllocs()
	for b.Loop() {
		_ = job.PastBackoffLimitOnFailure(j, pods)
	}
}

func BenchmarkPastActiveDeadline(b *testing.B) {
	j := &job.Job{Spec: job.Spec{ActiveDeadlineSeconds: ptr(int64(100))}, Status: job.Status{StartTime: &benchT0}}
	b.ReportAllocs()
	for b.Loop() {
		_ = job.PastActiveDeadline(j, benchT0.Add(time.Minute))
	}
}

func BenchmarkWantActive(b *testing.B) {
	j := &job.Job{Spec: job.Spec{Parallelism: ptr(int32(3)), Completions: ptr(int32(12))}}
	b.ReportAllocs()
	for b.Loop() {
		_ = job.WantActive(j, 4, 3)
	}
}

func BenchmarkIsPodFailed(b *testing.B) {
	j := &job.Job{}
	b.ReportAllocs()
	for b.Loop() {
		_ = job.IsPodFailed(j, benchFailed)
	}
}

func BenchmarkPodsForRemoval(b *testing.B) {
	j := &job.Job{Spec: job.Spec{Completions: ptr(int32(100)), CompletionMode: ptr(job.Indexed)}}
	pods := benchPods(100, true)
	b.ReportAllocs()
	for b.Loop() {
		_ = job.PodsForRemoval(j, pods, 60)
	}
}

func BenchmarkSucceededIndexes(b *testing.B) {
	j := &job.Job{Spec: job.Spec{Completions: ptr(int32(100)), CompletionMode: ptr(job.Indexed)}, Status: job.Status{CompletedIndexes: "0-40"}}
	pods := benchPods(100, true)
	b.ReportAllocs()
	for b.Loop() {
		_, _ = job.SucceededIndexes(j, pods)
	}
}

func BenchmarkFailedIndexes(b *testing.B) {
	j := &job.Job{Spec: job.Spec{Completions: ptr(int32(100)), CompletionMode: ptr(job.Indexed), BackoffLimitPerIndex: ptr(int32(1))}}
	pods := benchPods(100, true)
	b.ReportAllocs()
	for b.Loop() {
		_ = job.FailedIndexes(j, pods)
	}
}

func BenchmarkFailJobMessage(b *testing.B) {
	j := &job.Job{Spec: job.Spec{PodFailurePolicy: benchPFP}}
	pods := []*podstatus.Pod{benchFailed}
	b.ReportAllocs()
	for b.Loop() {
		_, _ = job.FailJobMessage(j, pods)
	}
}

func BenchmarkTimeLeft(b *testing.B) {
	j := &job.Job{Spec: job.Spec{TTLSecondsAfterFinished: ptr(int32(100))},
		Status: job.Status{Conditions: []job.Condition{{Type: job.Complete, Status: meta.ConditionTrue, LastTransitionTime: benchT0}}}}
	b.ReportAllocs()
	for b.Loop() {
		_, _ = job.TimeLeft(j, benchT0.Add(time.Minute))
	}
}

func BenchmarkStep(b *testing.B) {
	j := &job.Job{ObjectMeta: meta.ObjectMeta{Name: "j"}, Spec: job.Spec{Parallelism: ptr(int32(40)), Completions: ptr(int32(100))}}
	pods := benchPods(50, false)
	b.ReportAllocs()
	for b.Loop() {
		_, _ = job.Step(j, pods, job.BackoffRecord{}, benchT0, job.Options{})
	}
}

func BenchmarkStepIndexed(b *testing.B) {
	j := &job.Job{ObjectMeta: meta.ObjectMeta{Name: "j"}, Spec: job.Spec{Parallelism: ptr(int32(60)), Completions: ptr(int32(100)), CompletionMode: ptr(job.Indexed)}}
	pods := benchPods(50, true)
	b.ReportAllocs()
	for b.Loop() {
		_, _ = job.Step(j, pods, job.BackoffRecord{}, benchT0, job.Options{})
	}
}

func BenchmarkNewIndexFailureCounts(b *testing.B) {
	j := &job.Job{Spec: job.Spec{PodFailurePolicy: benchPFP}}
	p := failedPod("3", "1", podstatus.DisruptionTarget)
	b.ReportAllocs()
	for b.Loop() {
		job.NewIndexFailureCounts(j, p)
	}
}

func BenchmarkIsSucceeded(b *testing.B) {
	j := &job.Job{Status: job.Status{Conditions: []job.Condition{{Type: job.SuccessCriteriaMet, Status: meta.ConditionTrue}, {Type: job.Complete, Status: meta.ConditionTrue}}}}
	b.ReportAllocs()
	for b.Loop() {
		j.IsSucceeded()
	}
}
