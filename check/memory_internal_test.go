package check

import (
	"runtime"
	"testing"
	"time"

	"github.com/kubesem/kubesem/cluster"
	"github.com/kubesem/kubesem/intstr"
	"github.com/kubesem/kubesem/meta"
	"github.com/kubesem/kubesem/node"
	"github.com/kubesem/kubesem/podstatus"
	"github.com/kubesem/kubesem/rollout"
)

// BenchmarkRollingUpdateMemory: the memory of the scale goal's search
// (see BenchmarkRollingUpdate): the peak live heap over the levels of the
// breadth-first search (the graph and the frontier's worlds) and the
// heap the graph of states keeps at the end, per state.
func BenchmarkRollingUpdateMemory(b *testing.B) {
	start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	var objs []any
	for _, n := range []string{"node-0", "node-1", "node-2"} {
		objs = append(objs, &node.Node{ObjectMeta: meta.ObjectMeta{Name: n, Labels: map[string]string{"kubernetes.io/hostname": n}},
			Status: node.Status{Conditions: []node.Condition{{Type: node.Ready, Status: meta.ConditionTrue, LastHeartbeatTime: start, LastTransitionTime: start.Add(-time.Hour)}}}})
	}
	r, s, u := int32(3), intstr.Int(1), intstr.Int(0)
	labels := map[string]string{"app": "web"}
	objs = append(objs, &rollout.Deployment{ObjectMeta: meta.ObjectMeta{Name: "web", Namespace: "default", Generation: 1},
		Spec: rollout.Spec{Replicas: &r, Selector: &meta.LabelSelector{MatchLabels: labels},
			Template: podstatus.Template{ObjectMeta: meta.ObjectMeta{Labels: labels}, Spec: podstatus.Spec{Containers: []podstatus.Container{{Name: "app", Image: "web:1"}}}},
			Strategy: rollout.Strategy{RollingUpdate: &rollout.RollingUpdate{MaxSurge: &s, MaxUnavailable: &u}}}})
	ready := 5 * time.Second
	sc := cluster.Scenario{Start: start, Objects: objs, Pods: []cluster.PodBehavior{{ReadyDelay: &ready}}}
	a := Alphabet{PodFailures: 1, NodeOutages: 1, Events: []cluster.Event{{Kind: cluster.EventImage,
		Target: cluster.Key{Kind: cluster.KindDeployment, Namespace: "default", Name: "web"}, Image: "web:2"}}}
	for b.Loop() {
		root, err := cluster.New(sc, cluster.Options{})
		if err != nil {
			b.Fatal(err)
		}
		root.RunUntilSettled(30 * time.Minute)
		runtime.GC()
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		base := m.HeapAlloc
		peak, widest := uint64(0), 0
		e := newExplorer(sc, a, Builtins(), Options{}, root)
		e.level = func(frontier int) {
			runtime.GC()
			runtime.ReadMemStats(&m)
			peak = max(peak, m.HeapAlloc-base)
			widest = max(widest, frontier)
		}
		e.run()
		runtime.GC()
		runtime.ReadMemStats(&m)
		kept := m.HeapAlloc - base
		states := float64(len(e.nodes))
		b.ReportMetric(states, "states")
		b.ReportMetric(float64(peak)/states, "peak-B/state")
		b.ReportMetric(float64(kept)/states, "graph-B/state")
		b.ReportMetric(float64(widest), "widest-level")
		runtime.KeepAlive(e)
	}
}
