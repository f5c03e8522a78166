package cronjob_test

import (
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/kubesem/kubesem/cronjob"
	"github.com/kubesem/kubesem/field"
	"github.com/kubesem/kubesem/job"
	"github.com/kubesem/kubesem/meta"
)

// TestWritesReplace: Replace deletes the active Job (background
// propagation), creates the new one (controlled by the CronJob, blocking
// its deletion) and updates the status, in that order; the created Job is
// a copy.
func TestWritesReplace(t *testing.T) {
	t.Parallel()
	created := time.Date(2026, 1, 1, 8, 0, 0, 0, time.UTC)
	now := created.Add(90 * time.Second)
	running := &job.Job{ObjectMeta: meta.ObjectMeta{Name: "hello-old", Namespace: "default", UID: "old"}}
	cj, _ := everyMinute(created)
	cj.Spec.ConcurrencyPolicy = cronjob.Replace
	cj.Status.Active = []cronjob.ObjectReference{{Name: "hello-old", Namespace: "default", UID: "old"}}
	p, err := cronjob.Step(cj, []*job.Job{running}, now, cronjob.Options{})
	if err != nil {
		t.Fatal(err)
	}
	ws, err := p.Writes(cj, []*job.Job{running})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, w := range ws {
		got = append(got, string(w.Verb)+" "+w.Resource+"/"+w.Subresource+" "+w.Name+" "+w.PropagationPolicy)
	}
	want := []string{"delete jobs/ hello-old Background", "create jobs/ " + p.Job().Name + " ", "update cronjobs/status " + cj.Name + " "}
	if !slices.Equal(got, want) {
		t.Fatalf("Writes = %q; want %q", got, want)
	}
	j := ws[1].Object.(*job.Job)
	if ref := j.ControllerRef(); ref == nil || ref.Kind != "CronJob" || ref.BlockOwnerDeletion == nil || !*ref.BlockOwnerDeletion {
		t.Errorf("created Job owner = %+v", j.OwnerReferences)
	}
	if j == p.Job() {
		t.Error("the created Job aliases the Plan's")
	}
	if _, err := p.Writes(cj, nil); !errors.Is(err, field.ErrInvalid) {
		t.Errorf("Writes without the replaced Job: %v; want ErrInvalid", err)
	}
}
