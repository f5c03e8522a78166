package pdb_test

import (
	"testing"
	"time"

	"github.com/kubesem/kubesem/intstr"
	"github.com/kubesem/kubesem/pdb"
)

func BenchmarkDisruptionsAllowed(b *testing.B) {
	b.ReportAllocs()
	var sink int32
	for i := 0; i < b.N; i++ {
		sink += pdb.DisruptionsAllowed(int32(i&7), 3, 5)
	}
	_ = sink
}

func BenchmarkIsHealthy(b *testing.B) {
	p := readyPod("a", true, nil)
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		pdb.IsHealthy(p, nil, now, pdb.Options{})
	}
}

func BenchmarkUnhealthyEvictable(b *testing.B) {
	bu := budget(ptr(intstr.Int(2)), nil)
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		pdb.UnhealthyEvictable(bu)
	}
}

func BenchmarkStep10000Pods(b *testing.B) {
	pods, cs := manyPods(10000)
	bu := budget(nil, ptr(intstr.Percent(10)))
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := pdb.Step(bu, pods, cs, now, pdb.Options{}); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkEvict(b *testing.B) {
	bu := budget(ptr(intstr.Int(2)), nil)
	bu.Status.DisruptionsAllowed, bu.Status.CurrentHealthy, bu.Status.DesiredHealthy, bu.Status.ObservedGeneration = 1, 3, 2, 1
	budgets := []pdb.PodDisruptionBudget{*bu}
	p := readyPod("a", true, nil)
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if _, err := pdb.Evict(p, budgets, pdb.Request{}, now); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkExpectedPods10000(b *testing.B) {
	pods, cs := manyPods(10000)
	bu := budget(nil, ptr(intstr.Percent(10)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := pdb.ExpectedPods(bu, pods, cs); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkExpectedScale10000(b *testing.B) {
	pods, cs := manyPods(10000)
	b.ReportAllocs()
	for b.Loop() {
		if _, _, err := pdb.ExpectedScale(pods, cs); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkControllerScale(b *testing.B) {
	pods, cs := manyPods(100)
	ref := *pods[0].ControllerRef()
	b.ReportAllocs()
	for b.Loop() {
		pdb.ControllerScale(ref, cs)
	}
}

func BenchmarkCurrentHealthy10000(b *testing.B) {
	pods, _ := manyPods(10000)
	b.ReportAllocs()
	for b.Loop() {
		pdb.CurrentHealthy(pods, nil, now, pdb.Options{})
	}
}

func BenchmarkDisruptedPods(b *testing.B) {
	pods, _ := manyPods(100)
	old := map[string]time.Time{pods[0].Name: now.Add(-time.Minute), pods[1].Name: now.Add(-3 * time.Minute), "gone": now}
	b.ReportAllocs()
	for b.Loop() {
		pdb.DisruptedPods(old, pods, now, pdb.Options{})
	}
}

func BenchmarkSelected10000(b *testing.B) {
	pods, _ := manyPods(10000)
	bu := budget(nil, ptr(intstr.Percent(10)))
	b.ReportAllocs()
	for b.Loop() {
		pdb.Selected(bu, pods)
	}
}

func BenchmarkConditions(b *testing.B) {
	bu := budget(ptr(intstr.Int(2)), nil)
	b.ReportAllocs()
	for b.Loop() {
		_ = pdb.AllowedCondition(1)
		_ = pdb.ConditionsUpToDate(bu)
	}
}

func BenchmarkStaleDisruptionTarget(b *testing.B) {
	p := readyPod("a", true, nil)
	b.ReportAllocs()
	for b.Loop() {
		pdb.StaleDisruptionTarget(p, now, pdb.Options{})
	}
}

func BenchmarkValidate(b *testing.B) {
	bu := budget(ptr(intstr.Percent(50)), nil)
	b.ReportAllocs()
	for b.Loop() {
		_ = pdb.Validate(bu)
	}
}

func BenchmarkDecrement(b *testing.B) {
	bu := budget(ptr(intstr.Int(2)), nil)
	bu.Status.DisruptionsAllowed = 1
	b.ReportAllocs()
	for b.Loop() {
		pdb.Decrement(bu, "a", now)
	}
}

func BenchmarkBudgetsAndIgnores(b *testing.B) {
	bu := budget(ptr(intstr.Int(2)), nil)
	budgets := []pdb.PodDisruptionBudget{*bu}
	p := readyPod("a", true, nil)
	b.ReportAllocs()
	for b.Loop() {
		_ = pdb.Budgets(p, budgets)
		_ = pdb.IgnoresBudget(p)
	}
}

func BenchmarkDrain(b *testing.B) {
	pods, cs := manyPods(100)
	c := pdb.Cluster{Nodes: nodes("n1", "n2"), Controllers: cs,
		Budgets: []pdb.PodDisruptionBudget{*budget(nil, ptr(intstr.Percent(10)))}}
	for i, p := range pods {
		q := *p
		q.Spec.NodeName = []string{"n1", "n2"}[i%2]
		c.Pods = append(c.Pods, q)
	}
	script := []pdb.Action{{Kind: pdb.ActionSync}, {Kind: pdb.ActionDrain, Node: "n1"}, {Kind: pdb.ActionSync}, {Kind: pdb.ActionDrain, Node: "n2"}}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := pdb.Drain(c, script, now, pdb.Options{}); err != nil {
			b.Fatal(err)
		}
	}
}
