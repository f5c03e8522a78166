package check_test

import (
	"slices"
	"testing"
	"time"

	"github.com/kubesem/kubesem/check"
	"github.com/kubesem/kubesem/cluster"
	"github.com/kubesem/kubesem/meta"
	"github.com/kubesem/kubesem/node"
)

func namedNode(name string, start time.Time) *node.Node {
	return &node.Node{
		ObjectMeta: meta.ObjectMeta{Name: name, Labels: map[string]string{"kubernetes.io/hostname": name}},
		Status: node.Status{Conditions: []node.Condition{{Type: node.Ready, Status: meta.ConditionTrue,
			LastHeartbeatTime: start, LastTransitionTime: start.Add(-time.Hour)}}},
	}
}

// world runs the scenario of a Deployment of 4 (maxSurge 1) on the named
// nodes from start until start+d, with an image change at 1m.
func world(t *testing.T, start time.Time, d time.Duration, names ...string) *cluster.World {
	t.Helper()
	w, err := rollingWorld(start, d, names...)
	if err != nil {
		t.Fatal(err)
	}
	return w
}

func rollingWorld(start time.Time, d time.Duration, names ...string) (*cluster.World, error) {
	sc := cluster.Scenario{Start: start, Pods: []cluster.PodBehavior{{ReadyDelay: seconds(5)}},
		Events: []cluster.Event{{At: time.Minute, Kind: cluster.EventImage, Target: key(cluster.KindDeployment, "web"), Image: "web:2"}}}
	for _, n := range names {
		sc.Objects = append(sc.Objects, namedNode(n, start))
	}
	sc.Objects = append(sc.Objects, deployment("web", 4, 1, 0))
	w, err := cluster.New(sc, cluster.Options{})
	if err != nil {
		return nil, err
	}
	w.Run(start.Add(d))
	return w, nil
}

func fingerprint(w *cluster.World, symmetry bool) uint64 {
	return check.Fingerprint(w, cluster.Scenario{}, check.Alphabet{}, check.Options{NoSymmetry: !symmetry})
}

// TestFingerprint: the canonical form is blind to the order of the
// scenario's objects, to a shift of time and (with symmetry) to the names
// of nodes; it tells apart worlds at different points of a rollout, and
// nodes by name without symmetry.
func TestFingerprint(t *testing.T) {
	t.Parallel()
	at := 75 * time.Second // in the middle of the rollout
	base := world(t, t0, at, "node-a", "node-b", "node-c")
	for _, c := range []struct {
		name     string
		w        *cluster.World
		symmetry bool
		equal    bool
	}{
		{"objects in another order", world(t, t0, at, "node-c", "node-a", "node-b"), false, true},
		{"an hour later", world(t, t0.Add(time.Hour), at, "node-a", "node-b", "node-c"), false, true},
		{"nodes renamed, symmetry", world(t, t0, at, "x", "y", "z"), true, true},
		{"nodes renamed in reverse order, symmetry", world(t, t0, at, "z3", "z2", "z1"), true, true},
		{"nodes renamed, no symmetry", world(t, t0, at, "x", "y", "z"), false, false},
		{"5s later in the rollout", world(t, t0, at+5*time.Second, "node-a", "node-b", "node-c"), true, false},
		{"a node more", world(t, t0, at, "node-a", "node-b", "node-c", "node-d"), true, false},
	} {
		if got := fingerprint(c.w, c.symmetry) == fingerprint(base, c.symmetry); got != c.equal {
			t.Errorf("%s: equal fingerprints %v; want %v", c.name, got, c.equal)
		}
	}
	if fingerprint(base, true) != fingerprint(base.Clone(), true) {
		t.Error("a clone's fingerprint differs")
	}
}

// TestSymmetryReduces: symmetry explores fewer states of three identical
// nodes, with the same verdicts.
func TestSymmetryReduces(t *testing.T) {
	t.Parallel()
	sc := cluster.Scenario{Start: t0, Objects: append(nodes(3), deployment("web", 3, 1, 0)), Pods: []cluster.PodBehavior{{ReadyDelay: seconds(5)}}}
	a := check.Alphabet{NodeOutages: 1, PodFailures: 1}
	with, err := check.Explore(sc, a, nil, check.Options{})
	if err != nil {
		t.Fatal(err)
	}
	without, err := check.Explore(sc, a, nil, check.Options{NoSymmetry: true})
	if err != nil {
		t.Fatal(err)
	}
	if with.States >= without.States {
		t.Errorf("%d states with symmetry, %d without; want fewer with", with.States, without.States)
	}
	for i := range with.Results {
		if with.Results[i].Held != without.Results[i].Held {
			t.Errorf("%s: held %v with symmetry, %v without", with.Results[i].Property, with.Results[i].Held, without.Results[i].Held)
		}
	}
	t.Logf("%d states with symmetry, %d without", with.States, without.States)
}

// TestExploreDeterministic: the same input gives the same report, and the
// order of the scenario's objects does not change it.
func TestExploreDeterministic(t *testing.T) {
	t.Parallel()
	c := knownCases()[0]
	r1, err := check.Explore(c.sc, c.a, nil, check.Options{})
	if err != nil {
		t.Fatal(err)
	}
	sc := c.sc
	sc.Objects = slices.Clone(sc.Objects)
	slices.Reverse(sc.Objects)
	r2, err := check.Explore(sc, c.a, nil, check.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if r1.States != r2.States || r1.Transitions != r2.Transitions || len(r1.Failed()) != len(r2.Failed()) {
		t.Fatalf("reports differ: %d/%d states, %d/%d transitions", r1.States, r2.States, r1.Transitions, r2.Transitions)
	}
	for i, x := range r1.Failed() {
		y := r2.Failed()[i]
		if x.Counterexample.Hash != y.Counterexample.Hash || x.Counterexample.Depth != y.Counterexample.Depth {
			t.Errorf("%s: counterexamples differ", x.Property)
		}
	}
}

// TestExploreErrors: invalid alphabets and options are *field.Errors.
func TestExploreErrors(t *testing.T) {
	t.Parallel()
	sc := cluster.Scenario{Start: t0, Objects: nodes(1)}
	for _, c := range []struct {
		a    check.Alphabet
		o    check.Options
		path string
	}{
		{check.Alphabet{PodFailures: -1}, check.Options{}, "alphabet.podFailures"},
		{check.Alphabet{Drains: 300}, check.Options{}, "alphabet.drains"},
		{check.Alphabet{Events: []cluster.Event{{Kind: "bogus", Target: key(cluster.KindNode, "node-0")}}}, check.Options{}, "alphabet.events[0].kind"},
		{check.Alphabet{Events: []cluster.Event{{Kind: cluster.EventScale, Target: key(cluster.KindDeployment, "web")}}}, check.Options{}, "alphabet.events[0].replicas"},
		{check.Alphabet{}, check.Options{Shard: check.Shard{Index: 2, Count: 2}}, "shard.index"},
		{check.Alphabet{}, check.Options{Horizon: -time.Second}, "horizon"},
	} {
		_, err := check.Explore(sc, c.a, nil, c.o)
		if err == nil || !hasPath(err, c.path) {
			t.Errorf("Explore(%+v, %+v) = %v; want an error on %s", c.a, c.o, err, c.path)
		}
	}
}

// The canonical form decides which states are one: an optimisation of it
// must not change how many the scale goal's search explores (4,781 at
// 36af6d1, before the renaming map was keyed by hashes, the memory's maps
// pooled and pods' classes keyed by name pairs). Its pod failures are
// one per class of pods, so the classes count too.
func TestRollingUpdateStates(t *testing.T) {
	if testing.Short() {
		t.Skip("explores 4,781 states")
	}
	sc, a := rollingUpdate()
	r, err := check.Explore(sc, a, nil, check.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !r.Complete || r.States != 4781 {
		t.Fatalf("complete %v, %d states, want 4781", r.Complete, r.States)
	}
}
