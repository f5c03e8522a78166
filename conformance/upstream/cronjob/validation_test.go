package cronjob_test

import (
	"strings"
	"testing"

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	utilfield "k8s.io/apimachinery/pkg/util/validation/field"
	"k8s.io/kubernetes/pkg/api/legacyscheme"
	"k8s.io/kubernetes/pkg/apis/batch"
	_ "k8s.io/kubernetes/pkg/apis/batch/install"
	batchvalidation "k8s.io/kubernetes/pkg/apis/batch/validation"
	apivalidation "k8s.io/kubernetes/pkg/apis/core/validation"
	"pgregory.net/rapid"

	"github.com/kubesem/kubesem/conformance/upstream/internal/difftest"
	kcronjob "github.com/kubesem/kubesem/cronjob"
	"github.com/kubesem/kubesem/meta"
)

// validationCronJob draws a CronJob whose modelled fields sit at and around the
// limits of API validation; its job template is a fixed valid one.
func validationCronJob(t *rapid.T) *kcronjob.CronJob {
	cj := &kcronjob.CronJob{ObjectMeta: meta.ObjectMeta{Namespace: "default"}}
	cj.Name = rapid.SampledFrom([]string{"hello", strings.Repeat("a", 52), strings.Repeat("a", 53)}).Draw(t, "name")
	cj.Spec.Schedule = rapid.SampledFrom([]string{
		"* * * * *", "0 3 * * *", "*/15 9-17 * * 1-5", "@hourly", "@yearly", "@every 5m", "@every 0s",
		"TZ=UTC 0 3 * * *", "CRON_TZ=Asia/Tokyo 0 3 * * *", "61 * * * *", "0 0 31 2 *", "*/0 * * * *",
		"0 0 * * 8", "", "a b c d e", "0 3 * * * *", "0 3 * *", "TZ=UTC", "@reboot",
	}).Draw(t, "schedule")
	if rapid.Bool().Draw(t, "hasZone") {
		z := rapid.SampledFrom([]string{"", "UTC", "Local", "local", "Asia/Tokyo", "America/New_York", "Etc/GMT+5",
			"Mars/Olympus", "../etc/passwd", "-Foo/Bar", "asia/tokyo"}).Draw(t, "zone")
		cj.Spec.TimeZone = &z
	}
	if rapid.Bool().Draw(t, "hasDeadline") {
		d := rapid.SampledFrom([]int64{-1, 0, 200}).Draw(t, "deadline")
		cj.Spec.StartingDeadlineSeconds = &d
	}
	cj.Spec.ConcurrencyPolicy = rapid.SampledFrom([]kcronjob.ConcurrencyPolicy{"", kcronjob.Allow, kcronjob.Forbid, kcronjob.Replace, "Sometimes"}).Draw(t, "policy")
	cj.Spec.SuccessfulJobsHistoryLimit = difftest.DrawInt32Ptr(t, "okLimit", -1, 0, 3)
	cj.Spec.FailedJobsHistoryLimit = difftest.DrawInt32Ptr(t, "failLimit", -1, 0, 1)
	return cj
}

// validationUpstream writes cj as a batch/v1 CronJob, defaults, converts and
// validates it for create.
func validationUpstream(t *rapid.T, cj *kcronjob.CronJob) utilfield.ErrorList {
	u := &batchv1.CronJob{
		ObjectMeta: metav1.ObjectMeta{Name: cj.Name, Namespace: cj.Namespace},
		Spec: batchv1.CronJobSpec{
			Schedule: cj.Spec.Schedule, TimeZone: cj.Spec.TimeZone, StartingDeadlineSeconds: cj.Spec.StartingDeadlineSeconds,
			ConcurrencyPolicy:          batchv1.ConcurrencyPolicy(cj.Spec.ConcurrencyPolicy),
			SuccessfulJobsHistoryLimit: cj.Spec.SuccessfulJobsHistoryLimit, FailedJobsHistoryLimit: cj.Spec.FailedJobsHistoryLimit,
			JobTemplate: batchv1.JobTemplateSpec{Spec: batchv1.JobSpec{Template: corev1.PodTemplateSpec{Spec: corev1.PodSpec{
				RestartPolicy: corev1.RestartPolicyNever, Containers: []corev1.Container{{Name: "hello", Image: "busybox"}}}}}},
		},
	}
	legacyscheme.Scheme.Default(u)
	var internal batch.CronJob
	if err := legacyscheme.Scheme.Convert(u, &internal, nil); err != nil {
		t.Fatalf("convert: %v", err)
	}
	return batchvalidation.ValidateCronJobCreate(&internal, apivalidation.PodValidationOptions{})
}

// TestCronJobValidationParity: cronjob.Validate accepts exactly the CronJobs
// v1.36.3 accepts on create after batch/v1 defaulting, and the path of its
// error is one of upstream's.
func TestCronJobValidationParity(t *testing.T) {
	counts := map[string]int{}
	none := func(error) string { return "" }
	rapid.Check(t, func(t *rapid.T) {
		cj := validationCronJob(t)
		difftest.Verdict(t, "CronJob", kcronjob.Validate(cj, nil), validationUpstream(t, cj), none, counts)
	})
	difftest.LogCounts(t, counts)
}
