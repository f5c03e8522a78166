package live

import (
	"context"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/kubesem/kubesem/cronjob"
	"github.com/kubesem/kubesem/job"
	"github.com/kubesem/kubesem/k8s"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	apiequality "k8s.io/apimachinery/pkg/api/equality"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/watch"
)

func cronJobStep(t *testing.T, cj *batchv1.CronJob, jobs []*batchv1.Job, now time.Time) (cronjob.Plan, k8s.CronJobWrites) {
	t.Helper()
	kc, err := k8s.FromCronJob(cj)
	check(t, err)
	kj, err := k8s.FromJobs(jobs)
	check(t, err)
	if kj == nil {
		kj = []*job.Job{}
	}
	p, err := cronjob.Step(kc, kj, now, cronjob.Options{})
	check(t, err)
	w, err := k8s.ToCronJobWrites(cj, p)
	check(t, err)
	return p, w
}

func jobs(t *testing.T, ns string) []*batchv1.Job {
	t.Helper()
	l, err := client.BatchV1().Jobs(ns).List(context.Background(), metav1.ListOptions{})
	check(t, err)
	var out []*batchv1.Job
	for i := range l.Items {
		out = append(out, &l.Items[i])
	}
	return out
}

// TestCronJobFires creates the CronJob hello ("* * * * *": the controller
// reads the real clock, so the test waits for the next minute, at most 60 s,
// while the other tests run) and checks that kubesem, fed the CronJob as the
// server returned it, predicts that nothing is due before the minute and the
// Job the real controller starts at it (name, labels, annotations with the
// scheduled time, owner, pod template), the status it then writes
// (lastScheduleTime, active), and that once the Job has succeeded and the
// controller has recorded it kubesem has nothing left to write.
func TestCronJobFires(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	ns := namespace(t)
	sh := startShadow(t, ns) // shadow mode alongside: zero mismatches
	wj, err := client.BatchV1().Jobs(ns).Watch(ctx, metav1.ListOptions{})
	jobWatch := record(t, wj, err)

	cj := &batchv1.CronJob{
		ObjectMeta: metav1.ObjectMeta{Name: "hello"},
		Spec: batchv1.CronJobSpec{
			Schedule: "* * * * *",
			JobTemplate: batchv1.JobTemplateSpec{Spec: batchv1.JobSpec{Template: corev1.PodTemplateSpec{
				ObjectMeta: metav1.ObjectMeta{Annotations: map[string]string{exitAnnotation: "0"}},
				Spec: corev1.PodSpec{
					RestartPolicy: corev1.RestartPolicyOnFailure,
					Containers: []corev1.Container{{
						Name: "hello", Image: "busybox:1.28", ImagePullPolicy: corev1.PullIfNotPresent,
						Command: []string{"/bin/sh", "-c", "date; echo Hello from the Kubernetes cluster"},
					}},
				},
			}}},
		},
	}
	var created *batchv1.CronJob
	out := userWrite(t, ns, "creation", func() {
		created, err = client.BatchV1().CronJobs(ns).Create(ctx, cj, metav1.CreateOptions{})
		check(t, err)
	})
	if !strings.Contains(out, "CronJob "+ns+"/hello") {
		t.Errorf("kubectl kubesem explain does not show the CronJob:\n%s", out)
	}
	next := created.CreationTimestamp.Time.Truncate(time.Minute).Add(time.Minute)
	// Asked about the minute, the plugin names the Job the controller will
	// start then.
	_, plugin := kubesemBinaries(t)
	atNext := runKubesem(t, nil, plugin, "explain", "--kubeconfig", kubeconfig(t, ns), "--now", next.Add(time.Second).UTC().Format(time.RFC3339))
	pluginJobs := predictedNames(atNext)["Job"]
	if now := time.Now(); now.Before(next) {
		p, _ := cronJobStep(t, created, nil, now)
		if p.Create.Count != 0 {
			t.Errorf("before %v kubesem starts a Job: %+v", next, p.Create)
		}
		if len(p.Requeue) != 1 || !now.Add(p.Requeue[0].After).Truncate(time.Second).Equal(next) {
			t.Errorf("kubesem requeues %+v from %v, want at %v (+100ms)", p.Requeue, now, next)
		}
	}
	// The controller's sync at the minute (it requeues for just after it).
	p, w := cronJobStep(t, created, nil, next.Add(100*time.Millisecond))
	if p.Create.Count != 1 || w.CreateJob == nil || !p.ScheduledTime.Equal(next) {
		t.Fatalf("at %v kubesem starts no Job: %+v", next, p)
	}
	want := w.CreateJob

	var got *batchv1.Job
	deadline := time.Until(next) + 15*time.Second
	for got == nil {
		jobWatch.mu.Lock()
		for _, ev := range jobWatch.events {
			if ev.Type == watch.Added {
				got = ev.Object.(*batchv1.Job)
				break
			}
		}
		jobWatch.mu.Unlock()
		if got == nil {
			if deadline -= 100 * time.Millisecond; deadline < 0 {
				t.Fatalf("the controller started no Job by %v", next.Add(15*time.Second))
			}
			time.Sleep(100 * time.Millisecond)
		}
	}
	if got.Name != want.Name {
		t.Errorf("controller started Job %s, kubesem predicted %s", got.Name, want.Name)
	}
	if len(pluginJobs) != 1 || pluginJobs[0] != got.Name {
		t.Errorf("controller started Job %s, kubectl kubesem explain --now %v predicted %v:\n%s", got.Name, next.Add(time.Second), pluginJobs, atNext)
	}
	// The API server adds the controller-uid and job-name labels to a Job;
	// the controller writes the rest.
	gotLabels := map[string]string{}
	for k, v := range got.Labels {
		if k != "controller-uid" && k != "job-name" && k != batchv1.ControllerUidLabel && k != batchv1.JobNameLabel {
			gotLabels[k] = v
		}
	}
	if len(gotLabels)+len(want.Labels) > 0 && !reflect.DeepEqual(gotLabels, want.Labels) {
		t.Errorf("Job %s labels %v, predicted %v", got.Name, got.Labels, want.Labels)
	}
	if !reflect.DeepEqual(got.Annotations, want.Annotations) {
		t.Errorf("Job %s annotations %v, predicted %v", got.Name, got.Annotations, want.Annotations)
	}
	if !apiequality.Semantic.DeepEqual(got.OwnerReferences, want.OwnerReferences) {
		t.Errorf("Job %s owners %+v, predicted %+v", got.Name, got.OwnerReferences, want.OwnerReferences)
	}
	if !apiequality.Semantic.DeepEqual(got.Spec.Template.Spec, want.Spec.Template.Spec) {
		t.Errorf("Job %s pod spec\n%+v\npredicted\n%+v", got.Name, got.Spec.Template.Spec, want.Spec.Template.Spec)
	}

	// The status the controller writes with the Job: lastScheduleTime and
	// the Job active; then, once the Job has succeeded, lastSuccessfulTime,
	// and nothing left for kubesem to write.
	eventually(t, 20*time.Second, func() (bool, string) {
		c, err := client.BatchV1().CronJobs(ns).Get(ctx, "hello", metav1.GetOptions{})
		check(t, err)
		if c.Status.LastScheduleTime == nil || !c.Status.LastScheduleTime.Time.Equal(p.ScheduledTime) {
			return false, "lastScheduleTime " + jsonish(c.Status) + ", kubesem predicted " + p.ScheduledTime.String()
		}
		if c.Status.LastSuccessfulTime == nil {
			return false, "lastSuccessfulTime " + jsonish(c.Status)
		}
		now := time.Now()
		if now.After(next.Add(time.Minute - time.Second)) {
			return true, "" // the next start is due: the state is no longer quiet
		}
		q, _ := cronJobStep(t, c, jobs(t, ns), now)
		if q.Create.Count != 0 || len(q.Delete) != 0 || q.UpdateStatus {
			return false, "kubesem has nothing to write after the Job succeeded, but: " + jsonish(q) + "\nserver status " + jsonish(c.Status)
		}
		return true, ""
	})
	explainSettled(t, ns, "after the Job succeeded")
	sh.stop(t)
}
