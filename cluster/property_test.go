package cluster_test

import (
	"fmt"
	"reflect"
	"testing"
	"time"

	"pgregory.net/rapid"

	"github.com/kubesem/kubesem/cluster"
	"github.com/kubesem/kubesem/internal/fuzzlimit"
)

// drawScenario draws a small cluster: nodes, Deployments, maybe a
// DaemonSet and a CronJob, kubelet delays, and events among scale, image,
// stop and start node, cordon, drain and delete.
func drawScenario(t *rapid.T) cluster.Scenario {
	sc := cluster.Scenario{Start: t0}
	nodes := rapid.IntRange(1, 4).Draw(t, "nodes")
	for i := range nodes {
		sc.Objects = append(sc.Objects, readyNode(fmt.Sprintf("n%d", i)))
	}
	deps := rapid.IntRange(0, 2).Draw(t, "deployments")
	for i := range deps {
		sc.Objects = append(sc.Objects, deployment(fmt.Sprintf("d%d", i), int32(rapid.IntRange(0, 5).Draw(t, "replicas")), "img:1"))
	}
	if rapid.Bool().Draw(t, "daemonset") {
		sc.Objects = append(sc.Objects, daemonSet("agent"))
	}
	if rapid.Bool().Draw(t, "statefulset") {
		sc.Objects = append(sc.Objects, statefulSet("db", int32(rapid.IntRange(0, 3).Draw(t, "stsReplicas"))))
	}
	if rapid.Bool().Draw(t, "cronjob") {
		sc.Objects = append(sc.Objects, cronJob("report", "*/7 * * * *"))
	}
	if rapid.Bool().Draw(t, "pdb") && deps > 0 {
		sc.Objects = append(sc.Objects, budget("b", "d0", rapid.IntRange(0, 3).Draw(t, "minAvailable")))
	}
	ready := time.Duration(rapid.IntRange(0, 30).Draw(t, "readyDelay")) * time.Second
	run := time.Duration(rapid.IntRange(1, 120).Draw(t, "runFor")) * time.Second
	sc.Pods = []cluster.PodBehavior{{Selector: labelSel("task", "report"), RunFor: &run}, {ReadyDelay: &ready}}
	for range rapid.IntRange(0, 5).Draw(t, "events") {
		at := time.Duration(rapid.IntRange(0, 600).Draw(t, "at")) * time.Second
		node := cluster.Key{Kind: cluster.KindNode, Name: fmt.Sprintf("n%d", rapid.IntRange(0, nodes-1).Draw(t, "node"))}
		dep := cluster.Key{Kind: cluster.KindDeployment, Namespace: "default", Name: fmt.Sprintf("d%d", rapid.IntRange(0, 2).Draw(t, "dep"))}
		switch rapid.IntRange(0, 6).Draw(t, "kind") {
		case 0:
			r := int32(rapid.IntRange(0, 6).Draw(t, "scale"))
			sc.Events = append(sc.Events, cluster.Event{At: at, Kind: cluster.EventScale, Target: dep, Replicas: &r})
		case 1:
			sc.Events = append(sc.Events, cluster.Event{At: at, Kind: cluster.EventImage, Target: dep, Image: "img:" + rapid.StringMatching("[0-9]").Draw(t, "img")})
		case 2:
			sc.Events = append(sc.Events, cluster.Event{At: at, Kind: cluster.EventStopNode, Target: node})
		case 3:
			sc.Events = append(sc.Events, cluster.Event{At: at, Kind: cluster.EventStartNode, Target: node})
		case 4:
			sc.Events = append(sc.Events, cluster.Event{At: at, Kind: cluster.EventCordon, Target: node})
		case 5:
			sc.Events = append(sc.Events, cluster.Event{At: at, Kind: cluster.EventDrain, Target: node})
		case 6:
			sc.Events = append(sc.Events, cluster.Event{At: at, Kind: cluster.EventDelete, Target: dep})
		}
	}
	return sc
}

// checkRunDeterministic: running a scenario twice, the second time with its
// objects in another order, gives the same trace and the same final state.
func checkRunDeterministic(t *rapid.T) {
	sc := drawScenario(t)
	shuffled := sc
	shuffled.Objects = rapid.Permutation(sc.Objects).Draw(t, "order")
	until := t0.Add(20 * time.Minute)
	a, err := cluster.New(sc, cluster.Options{})
	if err != nil {
		t.Fatal(err)
	}
	b, err := cluster.New(shuffled, cluster.Options{})
	if err != nil {
		t.Fatal(err)
	}
	a.Run(until)
	b.Run(until)
	if !reflect.DeepEqual(a.Trace, b.Trace) {
		t.Fatalf("traces differ:\n%s\n---\n%s", summary(a.Trace), summary(b.Trace))
	}
	if !reflect.DeepEqual(a.State.Objects(), b.State.Objects()) {
		t.Fatal("final states differ")
	}
}

// checkCloneIndependent: advancing a clone leaves the original's objects
// and trace unchanged, and the original then reaches the clone's state.
func checkCloneIndependent(t *rapid.T) {
	sc := drawScenario(t)
	w, err := cluster.New(sc, cluster.Options{})
	if err != nil {
		t.Fatal(err)
	}
	w.Run(t0.Add(time.Duration(rapid.IntRange(0, 600).Draw(t, "split")) * time.Second))
	objs, n := w.State.Objects(), len(w.Trace)
	c := w.Clone()
	c.Run(t0.Add(20 * time.Minute))
	if got := w.State.Objects(); len(got) != len(objs) || !reflect.DeepEqual(got, objs) {
		t.Fatal("running the clone changed the original's objects")
	}
	for i, o := range w.State.Objects() {
		if o != objs[i] {
			t.Fatalf("object %d replaced in the original", i)
		}
	}
	if len(w.Trace) != n {
		t.Fatal("running the clone changed the original's trace")
	}
	w.Run(t0.Add(20 * time.Minute))
	if !reflect.DeepEqual(w.Trace, c.Trace) {
		t.Fatalf("original and clone diverge:\n%s\n---\n%s", summary(w.Trace), summary(c.Trace))
	}
}

// checkCloneInterleaved: a world and its clones (and clones of clones)
// advanced in a random interleaving, instant by instant, each end as the
// world run alone: none sees another's writes to what Clone shares (the
// State's maps, the kubelet's backoff maps).
func checkCloneInterleaved(t *rapid.T) {
	sc := drawScenario(t)
	sc.Pods = append([]cluster.PodBehavior{{ExitCode: 1, RunFor: ptrTo(time.Duration(rapid.IntRange(1, 60).Draw(t, "crashAfter")) * time.Second)}}, sc.Pods...)
	until := t0.Add(20 * time.Minute)
	r, err := cluster.New(sc, cluster.Options{})
	if err != nil {
		t.Fatal(err)
	}
	r.Run(until)
	w, err := cluster.New(sc, cluster.Options{})
	if err != nil {
		t.Fatal(err)
	}
	worlds := []*cluster.World{w}
	live := []*cluster.World{w}
	for len(live) > 0 {
		i := rapid.IntRange(0, len(live)-1).Draw(t, "world")
		if len(worlds) < 5 && rapid.IntRange(0, 9).Draw(t, "clone") == 0 {
			c := live[i].Clone()
			worlds, live = append(worlds, c), append(live, c)
			continue
		}
		if !live[i].Step(until) {
			live = append(live[:i], live[i+1:]...)
		}
	}
	for i, x := range worlds {
		if !reflect.DeepEqual(x.Trace, r.Trace) {
			t.Fatalf("world %d diverges from the world run alone:\n%s\n---\n%s", i, summary(x.Trace), summary(r.Trace))
		}
		if !reflect.DeepEqual(x.State.Objects(), r.State.Objects()) || !reflect.DeepEqual(x.Memory(), r.Memory()) {
			t.Fatalf("world %d ends unlike the world run alone", i)
		}
	}
}

func ptrTo[T any](v T) *T { return &v }

func TestRunDeterministic(t *testing.T) { rapid.Check(t, checkRunDeterministic) }
func TestCloneInterleaved(t *testing.T) { rapid.Check(t, checkCloneInterleaved) }
func FuzzCloneInterleaved(f *testing.F) { fuzzlimit.Rapid(f, checkCloneInterleaved) }
func TestCloneIndependent(t *testing.T) { rapid.Check(t, checkCloneIndependent) }

func FuzzRunDeterministic(f *testing.F) { fuzzlimit.Rapid(f, checkRunDeterministic) }
func FuzzCloneIndependent(f *testing.F) { fuzzlimit.Rapid(f, checkCloneIndependent) }
