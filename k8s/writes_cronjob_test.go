package k8s_test

import (
	"testing"
	"time"

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kubesem/kubesem/cronjob"
	"github.com/kubesem/kubesem/k8s"
)

// The Job a CronJob starts keeps every field of the jobTemplate, modelled
// by kubesem or not; deletions and the status come along.
func TestToCronJobWrites(t *testing.T) {
	t.Parallel()
	ttl := int32(60)
	cj := &batchv1.CronJob{
		ObjectMeta: metav1.ObjectMeta{Name: "report", Namespace: "batch", UID: "cj-uid", CreationTimestamp: metav1.NewTime(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))},
		Spec: batchv1.CronJobSpec{Schedule: "0 * * * *", JobTemplate: batchv1.JobTemplateSpec{Spec: batchv1.JobSpec{
			TTLSecondsAfterFinished: &ttl,
			Template: corev1.PodTemplateSpec{Spec: corev1.PodSpec{RestartPolicy: corev1.RestartPolicyNever,
				Containers: []corev1.Container{{Name: "c", Image: "report:1", Env: []corev1.EnvVar{{Name: "MODE", Value: "full"}}}}}},
		}}},
	}
	kc, err := k8s.FromCronJob(cj)
	if err != nil {
		t.Fatal(err)
	}
	p, err := cronjob.Step(kc, nil, time.Date(2026, 1, 1, 1, 0, 30, 0, time.UTC), cronjob.Options{})
	if err != nil {
		t.Fatal(err)
	}
	w, err := k8s.ToCronJobWrites(cj, p)
	if err != nil {
		t.Fatal(err)
	}
	j := w.CreateJob
	if j == nil || j.Name != "report-29453820" || j.Namespace != "batch" || j.Spec.TTLSecondsAfterFinished == nil ||
		j.Spec.Template.Spec.Containers[0].Env[0].Value != "full" || j.Annotations["batch.kubernetes.io/cronjob-scheduled-timestamp"] != "2026-01-01T01:00:00Z" ||
		j.OwnerReferences[0].UID != "cj-uid" || w.Status == nil || len(w.Status.Active) != 1 {
		t.Errorf("writes %+v, job %+v", w, j)
	}
	if _, err := k8s.ToCronJobWrites(nil, p); err == nil {
		t.Error("nil CronJob: no error")
	}
}
