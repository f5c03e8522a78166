package replicaset_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	apps "k8s.io/api/apps/v1"
	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/kubernetes/pkg/controller"
	"pgregory.net/rapid"

	"github.com/kubesem/kubesem/k8s"
	"github.com/kubesem/kubesem/plan"
	"github.com/kubesem/kubesem/podstatus"
	"github.com/kubesem/kubesem/replicaset"
)

// TestAdapterReplicaSetPodDifferential: the pods k8s.ToReplicaSetWrites
// creates are what the ReplicaSet controller's manageReplicas hands to the
// API (GetPodFromTemplate with the controller reference, in the
// ReplicaSet's namespace), for templates with and without labels,
// annotations and finalizers.
func TestAdapterReplicaSetPodDifferential(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		rs := &apps.ReplicaSet{ObjectMeta: metav1.ObjectMeta{Name: rapid.SampledFrom([]string{"web-59b5d5558c", "x"}).Draw(t, "name"), Namespace: "shop", UID: "rs-uid"}}
		tmpl := &rs.Spec.Template
		tmpl.Spec.Containers = []v1.Container{{Name: "c", Image: "web:1", Env: []v1.EnvVar{{Name: "A", Value: "1"}}}}
		if rapid.Bool().Draw(t, "labels") {
			tmpl.Labels = map[string]string{"app": "web", "pod-template-hash": "59b5d5558c"}
		}
		if rapid.Bool().Draw(t, "annotations") {
			tmpl.Annotations = map[string]string{"a": "1"}
		}
		if rapid.Bool().Draw(t, "finalizers") {
			tmpl.Finalizers = []string{"example.com/f"}
		}
		n := rapid.IntRange(0, 3).Draw(t, "count")
		w, err := k8s.ToReplicaSetWrites(rs, replicaset.Plan{Create: plan.Creation[podstatus.Pod]{Count: int32(n)}})
		if err != nil {
			t.Fatal(err)
		}
		if len(w.CreatePods) != n {
			t.Fatalf("%d pods for %d creations", len(w.CreatePods), n)
		}
		want, err := controller.GetPodFromTemplate(tmpl, rs, metav1.NewControllerRef(rs, apps.SchemeGroupVersion.WithKind("ReplicaSet")))
		if err != nil {
			t.Fatal(err)
		}
		want.Namespace = rs.Namespace
		want.APIVersion, want.Kind = "v1", "Pod" // the adapter's objects carry their type
		for _, got := range w.CreatePods {
			if diff := cmp.Diff(want, got); diff != "" {
				t.Fatalf("pod differs (-upstream +kubesem):\n%s", diff)
			}
		}
	})
}
