package k8s_test

import (
	"testing"

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kubesem/kubesem/job"
	"github.com/kubesem/kubesem/k8s"
	"github.com/kubesem/kubesem/plan"
)

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
