package daemonset_test

import (
	"fmt"
	"testing"
	"time"

	apps "k8s.io/api/apps/v1"
	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	intstrutil "k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/klog/v2"
	"k8s.io/kubernetes/pkg/controller/daemon"

	"github.com/kubesem/kubesem/conformance/upstream/internal/difftest"
	"github.com/kubesem/kubesem/daemonset"
	"github.com/kubesem/kubesem/k8s"
)

// benchCluster is the same 5,000-node cluster for both sides: a
// quarter of the nodes not-ready, a quarter tainted and tolerated and
// cordoned, a quarter tainted and not tolerated; one old ready pod per
// node; maxUnavailable 10 %.
func benchCluster(n int) (*apps.DaemonSet, []*v1.Node, []*v1.Pod) {
	ds := &apps.DaemonSet{ObjectMeta: metav1.ObjectMeta{Name: "bench", Namespace: "default", UID: "uid-bench", Generation: 2}}
	ds.Spec.Selector = &metav1.LabelSelector{MatchLabels: podLabels}
	ds.Spec.Template.Labels = podLabels
	ds.Spec.Template.Spec.Containers = []v1.Container{{Name: "c", Image: "i"}}
	ds.Spec.Template.Spec.NodeSelector = map[string]string{"kubernetes.io/os": "linux"}
	ds.Spec.Template.Spec.Tolerations = []v1.Toleration{{Key: "dedicated", Operator: v1.TolerationOpEqual, Value: "infra", Effect: v1.TaintEffectNoSchedule}}
	mu := intstrutil.FromString("10%")
	ds.Spec.UpdateStrategy = apps.DaemonSetUpdateStrategy{Type: apps.RollingUpdateDaemonSetStrategyType, RollingUpdate: &apps.RollingUpdateDaemonSet{MaxUnavailable: &mu}}
	ds.Spec.RevisionHistoryLimit = difftest.Ptr(int32(10))
	ctrl := true
	owner := []metav1.OwnerReference{{APIVersion: "apps/v1", Kind: "DaemonSet", Name: ds.Name, UID: ds.UID, Controller: &ctrl}}
	nodes := make([]*v1.Node, n)
	pods := make([]*v1.Pod, n)
	t0 := metav1.NewTime(t0.Add(-time.Hour))
	for i := range nodes {
		nd := &v1.Node{ObjectMeta: metav1.ObjectMeta{Name: fmt.Sprintf("node-%05d", i), Labels: map[string]string{"kubernetes.io/os": "linux", "zone": fmt.Sprint(i % 3)}}}
		switch i % 4 {
		case 1:
			nd.Spec.Taints = []v1.Taint{{Key: "node.kubernetes.io/not-ready", Effect: v1.TaintEffectNoExecute}}
		case 2:
			nd.Spec.Unschedulable = true
			nd.Spec.Taints = []v1.Taint{{Key: "dedicated", Value: "infra", Effect: v1.TaintEffectNoSchedule}, {Key: "node.kubernetes.io/unschedulable", Effect: v1.TaintEffectNoSchedule}}
		case 3:
			nd.Spec.Taints = []v1.Taint{{Key: "gpu", Effect: v1.TaintEffectNoSchedule}}
		}
		nodes[i] = nd
		p := &v1.Pod{ObjectMeta: metav1.ObjectMeta{Name: fmt.Sprintf("ds-%05d", i), Namespace: "default", UID: types.UID(fmt.Sprintf("uid-%05d", i)), OwnerReferences: owner,
			Labels: map[string]string{"app": "d", apps.DefaultDaemonSetUniqueLabelKey: "old"}, CreationTimestamp: t0}}
		p.Spec.NodeName = nd.Name
		p.Status.Phase = v1.PodRunning
		p.Status.Conditions = []v1.PodCondition{{Type: v1.PodReady, Status: v1.ConditionTrue, LastTransitionTime: t0}}
		pods[i] = p
	}
	return ds, nodes, pods
}

func BenchmarkDaemonSetEligibility5000Upstream(b *testing.B) {
	ds, nodes, _ := benchCluster(5000)
	logger := klog.Background()
	b.ReportAllocs()
	for b.Loop() {
		for _, n := range nodes {
			daemon.NodeShouldRunDaemonPod(logger, n, ds)
		}
	}
}

func BenchmarkDaemonSetEligibility5000Kubesem(b *testing.B) {
	uds, unodes, upods := benchCluster(5000)
	ds, nodes, _ := toKubesem(uds, unodes, upods)
	b.ReportAllocs()
	for b.Loop() {
		for _, n := range nodes {
			daemonset.NodeShouldRunDaemonPod(n, ds, daemonset.Options{})
		}
	}
}

// The upstream sync is syncDaemonSet on fakes whose writes are recorded
// and dropped; each iteration uses a fresh DaemonSet name so that its
// expectations and backoff start empty, as Step's do.
func BenchmarkDaemonSetSync5000Upstream(b *testing.B) {
	h := newHarness(b)
	ds, nodes, pods := benchCluster(5000)
	i := 0
	b.ReportAllocs()
	for b.Loop() {
		i++
		d := ds.DeepCopy()
		d.Name = fmt.Sprintf("bench-%d", i)
		d.UID = types.UID(d.Name)
		for _, p := range pods {
			p.OwnerReferences[0].Name, p.OwnerReferences[0].UID = d.Name, d.UID
		}
		if err := h.sync(b, d, nodes, pods); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkDaemonSetSync5000Kubesem(b *testing.B) {
	uds, unodes, upods := benchCluster(5000)
	ds, nodes, pods := toKubesem(uds, unodes, upods)
	hist, err := k8s.DaemonSetHistory(uds, nil)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := daemonset.Step(ds, nodes, pods, hist, nil, t0, daemonset.Options{}); err != nil {
			b.Fatal(err)
		}
	}
}
