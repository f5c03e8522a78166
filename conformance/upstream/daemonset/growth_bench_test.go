package daemonset_test

import (
	"context"
	"fmt"
	"reflect"
	"testing"

	clientset "k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/record"
	"k8s.io/klog/v2"
	"k8s.io/kubernetes/pkg/controller"

	"github.com/kubesem/kubesem/conformance/upstream/internal/difftest"
	"github.com/kubesem/kubesem/daemonset"
	"github.com/kubesem/kubesem/k8s"
)

// BenchmarkGrowth (issue 24, how cost grows): daemonset.Step against
// syncDaemonSet over n nodes with one pod each (benchCluster: a quarter
// not-ready, a quarter tainted, tolerated and cordoned, a quarter tainted
// and not tolerated; every pod of the old template, maxUnavailable 10%):
// both keep every pod where it is, create the revision of the new
// template, delete min(10% of the desired pods, 250) old pods to update
// them (the burst) and write the status. Upstream's controller is built
// once (the harness's fake clientset, whose reactors take every write
// without storing it; stores filled once; events to a fake recorder that
// drops them); before each sync its expectations for the set are dropped,
// as they are once its deletions are observed. Both must create and delete
// the same number of pods and agree whether to write the status.
func BenchmarkGrowth(b *testing.B) {
	difftest.Growth(b, "daemonset", func(b *testing.B, n int) *difftest.GrowthCase {
		uds, unodes, upods := benchCluster(n)
		ds, nodes, pods := toKubesem(uds, unodes, upods)
		hist, err := k8s.DaemonSetHistory(uds, nil)
		if err != nil {
			b.Fatal(err)
		}
		var p daemonset.Plan

		h := newHarness(b)
		dsc := reflect.ValueOf(h.dsc).Elem()
		client := difftest.Field(dsc, "kubeClient").Interface().(clientset.Interface)
		difftest.Field(dsc, "eventRecorder").Set(reflect.ValueOf(record.EventRecorder(&record.FakeRecorder{})))
		difftest.Field(dsc, "podControl").Set(reflect.ValueOf(controller.PodControlInterface(controller.RealPodControl{KubeClient: client, Recorder: &record.FakeRecorder{}})))
		exp := difftest.Field(dsc, "expectations").Interface().(controller.ControllerExpectationsInterface)
		for _, x := range unodes {
			_ = h.factory.Core().V1().Nodes().Informer().GetStore().Add(x)
		}
		for _, x := range upods {
			_ = h.factory.Core().V1().Pods().Informer().GetStore().Add(x)
		}
		_ = h.factory.Apps().V1().DaemonSets().Informer().GetStore().Add(uds)
		ctx := klog.NewContext(context.Background(), klog.Background())
		key := uds.Namespace + "/" + uds.Name
		outcome := func(creates, deletes int, status bool) string {
			return fmt.Sprintf("creates=%d deletes=%d status write %v", creates, deletes, status)
		}
		return &difftest.GrowthCase{
			Kubesem: difftest.GrowthSide{
				Op: func() (err error) {
					p, err = daemonset.Step(ds, nodes, pods, hist, nil, t0, daemonset.Options{})
					return err
				},
				Outcome: func() string { return outcome(len(p.Create.Objects), len(p.Delete), p.UpdateStatus) },
			},
			Upstream: difftest.GrowthSide{
				Op: func() error {
					h.created, h.deleted, h.status, h.revs, h.labels = h.created[:0], h.deleted[:0], nil, h.revs[:0], h.labels[:0]
					exp.DeleteExpectations(klog.Background(), key)
					return syncDaemonSet(h.dsc, ctx, key)
				},
				Outcome: func() string { return outcome(len(h.created), len(h.deleted), h.status != nil) },
			},
			Close: func() { difftest.Stop(h.dsc) },
		}
	})
}
