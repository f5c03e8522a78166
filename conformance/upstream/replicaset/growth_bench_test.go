package replicaset_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"reflect"
	"strconv"
	"testing"
	"time"

	apps "k8s.io/api/apps/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes/fake"
	clienttesting "k8s.io/client-go/testing"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/tools/record"
	"k8s.io/client-go/util/workqueue"
	"k8s.io/klog/v2"
	appsdefaults "k8s.io/kubernetes/pkg/apis/apps/v1"
	"k8s.io/kubernetes/pkg/controller"
	upstreamrs "k8s.io/kubernetes/pkg/controller/replicaset"
	clocktesting "k8s.io/utils/clock/testing"

	"github.com/kubesem/kubesem/conformance/upstream/internal/difftest"
	"github.com/kubesem/kubesem/k8s"
	"github.com/kubesem/kubesem/meta"
	"github.com/kubesem/kubesem/podstatus"
	"github.com/kubesem/kubesem/replicaset"
)

// growthState is a ReplicaSet of a Deployment scaled down from n to
// n - n/10 replicas: its n pods Running and Ready on n/10 nodes, created
// within the last day, a tenth with a deletion cost, and its status as
// the previous sync left it (computed by Step on the unscaled set).
func growthState(b *testing.B, n int) (*replicaset.ReplicaSet, []*podstatus.Pod) {
	r := rand.New(rand.NewPCG(uint64(n), 7))
	yes := true
	labels := map[string]string{"app": "web", "pod-template-hash": "5d4f8b7c9"}
	rs := &replicaset.ReplicaSet{ObjectMeta: meta.ObjectMeta{Name: "web-5d4f8b7c9", Namespace: "default", UID: "rs-uid", Generation: 2, Labels: labels,
		OwnerReferences: []meta.OwnerReference{{APIVersion: "apps/v1", Kind: "Deployment", Name: "web", UID: "deploy-uid", Controller: &yes}}}}
	rs.Spec.Replicas = difftest.Ptr(int32(n))
	rs.Spec.Selector = meta.SelectorFromSet(labels)
	rs.Spec.Template.Labels = labels
	rs.Spec.Template.Spec.Containers = []podstatus.Container{{Name: "web", Image: "registry.example/web:1"}}
	nodes := max(1, n/10)
	pods := make([]*podstatus.Pod, n)
	for i := range pods {
		p := &podstatus.Pod{}
		p.Name, p.Namespace = "web-5d4f8b7c9-"+strconv.Itoa(i), "default"
		p.UID = strconv.FormatUint(r.Uint64(), 16)
		p.Labels = labels
		p.OwnerReferences = []meta.OwnerReference{{APIVersion: "apps/v1", Kind: "ReplicaSet", Name: rs.Name, UID: rs.UID, Controller: &yes}}
		p.Spec.NodeName = "node-" + strconv.Itoa(r.IntN(nodes))
		p.Spec.Containers = rs.Spec.Template.Spec.Containers
		p.CreationTimestamp = base.Add(-time.Duration(1+r.IntN(86400)) * time.Second)
		p.Status.Phase = podstatus.Running
		p.Status.Conditions = []podstatus.Condition{{Type: podstatus.Ready, Status: meta.ConditionTrue,
			LastTransitionTime: p.CreationTimestamp.Add(time.Duration(r.IntN(60)) * time.Second)}}
		p.Status.ContainerStatuses = []podstatus.ContainerStatus{{Name: "web", Ready: true, RestartCount: int32(r.IntN(3))}}
		if r.IntN(10) == 0 {
			p.Annotations = map[string]string{podstatus.DeletionCostAnnotation: strconv.Itoa(r.IntN(5))}
		}
		pods[i] = p
	}
	settled, err := replicaset.Step(rs, pods, pods, base, replicaset.Options{})
	if err != nil {
		b.Fatal(err)
	}
	rs.Status = settled.Status
	rs.Spec.Replicas = difftest.Ptr(int32(n - n/10))
	return rs, pods
}

// BenchmarkGrowth (issue 24, how cost grows): replicaset.Step against
// syncReplicaSet over n pods (growthState): the ReplicaSet is n/10 pods
// too many, so both rank all n pods (by their siblings on the same node,
// the pods of the Deployment's ReplicaSets) and delete min(n/10, 500) (the
// burst), and find the status unchanged. Upstream's controller is built
// once on fakes (RealPodControl on a fake clientset that answers deletes
// and status updates without storing them; its informer stores keep every
// pod); before each sync its expectations for the set are dropped, as
// they are once its deletions are observed. Both must delete the same
// number of pods and agree whether to write the status.
func BenchmarkGrowth(b *testing.B) {
	difftest.Growth(b, "replicaset", func(b *testing.B, n int) *difftest.GrowthCase {
		rs, pods := growthState(b, n)
		var p replicaset.Plan

		ctx := context.Background()
		client := fake.NewSimpleClientset()
		client.PrependReactor("*", "*", func(a clienttesting.Action) (bool, runtime.Object, error) {
			switch a := a.(type) {
			case clienttesting.DeleteAction:
				return true, nil, nil
			case clienttesting.UpdateAction:
				return true, a.GetObject(), nil
			}
			return false, nil, nil
		})
		inf := informers.NewSharedInformerFactory(client, 0)
		rsc := upstreamrs.NewReplicaSetController(ctx, inf.Apps().V1().ReplicaSets(), inf.Core().V1().Pods(), client, upstreamrs.BurstReplicas)
		difftest.Stop(rsc) // its queue is replaced below and its broadcaster unused (the pod control records)
		setField(rsc, "podControl", controller.PodControlInterface(controller.RealPodControl{KubeClient: client, Recorder: &record.FakeRecorder{}}))
		setField(rsc, "queue", workqueue.TypedRateLimitingInterface[string](&difftest.QueueRecorder{}))
		setField(rsc, "clock", clocktesting.NewFakeClock(base))
		always := cache.InformerSynced(func() bool { return true })
		setField(rsc, "podListerSynced", always)
		setField(rsc, "rsListerSynced", always)
		urs := difftest.Must(k8s.ToReplicaSet(rs))
		appsdefaults.SetObjectDefaults_ReplicaSet(urs)
		if err := inf.Apps().V1().ReplicaSets().Informer().GetIndexer().Add(urs); err != nil {
			b.Fatal(err)
		}
		for _, q := range pods {
			if err := inf.Core().V1().Pods().Informer().GetIndexer().Add(v1Pod(q)); err != nil {
				b.Fatal(err)
			}
		}
		exp := difftest.Field(reflect.ValueOf(rsc).Elem(), "expectations").Interface().(*controller.UIDTrackingControllerExpectations)
		logger := klog.Background()
		key := rs.Namespace + "/" + rs.Name
		outcome := func(deletes int, status bool) string {
			return fmt.Sprintf("deletes=%d status write %v", deletes, status)
		}
		return &difftest.GrowthCase{
			Kubesem: difftest.GrowthSide{
				Op:      func() (err error) { p, err = replicaset.Step(rs, pods, pods, base, replicaset.Options{}); return err },
				Outcome: func() string { return outcome(len(p.Delete), p.UpdateStatus) },
			},
			Upstream: difftest.GrowthSide{
				Op: func() error {
					client.ClearActions()
					exp.DeleteExpectations(logger, key)
					return syncReplicaSet(rsc, ctx, key)
				},
				Outcome: func() string {
					deletes, status := 0, false
					for _, a := range client.Actions() {
						switch {
						case a.GetVerb() == "delete" && a.GetResource().Resource == "pods":
							deletes++
						case a.GetVerb() == "update" && a.GetSubresource() == "status":
							_, status = a.(clienttesting.UpdateAction).GetObject().(*apps.ReplicaSet)
						}
					}
					return outcome(deletes, status)
				},
			},
		}
	})
}
