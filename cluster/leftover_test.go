package cluster_test

import (
	"slices"
	"testing"
	"time"

	"github.com/kubesem/kubesem/cluster"
	"github.com/kubesem/kubesem/cronjob"
	"github.com/kubesem/kubesem/podstatus"
)

// A pod with no node to run on: the world settles, with the pod left
// unscheduled; with a node it is not left over.
func TestLeftovers(t *testing.T) {
	start := time.Date(2024, 3, 1, 0, 0, 0, 0, time.UTC)
	pod := &podstatus.Pod{}
	pod.Name, pod.Namespace = "lonely", "default"
	pod.Spec.Containers = []podstatus.Container{{Name: "c", Image: "x"}}
	w, err := cluster.New(cluster.Scenario{Start: start, Objects: []any{pod}}, cluster.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := w.RunUntilSettled(time.Hour); !ok {
		t.Fatal("not settled")
	}
	l := w.Leftovers()
	if len(l.Unscheduled) != 1 || l.Unscheduled[0].Name != "lonely" || len(l.Stranded) != 0 || l.Empty() {
		t.Fatalf("leftovers = %+v", l)
	}
}

// ForceSync syncs every object, a CronJob whose Jobs did not change
// included (its wake fingerprint is forgotten, as by a restarted
// controller manager).
func TestForceSyncWakesCronJobs(t *testing.T) {
	start := time.Date(2024, 3, 1, 0, 0, 0, 0, time.UTC)
	cj := &cronjob.CronJob{}
	cj.Name, cj.Namespace, cj.UID, cj.CreationTimestamp = "cj", "default", "cj-uid", start
	cj.Spec.Schedule = "*/5 * * * *"
	w, err := cluster.New(cluster.Scenario{Start: start, Objects: []any{cj}}, cluster.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if ds := w.Sync(start); !slices.ContainsFunc(ds, func(d cluster.Decision) bool { return d.Controller == cluster.CtlCronJob }) {
		t.Fatal("first sync did not sync the CronJob")
	}
	if ds := w.Sync(start); slices.ContainsFunc(ds, func(d cluster.Decision) bool { return d.Controller == cluster.CtlCronJob }) {
		t.Fatal("a sync with nothing changed synced the CronJob")
	}
	if ds := w.ForceSync(start); !slices.ContainsFunc(ds, func(d cluster.Decision) bool { return d.Controller == cluster.CtlCronJob }) {
		t.Fatal("ForceSync did not sync the CronJob")
	}
}
