package cluster_test

import (
	"testing"
	"time"

	"github.com/kubesem/kubesem/cluster"
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
