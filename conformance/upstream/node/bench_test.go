package node_test

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"
	_ "unsafe"

	coordv1 "k8s.io/api/coordination/v1"
	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/kubernetes/fake"
	nodetopology "k8s.io/component-helpers/node/topology"
	schedhelper "k8s.io/component-helpers/scheduling/corev1"
	"k8s.io/component-helpers/scheduling/corev1/nodeaffinity"
	"k8s.io/klog/v2"
	"k8s.io/kubernetes/pkg/controller/nodelifecycle"
	nodeutil "k8s.io/kubernetes/pkg/controller/util/node"

	"github.com/kubesem/kubesem/meta"
	"github.com/kubesem/kubesem/node"
)

//go:linkname upMonitorNodeHealth k8s.io/kubernetes/pkg/controller/nodelifecycle.(*Controller).monitorNodeHealth
func upMonitorNodeHealth(nc *nodelifecycle.Controller, ctx context.Context) error

// Side by side on identical inputs: toleration matching (three taints
// against the default and two custom tolerations), required node affinity
// (nodeSelector, two terms with Gt/In and matchFields), zone states over
// 5,000 nodes in 20 zones, and one lifecycle pass over 5,000 nodes (a
// third silent for 60 s, still within their grace period).

func BenchmarkNodeTolerations(b *testing.B) {
	logger := klog.Background()
	ut := []v1.Taint{{Key: "a", Effect: v1.TaintEffectNoSchedule}, {Key: node.TaintUnreachable, Effect: v1.TaintEffectNoExecute}, {Key: "c", Value: "x", Effect: v1.TaintEffectNoSchedule}}
	s300 := int64(300)
	utol := []v1.Toleration{{Key: "a", Operator: v1.TolerationOpExists}, {Key: "c", Value: "x"},
		{Key: node.TaintNotReady, Operator: v1.TolerationOpExists, Effect: v1.TaintEffectNoExecute, TolerationSeconds: &s300},
		{Key: node.TaintUnreachable, Operator: v1.TolerationOpExists, Effect: v1.TaintEffectNoExecute, TolerationSeconds: &s300}}
	kt := []node.Taint{{Key: "a", Effect: node.NoSchedule}, {Key: node.TaintUnreachable, Effect: node.NoExecute}, {Key: "c", Value: "x", Effect: node.NoSchedule}}
	ktol := node.DefaultTolerations([]node.Toleration{{Key: "a", Operator: node.OpExists}, {Key: "c", Value: "x"}}, -1)
	filter := func(t *v1.Taint) bool {
		return t.Effect == v1.TaintEffectNoSchedule || t.Effect == v1.TaintEffectNoExecute
	}
	b.Run("upstream", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			schedhelper.FindMatchingUntoleratedTaint(logger, ut, utol, filter, false)
		}
	})
	b.Run("kubesem", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			node.FindUntoleratedTaint(kt, ktol, node.NoScheduleOrNoExecute, node.Options{})
		}
	})
}

func BenchmarkNodeAffinity(b *testing.B) {
	un := &v1.Node{ObjectMeta: metav1.ObjectMeta{Name: "node-1", Labels: map[string]string{"gen": "5", node.LabelTopologyZone: "z1"}}}
	kn := &node.Node{}
	kn.Name, kn.Labels = un.Name, un.Labels
	sel := map[string]string{node.LabelTopologyZone: "z1"}
	pod := &v1.Pod{Spec: v1.PodSpec{NodeSelector: sel, Affinity: &v1.Affinity{NodeAffinity: &v1.NodeAffinity{RequiredDuringSchedulingIgnoredDuringExecution: &v1.NodeSelector{NodeSelectorTerms: []v1.NodeSelectorTerm{
		{MatchExpressions: []v1.NodeSelectorRequirement{{Key: "gen", Operator: v1.NodeSelectorOpGt, Values: []string{"4"}}, {Key: node.LabelTopologyZone, Operator: v1.NodeSelectorOpIn, Values: []string{"z0", "z1"}}}},
		{MatchFields: []v1.NodeSelectorRequirement{{Key: "metadata.name", Operator: v1.NodeSelectorOpIn, Values: []string{"node-1"}}}},
	}}}}}}
	aff := &node.Affinity{NodeAffinity: &node.NodeAffinity{RequiredDuringSchedulingIgnoredDuringExecution: &node.NodeSelector{NodeSelectorTerms: []node.NodeSelectorTerm{
		{MatchExpressions: []node.NodeSelectorRequirement{{Key: "gen", Operator: node.SelectorGt, Values: []string{"4"}}, {Key: node.LabelTopologyZone, Operator: node.SelectorIn, Values: []string{"z0", "z1"}}}},
		{MatchFields: []node.NodeSelectorRequirement{{Key: node.FieldNodeName, Operator: node.SelectorIn, Values: []string{"node-1"}}}},
	}}}}
	b.Run("upstream", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			nodeaffinity.GetRequiredNodeAffinity(pod).Match(un)
		}
	})
	b.Run("kubesem", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			node.MatchesNodeSelector(sel, aff, kn)
		}
	})
}

// BenchmarkNodeZoneStates5000: the zone state of every zone from 5,000
// nodes' Ready conditions in 20 zones (a third Unknown). The upstream side
// groups the nodes exactly as monitorNodeHealth's per-node function does
// (node_lifecycle_controller.go L715-L719: the exclusion label, then under
// zoneToNodeConditionsLock `zoneToNodeConditions[GetZoneKey(node)] =
// append(zoneToNodeConditions[GetZoneKey(node)], currentReadyCondition)`,
// GetZoneKey evaluated twice), with GetNodeCondition standing in for the
// Ready condition tryUpdateNodeHealth returns, and decides each zone with
// the controller's ComputeZoneState as handleDisruption does.
func BenchmarkNodeZoneStates5000(b *testing.B) {
	up := newController(b, fake.NewSimpleClientset(), node.Options{})
	var unodes []*v1.Node
	var knodes []*node.Node
	for i := range 5000 {
		s := node.ConditionTrue
		if i%3 == 0 {
			s = node.ConditionUnknown
		}
		n := &node.Node{}
		n.Name = fmt.Sprintf("node-%05d", i)
		n.Labels = map[string]string{node.LabelTopologyZone: fmt.Sprintf("zone-%02d", i%20), node.LabelTopologyRegion: "r"}
		n.Status.Conditions = []node.Condition{{Type: node.MemoryPressure, Status: node.ConditionFalse}, {Type: node.Ready, Status: s}}
		knodes = append(knodes, n)
		unodes = append(unodes, toUp(n))
	}
	var sink int
	b.Run("upstream", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			var lock sync.Mutex
			zones := map[string][]*v1.NodeCondition{}
			for _, n := range unodes {
				_, c := nodeutil.GetNodeCondition(&n.Status, v1.NodeReady)
				if _, ok := n.Labels["node.kubernetes.io/exclude-disruption"]; !ok {
					lock.Lock()
					zones[nodetopology.GetZoneKey(n)] = append(zones[nodetopology.GetZoneKey(n)], c)
					lock.Unlock()
				}
			}
			for _, cs := range zones {
				n, _ := up.nc.ComputeZoneState(cs)
				sink += n
			}
		}
	})
	b.Run("kubesem", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			sink += len(node.ZoneStates(knodes, node.Options{}))
		}
	})
	// floor: only the reads any zone-state rule over these nodes must make
	// (the zone and region labels, the exclusion label unless those two
	// are the map's only entries, the Ready condition's status and a byte
	// of the zone value), summed, with no grouping or hashing: the bound
	// the kubesem row is measured against (scripts/bench-notes.md).
	b.Run("floor", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			sum := 0
			for _, n := range knodes {
				l := n.Labels
				z, zok := l[node.LabelTopologyZone]
				r, rok := l[node.LabelTopologyRegion]
				if zok && rok && len(l) == 2 {
					// both labels found: no other label to look for
				} else if _, ok := l[node.LabelExcludeDisruption]; ok {
					continue
				}
				if len(z) > 0 {
					sum += int(z[len(z)-1])
				}
				sum += len(r)
				for _, c := range n.Status.Conditions {
					if c.Type == node.Ready {
						if c.Status == node.ConditionTrue {
							sum++
						}
						break
					}
				}
			}
			sink += sum
		}
	})
}

// BenchmarkNodeLifecycleSync5000: one monitor pass over 5,000 nodes in 20
// zones, a third of them silent since 60 s, 10 s after a first pass that
// registered every node. The first pass starts every node's grace period
// (a node seen for the first time is probed now), so this pass is within
// it: both sides find every node's health unchanged and write nothing
// (BenchmarkGrowth/node has a pass that marks the silent third Unknown).
// Upstream runs monitorNodeHealth on a fake client with its informer
// stores filled; each iteration restores the nodes.
func BenchmarkNodeLifecycleSync5000(b *testing.B) {
	t0 := t0
	var knodes []*node.Node
	var kleases []node.Lease
	var unodes []*v1.Node
	for i := range 5000 {
		hb := t0
		if i%3 == 0 {
			hb = t0.Add(-60 * time.Second)
		}
		n := &node.Node{}
		n.Name = fmt.Sprintf("node-%05d", i)
		n.CreationTimestamp = t0.Add(-time.Hour)
		n.Labels = map[string]string{node.LabelTopologyZone: fmt.Sprintf("zone-%02d", i%20)}
		n.Status.Conditions = []node.Condition{{Type: node.Ready, Status: node.ConditionTrue, LastHeartbeatTime: hb, LastTransitionTime: t0.Add(-time.Hour)}}
		knodes = append(knodes, n)
		rt := hb
		kleases = append(kleases, node.Lease{ObjectMeta: meta.ObjectMeta{Name: n.Name}, Spec: node.LeaseSpec{RenewTime: &rt}})
		unodes = append(unodes, toUp(n))
	}
	b.Run("upstream", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			b.StopTimer()
			var objs []runtime.Object
			for _, n := range unodes {
				objs = append(objs, n.DeepCopy())
			}
			client := fake.NewSimpleClientset(objs...)
			c := newController(b, client, node.Options{})
			ns := c.factory.Core().V1().Nodes().Informer().GetStore()
			ls := c.factory.Coordination().V1().Leases().Informer().GetStore()
			for i, n := range unodes {
				_ = ns.Add(n.DeepCopy())
				rt := metav1.NewMicroTime(*kleases[i].Spec.RenewTime)
				_ = ls.Add(&coordv1.Lease{ObjectMeta: metav1.ObjectMeta{Name: n.Name, Namespace: v1.NamespaceNodeLease}, Spec: coordv1.LeaseSpec{RenewTime: &rt}})
			}
			*c.now = t0.Add(-5 * time.Second)
			_ = upMonitorNodeHealth(c.nc, context.Background())
			*c.now = t0.Add(5 * time.Second)
			b.StartTimer()
			_ = upMonitorNodeHealth(c.nc, context.Background())
		}
	})
	b.Run("kubesem", func(b *testing.B) {
		p, _ := node.Step(knodes, kleases, nil, node.Memory{}, t0.Add(-5*time.Second), node.Options{})
		b.ReportAllocs()
		for b.Loop() {
			node.Step(knodes, kleases, nil, p.Memory, t0.Add(5*time.Second), node.Options{})
		}
	})
}
