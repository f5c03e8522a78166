package podgc_test

import (
	"context"
	"fmt"
	"strconv"
	"testing"
	"time"

	"github.com/go-logr/logr"
	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes/fake"
	k8stesting "k8s.io/client-go/testing"
	"k8s.io/klog/v2"
	upodgc "k8s.io/kubernetes/pkg/controller/podgc"

	"github.com/kubesem/kubesem/conformance/upstream/internal/difftest"
	"github.com/kubesem/kubesem/k8s"
	"github.com/kubesem/kubesem/meta"
	"github.com/kubesem/kubesem/node"
	"github.com/kubesem/kubesem/podgc"
	"github.com/kubesem/kubesem/podstatus"
)

// growthCluster is n pods on n/10 nodes (at least one), one in ten
// Succeeded (under the default threshold of 12,500 terminated pods at every
// size up to 10^5), and ten more on a node that no longer exists.
func growthCluster(n int) ([]*podstatus.Pod, []*clusterNode) {
	nn := max(1, n/10)
	var nodes []*clusterNode
	for i := range nn {
		c := &clusterNode{}
		c.Name = fmt.Sprintf("node-%05d", i)
		c.Status.Conditions = []node.Condition{{Type: node.Ready, Status: node.ConditionTrue}}
		nodes = append(nodes, c)
	}
	yes := true
	pods := make([]*podstatus.Pod, n+10)
	for i := range pods {
		p := &podstatus.Pod{}
		p.Name, p.Namespace, p.UID = "pod-"+strconv.Itoa(i), "default", "uid-"+strconv.Itoa(i)
		p.Labels = map[string]string{"app": "web-" + strconv.Itoa(i%50)}
		p.OwnerReferences = []meta.OwnerReference{{APIVersion: "apps/v1", Kind: "ReplicaSet", Name: "web-" + strconv.Itoa(i%50), UID: "rs-" + strconv.Itoa(i%50), Controller: &yes}}
		p.CreationTimestamp = difftest.PodT0.Add(-time.Duration(i%5000) * time.Second)
		p.Spec.NodeName = nodes[i%nn].Name
		if i >= n {
			p.Spec.NodeName = "node-gone"
		}
		p.Spec.Containers = []podstatus.Container{{Name: "c", Image: "registry.example/web:1"}}
		p.Status.Phase = podstatus.Running
		if i%10 == 5 {
			p.Status.Phase = podstatus.Succeeded
		}
		pods[i] = p
	}
	return pods, nodes
}

// BenchmarkGrowth (issue 24, how cost grows): podgc.Step against one
// pass of the pod GC controller (gc: terminated, terminating, orphaned,
// unscheduled-terminating) over n pods on n/10 nodes (growthCluster),
// quarantine off on both sides (as BenchmarkPodGCPass): each pass finds the
// ten pods of the vanished node orphaned, marks them (DisruptionTarget) and
// deletes them; the terminated pods stay under the threshold. Upstream's
// controller is built once; its fake clientset answers the patches and
// deletes without storing them (its informer stores keep every pod) and
// finds no node on a get, so every pass does the same work. Both must
// delete and patch the same number of pods.
func BenchmarkGrowth(b *testing.B) {
	difftest.Growth(b, "podgc", func(b *testing.B, n int) *difftest.GrowthCase {
		pods, nodes := growthCluster(n)
		kn, un := listed(nodes), unlisted(nodes)
		opts := podgc.Options{Quarantine: -time.Nanosecond}
		var p podgc.Plan

		client := fake.NewSimpleClientset()
		client.PrependReactor("*", "pods", func(a k8stesting.Action) (bool, runtime.Object, error) {
			switch a.GetVerb() {
			case "patch", "delete":
				return true, &v1.Pod{}, nil
			}
			return false, nil, nil
		})
		factory := informers.NewSharedInformerFactory(client, 0)
		podInf, nodeInf := factory.Core().V1().Pods(), factory.Core().V1().Nodes()
		ctx, cancel := context.WithCancel(klog.NewContext(context.Background(), logr.Discard()))
		gcc := upodgc.NewPodGCInternal(ctx, client, podInf, nodeInf, podgc.DefaultTerminatedPodThreshold, time.Hour, -time.Nanosecond)
		for _, q := range pods {
			_ = podInf.Informer().GetStore().Add(difftest.Must(k8s.ToPod(q)))
		}
		for _, c := range nodes {
			_ = nodeInf.Informer().GetStore().Add(difftest.Must(k8s.ToNode(&c.Node)))
		}
		count := func() (patches, deletes int) {
			for _, a := range client.Actions() {
				switch a.GetVerb() {
				case "patch":
					patches++
				case "delete":
					deletes++
				}
			}
			return
		}
		return &difftest.GrowthCase{
			Kubesem: difftest.GrowthSide{
				Op: func() (err error) {
					p, err = podgc.Step(pods, kn, un, podgc.Memory{}, difftest.PodT0, opts)
					return err
				},
				Outcome: func() string {
					return fmt.Sprintf("patches=%d deletes=%d", len(p.Patch), len(p.Delete))
				},
			},
			Upstream: difftest.GrowthSide{
				Op: func() error { client.ClearActions(); difftest.PodGCPass(gcc, ctx); return nil },
				Outcome: func() string {
					patches, deletes := count()
					return fmt.Sprintf("patches=%d deletes=%d", patches, deletes)
				},
			},
			Close: func() { difftest.Stop(cancel, gcc) },
		}
	})
}
