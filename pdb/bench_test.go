package pdb_test

import (
	"testing"

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
