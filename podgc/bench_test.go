package podgc_test

import (
	"strconv"
	"testing"
	"time"

	"github.com/kubesem/kubesem/node"
	"github.com/kubesem/kubesem/podgc"
	"github.com/kubesem/kubesem/podstatus"
)

func BenchmarkStep20000(b *testing.B) {
	var nodes []*node.Node
	for i := range 50 {
		n := &node.Node{}
		n.Name = "node-" + strconv.Itoa(i)
		n.Status.Conditions = []node.Condition{{Type: node.Ready, Status: node.ConditionTrue}}
		nodes = append(nodes, n)
	}
	pods := make([]*podstatus.Pod, 20000)
	for i := range pods {
		p := &podstatus.Pod{}
		p.Name = "pod-" + strconv.Itoa(i)
		p.CreationTimestamp = t0.Add(time.Duration(i%5000) * time.Second)
		p.Spec.NodeName = "node-" + strconv.Itoa(i%51)
		p.Status.Phase = podstatus.Succeeded
		pods[i] = p
	}
	b.ReportAllocs()
	for b.Loop() {
		_ = mustStep(b, pods, nodes, nil, podgc.Memory{}, t0, podgc.Options{})
	}
}

func BenchmarkEvictedFirst(b *testing.B) {
	x := &podstatus.Pod{Status: podstatus.Status{Phase: podstatus.Failed, Reason: podgc.EvictedReason}}
	y := &podstatus.Pod{Status: podstatus.Status{Phase: podstatus.Failed}}
	b.ReportAllocs()
	for b.Loop() {
		_ = podgc.EvictedFirst(x, y)
	}
}

func BenchmarkTerminated1000(b *testing.B) {
	pods := make([]*podstatus.Pod, 1000)
	for i := range pods {
		p := &podstatus.Pod{}
		p.Name = "pod-" + strconv.Itoa(i)
		p.CreationTimestamp = t0.Add(time.Duration(i%97) * time.Second)
		p.Status.Phase = podstatus.Succeeded
		pods[i] = p
	}
	b.ReportAllocs()
	for b.Loop() {
		_ = podgc.Terminated(pods, 500)
	}
}

func BenchmarkOutOfService(b *testing.B) {
	n := &node.Node{}
	n.Status.Conditions = []node.Condition{{Type: node.Ready, Status: node.ConditionFalse}}
	n.Spec.Taints = []node.Taint{{Key: "a"}, {Key: podgc.OutOfServiceTaint, Effect: node.NoExecute}}
	b.ReportAllocs()
	for b.Loop() {
		_ = podgc.OutOfService(n)
	}
}
