package cluster_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/kubesem/kubesem/cluster"
)

// bigScenario: nodes nodes, deployments Deployments of replicas pods each;
// at 5m every Deployment changes its image, at 10m node-000 stops
// heartbeating.
func bigScenario(nodes, deployments int, replicas int32) cluster.Scenario {
	ready := 5 * time.Second
	sc := cluster.Scenario{Start: t0, Pods: []cluster.PodBehavior{{ReadyDelay: &ready}}}
	for i := range nodes {
		sc.Objects = append(sc.Objects, readyNode(fmt.Sprintf("node-%03d", i)))
	}
	for i := range deployments {
		name := fmt.Sprintf("app-%03d", i)
		sc.Objects = append(sc.Objects, deployment(name, replicas, name+":1"))
		sc.Events = append(sc.Events, cluster.Event{At: 5 * time.Minute, Kind: cluster.EventImage,
			Target: cluster.Key{Kind: cluster.KindDeployment, Namespace: "default", Name: name}, Image: name + ":2"})
	}
	sc.Events = append(sc.Events, cluster.Event{At: 10 * time.Minute, Kind: cluster.EventStopNode,
		Target: cluster.Key{Kind: cluster.KindNode, Name: "node-000"}})
	return sc
}

// BenchmarkHour100Nodes: one simulated hour of 100 nodes, 20 Deployments
// of 15 pods (300 pods), a rolling update of all and a node outage
// (issue 24's goal: under 1 s).
func BenchmarkHour100Nodes(b *testing.B) {
	sc := bigScenario(100, 20, 15)
	b.ReportAllocs()
	for range b.N {
		w, err := cluster.New(sc, cluster.Options{})
		if err != nil {
			b.Fatal(err)
		}
		w.Run(t0.Add(time.Hour))
	}
}

// BenchmarkSync1000Nodes: one full control-plane sync of 1,000 nodes,
// 200 Deployments of 50 pods (10,000 pods) after they settled.
func BenchmarkSync1000Nodes(b *testing.B) {
	w, err := cluster.New(bigScenario(1000, 200, 50), cluster.Options{})
	if err != nil {
		b.Fatal(err)
	}
	w.Run(t0.Add(time.Minute))
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		c := w.Clone()
		c.ForceSync(c.Now)
	}
}

// BenchmarkClone: cloning the world of BenchmarkSync1000Nodes.
func BenchmarkClone(b *testing.B) {
	w, err := cluster.New(bigScenario(1000, 200, 50), cluster.Options{})
	if err != nil {
		b.Fatal(err)
	}
	w.Run(t0.Add(time.Minute))
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		_ = w.Clone()
	}
}
