package job_test

import (
	"context"
	"strconv"
	"testing"
	"time"

	"github.com/go-logr/logr"
	batch "k8s.io/api/batch/v1"
	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/informers"
	clientset "k8s.io/client-go/kubernetes"
	restclient "k8s.io/client-go/rest"
	"k8s.io/client-go/tools/cache"
	"k8s.io/kubernetes/pkg/controller"
	clocktesting "k8s.io/utils/clock/testing"

	"github.com/kubesem/kubesem/conformance/upstream/internal/difftest"
	"github.com/kubesem/kubesem/job"
	"github.com/kubesem/kubesem/meta"
	"github.com/kubesem/kubesem/podstatus"
)

func benchPolicy() *job.PodFailurePolicy {
	main := "main"
	return &job.PodFailurePolicy{Rules: []job.PodFailurePolicyRule{
		{Action: job.ActionCount, OnExitCodes: &job.OnExitCodesRequirement{ContainerName: &main, Operator: job.OpIn, Values: []int32{7, 8}}},
		{Action: job.ActionFailJob, OnExitCodes: &job.OnExitCodesRequirement{ContainerName: &main, Operator: job.OpIn, Values: []int32{42}}},
		{Action: job.ActionIgnore, OnPodConditions: []job.OnPodConditionsRequirement{{Type: podstatus.DisruptionTarget, Status: meta.ConditionTrue}}},
	}}
}

func benchFailedPod(i int) *podstatus.Pod {
	return &podstatus.Pod{ObjectMeta: meta.ObjectMeta{Name: "p" + strconv.Itoa(i), Namespace: "ns", UID: "u" + strconv.Itoa(i),
		Finalizers: []string{job.TrackingFinalizer}, CreationTimestamp: difftest.JobT0},
		Status: podstatus.Status{Phase: podstatus.Failed, ContainerStatuses: []podstatus.ContainerStatus{{Name: "main",
			State: podstatus.ContainerState{Terminated: &podstatus.StateTerminated{ExitCode: 42, FinishedAt: difftest.JobT0.Add(time.Duration(i) * time.Second)}}}}}}
}

func BenchmarkJobMatchPodFailurePolicy(b *testing.B) {
	pol, p := benchPolicy(), benchFailedPod(0)
	up, upod := v1Policy(pol), v1Pod(p)
	b.Run("kubesem", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			_ = job.MatchPodFailurePolicy(pol, p)
		}
	})
	b.Run("upstream", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			_, _, _ = matchPodFailurePolicy(up, upod)
		}
	})
}

func BenchmarkJobParseIndexes(b *testing.B) {
	const s = "1,3-5,7,9-200,202,204-1000"
	b.Run("kubesem", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			_ = job.ParseIndexes(s, 1000).String()
		}
	})
	b.Run("upstream", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			_ = intervalsString(parseIndexes(logr.Discard(), s, 1000))
		}
	})
}

func BenchmarkJobMatchSuccessPolicy(b *testing.B) {
	idx, cnt := "0-4,6-9", int32(5)
	pol := &job.SuccessPolicy{Rules: []job.SuccessPolicyRule{{SucceededIndexes: &idx, SucceededCount: &cnt}}}
	up := &batch.SuccessPolicy{Rules: []batch.SuccessPolicyRule{{SucceededIndexes: &idx, SucceededCount: &cnt}}}
	succ := job.Indexes{{First: 1, Last: 3}, {First: 7, Last: 8}}
	usucc := toUp(succ)
	b.Run("kubesem", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			_, _ = job.MatchSuccessPolicy(pol, 10, succ)
		}
	})
	b.Run("upstream", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			_, _ = matchSuccessPolicy(logr.Discard(), up, 10, usucc)
		}
	})
}

func BenchmarkJobRemainingBackoff(b *testing.B) {
	now := difftest.JobT0.Add(30 * time.Second)
	clk := clocktesting.NewFakeClock(now)
	b.Run("kubesem", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			_ = job.RemainingBackoff(5, &difftest.JobT0, now, job.Options{})
		}
	})
	b.Run("upstream", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			_ = remaining(clk, 10*time.Second, 10*time.Minute, 5, &difftest.JobT0)
		}
	})
}

func BenchmarkJobNewBackoffRecord(b *testing.B) {
	var failed []*podstatus.Pod
	var ufailed []*v1.Pod
	for i := range 10 {
		p := benchFailedPod(i)
		failed, ufailed = append(failed, p), append(ufailed, v1Pod(p))
	}
	store := newBackoffStore()
	b.Run("kubesem", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			_ = job.NewBackoffRecord(job.BackoffRecord{}, nil, failed)
		}
	})
	b.Run("upstream", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			_ = newBackoffRecord(store, "k", nil, ufailed)
		}
	})
}

func BenchmarkJobPodsForRemoval(b *testing.B) {
	j := &job.Job{Spec: job.Spec{Completions: ptr(int32(100)), CompletionMode: ptr(job.Indexed)}}
	var pods []*podstatus.Pod
	var up []*v1.Pod
	for i := range 100 {
		p := &podstatus.Pod{ObjectMeta: meta.ObjectMeta{Name: "p" + strconv.Itoa(i), UID: "u" + strconv.Itoa(i), CreationTimestamp: difftest.JobT0.Add(time.Duration(i) * time.Second),
			Annotations: map[string]string{job.CompletionIndexAnnotation: strconv.Itoa(i % 51)}}, Spec: podstatus.Spec{NodeName: "n"}, Status: podstatus.Status{Phase: podstatus.Running}}
		pods, up = append(pods, p), append(up, v1Pod(p))
	}
	uj := v1Job(j)
	b.Run("kubesem", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			_ = job.PodsForRemoval(j, pods, 60)
		}
	})
	b.Run("upstream", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			cp := append([]*v1.Pod(nil), up...)
			_ = activePodsForRemoval(uj, cp, 60)
		}
	})
}

func BenchmarkJobTimeLeft(b *testing.B) {
	j := &job.Job{ObjectMeta: meta.ObjectMeta{Name: "j", Namespace: "ns"}, Spec: job.Spec{TTLSecondsAfterFinished: ptr(int32(100))},
		Status: job.Status{Conditions: []job.Condition{{Type: job.Complete, Status: meta.ConditionTrue, LastTransitionTime: difftest.JobT0}}}}
	uj := v1Job(j)
	now := difftest.JobT0.Add(time.Minute)
	b.Run("kubesem", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			_, _ = job.TimeLeft(j, now)
		}
	})
	b.Run("upstream", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			_, _, _ = timeLeft(logr.Discard(), uj, &now)
		}
	})
}

// BenchmarkJobStep compares Step with one upstream syncJob on 30 pods. The
// upstream controller and informers are built outside the timer.
func BenchmarkJobStep(b *testing.B) {
	now := difftest.JobT0.Add(time.Hour)
	j := &job.Job{ObjectMeta: meta.ObjectMeta{Name: "j", Namespace: "ns", UID: "juid"}, Spec: job.Spec{Parallelism: ptr(int32(40)), Completions: ptr(int32(100)),
		BackoffLimit: ptr(int32(50))}, Status: job.Status{StartTime: &difftest.JobT0}}
	j.Spec.Template.Spec.RestartPolicy = podstatus.RestartNever
	var pods []*podstatus.Pod
	for i := range 30 {
		p := benchFailedPod(i)
		if i%3 != 0 {
			p.Status.Phase = podstatus.Running
			p.Status.ContainerStatuses = nil
		}
		p.Status.ContainerStatuses = nil
		pods = append(pods, p)
	}
	uj := v1Job(j)
	uj.Spec.Selector = &metav1.LabelSelector{MatchLabels: map[string]string{"job": "j"}}
	var up []*v1.Pod
	for _, p := range pods {
		up = append(up, v1StepPod(p, uj))
	}
	b.Run("kubesem", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			_, _ = job.Step(j, pods, job.BackoffRecord{}, now, job.Options{})
		}
	})
	b.Run("upstream", func(b *testing.B) {
		b.ReportAllocs()
		ctx := context.Background()
		for b.Loop() {
			b.StopTimer()
			client := clientset.NewForConfigOrDie(&restclient.Config{Host: "", ContentConfig: restclient.ContentConfig{GroupVersion: &schema.GroupVersion{Group: "", Version: "v1"}}})
			inf := informers.NewSharedInformerFactory(client, 0)
			jm, _ := difftest.NewJobController(ctx, client, clocktesting.NewFakeClock(now), inf.Core().V1().Pods(), inf.Batch().V1().Jobs(),
				inf.Scheduling().V1alpha2().Workloads(), inf.Scheduling().V1alpha2().PodGroups())
			setField(jm, "podControl", controller.PodControlInterface(&controller.FakePodControl{}))
			always := cache.InformerSynced(func() bool { return true })
			setField(jm, "podStoreSynced", always)
			setField(jm, "jobStoreSynced", always)
			setField(jm, "updateStatusHandler", func(_ context.Context, job *batch.Job) (*batch.Job, error) { return job, nil })
			_ = inf.Batch().V1().Jobs().Informer().GetIndexer().Add(uj.DeepCopy())
			for _, p := range up {
				_ = inf.Core().V1().Pods().Informer().GetIndexer().Add(p.DeepCopy())
			}
			sync := getField(jm, "syncHandler").Interface().(func(context.Context, string) error)
			b.StartTimer()
			_ = sync(ctx, "ns/j")
			b.StopTimer()
			difftest.Stop(jm)
			b.StartTimer()
		}
	})
}
