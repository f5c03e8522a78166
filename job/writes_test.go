package job_test

import (
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/kubesem/kubesem/field"
	"github.com/kubesem/kubesem/job"
	"github.com/kubesem/kubesem/meta"
	"github.com/kubesem/kubesem/plan"
	"github.com/kubesem/kubesem/podstatus"
)

// TestWritesIndexedCreates: an Indexed job's first sync creates one pod
// per index, each from the template with the index's generateName,
// annotation, label and hostname, the tracking finalizer and the Job's
// controller reference; then it writes the status once (no finalizer to
// remove). The template is not modified.
func TestWritesIndexedCreates(t *testing.T) {
	t.Parallel()
	now := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	ix := job.Indexed
	j := &job.Job{ObjectMeta: meta.ObjectMeta{Name: "ix", Namespace: "ns", UID: "u"},
		Spec: job.Spec{Completions: ptr[int32](2), Parallelism: ptr[int32](2), CompletionMode: &ix,
			Template: podstatus.Template{ObjectMeta: meta.ObjectMeta{Labels: map[string]string{"app": "x"}}}}}
	p, err := job.Step(j, nil, job.BackoffRecord{}, now, job.Options{})
	if err != nil {
		t.Fatal(err)
	}
	ws, err := p.Writes(j, nil)
	if err != nil {
		t.Fatal(err)
	}
	var verbs []string
	for _, w := range ws {
		verbs = append(verbs, string(w.Verb)+" "+w.Resource+"/"+w.Subresource)
	}
	if want := []string{"create pods/", "create pods/", "update jobs/status"}; !slices.Equal(verbs, want) {
		t.Fatalf("Writes = %v; want %v", verbs, want)
	}
	for i, w := range ws[:2] {
		pod := w.Object.(*podstatus.Pod)
		wantGen, wantHost, ixs := []string{"ix-0-", "ix-1-"}[i], []string{"ix-0", "ix-1"}[i], []string{"0", "1"}[i]
		if pod.GenerateName != wantGen || pod.Spec.Hostname != wantHost || pod.Annotations[job.CompletionIndexAnnotation] != ixs ||
			pod.Labels[job.CompletionIndexAnnotation] != ixs || pod.Labels["app"] != "x" || !slices.Equal(pod.Finalizers, []string{job.TrackingFinalizer}) {
			t.Errorf("pod %d = %+v", i, pod.ObjectMeta)
		}
		if ref := pod.ControllerRef(); ref == nil || ref.Kind != "Job" || ref.UID != "u" || ref.BlockOwnerDeletion == nil || !*ref.BlockOwnerDeletion {
			t.Errorf("pod %d owner = %+v", i, pod.OwnerReferences)
		}
	}
	if len(j.Spec.Template.Labels) != 1 || j.Spec.Template.Finalizers != nil {
		t.Errorf("template modified: %+v", j.Spec.Template.ObjectMeta)
	}
	if st := ws[2].Object.(*job.Job).Status; st.Active != 2 {
		t.Errorf("status write active = %d; want 2", st.Active)
	}
	if evs := p.Events; len(evs) != 2 || evs[0].Reason != job.ReasonSuccessfulCreate {
		t.Errorf("Events = %v; want two SuccessfulCreate", evs)
	}
}

// TestWritesRelease: a finished pod is counted in two status writes
// around the patch removing its finalizer; the patched pod is a copy.
func TestWritesRelease(t *testing.T) {
	t.Parallel()
	now := time.Date(2024, 1, 1, 0, 10, 0, 0, time.UTC)
	start := now.Add(-time.Minute)
	j := &job.Job{ObjectMeta: meta.ObjectMeta{Name: "pi", Namespace: "default", UID: "j"}, Status: job.Status{StartTime: &start}}
	done := &podstatus.Pod{ObjectMeta: meta.ObjectMeta{Name: "pi-1", Namespace: "default", UID: "p1", Finalizers: []string{job.TrackingFinalizer}},
		Status: podstatus.Status{Phase: podstatus.Succeeded}}
	p, err := job.Step(j, []*podstatus.Pod{done}, job.BackoffRecord{}, now, job.Options{})
	if err != nil {
		t.Fatal(err)
	}
	ws, err := p.Writes(j, []*podstatus.Pod{done})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, w := range ws {
		got = append(got, string(w.Verb)+" "+w.Name+" "+string(w.Reason))
	}
	want := []string{"update pi FlushStatus", "patch pi-1 RemoveTrackingFinalizer", "update pi StatusUpdate"}
	if !slices.Equal(got, want) {
		t.Fatalf("Writes = %v; want %v", got, want)
	}
	if pod := ws[1].Object.(*podstatus.Pod); len(pod.Finalizers) != 0 || len(done.Finalizers) != 1 {
		t.Errorf("patched pod finalizers %v, input %v; want none and the input unchanged", pod.Finalizers, done.Finalizers)
	}
	if len(p.StatusWrites()) != 2 {
		t.Errorf("StatusWrites = %d; want 2", len(p.StatusWrites()))
	}
	if evs := p.Events; len(evs) != 1 || evs[0].Reason != job.ReasonCompleted || evs[0].Type != plan.Normal {
		t.Errorf("Events = %v; want Completed", evs)
	}
	if _, err := p.Writes(j, nil); !errors.Is(err, field.ErrInvalid) {
		t.Errorf("Writes without the released pod: %v; want ErrInvalid", err)
	}
	if ws, err := (job.Plan{Outcome: job.ReasonAlreadyFinished}).Writes(j, nil); err != nil || ws != nil {
		t.Errorf("Writes(AlreadyFinished) = %v, %v; want nothing", ws, err)
	}
}
