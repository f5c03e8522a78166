package replicaset_test

import (
	"context"
	"testing"
	"time"

	apps "k8s.io/api/apps/v1"
	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes/fake"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/tools/record"
	"k8s.io/client-go/util/workqueue"
	appsdefaults "k8s.io/kubernetes/pkg/apis/apps/v1"
	"k8s.io/kubernetes/pkg/controller"
	upstreamrs "k8s.io/kubernetes/pkg/controller/replicaset"
	clocktesting "k8s.io/utils/clock/testing"

	"github.com/kubesem/kubesem/cluster"
	"github.com/kubesem/kubesem/conformance/upstream/internal/difftest"
	"github.com/kubesem/kubesem/k8s"
	"github.com/kubesem/kubesem/plan"
)

// TestWorldRelatedPodsOfThirdControllers: a ReplicaSet a of a controller
// (sibling b) scales down from two pods to one; a pod controlled by a
// standalone ReplicaSet c carries a's labels and runs beside one of a's
// pods. v1.36.3's ReplicaSet controller (syncReplicaSet on informer
// caches) ranks a's pods by every pod its siblings' selectors select on
// the same node, c's pod included; the world must delete the pod upstream
// deletes, for c's pod on either node.
func TestWorldRelatedPodsOfThirdControllers(t *testing.T) {
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	yes := true
	one, zero := int32(1), int32(0)
	owner := metav1.OwnerReference{APIVersion: "example.com/v1", Kind: "Rollout", Name: "web", UID: "00000000-0000-4000-8000-0000000000d1", Controller: &yes}
	rs := func(name, uid string, replicas *int32, labels map[string]string, owner *metav1.OwnerReference) *apps.ReplicaSet {
		r := &apps.ReplicaSet{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "default", UID: types.UID(uid), Generation: 1},
			Spec: apps.ReplicaSetSpec{Replicas: replicas, Selector: &metav1.LabelSelector{MatchLabels: labels},
				Template: v1.PodTemplateSpec{ObjectMeta: metav1.ObjectMeta{Labels: labels},
					Spec: v1.PodSpec{Containers: []v1.Container{{Name: "app", Image: name + ":1"}}}}}}
		if owner != nil {
			r.OwnerReferences = []metav1.OwnerReference{*owner}
		}
		appsdefaults.SetObjectDefaults_ReplicaSet(r)
		return r
	}
	webLabels := map[string]string{"app": "web"}
	a := rs("a", "00000000-0000-4000-8000-0000000000a1", &one, webLabels, &owner)
	b := rs("b", "00000000-0000-4000-8000-0000000000b1", &zero, webLabels, &owner)
	c := rs("c", "00000000-0000-4000-8000-0000000000c1", &one, map[string]string{"app": "web", "tier": "c"}, nil)
	pod := func(name, uid string, owner *apps.ReplicaSet, nodeName string, created time.Duration) *v1.Pod {
		at := metav1.NewTime(now.Add(created))
		return &v1.Pod{
			ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "default", UID: types.UID(uid), CreationTimestamp: at,
				Labels:          owner.Spec.Template.Labels,
				OwnerReferences: []metav1.OwnerReference{{APIVersion: "apps/v1", Kind: "ReplicaSet", Name: owner.Name, UID: owner.UID, Controller: &yes}}},
			Spec: v1.PodSpec{NodeName: nodeName, Containers: []v1.Container{{Name: "app", Image: owner.Name + ":1"}}},
			Status: v1.PodStatus{Phase: v1.PodRunning, Conditions: []v1.PodCondition{
				{Type: v1.PodReady, Status: v1.ConditionTrue, LastTransitionTime: metav1.NewTime(at.Add(time.Second))}}},
		}
	}
	for _, cNode := range []string{"node-1", "node-2"} {
		pods := []*v1.Pod{
			pod("a-old", "00000000-0000-4000-8000-00000000a001", a, "node-1", -2*time.Hour),
			pod("a-new", "00000000-0000-4000-8000-00000000a002", a, "node-2", -time.Hour),
			pod("c-1", "00000000-0000-4000-8000-00000000c001", c, cNode, -3*time.Hour),
		}

		// upstream
		ctx := context.Background()
		client := fake.NewSimpleClientset(a)
		inf := informers.NewSharedInformerFactory(client, 0)
		rsc := upstreamrs.NewReplicaSetController(ctx, inf.Apps().V1().ReplicaSets(), inf.Core().V1().Pods(), client, upstreamrs.BurstReplicas)
		difftest.Stop(rsc)
		for _, r := range []*apps.ReplicaSet{a, b, c} {
			if err := inf.Apps().V1().ReplicaSets().Informer().GetIndexer().Add(r); err != nil {
				t.Fatal(err)
			}
		}
		for _, p := range pods {
			if err := inf.Core().V1().Pods().Informer().GetIndexer().Add(p.DeepCopy()); err != nil {
				t.Fatal(err)
			}
			if err := client.Tracker().Add(p.DeepCopy()); err != nil {
				t.Fatal(err)
			}
		}
		setField(rsc, "podControl", controller.PodControlInterface(controller.RealPodControl{KubeClient: client, Recorder: record.NewFakeRecorder(1 << 10)}))
		setField(rsc, "queue", workqueue.TypedRateLimitingInterface[string](&difftest.QueueRecorder{}))
		setField(rsc, "clock", clocktesting.NewFakeClock(now))
		always := cache.InformerSynced(func() bool { return true })
		setField(rsc, "podListerSynced", always)
		setField(rsc, "rsListerSynced", always)
		client.ClearActions()
		if err := syncReplicaSet(rsc, ctx, "default/a"); err != nil {
			t.Fatalf("upstream syncReplicaSet: %v", err)
		}
		var want []string
		for _, act := range client.Actions() {
			if act.GetVerb() == "delete" && act.GetResource().Resource == "pods" {
				want = append(want, act.(interface{ GetName() string }).GetName())
			}
		}

		// the world, on the same objects
		objs := []any{}
		for _, r := range []*apps.ReplicaSet{a, b, c} {
			objs = append(objs, difftest.Must(k8s.FromReplicaSet(r)))
		}
		for _, p := range pods {
			objs = append(objs, difftest.Must(k8s.FromPod(p)))
		}
		w, err := cluster.New(cluster.Scenario{Start: now, Objects: objs}, cluster.Options{Controllers: []string{cluster.CtlReplicaSet}})
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, d := range w.ForceSync(now) {
			if d.Object.Name != "a" {
				continue
			}
			for _, wr := range d.Writes {
				if wr.Verb == plan.VerbDelete && wr.Resource == "pods" {
					got = append(got, wr.Name)
				}
			}
		}
		if len(want) != 1 || len(got) != 1 || got[0] != want[0] {
			t.Errorf("c-1 on %s: the world deletes %v; upstream %v", cNode, got, want)
		}
	}
}
