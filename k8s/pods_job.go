package k8s

import (
	"fmt"
	"slices"
	"strconv"

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kubesem/kubesem/job"
)

// JobPods returns the pods p, the Plan of job.Step on j, creates, complete:
// the Job's whole template with the batch.kubernetes.io/job-tracking
// finalizer, the Job as controller owner, generateName "<job>-"; for an
// Indexed Job also the JOB_COMPLETION_INDEX environment variable in every
// container (unless a container has one), the completion-index annotation
// and label, hostname "<job>-<index>", generateName "<job>-<index>-" (the
// job name cut to fit), and with backoffLimitPerIndex the index failure
// count annotations the plan carries over. Pod groups (workload-aware
// scheduling, an alpha gate off in v1.36.3) are not added.
//
// Source: upstream pkg/controller/job manageJob,
// addCompletionIndexEnvVariables, addCompletionIndexAnnotation,
// addCompletionIndexLabel, podGenerateNameWithIndex,
// appendJobCompletionFinalizerIfNotFound, addIndexFailureCountAnnotation;
// controller.GetPodFromTemplate, CreatePodsWithGenerateName (v1.36.3).
func JobPods(j *batchv1.Job, p job.Plan) ([]*corev1.Pod, error) {
	if j == nil {
		return nil, fmt.Errorf("k8s: JobPods: no Job")
	}
	indexed := j.Spec.CompletionMode != nil && *j.Spec.CompletionMode == batchv1.IndexedCompletion
	if indexed && int(p.Create.Count) != len(p.Create.Objects) {
		return nil, fmt.Errorf("k8s: an Indexed Job's plan creates %d pods but describes %d", p.Create.Count, len(p.Create.Objects))
	}
	tmpl := j.Spec.Template.DeepCopy()
	if indexed {
		for _, cs := range [][]corev1.Container{tmpl.Spec.InitContainers, tmpl.Spec.Containers} {
			for i := range cs {
				addIndexEnv(&cs[i])
			}
		}
	}
	if !slices.Contains(tmpl.Finalizers, batchv1.JobTrackingFinalizer) {
		tmpl.Finalizers = append(tmpl.Finalizers, batchv1.JobTrackingFinalizer)
	}
	ref := *metav1.NewControllerRef(j, batchv1.SchemeGroupVersion.WithKind("Job"))
	out := make([]*corev1.Pod, 0, p.Create.Count)
	if !indexed {
		for range p.Create.Count {
			out = append(out, newTemplatePod(tmpl, j.Namespace, j.Name, ref))
		}
		return out, nil
	}
	for _, np := range p.Create.Objects {
		pod := newTemplatePod(tmpl, j.Namespace, j.Name, ref)
		idx := strconv.Itoa(np.Index)
		pod.Annotations[batchv1.JobCompletionIndexAnnotation] = idx
		pod.Labels[batchv1.JobCompletionIndexAnnotation] = idx
		pod.Spec.Hostname = j.Name + "-" + idx
		pod.GenerateName = indexGenerateName(j.Name, np.Index)
		if np.IndexFailureCount != nil {
			pod.Annotations[batchv1.JobIndexFailureCountAnnotation] = strconv.Itoa(int(*np.IndexFailureCount))
		}
		if np.IndexIgnoredFailureCount != nil {
			pod.Annotations[batchv1.JobIndexIgnoredFailureCountAnnotation] = strconv.Itoa(int(*np.IndexIgnoredFailureCount))
		}
		out = append(out, pod)
	}
	return out, nil
}

// addIndexEnv adds JOB_COMPLETION_INDEX, read from the completion-index
// label, unless c already has a variable of that name.
func addIndexEnv(c *corev1.Container) {
	for _, v := range c.Env {
		if v.Name == "JOB_COMPLETION_INDEX" {
			return
		}
	}
	c.Env = append(c.Env, corev1.EnvVar{Name: "JOB_COMPLETION_INDEX", ValueFrom: &corev1.EnvVarSource{
		FieldRef: &corev1.ObjectFieldSelector{FieldPath: "metadata.labels['" + batchv1.JobCompletionIndexAnnotation + "']"}}})
}

// indexGenerateName is "<job>-<index>-", the job name cut so that the
// prefix fits the 58 characters a generated name's prefix may have.
func indexGenerateName(jobName string, index int) string {
	suffix := "-" + strconv.Itoa(index) + "-"
	const maxPrefix = 58 // apiserver names.MaxGeneratedNameLength
	if len(jobName)+len(suffix) > maxPrefix {
		return jobName[:maxPrefix-len(suffix)] + suffix
	}
	return jobName + suffix
}
