package deployment_test

import (
	"context"
	"encoding/json"
	"os"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/informers"
	clienttesting "k8s.io/client-go/testing"
	"k8s.io/client-go/tools/record"
	"k8s.io/kubernetes/pkg/controller"
	"k8s.io/kubernetes/pkg/controller/deployment"
	"pgregory.net/rapid"

	"github.com/kubesem/kubesem/conformance/upstream/internal/difftest"
	"github.com/kubesem/kubesem/k8s"
	"github.com/kubesem/kubesem/rollout"
)

// TestAdapterPodTemplateHashDifferential: k8s.PodTemplateHash equals
// upstream's controller.ComputeHash on random templates and collision
// counts.
func TestAdapterPodTemplateHashDifferential(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		tm := difftest.DrawPodTemplate(t)
		var cc *int32
		if rapid.Bool().Draw(t, "collisions") {
			n := rapid.Int32().Draw(t, "collisionCount")
			cc = &n
		}
		if got, want := k8s.PodTemplateHash(&tm, cc), controller.ComputeHash(&tm, cc); got != want {
			t.Fatalf("PodTemplateHash = %s; upstream ComputeHash = %s", got, want)
		}
	})
}

// TestAdapterRealObjectsUpstream: the kubectl get -o json Deployment,
// ReplicaSets and Pods of the CLI tests, unmodified, give the same decision
// through the adapter and through one upstream syncDeployment: the created
// ReplicaSet, the whole object upstream creates, and the sizes after the sync.
func TestAdapterRealObjectsUpstream(t *testing.T) {
	var d appsv1.Deployment
	var rss appsv1.ReplicaSetList
	var pods corev1.PodList
	readReal(t, "deployment.json", &d)
	readReal(t, "replicasets.json", &rss)
	readReal(t, "pods.json", &pods)
	now := time.Date(2026, 11, 20, 10, 0, 0, 0, time.UTC)

	// kubesem through the adapter.
	kd, err := k8s.FromDeployment(&d)
	if err != nil {
		t.Fatal(err)
	}
	var rsPtrs []*appsv1.ReplicaSet
	for i := range rss.Items {
		rsPtrs = append(rsPtrs, &rss.Items[i])
	}
	var podPtrs []*corev1.Pod
	for i := range pods.Items {
		podPtrs = append(podPtrs, &pods.Items[i])
	}
	krs, _ := k8s.FromReplicaSets(rsPtrs)
	kp, _ := k8s.FromPods(podPtrs)
	p, err := rollout.Step(kd, krs, kp, now, k8s.RolloutOptions())
	if err != nil {
		t.Fatal(err)
	}
	w, err := k8s.ToDeploymentWrites(&d, rsPtrs, p)
	if err != nil {
		t.Fatal(err)
	}

	// Upstream: the controller over informer caches holding the objects.
	_, c := newController()
	inf := informers.NewSharedInformerFactory(c, 0)
	dc, err := deployment.NewDeploymentController(context.Background(), inf.Apps().V1().Deployments(), inf.Apps().V1().ReplicaSets(), inf.Core().V1().Pods(), c)
	if err != nil {
		t.Fatal(err)
	}
	difftest.StopOn(t, dc)
	setField(dc, "eventRecorder", record.EventRecorder(&record.FakeRecorder{}))
	inf.Apps().V1().Deployments().Informer().GetIndexer().Add(&d)
	for _, rs := range rsPtrs {
		inf.Apps().V1().ReplicaSets().Informer().GetIndexer().Add(rs)
	}
	for _, pod := range podPtrs {
		inf.Core().V1().Pods().Informer().GetIndexer().Add(pod)
	}
	c.ClearActions()
	if err := syncDeployment(dc, context.Background(), "default/web"); err != nil {
		t.Fatal(err)
	}
	var created []*appsv1.ReplicaSet
	for _, a := range c.Actions() {
		if ca, ok := a.(clienttesting.CreateAction); ok && a.GetVerb() == "create" {
			if rs, ok := ca.GetObject().(*appsv1.ReplicaSet); ok {
				created = append(created, rs)
			}
		}
	}
	if len(created) != 1 || len(w.Create) != 1 {
		t.Fatalf("created: upstream %d, kubesem %d; want 1 each", len(created), len(w.Create))
	}
	u, k := created[0], w.Create[0]
	if u.Name != k.Name || *u.Spec.Replicas != *k.Spec.Replicas {
		t.Errorf("created %s (%d); upstream %s (%d)", k.Name, *k.Spec.Replicas, u.Name, *u.Spec.Replicas)
	}
	// The whole object upstream hands to Create: metadata (labels,
	// annotations, the controller reference with blockOwnerDeletion) and
	// spec, template included.
	k = k.DeepCopy()
	k.TypeMeta = metav1.TypeMeta{} // the typed client sends none
	ub, _ := json.Marshal(u)
	kb, _ := json.Marshal(k)
	if string(ub) != string(kb) {
		t.Errorf("created ReplicaSet:\nkubesem  %s\nupstream %s", kb, ub)
	}
}

func readReal(t *testing.T, name string, v any) {
	t.Helper()
	b, err := os.ReadFile(difftest.Repo("cmd", "kubesem", "testdata", "real", name))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatal(err)
	}
}
