package cluster_test

import (
	"reflect"
	"testing"
	"time"

	"github.com/kubesem/kubesem/cluster"
	"github.com/kubesem/kubesem/plan"
)

// TestInjectReplaysAsScenario: events injected one by one at the world's
// next due instants give the trace of the world whose scenario lists them
// from the start (what lets package check save a path as a scenario).
func TestInjectReplaysAsScenario(t *testing.T) {
	t.Parallel()
	sc := rollingScenario()
	sc.Events = nil
	w, err := cluster.New(sc, cluster.Options{})
	if err != nil {
		t.Fatal(err)
	}
	end := t0.Add(20 * time.Minute)
	var injected []cluster.Event
	inject := func(e cluster.Event) {
		at, ok := w.NextDue()
		if !ok {
			t.Fatal("nothing due")
		}
		e.At = at.Sub(w.Start)
		injected = append(injected, e)
		w.Inject(e)
	}
	steps := 0
	for i := 0; w.Step(end); i++ {
		steps++
		switch i {
		case 5:
			inject(cluster.Event{Kind: cluster.EventImage, Target: cluster.Key{Kind: cluster.KindDeployment, Namespace: "default", Name: "web"}, Image: "web:2"})
		case 9:
			inject(cluster.Event{Kind: cluster.EventStopNode, Target: cluster.Key{Kind: cluster.KindNode, Name: "node-b"}})
		}
	}
	sc.Events = injected
	r, err := cluster.New(sc, cluster.Options{})
	if err != nil {
		t.Fatal(err)
	}
	r.Run(end)
	if !reflect.DeepEqual(w.Trace, r.Trace) {
		t.Errorf("injected run and its scenario differ:\n%s\nvs\n%s", summary(w.Trace), summary(r.Trace))
	}
	if steps < 20 {
		t.Errorf("only %d steps", steps)
	}
	if !reflect.DeepEqual(w.Memory(), r.Memory()) {
		t.Error("memories differ after the same run")
	}
}

// TestInjectOrder: an injected event goes after the pending events at
// the same offset and before later ones.
func TestInjectOrder(t *testing.T) {
	t.Parallel()
	sc := rollingScenario()
	w, err := cluster.New(sc, cluster.Options{})
	if err != nil {
		t.Fatal(err)
	}
	w.Inject(cluster.Event{At: time.Minute, Kind: cluster.EventCordon, Target: cluster.Key{Kind: cluster.KindNode, Name: "node-a"}})
	var kinds []cluster.EventKind
	for _, e := range w.Memory().Events {
		kinds = append(kinds, e.Kind)
	}
	want := []cluster.EventKind{cluster.EventImage, cluster.EventCordon, cluster.EventStopNode}
	if !reflect.DeepEqual(kinds, want) {
		t.Errorf("pending events %v; want %v", kinds, want)
	}
}

// TestMemory: a clone has the same memory; a stopped node and a pending
// failure show in it.
func TestMemory(t *testing.T) {
	t.Parallel()
	w, err := cluster.New(rollingScenario(), cluster.Options{})
	if err != nil {
		t.Fatal(err)
	}
	w.Run(t0.Add(3 * time.Minute))
	c := w.Clone()
	if !reflect.DeepEqual(w.Memory(), c.Memory()) {
		t.Error("a clone's memory differs")
	}
	m := c.Memory()
	if !m.Nodes["node-c"].Stopped || m.Nodes["node-a"].Stopped {
		t.Errorf("nodes %+v; want node-c stopped (at 1m05s), node-a running", m.Nodes)
	}
	if len(m.Requeues) == 0 || len(m.Node.Nodes) == 0 {
		t.Errorf("requeues %d, node memory %d; want some", len(m.Requeues), len(m.Node.Nodes))
	}
	pod := c.State.PodsOnNode("node-a")[0]
	next, _ := c.NextDue()
	c.Inject(cluster.Event{At: next.Sub(c.Start), Kind: cluster.EventFailPod, Target: cluster.Key{Kind: cluster.KindPod, Namespace: pod.Namespace, Name: pod.Name}, ExitCode: 1})
	c.Step(next)
	if kp := c.Memory().Kubelet[pod.UID]; kp.RestartAt.IsZero() && kp.Backoff == nil {
		t.Errorf("kubelet memory of the failed pod %+v; want its backoff", kp)
	}
	if reflect.DeepEqual(w.Memory(), c.Memory()) {
		t.Error("the original's memory changed with its clone's")
	}
}

// TestNextBusy: a world in the middle of a rollout has busy work due; a
// settled one only periodic work.
func TestNextBusy(t *testing.T) {
	t.Parallel()
	sc := rollingScenario()
	sc.Events = sc.Events[:1]
	w, err := cluster.New(sc, cluster.Options{})
	if err != nil {
		t.Fatal(err)
	}
	w.Run(t0.Add(61 * time.Second))
	if _, ok := w.NextBusy(); !ok {
		t.Error("nothing busy due in the middle of a rollout")
	}
	if _, ok := w.RunUntilSettled(time.Hour); !ok {
		t.Fatal("not settled")
	}
	if at, ok := w.NextBusy(); ok {
		t.Errorf("busy work due at %v in a settled world", at.Sub(t0))
	}
	if _, ok := w.NextDue(); !ok {
		t.Error("no periodic work due in a settled world")
	}
}

// TestRewrite: Options.Rewrite sees each controller's writes and what it
// returns is applied: dropping the Deployment controller's writes leaves
// no ReplicaSet.
func TestRewrite(t *testing.T) {
	t.Parallel()
	seen := 0
	opts := cluster.Options{Rewrite: func(ctl string, _ cluster.Key, ws []plan.Write) []plan.Write {
		if ctl == cluster.CtlDeployment {
			seen += len(ws)
			return nil
		}
		return ws
	}}
	w, err := cluster.New(rollingScenario(), opts)
	if err != nil {
		t.Fatal(err)
	}
	w.Run(t0.Add(2 * time.Minute))
	if n := len(w.State.ReplicaSets()); n != 0 || seen == 0 {
		t.Errorf("%d ReplicaSets after dropping %d writes; want 0 after some", n, seen)
	}
	u, _ := cluster.New(rollingScenario(), cluster.Options{})
	u.Run(t0.Add(2 * time.Minute))
	if len(u.State.ReplicaSets()) == 0 {
		t.Error("no ReplicaSet without the rewrite")
	}
}
