package cronjob_test

import (
	"context"
	"fmt"
	"strconv"
	"testing"
	"time"
	_ "unsafe" // go:linkname to the controller's sync

	batchv1 "k8s.io/api/batch/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes/fake"
	k8stesting "k8s.io/client-go/testing"
	"k8s.io/client-go/tools/record"
	"k8s.io/kubernetes/pkg/controller/cronjob"

	"github.com/kubesem/kubesem/conformance/upstream/internal/difftest"
	kcronjob "github.com/kubesem/kubesem/cronjob"
	"github.com/kubesem/kubesem/job"
	"github.com/kubesem/kubesem/meta"
)

//go:linkname upSync k8s.io/kubernetes/pkg/controller/cronjob.(*ControllerV2).sync
func upSync(jm *cronjob.ControllerV2, ctx context.Context, cronJobKey string) (*time.Duration, error)

// growthCronJob is a CronJob every five minutes (UTC) with its n Jobs, one
// per past start time: the latest running (in status.active), the others
// succeeded, kept by a successful-jobs history limit of n-2; now is 30 s
// after a start time.
func growthCronJob(n int) (*kcronjob.CronJob, []*job.Job, time.Time) {
	last := time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC) // a start time
	now := last.Add(5*time.Minute + 30*time.Second)
	utc := "UTC"
	yes := true
	cj := &kcronjob.CronJob{ObjectMeta: meta.ObjectMeta{Name: "cron", Namespace: "ns", UID: "cj-uid", CreationTimestamp: last.Add(-time.Duration(n+1) * 5 * time.Minute)}}
	cj.Spec.Schedule, cj.Spec.TimeZone = "*/5 * * * *", &utc
	cj.Spec.SuccessfulJobsHistoryLimit = difftest.Ptr(int32(n - 2))
	cj.Spec.JobTemplate.Spec.Template.Spec.RestartPolicy = "OnFailure"
	cj.Spec.JobTemplate.Spec.Template.Spec.Containers = nil
	lastSched := last
	cj.Status.LastScheduleTime = &lastSched
	jobs := make([]*job.Job, n)
	for k := range n {
		sched := last.Add(-time.Duration(k) * 5 * time.Minute)
		start := sched.Add(time.Second)
		j := &job.Job{ObjectMeta: meta.ObjectMeta{Name: kcronjob.JobName(cj.Name, sched), Namespace: "ns", UID: "job-uid-" + strconv.Itoa(k),
			CreationTimestamp: sched, Labels: map[string]string{"app": "cron"},
			Annotations:     map[string]string{kcronjob.ScheduledTimestampAnnotation: sched.Format(time.RFC3339)},
			OwnerReferences: []meta.OwnerReference{{APIVersion: "batch/v1", Kind: "CronJob", Name: cj.Name, UID: cj.UID, Controller: &yes}}}}
		j.Status.StartTime = &start
		if k == 0 {
			j.Status.Active = 1
			cj.Status.Active = []kcronjob.ObjectReference{{Kind: "Job", Namespace: "ns", Name: j.Name, UID: j.UID, APIVersion: "batch/v1"}}
		} else {
			done := start.Add(2 * time.Minute)
			j.Status.CompletionTime = &done
			j.Status.Succeeded = 1
			j.Status.Conditions = []job.Condition{{Type: job.SuccessCriteriaMet, Status: meta.ConditionTrue}, {Type: job.Complete, Status: meta.ConditionTrue}}
			if k == 1 {
				cj.Status.LastSuccessfulTime = &done
			}
		}
		jobs[k] = j
	}
	return cj, jobs, now
}

// BenchmarkGrowth (issue 24, how cost grows): cronjob.Step against the
// CronJob controller's sync of the CronJob's key (getJobsToBeReconciled,
// cleanupFinishedJobs, syncCronJob, the status update) with n Jobs
// (growthCronJob): both list the Jobs, delete the oldest succeeded one
// beyond the history limit, start the Job of the start time that just
// passed and write the status. Upstream's controller is built once over
// informer stores holding the CronJob and its Jobs, on a fake clientset
// that answers every write without storing it, so every sync starts from
// the same state. Both must create and delete the same number of Jobs and
// agree whether to write the status.
func BenchmarkGrowth(b *testing.B) {
	difftest.Growth(b, "cronjob", func(b *testing.B, n int) *difftest.GrowthCase {
		cj, jobs, now := growthCronJob(n)
		var p kcronjob.Plan

		client := fake.NewSimpleClientset()
		client.PrependReactor("*", "*", func(a k8stesting.Action) (bool, runtime.Object, error) {
			switch a := a.(type) {
			case k8stesting.CreateAction:
				return true, a.GetObject(), nil
			case k8stesting.UpdateAction:
				return true, a.GetObject(), nil
			case k8stesting.DeleteAction:
				return true, nil, nil
			}
			return false, nil, nil
		})
		factory := informers.NewSharedInformerFactory(client, 0)
		ctx := context.Background()
		jm, err := cronjob.NewControllerV2(ctx, factory.Batch().V1().Jobs(), factory.Batch().V1().CronJobs(), client)
		if err != nil {
			b.Fatal(err)
		}
		setField(jm, "now", func() time.Time { return now })
		setField(jm, "recorder", record.EventRecorder(&record.FakeRecorder{}))
		if err := factory.Batch().V1().CronJobs().Informer().GetIndexer().Add(difftest.UpCronJob(cj)); err != nil {
			b.Fatal(err)
		}
		for _, j := range jobs {
			if err := factory.Batch().V1().Jobs().Informer().GetIndexer().Add(difftest.UpJob(j)); err != nil {
				b.Fatal(err)
			}
		}
		outcome := func(creates, deletes int, status bool) string {
			return fmt.Sprintf("creates=%d deletes=%d status write %v", creates, deletes, status)
		}
		return &difftest.GrowthCase{
			Kubesem: difftest.GrowthSide{
				Op:      func() (err error) { p, err = kcronjob.Step(cj, jobs, now, kcronjob.Options{}); return err },
				Outcome: func() string { return outcome(len(p.Create.Objects), len(p.Delete), p.UpdateStatus) },
			},
			Upstream: difftest.GrowthSide{
				Op: func() error { client.ClearActions(); _, err := upSync(jm, ctx, "ns/cron"); return err },
				Outcome: func() string {
					creates, deletes, status := 0, 0, false
					for _, a := range client.Actions() {
						switch {
						case a.GetVerb() == "create" && a.GetResource().Resource == "jobs":
							creates++
						case a.GetVerb() == "delete" && a.GetResource().Resource == "jobs":
							deletes++
						case a.GetVerb() == "update" && a.GetSubresource() == "status":
							_, status = a.(k8stesting.UpdateAction).GetObject().(*batchv1.CronJob)
						}
					}
					return outcome(creates, deletes, status)
				},
			},
			Close: func() { difftest.Stop(jm) },
		}
	})
}
