package k8s_test

import (
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kubesem/kubesem/cronjob"
	"github.com/kubesem/kubesem/job"
	"github.com/kubesem/kubesem/k8s"
	"github.com/kubesem/kubesem/plan"
	"github.com/kubesem/kubesem/podstatus"
	"github.com/kubesem/kubesem/replicaset"
)

// The Job a CronJob starts keeps every field of the jobTemplate, modelled
// by kubesem or not; deletions and the status come along.
func TestCronJobActions(t *testing.T) {
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
	w, err := k8s.CronJobActions(cj, p)
	if err != nil {
		t.Fatal(err)
	}
	j := w.CreateJob
	if j == nil || j.Name != "report-29453820" || j.Namespace != "batch" || j.Spec.TTLSecondsAfterFinished == nil ||
		j.Spec.Template.Spec.Containers[0].Env[0].Value != "full" || j.Annotations["batch.kubernetes.io/cronjob-scheduled-timestamp"] != "2026-01-01T01:00:00Z" ||
		j.OwnerReferences[0].UID != "cj-uid" || w.Status == nil || len(w.Status.Active) != 1 {
		t.Errorf("writes %+v, job %+v", w, j)
	}
	if _, err := k8s.CronJobActions(nil, p); err == nil {
		t.Error("nil CronJob: no error")
	}
}

func TestReplicaSetActions(t *testing.T) {
	t.Parallel()
	rs := &appsv1.ReplicaSet{ObjectMeta: metav1.ObjectMeta{Name: "web-59b5d5558c", Namespace: "shop", UID: "rs-uid"},
		Spec: appsv1.ReplicaSetSpec{Template: corev1.PodTemplateSpec{ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{"app": "web"}},
			Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "c", Image: "web:1"}}}}}}
	w, err := k8s.ReplicaSetActions(rs, replicaset.Plan{Create: plan.Creation[podstatus.Pod]{Count: 2},
		Delete: []plan.Deletion{{Name: "web-old"}}, UpdateStatus: true, Status: replicaset.Status{Replicas: 2}})
	if err != nil {
		t.Fatal(err)
	}
	if len(w.CreatePods) != 2 || w.CreatePods[0].GenerateName != "web-59b5d5558c-" || w.CreatePods[1].Labels["app"] != "web" ||
		w.CreatePods[0].Namespace != "shop" || len(w.DeletePods) != 1 || w.Status == nil || w.Status.Replicas != 2 {
		t.Errorf("writes %+v", w)
	}
	w.CreatePods[0].Labels["x"] = "y"
	if rs.Spec.Template.Labels["x"] != "" || w.CreatePods[1].Labels["x"] != "" {
		t.Error("pods share maps with the template or each other")
	}
}

// An Indexed Job's pods carry their index four ways (annotation, label,
// hostname, generateName) and read it from JOB_COMPLETION_INDEX; a long
// name is cut so the generated name fits.
func TestJobPods(t *testing.T) {
	t.Parallel()
	mode := batchv1.IndexedCompletion
	name := "a-very-long-job-name-that-goes-on-and-on-past-the-limit-x"
	j := &batchv1.Job{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "batch", UID: "job-uid"},
		Spec: batchv1.JobSpec{CompletionMode: &mode, Template: corev1.PodTemplateSpec{
			Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "c", Image: "img"}}}}}}
	fc := int32(2)
	pods, err := k8s.JobPods(j, job.Plan{Create: plan.Creation[job.NewPod]{Count: 1, Objects: []job.NewPod{{Index: 7, IndexFailureCount: &fc}}}})
	if err != nil {
		t.Fatal(err)
	}
	p := pods[0]
	if p.Annotations[batchv1.JobCompletionIndexAnnotation] != "7" || p.Labels[batchv1.JobCompletionIndexAnnotation] != "7" ||
		p.Spec.Hostname != name+"-7" || len(p.GenerateName) != 58 || p.GenerateName[55:] != "-7-" ||
		p.Annotations[batchv1.JobIndexFailureCountAnnotation] != "2" || p.Finalizers[0] != batchv1.JobTrackingFinalizer ||
		p.Spec.Containers[0].Env[0].Name != "JOB_COMPLETION_INDEX" || len(j.Spec.Template.Spec.Containers[0].Env) != 0 {
		t.Errorf("pod %+v", p)
	}
	if _, err := k8s.JobPods(j, job.Plan{Create: plan.Creation[job.NewPod]{Count: 2}}); err == nil {
		t.Error("indexed plan without objects: no error")
	}
}
