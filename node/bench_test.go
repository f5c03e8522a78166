package node

import (
	"fmt"
	"testing"
	"time"

	"github.com/kubesem/kubesem/meta"
	"github.com/kubesem/kubesem/podstatus"
)

// BenchCluster returns n nodes in zones zones, a third of them silent
// since t0-60s, for benchmarks.
func benchCluster(n, zones int) ([]*Node, []Lease) {
	var nodes []*Node
	var leases []Lease
	for i := range n {
		hb := t0
		if i%3 == 0 {
			hb = t0.Add(-60 * time.Second)
		}
		nd := readyNode(fmt.Sprintf("node-%05d", i), fmt.Sprintf("zone-%02d", i%zones), hb)
		nodes = append(nodes, nd)
		rt := hb
		leases = append(leases, Lease{ObjectMeta: meta.ObjectMeta{Name: nd.Name}, Spec: LeaseSpec{RenewTime: &rt}})
	}
	return nodes, leases
}

func BenchmarkToleratesTaint(b *testing.B) {
	b.ReportAllocs()
	tol := Toleration{Key: "k", Operator: OpEqual, Value: "v", Effect: "NoSchedule"}
	taint := Taint{Key: "k", Value: "v", Effect: NoSchedule}
	for b.Loop() {
		ToleratesTaint(&tol, &taint, Options{})
	}
}

func BenchmarkFindUntoleratedTaint(b *testing.B) {
	b.ReportAllocs()
	taints := []Taint{{Key: "a", Effect: NoSchedule}, {Key: TaintUnreachable, Effect: NoExecute}, {Key: "c", Value: "x", Effect: NoSchedule}}
	tols := DefaultTolerations([]Toleration{{Key: "a", Operator: OpExists}, {Key: "c", Value: "x"}}, -1)
	for b.Loop() {
		FindUntoleratedTaint(taints, tols, NoScheduleOrNoExecute, Options{})
	}
}

func BenchmarkMatchesNodeSelector(b *testing.B) {
	b.ReportAllocs()
	n := readyNode("node-1", "z1", t0)
	n.Labels["gen"] = "5"
	aff := &Affinity{NodeAffinity: &NodeAffinity{RequiredDuringSchedulingIgnoredDuringExecution: &NodeSelector{NodeSelectorTerms: []NodeSelectorTerm{
		{MatchExpressions: []NodeSelectorRequirement{{Key: "gen", Operator: SelectorGt, Values: []string{"4"}}, {Key: LabelTopologyZone, Operator: SelectorIn, Values: []string{"z0", "z1"}}}},
		{MatchFields: []NodeSelectorRequirement{{Key: FieldNodeName, Operator: SelectorIn, Values: []string{"node-1"}}}},
	}}}}
	sel := map[string]string{LabelTopologyZone: "z1"}
	for b.Loop() {
		MatchesNodeSelector(sel, aff, n)
	}
}

func BenchmarkEvictionFor(b *testing.B) {
	b.ReportAllocs()
	taints := []Taint{{Key: TaintUnreachable, Effect: NoExecute}}
	tols := DefaultTolerations(nil, -1)
	for b.Loop() {
		EvictionFor(tols, taints, t0, Options{})
	}
}

func BenchmarkComputeZoneState5000(b *testing.B) {
	b.ReportAllocs()
	ready := make([]ConditionStatus, 5000)
	for i := range ready {
		ready[i] = ConditionTrue
		if i%3 == 0 {
			ready[i] = ConditionUnknown
		}
	}
	for b.Loop() {
		for z := 0; z < 20; z++ {
			ComputeZoneState(ready[z*250:(z+1)*250], Options{})
		}
	}
}

func BenchmarkZoneRate(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		ZoneRate(ZonePartialDisruption, 60, Options{})
	}
}

func BenchmarkUpdateHealth(b *testing.B) {
	b.ReportAllocs()
	n := readyNode("n", "z1", t0)
	h := &Health{ProbeTime: t0, ReadyHeartbeat: &t0}
	for b.Loop() {
		UpdateHealth(n, nil, h, t0.Add(10*time.Second), Options{})
	}
}

func BenchmarkStep5000(b *testing.B) {
	nodes, leases := benchCluster(5000, 20)
	p, _ := Step(nodes, leases, nil, Memory{}, t0, Options{})
	mem := p.Memory
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		Step(nodes, leases, nil, mem, t0.Add(5*time.Second), Options{})
	}
}

func BenchmarkShutdown(b *testing.B) {
	ps := ShutdownPeriods([]ShutdownPeriod{{100000, 10}, {10000, 180}, {1000, 120}, {0, 60}}, 0, 0)
	var pods []*podstatus.Pod
	for i := range 100 {
		pr := int32(i * 1500)
		p := &podstatus.Pod{}
		p.Name = fmt.Sprint(i)
		p.Spec.Priority = &pr
		pods = append(pods, p)
	}
	b.ReportAllocs()
	for b.Loop() {
		Shutdown(ps, pods)
	}
}

func BenchmarkLeaseRetryBackoff(b *testing.B) {
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		LeaseRetryBackoff(i & 15)
	}
}
func BenchmarkZoneStates5000(b *testing.B) {
	var nodes []*Node
	for i := range 5000 {
		s := ConditionTrue
		if i%3 == 0 {
			s = ConditionUnknown
		}
		n := &Node{}
		n.Name = fmt.Sprintf("node-%05d", i)
		n.Labels = map[string]string{LabelTopologyZone: fmt.Sprintf("zone-%02d", i%20), LabelTopologyRegion: "r"}
		n.Status.Conditions = []Condition{{Type: MemoryPressure, Status: ConditionFalse}, {Type: Ready, Status: s}}
		nodes = append(nodes, n)
	}
	b.ReportAllocs()
	for b.Loop() {
		ZoneStates(nodes, Options{})
	}
}

func BenchmarkStatusUpdate(b *testing.B) {
	last := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	now := last.Add(4 * time.Minute)
	b.ReportAllocs()
	for b.Loop() {
		StatusUpdate(StatusUnchanged, last, 30*time.Second, StatusReportFrequency(0, 0), now)
	}
}

func BenchmarkLeaseRenewInterval(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		LeaseRenewInterval(40 * time.Second)
	}
}
