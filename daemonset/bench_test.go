package daemonset_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/kubesem/kubesem/daemonset"
	"github.com/kubesem/kubesem/history"
	"github.com/kubesem/kubesem/intstr"
	"github.com/kubesem/kubesem/meta"
	"github.com/kubesem/kubesem/node"
	"github.com/kubesem/kubesem/podstatus"
)

// benchCluster is n nodes, each with a mix of taints, and one old ready
// daemon pod on each.
func benchCluster(n int) (*daemonset.DaemonSet, []*node.Node, []*podstatus.Pod) {
	ds := &daemonset.DaemonSet{}
	ds.Name, ds.UID, ds.Generation = "ds", "ds-uid", 2
	ds.Spec.Selector = &meta.LabelSelector{MatchLabels: map[string]string{"app": "d"}}
	ds.Spec.Template.Labels = map[string]string{"app": "d"}
	mu := intstr.String("10%")
	ds.Spec.UpdateStrategy = daemonset.UpdateStrategy{Type: daemonset.RollingUpdate, RollingUpdate: &daemonset.RollingParams{MaxUnavailable: &mu}}
	ds.Spec.Template.Spec.Tolerations = []node.Toleration{{Key: "dedicated", Operator: node.OpEqual, Value: "infra", Effect: "NoSchedule"}}
	ds.Spec.Template.Spec.NodeSelector = map[string]string{"kubernetes.io/os": "linux"}
	nodes := make([]*node.Node, n)
	pods := make([]*podstatus.Pod, n)
	for i := range nodes {
		nd := &node.Node{}
		nd.Name = fmt.Sprintf("node-%05d", i)
		nd.Labels = map[string]string{"kubernetes.io/os": "linux", "zone": fmt.Sprint(i % 3)}
		switch i % 4 {
		case 1:
			nd.Spec.Taints = []node.Taint{{Key: node.TaintNotReady, Effect: node.NoExecute}}
		case 2:
			nd.Spec.Taints = []node.Taint{{Key: "dedicated", Value: "infra", Effect: node.NoSchedule}, {Key: node.TaintUnschedulable, Effect: node.NoSchedule}}
		case 3:
			nd.Spec.Taints = []node.Taint{{Key: "gpu", Effect: node.NoSchedule}}
		}
		nodes[i] = nd
		pods[i] = readyPod(fmt.Sprintf("ds-%05d", i), nd.Name, "old", t0, t0, true, podstatus.Running)
	}
	return ds, nodes, pods
}

func BenchmarkNodeShouldRunDaemonPod(b *testing.B) {
	ds, nodes, _ := benchCluster(4)
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		_ = daemonset.NodeShouldRunDaemonPod(nodes[i&3], ds, daemonset.Options{})
	}
}

func BenchmarkEligibility5000Nodes(b *testing.B) {
	ds, nodes, _ := benchCluster(5000)
	b.ReportAllocs()
	for b.Loop() {
		for _, n := range nodes {
			_ = daemonset.NodeShouldRunDaemonPod(n, ds, daemonset.Options{})
		}
	}
}

func BenchmarkUnavailableNumbers(b *testing.B) {
	ds, _, _ := benchCluster(0)
	b.ReportAllocs()
	for b.Loop() {
		_, _ = daemonset.UnavailableNumbers(ds, 4999)
	}
}

func BenchmarkIsPodUpdated(b *testing.B) {
	pod := &podstatus.Pod{}
	pod.Labels = map[string]string{history.HashLabel: "abc"}
	ds := &daemonset.DaemonSet{}
	b.ReportAllocs()
	for b.Loop() {
		_ = daemonset.IsPodUpdated(pod, "abd", ds)
	}
}

func BenchmarkStep5000Nodes(b *testing.B) {
	ds, nodes, pods := benchCluster(5000)
	now := t0.Add(time.Hour)
	b.ReportAllocs()
	for b.Loop() {
		_, _ = daemonset.Step(ds, nodes, pods, daemonset.History{Hash: "new"}, nil, now, daemonset.Options{})
	}
}

func BenchmarkPodTolerations(b *testing.B) {
	ds, _, _ := benchCluster(0)
	b.ReportAllocs()
	for b.Loop() {
		_ = daemonset.PodTolerations(&ds.Spec.Template.Spec)
	}
}

func BenchmarkTargetNodeName(b *testing.B) {
	var spec podstatus.Spec
	spec.Affinity = daemonset.PinToNode(nil, "node-1")
	b.ReportAllocs()
	for b.Loop() {
		_, _ = daemonset.TargetNodeName(&spec)
	}
}

func BenchmarkNewPod(b *testing.B) {
	ds, _, _ := benchCluster(0)
	b.ReportAllocs()
	for b.Loop() {
		_ = daemonset.NewPod(ds, "node-1", "abc")
	}
}

func BenchmarkValidate(b *testing.B) {
	ds, _, _ := benchCluster(0)
	b.ReportAllocs()
	for b.Loop() {
		_ = daemonset.Validate(ds, daemonset.Options{})
	}
}

func BenchmarkClaimPod(b *testing.B) {
	ds, _, pods := benchCluster(1)
	p := *pods[0]
	p.OwnerReferences = nil
	b.ReportAllocs()
	for b.Loop() {
		daemonset.ClaimPod(ds, &p)
	}
}

func BenchmarkClaimRevision(b *testing.B) {
	ds, _, _ := benchCluster(1)
	r := history.ControllerRevision{Revision: 1}
	r.Name, r.Labels = "ds-new", map[string]string{"app": "d", history.HashLabel: "new"}
	b.ReportAllocs()
	for b.Loop() {
		daemonset.ClaimRevision(ds, &r)
	}
}
