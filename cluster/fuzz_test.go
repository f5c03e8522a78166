package cluster_test

import (
	"errors"
	"testing"
	"time"

	"pgregory.net/rapid"

	"github.com/kubesem/kubesem/cluster"
	"github.com/kubesem/kubesem/field"
	"github.com/kubesem/kubesem/internal/fuzzlimit"
	"github.com/kubesem/kubesem/podstatus"
)

// checkAnyScenario: a scenario with arbitrary events (any kind, any
// target, any offset, missing parameters) is either refused by New with a
// *field.Error or runs for an hour without panicking, its trace in time
// order, within maxInstantsPerHour steps and never stuck (World.Err).
func checkAnyScenario(t *rapid.T) {
	sc := drawScenario(t)
	kinds := []cluster.EventKind{cluster.EventScale, cluster.EventImage, cluster.EventTemplate, cluster.EventPause, cluster.EventResume,
		cluster.EventCreate, cluster.EventUpdate, cluster.EventDelete, cluster.EventCordon, cluster.EventUncordon, cluster.EventDrain,
		cluster.EventEvict, cluster.EventStopNode, cluster.EventStartNode, cluster.EventFailPod, "bogus"}
	targets := []cluster.Key{{}, {Kind: cluster.KindNode, Name: "n0"}, {Kind: cluster.KindPod, Namespace: "default", Name: "x"},
		{Kind: cluster.KindDeployment, Namespace: "default", Name: "d0"}, {Kind: cluster.KindCronJob, Namespace: "default", Name: "report"},
		{Kind: cluster.KindDaemonSet, Namespace: "kube-system", Name: "agent"}, {Kind: cluster.KindJob, Namespace: "default", Name: "j"}}
	for range rapid.IntRange(0, 6).Draw(t, "extra") {
		e := cluster.Event{
			At:     time.Duration(rapid.IntRange(-5, 3600).Draw(t, "at")) * time.Second,
			Kind:   rapid.SampledFrom(kinds).Draw(t, "kind"),
			Target: rapid.SampledFrom(targets).Draw(t, "target"),
			Image:  rapid.SampledFrom([]string{"", "i:2"}).Draw(t, "image"),
		}
		if rapid.Bool().Draw(t, "replicas") {
			r := int32(rapid.IntRange(-1, 4).Draw(t, "n"))
			e.Replicas = &r
		}
		if rapid.Bool().Draw(t, "template") {
			e.Template = &podstatus.Template{Spec: podstatus.Spec{Containers: []podstatus.Container{{Name: "c", Image: "t:1"}}}}
		}
		switch rapid.IntRange(0, 3).Draw(t, "object") {
		case 1:
			e.Object = readyNode("n9")
		case 2:
			e.Object = deployment("d0", 2, "img:9")
		case 3:
			e.Object = "junk"
		}
		sc.Events = append(sc.Events, e)
	}
	w, err := cluster.New(sc, cluster.Options{})
	if err != nil {
		var fe *field.Error
		if !errors.As(err, &fe) {
			t.Fatalf("New: %v is not a *field.Error", err)
		}
		return
	}
	steps := 0
	for w.Step(t0.Add(time.Hour)) {
		steps++
		if steps > maxInstantsPerHour {
			t.Fatalf("more than %d steps in an hour (now %s)", maxInstantsPerHour, w.Now)
		}
	}
	if w.Err != nil {
		t.Fatalf("stuck: %v", w.Err)
	}
	for i := 1; i < len(w.Trace); i++ {
		if w.Trace[i].Time.Before(w.Trace[i-1].Time) {
			t.Fatalf("trace goes back in time at %d", i)
		}
	}
}

// maxInstantsPerHour bounds the steps of an hour of a drawn scenario:
// heartbeats of at most 5 nodes every 10 s and a few thousand other
// instants.
const maxInstantsPerHour = 10000

func TestAnyScenario(t *testing.T) { rapid.Check(t, checkAnyScenario) }

// FuzzScenario runs arbitrary scenarios (see checkAnyScenario).
func FuzzScenario(f *testing.F) { fuzzlimit.Rapid(f, checkAnyScenario) }
