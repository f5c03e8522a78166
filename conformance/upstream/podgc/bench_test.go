package podgc_test

import (
	"context"
	"strconv"
	"testing"
	"time"

	"github.com/go-logr/logr"
	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes/fake"
	"k8s.io/klog/v2"
	upodgc "k8s.io/kubernetes/pkg/controller/podgc"

	"github.com/kubesem/kubesem/conformance/upstream/internal/difftest"
	"github.com/kubesem/kubesem/node"
	"github.com/kubesem/kubesem/podgc"
	"github.com/kubesem/kubesem/podstatus"
)

// benchCluster is 20,000 pods on 50 nodes, 15,000 of them terminated (so
// 2,500 go beyond the default threshold), every fiftieth on a node that no
// longer exists.
func benchCluster() ([]*podstatus.Pod, []*clusterNode) {
	var nodes []*clusterNode
	for i := range 50 {
		n := &clusterNode{}
		n.Name = "node-" + strconv.Itoa(i)
		n.Status.Conditions = []node.Condition{{Type: node.Ready, Status: "True"}}
		nodes = append(nodes, n)
	}
	pods := make([]*podstatus.Pod, 20000)
	for i := range pods {
		p := &podstatus.Pod{}
		p.Name, p.Namespace, p.UID = "pod-"+strconv.Itoa(i), "default", "uid-"+strconv.Itoa(i)
		p.CreationTimestamp = difftest.PodT0.Add(time.Duration(i%5000) * time.Second)
		p.Spec.NodeName = "node-" + strconv.Itoa(i%51)
		p.Status.Phase = podstatus.Running
		if i%4 != 0 {
			p.Status.Phase = podstatus.Succeeded
		}
		pods[i] = p
	}
	return pods, nodes
}

func BenchmarkPodGCPass(b *testing.B) {
	pods, nodes := benchCluster()
	b.Run("kubesem", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			plan, err := podgc.Step(pods, listed(nodes), unlisted(nodes), podgc.Memory{}, difftest.PodT0, podgc.Options{Quarantine: -time.Nanosecond})
			if err != nil {
				b.Fatal(err)
			}
			if len(plan.Delete) == 0 {
				b.Fatal("nothing deleted")
			}
		}
	})
	b.Run("upstream", func(b *testing.B) {
		b.ReportAllocs()
		var vpods []*v1.Pod
		var objs []runtime.Object
		for _, p := range pods {
			u := &v1.Pod{ObjectMeta: metav1.ObjectMeta{Name: p.Name, Namespace: p.Namespace, CreationTimestamp: metav1.NewTime(p.CreationTimestamp)}}
			u.Spec.NodeName, u.Status.Phase = p.Spec.NodeName, v1.PodPhase(p.Status.Phase)
			vpods = append(vpods, u)
			objs = append(objs, u)
		}
		var vnodes []*v1.Node
		for _, n := range nodes {
			u := &v1.Node{ObjectMeta: metav1.ObjectMeta{Name: n.Name}, Status: v1.NodeStatus{Conditions: []v1.NodeCondition{{Type: v1.NodeReady, Status: v1.ConditionTrue}}}}
			vnodes = append(vnodes, u)
			objs = append(objs, u)
		}
		for b.Loop() {
			b.StopTimer()
			client := fake.NewSimpleClientset(objs...)
			factory := informers.NewSharedInformerFactory(client, 0)
			podInf, nodeInf := factory.Core().V1().Pods(), factory.Core().V1().Nodes()
			ctx, cancel := context.WithCancel(klog.NewContext(context.Background(), logr.Discard()))
			gcc := upodgc.NewPodGCInternal(ctx, client, podInf, nodeInf, 12500, time.Hour, -time.Nanosecond)
			for _, p := range vpods {
				_ = podInf.Informer().GetStore().Add(p)
			}
			for _, n := range vnodes {
				_ = nodeInf.Informer().GetStore().Add(n)
			}
			b.StartTimer()
			difftest.PodGCPass(gcc, ctx)
			b.StopTimer()
			difftest.Stop(cancel, gcc)
			b.StartTimer()
		}
	})
}
