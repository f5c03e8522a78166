package job_test

import (
	"context"
	"fmt"
	"strconv"
	"testing"
	"time"

	batch "k8s.io/api/batch/v1"
	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/informers"
	clientset "k8s.io/client-go/kubernetes"
	restclient "k8s.io/client-go/rest"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/tools/record"
	"k8s.io/kubernetes/pkg/controller"
	jobcontroller "k8s.io/kubernetes/pkg/controller/job"
	clocktesting "k8s.io/utils/clock/testing"

	"github.com/kubesem/kubesem/conformance/upstream/internal/difftest"
	"github.com/kubesem/kubesem/job"
	"github.com/kubesem/kubesem/meta"
	"github.com/kubesem/kubesem/podstatus"
)

// growthJob is a Job of parallelism n and completions 2n an hour into its
// run with its n pods (tracked by the finalizer): nine in ten Running, one
// in ten Succeeded and not yet counted.
func growthJob(n int, now time.Time) (*job.Job, []*podstatus.Pod) {
	start := now.Add(-time.Hour)
	j := &job.Job{ObjectMeta: meta.ObjectMeta{Name: "j", Namespace: "ns", UID: "juid"},
		Spec:   job.Spec{Parallelism: ptr(int32(n)), Completions: ptr(int32(2 * n)), BackoffLimit: ptr(int32(6))},
		Status: job.Status{StartTime: &start, Active: int32(n)}}
	j.Spec.Template.Spec.RestartPolicy = podstatus.RestartNever
	j.Spec.Template.Spec.Containers = []podstatus.Container{{Name: "main", Image: "registry.example/batch:1"}}
	pods := make([]*podstatus.Pod, n)
	for i := range pods {
		created := start.Add(time.Duration(i%600) * time.Second)
		p := &podstatus.Pod{ObjectMeta: meta.ObjectMeta{Name: "j-" + strconv.Itoa(i), Namespace: "ns", UID: "u" + strconv.Itoa(i),
			Finalizers: []string{job.TrackingFinalizer}, CreationTimestamp: created}}
		p.Spec.NodeName = "node-" + strconv.Itoa(i%max(1, n/10))
		p.Spec.Containers = j.Spec.Template.Spec.Containers
		p.Status.Phase = podstatus.Running
		if i%10 == 0 {
			p.Status.Phase = podstatus.Succeeded
			p.Status.ContainerStatuses = []podstatus.ContainerStatus{{Name: "main",
				State: podstatus.ContainerState{Terminated: &podstatus.StateTerminated{ExitCode: 0, FinishedAt: now.Add(-time.Minute)}}}}
		}
		pods[i] = p
	}
	return j, pods
}

// BenchmarkGrowth (issue 24, how cost grows): job.Step against syncJob
// over n pods (growthJob): both count the Succeeded tenth (writing the
// status with them uncounted, removing their finalizers, up to the 500
// per sync upstream allows, writing the status again) and create
// replacements up to parallelism (at most 500 per sync). Upstream's
// controller is rebuilt before each sync with the timer stopped (its
// expectations, finalizer expectations and backoff store start empty, as
// Step's memory does), as in BenchmarkJobStep: a fake pod control that
// records, status writes to a handler that counts them, events to a fake
// recorder that drops them. Both must create, delete and patch the same
// number of pods and write the status the same number of times.
func BenchmarkGrowth(b *testing.B) {
	difftest.Growth(b, "job", func(b *testing.B, n int) *difftest.GrowthCase {
		now := difftest.JobT0.Add(time.Hour)
		j, pods := growthJob(n, now)
		uj := v1Job(j)
		uj.Spec.Selector = &metav1.LabelSelector{MatchLabels: map[string]string{"job": j.Name}}
		uj.Spec.Template.Labels = map[string]string{"job": j.Name}
		up := make([]*v1.Pod, len(pods))
		for i, p := range pods {
			up[i] = v1StepPod(p, uj)
		}
		var p job.Plan

		ctx := context.Background()
		client := clientset.NewForConfigOrDie(&restclient.Config{Host: "", ContentConfig: restclient.ContentConfig{GroupVersion: &schema.GroupVersion{Group: "", Version: "v1"}}})
		var jm *jobcontroller.Controller
		var pc *controller.FakePodControl
		var sync func(context.Context, string) error
		statusWrites := 0
		prepare := func() {
			if jm != nil {
				difftest.Stop(jm)
			}
			inf := informers.NewSharedInformerFactory(client, 0)
			var err error
			jm, err = difftest.NewJobController(ctx, client, clocktesting.NewFakeClock(now), inf.Core().V1().Pods(), inf.Batch().V1().Jobs(),
				inf.Scheduling().V1alpha2().Workloads(), inf.Scheduling().V1alpha2().PodGroups())
			if err != nil {
				panic(err)
			}
			pc = &controller.FakePodControl{}
			setField(jm, "podControl", controller.PodControlInterface(pc))
			setField(jm, "recorder", record.EventRecorder(&record.FakeRecorder{}))
			always := cache.InformerSynced(func() bool { return true })
			setField(jm, "podStoreSynced", always)
			setField(jm, "jobStoreSynced", always)
			statusWrites = 0
			setField(jm, "updateStatusHandler", func(_ context.Context, j *batch.Job) (*batch.Job, error) { statusWrites++; return j, nil })
			_ = inf.Batch().V1().Jobs().Informer().GetIndexer().Add(uj)
			pi := inf.Core().V1().Pods().Informer().GetIndexer()
			for _, q := range up {
				_ = pi.Add(q)
			}
			sync = getField(jm, "syncHandler").Interface().(func(context.Context, string) error)
		}
		outcome := func(creates, deletes, patches, writes int) string {
			return fmt.Sprintf("creates=%d deletes=%d finalizer patches=%d status writes=%d", creates, deletes, patches, writes)
		}
		return &difftest.GrowthCase{
			Kubesem: difftest.GrowthSide{
				Op: func() (err error) { p, err = job.Step(j, pods, job.BackoffRecord{}, now, job.Options{}); return err },
				Outcome: func() string {
					writes := 0
					if p.FlushStatus != nil {
						writes++
					}
					if p.UpdateStatus {
						writes++
					}
					return outcome(int(p.Create.Count), len(p.Delete), len(p.RemoveFinalizers), writes)
				},
			},
			Upstream: difftest.GrowthSide{
				Prepare: prepare,
				Op:      func() error { return sync(ctx, "ns/j") },
				Outcome: func() string { return outcome(len(pc.Templates), len(pc.DeletePodName), len(pc.Patches), statusWrites) },
			},
			Close: func() {
				if jm != nil {
					difftest.Stop(jm)
				}
			},
		}
	})
}
