package check_test

import (
	"testing"
	"time"

	"github.com/kubesem/kubesem/check"
	"github.com/kubesem/kubesem/cluster"
)

// rollingUpdate is issue 22's scale goal: every interleaving of a rolling
// update of a Deployment of 3 (maxSurge 1, maxUnavailable 0) on 3 nodes,
// one template update, at most one pod failure and one node outage.
func rollingUpdate() (cluster.Scenario, check.Alphabet) {
	sc := cluster.Scenario{Start: t0, Objects: append(nodes(3), deployment("web", 3, 1, 0)), Pods: []cluster.PodBehavior{{ReadyDelay: seconds(5)}}}
	a := check.Alphabet{PodFailures: 1, NodeOutages: 1,
		Events: []cluster.Event{{Kind: cluster.EventImage, Target: key(cluster.KindDeployment, "web"), Image: "web:2"}}}
	return sc, a
}

// benchExplore explores sc with a, reporting states, states per second of
// wall time and per second of the process's CPU time (the machine may be
// shared), and bytes allocated per state.
func benchExplore(b *testing.B, sc cluster.Scenario, a check.Alphabet, props []check.Property) {
	b.ReportAllocs()
	states := 0
	cpu0 := cpuTime()
	for b.Loop() {
		r, err := check.Explore(sc, a, props, check.Options{})
		if err != nil {
			b.Fatal(err)
		}
		if !r.Complete {
			b.Fatal("incomplete")
		}
		states += r.States
	}
	cpu := cpuTime() - cpu0
	b.ReportMetric(float64(states)/float64(b.N), "states")
	b.ReportMetric(float64(states)/b.Elapsed().Seconds(), "states/s")
	if cpu > 0 {
		b.ReportMetric(float64(states)/cpu.Seconds(), "states/cpu-s")
	}
}

// BenchmarkRollingUpdate: the scale goal, every builtin of Deployments
// (liveness included). Goal: under 10 s.
func BenchmarkRollingUpdate(b *testing.B) {
	sc, a := rollingUpdate()
	benchExplore(b, sc, a, nil)
}

// BenchmarkRollingUpdateSafety: the same, safety properties only (no
// tick continuations for liveness).
func BenchmarkRollingUpdateSafety(b *testing.B) {
	sc, a := rollingUpdate()
	var props []check.Property
	for _, n := range []string{"deployment-max-surge", "deployment-availability"} {
		p, _ := check.Builtin(n)
		props = append(props, p)
	}
	benchExplore(b, sc, a, props)
}

// BenchmarkDeploymentUsers: a Deployment with its ReplicaSets under its
// users alone — an image update, a scale to 5 and to 1, a pause and a
// resume, each at any point, in any order — nothing failing (issue 22's
// states-per-second goal, 100,000, is for such a Deployment).
func BenchmarkDeploymentUsers(b *testing.B) {
	sc, a := rollingUpdate()
	a.PodFailures, a.NodeOutages = 0, 0
	web := key(cluster.KindDeployment, "web")
	a.Events = append(a.Events,
		cluster.Event{Kind: cluster.EventScale, Target: web, Replicas: i32(5)},
		cluster.Event{Kind: cluster.EventScale, Target: web, Replicas: i32(1)},
		cluster.Event{Kind: cluster.EventPause, Target: web},
		cluster.Event{Kind: cluster.EventResume, Target: web})
	benchExplore(b, sc, a, nil)
}

// BenchmarkFingerprint: the canonical hash of a world in the middle of a
// rollout of 4 on 3 nodes (8 pods).
func BenchmarkFingerprint(b *testing.B) {
	w, err := rollingWorld(t0, 75*time.Second, "node-a", "node-b", "node-c")
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		check.Fingerprint(w, cluster.Scenario{}, check.Alphabet{}, check.Options{})
	}
}

// BenchmarkExpression: parsing and evaluating a user property.
func BenchmarkExpression(b *testing.B) {
	w, err := rollingWorld(t0, 75*time.Second, "node-a", "node-b", "node-c")
	if err != nil {
		b.Fatal(err)
	}
	s := check.Snapshot{State: w.State, Now: w.Now}
	b.ReportAllocs()
	for b.Loop() {
		p, err := check.Expression("available(deploy/web) >= 3 && pods(deploy/web) <= replicas(deploy/web) + 1")
		if err != nil {
			b.Fatal(err)
		}
		p.Holds(s)
	}
}
