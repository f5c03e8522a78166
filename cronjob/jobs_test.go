package cronjob_test

import (
	"testing"
	"time"

	"github.com/kubesem/kubesem/cronjob"
	"github.com/kubesem/kubesem/job"
	"github.com/kubesem/kubesem/meta"
)

func TestJobName(t *testing.T) {
	t.Parallel()
	at := time.Date(2016, 5, 19, 10, 0, 0, 0, time.UTC)
	if got := cronjob.JobName("mycronjob", at); got != "mycronjob-24394200" {
		t.Errorf("JobName = %q; want mycronjob-24394200 (minutes since the epoch)", got)
	}
	if got := cronjob.JobName("c", at.Add(59*time.Second)); got != "c-24394200" {
		t.Errorf("JobName(59s later) = %q; want the same minute", got)
	}
}

func TestJobFromTemplate(t *testing.T) {
	t.Parallel()
	tz := "Asia/Tokyo"
	cj := &cronjob.CronJob{ObjectMeta: meta.ObjectMeta{Name: "hello", Namespace: "ns", UID: "cj"}}
	cj.Spec.TimeZone = &tz
	cj.Spec.JobTemplate.Labels = map[string]string{"a": "b"}
	at := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	j, err := cronjob.JobFromTemplate(cj, at, cronjob.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if j.Name != cronjob.JobName("hello", at) || j.Namespace != "ns" || j.Labels["a"] != "b" || !j.IsControlledBy("cj") {
		t.Errorf("JobFromTemplate = %+v; want hello-<minutes> in ns, labelled, controlled by the CronJob", j.ObjectMeta)
	}
	if got := j.Annotations[cronjob.ScheduledTimestampAnnotation]; got != "2026-01-01T09:00:00+09:00" {
		t.Errorf("scheduled timestamp = %q; want the start time in Asia/Tokyo", got)
	}
	bad := "Mars/Olympus"
	cj.Spec.TimeZone = &bad
	if _, err := cronjob.JobFromTemplate(cj, at, cronjob.Options{}); err == nil {
		t.Error("JobFromTemplate(unknown zone) = nil error")
	}
}

func TestByStartTime(t *testing.T) {
	t.Parallel()
	at := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	mk := func(name string, start *time.Time) *job.Job {
		return &job.Job{ObjectMeta: meta.ObjectMeta{Name: name}, Status: job.Status{StartTime: start}}
	}
	later := at.Add(time.Hour)
	got := cronjob.ByStartTime([]*job.Job{mk("none", nil), mk("late", &later), mk("b", &at), mk("a", &at)})
	want := []string{"a", "b", "late", "none"}
	for i, j := range got {
		if j.Name != want[i] {
			t.Fatalf("ByStartTime = %v; want %v (start time, then name; unstarted last)", names(got), want)
		}
	}
}

func names(jobs []*job.Job) []string {
	out := make([]string, len(jobs))
	for i, j := range jobs {
		out[i] = j.Name
	}
	return out
}
