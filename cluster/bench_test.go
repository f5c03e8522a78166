package cluster_test

import (
	"encoding/json"
	"fmt"
	"reflect"
	"testing"
	"time"

	"github.com/kubesem/kubesem/cluster"
	"github.com/kubesem/kubesem/job"
	"github.com/kubesem/kubesem/meta"
	"github.com/kubesem/kubesem/podstatus"
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
	cpu := cpuTime()
	for range b.N {
		w, err := cluster.New(sc, cluster.Options{})
		if err != nil {
			b.Fatal(err)
		}
		w.Run(t0.Add(time.Hour))
	}
	reportCPU(b, cpu)
}

// reportCPU reports the process's CPU time since cpu per op (cpu-ns/op).
func reportCPU(b *testing.B, cpu time.Duration) {
	if c := cpuTime(); c > 0 {
		b.ReportMetric(float64(c-cpu)/float64(b.N), "cpu-ns/op")
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

// mixScenario is the mix of conformance/upstream's BenchmarkWholeClusterSync
// scaled to about pods pods (at 10,000: 1,000 nodes, 100 Deployments of 70,
// 20 StatefulSets of 20, 2 DaemonSets, 30 Jobs of 20, 18 CronJobs, 30 PDBs
// in 10 namespaces), with events after the first minute: at 5m a rolling
// update of every tenth Deployment, at 7m every seventh scales down to 60,
// at 10m node n00001 stops heartbeating; the CronJobs fire every 10
// minutes.
func mixScenario(pods int) cluster.Scenario {
	f := float64(pods) / 10000
	n := func(x float64) int { return max(1, int(x*f+0.5)) }
	nodes, namespaces := max(2, n(1000)), n(10)
	ready := 2 * time.Second
	sc := cluster.Scenario{Start: t0, Pods: []cluster.PodBehavior{{ReadyDelay: &ready}}}
	for i := 1; i <= nodes; i++ {
		nd := readyNode(fmt.Sprintf("n%05d", i))
		nd.Status.Allocatable = map[string]string{"pods": "110"}
		sc.Objects = append(sc.Objects, nd)
	}
	ns := func(i int) string { return fmt.Sprintf("ns-%02d", i%namespaces) }
	deps := n(100)
	for i := range deps {
		d := deployment(fmt.Sprintf("web-%04d", i), 70, "web:1")
		d.Namespace = ns(i)
		sc.Objects = append(sc.Objects, d)
		key := cluster.Key{Kind: cluster.KindDeployment, Namespace: d.Namespace, Name: d.Name}
		if i%10 == 0 {
			sc.Events = append(sc.Events, cluster.Event{At: 5 * time.Minute, Kind: cluster.EventImage, Target: key, Image: "web:2"})
		}
		if i%7 == 3 {
			sc.Events = append(sc.Events, cluster.Event{At: 7 * time.Minute, Kind: cluster.EventScale, Target: key, Replicas: ptr(int32(60))})
		}
	}
	for i := range n(30) {
		b := budget(fmt.Sprintf("pdb-%04d", i), fmt.Sprintf("web-%04d", i%deps), 35)
		b.Namespace = ns(i % deps)
		sc.Objects = append(sc.Objects, b)
	}
	for i := range n(20) {
		s := statefulSet(fmt.Sprintf("db-%04d", i), 20)
		s.Namespace = ns(i)
		s.Spec.VolumeClaimTemplates = nil
		sc.Objects = append(sc.Objects, s)
	}
	for i := range 2 {
		sc.Objects = append(sc.Objects, daemonSet(fmt.Sprintf("agent-%d", i)))
	}
	for i := range n(30) {
		name := fmt.Sprintf("batch-%04d", i)
		par := int32(20)
		sc.Objects = append(sc.Objects, &job.Job{
			ObjectMeta: meta.ObjectMeta{Name: name, Namespace: ns(i), Generation: 1},
			Spec: job.Spec{Parallelism: &par, Completions: &par, ManualSelector: ptr(true), Selector: labelSel("job", name),
				Template: podstatus.Template{ObjectMeta: meta.ObjectMeta{Labels: map[string]string{"job": name}},
					Spec: podstatus.Spec{RestartPolicy: "Never", Containers: []podstatus.Container{{Name: "task", Image: "task:1"}}}}},
		})
	}
	for i := range n(18) {
		c := cronJob(fmt.Sprintf("cron-%04d", i), "*/10 * * * *")
		c.Namespace = ns(i)
		sc.Objects = append(sc.Objects, c)
	}
	sc.Events = append(sc.Events, cluster.Event{At: 10 * time.Minute, Kind: cluster.EventStopNode,
		Target: cluster.Key{Kind: cluster.KindNode, Name: "n00001"}})
	// as decoded from a file or the API (a template built in Go has no
	// decoded form to compare by, and normalises on every comparison)
	for i, o := range sc.Objects {
		b, err := json.Marshal(o)
		if err != nil {
			panic(err)
		}
		c := reflect.New(reflect.TypeOf(o).Elem())
		if err := json.Unmarshal(b, c.Interface()); err != nil {
			panic(err)
		}
		sc.Objects[i] = c.Interface()
	}
	return sc
}

func ptr[T any](v T) *T { return &v }

// BenchmarkSyncMix: one full control-plane sync (World.ForceSync) of the
// mix at 10,000 pods after it settled (the world side of
// conformance/upstream's BenchmarkWholeClusterSync, with DefaultNamer).
// ForceSync again and again on one world that writes nothing (the
// State's per-version caches stay built).
func BenchmarkSyncMix(b *testing.B) {
	w, err := cluster.New(mixScenario(10000), cluster.Options{})
	if err != nil {
		b.Fatal(err)
	}
	w.Run(t0.Add(90 * time.Second))
	w.ForceSync(w.Now)
	b.ReportAllocs()
	b.ResetTimer()
	cpu := cpuTime()
	for range b.N {
		w.ForceSync(w.Now)
	}
	reportCPU(b, cpu)
}
