package cronjob_test

import (
	"testing"
	"time"
	_ "unsafe"

	"github.com/google/go-cmp/cmp"
	batchv1 "k8s.io/api/batch/v1"
	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"
	"pgregory.net/rapid"

	"github.com/kubesem/kubesem/cronjob"
	"github.com/kubesem/kubesem/k8s"
)

//go:linkname upJobFromTemplate k8s.io/kubernetes/pkg/controller/cronjob.getJobFromTemplate2
func upJobFromTemplate(cj *batchv1.CronJob, scheduledTime time.Time) (*batchv1.Job, error)

// TestAdapterCronJobJobDifferential: the Job k8s.ToCronJobWrites writes for
// cronjob.Step's plan is upstream's getJobFromTemplate2 for the same start
// time — name, labels, annotations (the scheduled timestamp in the
// CronJob's zone), creation time, controller reference and the whole
// jobTemplate spec, fields kubesem does not model included.
func TestAdapterCronJobJobDifferential(t *testing.T) {
	base := time.Date(2026, 3, 8, 6, 0, 0, 0, time.UTC)
	rapid.Check(t, func(t *rapid.T) {
		cj := &batchv1.CronJob{
			ObjectMeta: metav1.ObjectMeta{Name: "report", Namespace: "batch", UID: "cj-uid", CreationTimestamp: metav1.NewTime(base.Add(-48 * time.Hour))},
			Spec: batchv1.CronJobSpec{
				Schedule:          rapid.SampledFrom([]string{"*/5 * * * *", "30 2 * * *", "0 * * * *"}).Draw(t, "schedule"),
				ConcurrencyPolicy: batchv1.AllowConcurrent,
				JobTemplate: batchv1.JobTemplateSpec{Spec: batchv1.JobSpec{
					Template: v1.PodTemplateSpec{Spec: v1.PodSpec{RestartPolicy: v1.RestartPolicyOnFailure,
						Containers: []v1.Container{{Name: "c", Image: "report:1", Env: []v1.EnvVar{{Name: "MODE", Value: "full"}}}}}},
				}},
			},
		}
		if rapid.Bool().Draw(t, "zone") {
			cj.Spec.TimeZone = ptr.To(rapid.SampledFrom([]string{"America/New_York", "Asia/Kolkata", "Etc/UTC"}).Draw(t, "tz"))
		}
		if rapid.Bool().Draw(t, "labels") {
			cj.Spec.JobTemplate.Labels = map[string]string{"team": "data"}
		}
		if rapid.Bool().Draw(t, "annotations") {
			cj.Spec.JobTemplate.Annotations = map[string]string{"a": "1"}
		}
		js := &cj.Spec.JobTemplate.Spec
		if rapid.Bool().Draw(t, "ttl") {
			js.TTLSecondsAfterFinished = ptr.To[int32](100)
		}
		if rapid.Bool().Draw(t, "replacement") {
			js.PodReplacementPolicy = ptr.To(batchv1.Failed)
		}
		if rapid.Bool().Draw(t, "backoff") {
			js.BackoffLimit = ptr.To[int32](2)
		}
		now := base.Add(time.Duration(rapid.IntRange(0, 26*60).Draw(t, "minutes")) * time.Minute)
		cj.Status.LastScheduleTime = ptr.To(metav1.NewTime(now.Add(-time.Duration(rapid.IntRange(1, 120).Draw(t, "sinceLast")) * time.Minute)))

		kc, err := k8s.FromCronJob(cj)
		if err != nil {
			t.Fatal(err)
		}
		p, err := cronjob.Step(kc, nil, now, cronjob.Options{})
		if err != nil {
			t.Fatal(err)
		}
		w, err := k8s.ToCronJobWrites(cj, p)
		if err != nil {
			t.Fatal(err)
		}
		if len(p.Create.Objects) == 0 {
			if w.CreateJob != nil {
				t.Fatalf("a Job without a creation: %v", w.CreateJob.Name)
			}
			return
		}
		want, err := upJobFromTemplate(cj, p.ScheduledTime)
		if err != nil {
			t.Fatal(err)
		}
		want.Namespace = cj.Namespace // the namespace the Job is created in
		if diff := cmp.Diff(want, w.CreateJob); diff != "" {
			t.Fatalf("job differs (-upstream +kubesem):\n%s", diff)
		}
	})
}
