package cluster_test

import (
	"testing"
	"time"

	"github.com/kubesem/kubesem/cluster"
	"github.com/kubesem/kubesem/meta"
)

func TestRollingUpdateWithNodeOutage(t *testing.T) {
	w, err := cluster.New(rollingScenario(), cluster.Options{})
	if err != nil {
		t.Fatal(err)
	}
	at, ok := w.RunUntilSettled(2 * time.Hour)
	t.Logf("settled=%v at %v, %d trace entries", ok, at.Sub(t0), len(w.Trace))
	t.Log("\n" + summary(w.Trace))
	if !ok {
		t.Fatal("did not settle")
	}
}

func TestCronJobRunsJobs(t *testing.T) {
	run := 30 * time.Second
	sc := cluster.Scenario{
		Start:   t0,
		Objects: []any{readyNode("node-a"), cronJob("report", "*/5 * * * *")},
		Pods:    []cluster.PodBehavior{{Selector: &meta.LabelSelector{MatchLabels: map[string]string{"task": "report"}}, RunFor: &run}},
	}
	w, err := cluster.New(sc, cluster.Options{})
	if err != nil {
		t.Fatal(err)
	}
	w.Run(t0.Add(16 * time.Minute))
	t.Log("\n" + summary(w.Trace))
	jobs := w.State.Jobs()
	if len(jobs) != 3 {
		t.Fatalf("jobs = %d, want 3 (at 5m, 10m, 15m)", len(jobs))
	}
	for _, j := range jobs[:2] {
		if !j.IsSucceeded() {
			t.Errorf("job %s not succeeded: %+v", j.Name, j.Status)
		}
	}
}
