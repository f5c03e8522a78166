package check_test

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"pgregory.net/rapid"

	"github.com/kubesem/kubesem/check"
	"github.com/kubesem/kubesem/cluster"
	"github.com/kubesem/kubesem/job"
	"github.com/kubesem/kubesem/statefulset"
)

// drawCase draws a small cluster and an alphabet: 1–3 nodes, a Deployment
// of 0–3, maybe a StatefulSet of 2, maybe a budget, maybe a Job; a pod
// failure, a node outage (and return), an eviction, a drain, an image
// update, each maybe.
func drawCase(t *rapid.T) (cluster.Scenario, check.Alphabet) {
	n := rapid.IntRange(1, 2).Draw(t, "nodes")
	sc := cluster.Scenario{Start: t0, Objects: nodes(n),
		Pods: []cluster.PodBehavior{{ReadyDelay: seconds(rapid.SampledFrom([]int{0, 5, 30}).Draw(t, "readyDelay"))}}}
	// maxSurge and maxUnavailable are not both 0 (the API refuses it).
	surge := int32(rapid.IntRange(0, 1).Draw(t, "surge"))
	sc.Objects = append(sc.Objects, deployment("web", int32(rapid.IntRange(0, 2).Draw(t, "replicas")),
		surge, 1-surge+int32(rapid.IntRange(0, int(surge)).Draw(t, "unavailable"))))
	if rapid.Bool().Draw(t, "statefulset") {
		sc.Objects = append(sc.Objects, statefulSet("db", 2, rapid.SampledFrom([]statefulset.PodManagementPolicy{"OrderedReady", "Parallel"}).Draw(t, "policy")))
	}
	if rapid.Bool().Draw(t, "budget") {
		sc.Objects = append(sc.Objects, budget("web", "web", int32(rapid.IntRange(0, 1).Draw(t, "budgetMax"))))
	}
	if rapid.Bool().Draw(t, "job") {
		sc.Objects = append(sc.Objects, batchJob("batch", 1, job.PodReplacementPolicy(rapid.SampledFrom([]string{"", "Failed"}).Draw(t, "replacement"))))
	}
	a := check.Alphabet{
		PodFailures: rapid.IntRange(0, 1).Draw(t, "podFailures"),
		NodeOutages: rapid.IntRange(0, 1).Draw(t, "nodeOutages"),
		NodeReturns: rapid.Bool().Draw(t, "nodeReturns"),
		Evictions:   rapid.IntRange(0, 1).Draw(t, "evictions"),
		Drains:      rapid.IntRange(0, 1).Draw(t, "drains"),
	}
	if rapid.Bool().Draw(t, "image") {
		a.Events = append(a.Events, cluster.Event{Kind: cluster.EventImage, Target: key(cluster.KindDeployment, "web"), Image: "web:2"})
	}
	return sc, a
}

var smallBound = check.Options{MaxStates: 60, MaxDepth: 6, Horizon: 5 * time.Minute, Window: 15 * time.Minute}

// checkCounterexamplesReplay: every counterexample of a search is a path
// the world takes again from its scenario (the replay reaches the state of
// the counterexample's fingerprint), no world gets stuck, and the report
// merged with itself keeps its verdicts.
func checkCounterexamplesReplay(t *rapid.T) {
	sc, a := drawCase(t)
	r, err := check.Explore(sc, a, nil, smallBound)
	if err != nil {
		t.Fatal(err)
	}
	mergeOfOne(t, r)
	for _, res := range r.Failed() {
		if res.Property == check.StuckProperty {
			t.Fatalf("the world got stuck: %s", res.Counterexample.Message)
		}
		cx := res.Counterexample
		if cx.Depth < 0 || len(cx.Path) < cx.Depth || len(cx.Events) != len(cx.Sources) || len(cx.Events) > cx.Depth {
			t.Fatalf("%s: depth %d, path %d, %d events, %d sources", res.Property, cx.Depth, len(cx.Path), len(cx.Events), len(cx.Sources))
		}
		w, err := cluster.New(cx.Scenario(sc), cluster.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if cx.Depth > 0 || cx.At > 0 {
			// (Depth 0 at +0s is the scenario's first state, before its
			// first instant ran.)
			w.Run(w.Start.Add(cx.At))
		}
		if got := check.Fingerprint(w, sc, a, smallBound); got != cx.Hash {
			t.Fatalf("%s: the replay at +%v has fingerprint %x; want %x (path %v)", res.Property, cx.At, got, cx.Hash, cx.Path)
		}
	}
}

// checkExploreOrderIndependent: the report does not depend on the order
// of the scenario's objects.
func checkExploreOrderIndependent(t *rapid.T) {
	sc, a := drawCase(t)
	shuffled := sc
	shuffled.Objects = rapid.Permutation(sc.Objects).Draw(t, "order")
	r1, err := check.Explore(sc, a, nil, smallBound)
	if err != nil {
		t.Fatal(err)
	}
	r2, err := check.Explore(shuffled, a, nil, smallBound)
	if err != nil {
		t.Fatal(err)
	}
	if summaryOf(r1) != summaryOf(r2) {
		t.Fatalf("reports differ:\n%s\n---\n%s", summaryOf(r1), summaryOf(r2))
	}
}

func summaryOf(r *check.Report) string {
	s := fmt.Sprintf("%d states, %d transitions, complete %v\n", r.States, r.Transitions, r.Complete)
	for _, x := range r.Results {
		s += fmt.Sprintf("%s held %v", x.Property, x.Held)
		if cx := x.Counterexample; cx != nil {
			s += fmt.Sprintf(" depth %d hash %x", cx.Depth, cx.Hash)
		}
		s += "\n"
	}
	return s
}

// mergeOfOne: merging a report with itself keeps its verdicts and
// counterexamples and doubles its counts.
func mergeOfOne(t *rapid.T, r *check.Report) {
	m := check.Merge(r, r)
	if m.States != 2*r.States || !slices.EqualFunc(m.Results, r.Results, func(x, y check.Result) bool {
		return x.Property == y.Property && x.Held == y.Held && x.Counterexample == y.Counterexample
	}) {
		t.Fatalf("merge of a report with itself: %s\nvs\n%s", summaryOf(m), summaryOf(r))
	}
}

func TestCounterexamplesReplay(t *testing.T) {
	t.Parallel()
	rapid.Check(t, checkCounterexamplesReplay)
}
func TestExploreOrderIndependent(t *testing.T) {
	t.Parallel()
	rapid.Check(t, checkExploreOrderIndependent)
}
