package live

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/kubesem/kubesem/job"
	"github.com/kubesem/kubesem/k8s"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/utils/ptr"
)

func jobStep(t *testing.T, j *batchv1.Job, ps []*corev1.Pod) (job.Plan, []*corev1.Pod) {
	t.Helper()
	kj, err := k8s.FromJob(j)
	check(t, err)
	kp, err := k8s.FromPods(ps)
	check(t, err)
	p, err := job.Step(kj, kp, job.BackoffRecord{}, time.Now(), job.Options{})
	check(t, err)
	created, err := k8s.JobPods(j, p)
	check(t, err)
	return p, created
}

// jobFinished waits until the Job has the condition cond and kubesem, fed
// the objects read back from the server, has nothing left to write.
func jobFinished(t *testing.T, ns, name string, cond batchv1.JobConditionType) *batchv1.Job {
	t.Helper()
	var j *batchv1.Job
	eventually(t, 20*time.Second, func() (bool, string) {
		var err error
		j, err = client.BatchV1().Jobs(ns).Get(context.Background(), name, metav1.GetOptions{})
		check(t, err)
		done := false
		for _, c := range j.Status.Conditions {
			if c.Type == cond && c.Status == corev1.ConditionTrue {
				done = true
			}
		}
		if !done {
			return false, "Job condition " + string(cond) + ": " + jsonish(j.Status)
		}
		p, _ := jobStep(t, j, pods(t, ns))
		if p.Create.Count != 0 || len(p.Delete) != 0 || len(p.RemoveFinalizers) != 0 || p.UpdateStatus {
			return false, "kubesem has nothing to write on the finished Job, but: " + jsonish(p) + "\nserver status " + jsonish(j.Status)
		}
		return true, ""
	})
	return j
}

// TestJob runs an Indexed Job whose pods succeed and a Job whose pod
// failure policy fails it on exit code 42, and checks that kubesem, fed the
// Job as the server returned it, predicts the pods the real controller
// creates first (completion index, hostname, environment, labels,
// annotations, finalizer, owner), and that once the controller has
// finished the Job (Complete; Failed with reason PodFailurePolicy)
// kubesem has nothing left to write.
func TestJob(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	ns := namespace(t)
	sh := startShadow(t, ns) // shadow mode alongside: zero mismatches
	wp, err := client.CoreV1().Pods(ns).Watch(ctx, metav1.ListOptions{})
	podWatch := record(t, wp, err)

	indexed := &batchv1.Job{
		ObjectMeta: metav1.ObjectMeta{Name: "indexed"},
		Spec: batchv1.JobSpec{
			Completions:    ptr.To[int32](3),
			Parallelism:    ptr.To[int32](2),
			CompletionMode: ptr.To(batchv1.IndexedCompletion),
			Template: corev1.PodTemplateSpec{
				ObjectMeta: metav1.ObjectMeta{Annotations: map[string]string{exitAnnotation: "0"}},
				Spec: corev1.PodSpec{
					RestartPolicy: corev1.RestartPolicyNever,
					Containers:    []corev1.Container{{Name: "work", Image: "busybox:1.36", Command: []string{"true"}}},
				},
			},
		},
	}
	var created *batchv1.Job
	out := userWrite(t, ns, "Indexed Job", func() {
		created, err = client.BatchV1().Jobs(ns).Create(ctx, indexed, metav1.CreateOptions{})
		check(t, err)
	})
	if !strings.Contains(out, "Job "+ns+"/indexed") {
		t.Errorf("kubectl kubesem explain does not show the Job indexed:\n%s", out)
	}
	p, want := jobStep(t, created, nil)
	if p.Create.Count != 2 || len(want) != 2 {
		t.Fatalf("creation: kubesem creates %+v", p.Create)
	}
	byIndex := map[string]*corev1.Pod{}
	for _, pod := range want {
		byIndex[pod.Annotations[batchv1.JobCompletionIndexAnnotation]] = pod
	}
	seen := 0
	for range want {
		ev, i := podWatch.find(t, seen, "a Job pod's creation", func(ev watch.Event) bool { return ev.Type == watch.Added })
		seen = i + 1
		got := ev.Object.(*corev1.Pod)
		w := byIndex[got.Annotations[batchv1.JobCompletionIndexAnnotation]]
		if w == nil {
			t.Fatalf("controller created pod %s with index %q; kubesem predicted indexes %v", got.Name, got.Annotations[batchv1.JobCompletionIndexAnnotation], keys(byIndex))
		}
		samePod(t, got, w)
		if !equalStrings(got.Finalizers, w.Finalizers) {
			t.Errorf("pod %s finalizers %v, predicted %v", got.Name, got.Finalizers, w.Finalizers)
		}
		delete(byIndex, got.Annotations[batchv1.JobCompletionIndexAnnotation])
	}
	j := jobFinished(t, ns, "indexed", batchv1.JobComplete)
	if j.Status.Succeeded != 3 || j.Status.CompletedIndexes != "0-2" {
		t.Errorf("finished Job: succeeded %d, completed indexes %q", j.Status.Succeeded, j.Status.CompletedIndexes)
	}

	failing := &batchv1.Job{
		ObjectMeta: metav1.ObjectMeta{Name: "policy"},
		Spec: batchv1.JobSpec{
			BackoffLimit: ptr.To[int32](6),
			PodFailurePolicy: &batchv1.PodFailurePolicy{Rules: []batchv1.PodFailurePolicyRule{{
				Action:      batchv1.PodFailurePolicyActionFailJob,
				OnExitCodes: &batchv1.PodFailurePolicyOnExitCodesRequirement{Operator: batchv1.PodFailurePolicyOnExitCodesOpIn, Values: []int32{42}},
			}}},
			Template: corev1.PodTemplateSpec{
				ObjectMeta: metav1.ObjectMeta{Annotations: map[string]string{exitAnnotation: "42"}},
				Spec: corev1.PodSpec{
					RestartPolicy: corev1.RestartPolicyNever,
					Containers:    []corev1.Container{{Name: "work", Image: "busybox:1.36", Command: []string{"false"}}},
				},
			},
		},
	}
	out = userWrite(t, ns, "Job with a pod failure policy", func() {
		_, err = client.BatchV1().Jobs(ns).Create(ctx, failing, metav1.CreateOptions{})
		check(t, err)
	})
	if !strings.Contains(out, "Job "+ns+"/policy") {
		t.Errorf("kubectl kubesem explain does not show the Job policy:\n%s", out)
	}
	j = jobFinished(t, ns, "policy", batchv1.JobFailed)
	for _, c := range j.Status.Conditions {
		if c.Type == batchv1.JobFailed && c.Reason != batchv1.JobReasonPodFailurePolicy {
			t.Errorf("Job failed with reason %s, want PodFailurePolicy", c.Reason)
		}
	}
	if j.Status.Failed != 1 {
		t.Errorf("Job failed with %d failed pods, want 1", j.Status.Failed)
	}
	explainSettled(t, ns, "both Jobs finished")
	sh.stop(t)
}

func equalStrings(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
