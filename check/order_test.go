package check_test

import (
	"strings"
	"testing"
	"time"

	"github.com/kubesem/kubesem/check"
	"github.com/kubesem/kubesem/cluster"
	"github.com/kubesem/kubesem/plan"
)

// TestOrders: with Alphabet.Orders the search takes the orders
// kube-controller-manager's concurrent controllers may sync in. A
// Deployment and a StatefulSet are both scaled from 0 to 1 at one
// instant; in the world's fixed order the Deployment's pod is created
// before the StatefulSet's, so a write property that says so holds; with
// one change of order allowed, the StatefulSet controller runs before
// the ReplicaSet controller creates the Deployment's pod (the shortest
// counterexample moves the ReplicaSet controller first: it then syncs
// before the Deployment controller has scaled its ReplicaSet), and the
// counterexample's path holds the order event, which its scenario
// replays.
func TestOrders(t *testing.T) {
	t.Parallel()
	sc := cluster.Scenario{Start: t0, Objects: append(nodes(1), deployment("web", 0, 1, 0), statefulSet("db", 0, "OrderedReady")),
		Events: []cluster.Event{
			{At: time.Minute, Kind: cluster.EventScale, Target: cluster.Key{Kind: cluster.KindDeployment, Namespace: "default", Name: "web"}, Replicas: i32(1)},
			{At: time.Minute, Kind: cluster.EventScale, Target: cluster.Key{Kind: cluster.KindStatefulSet, Namespace: "default", Name: "db"}, Replicas: i32(1)},
		}}
	webFirst := check.Property{Name: "web-first", Doc: "the StatefulSet's pod is created after the Deployment's",
		Sees: func(e cluster.Entry) bool {
			return e.Controller == cluster.CtlStatefulSet && e.Write != nil && e.Write.Verb == plan.VerbCreate && e.Write.Resource == "pods"
		},
		Allows: func(before check.Snapshot, e cluster.Entry) string {
			for _, p := range before.State.Pods() {
				if p.Labels["app"] == "web" {
					return ""
				}
			}
			return "the StatefulSet's pod is created before the Deployment's"
		}}
	opts := check.Options{FromStart: true, Horizon: 2 * time.Minute, MaxDepth: 20}
	r, err := check.Explore(sc, check.Alphabet{}, []check.Property{webFirst}, opts)
	if err != nil {
		t.Fatal(err)
	}
	if !r.Results[0].Held || r.Results[0].Checked == 0 {
		t.Fatalf("fixed order: %+v", r.Results[0])
	}
	fixed := r.States
	r, err = check.Explore(sc, check.Alphabet{Orders: 1}, []check.Property{webFirst}, opts)
	if err != nil {
		t.Fatal(err)
	}
	res := r.Results[0]
	if res.Held || res.Counterexample == nil {
		t.Fatalf("one change of order: the property held on %d states", r.States)
	}
	cx := res.Counterexample
	if len(cx.Events) != 1 || cx.Events[0].Kind != cluster.EventOrder || !strings.Contains(strings.Join(cx.Path, "; "), "order: ") {
		t.Errorf("counterexample events %+v, path %v", cx.Events, cx.Path)
	}
	if r.States <= fixed {
		t.Errorf("%d states with orders, %d without", r.States, fixed)
	}
	// The scenario with the counterexample's events replays it.
	replay := cx.Scenario(sc)
	w, err := cluster.New(replay, opts.World)
	if err != nil {
		t.Fatal(err)
	}
	w.Run(replay.Start.Add(cx.Until))
	var got []string
	for _, e := range w.Trace {
		if e.Write != nil && e.Write.Verb == plan.VerbCreate && e.Write.Resource == "pods" {
			got = append(got, e.Controller)
		}
	}
	if len(got) < 2 || got[0] != cluster.CtlStatefulSet {
		t.Errorf("the replay creates pods by %v, want the StatefulSet controller first", got)
	}
}
