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

func TestDaemonSetOnEveryNode(t *testing.T) {
	sc := cluster.Scenario{
		Start:   t0,
		Objects: []any{readyNode("node-a"), readyNode("node-b"), daemonSet("agent")},
		Events: []cluster.Event{
			{At: time.Minute, Kind: cluster.EventCreate, Object: readyNode("node-c")},
			{At: 2 * time.Minute, Kind: cluster.EventImage, Target: cluster.Key{Kind: cluster.KindDaemonSet, Namespace: "kube-system", Name: "agent"}, Image: "agent:2"},
		},
	}
	w, err := cluster.New(sc, cluster.Options{})
	if err != nil {
		t.Fatal(err)
	}
	_, ok := w.RunUntilSettled(time.Hour)
	t.Log("\n" + summary(w.Trace))
	if !ok {
		t.Fatal("not settled")
	}
	pods := w.State.Pods()
	if len(pods) != 3 {
		t.Fatalf("pods = %d, want one per node", len(pods))
	}
	for _, p := range pods {
		if p.Spec.Containers[0].Image != "agent:2" || p.Spec.NodeName == "" {
			t.Errorf("pod %s on %q runs %s", p.Name, p.Spec.NodeName, p.Spec.Containers[0].Image)
		}
	}
}
