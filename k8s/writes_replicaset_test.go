package k8s_test

import (
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kubesem/kubesem/k8s"
	"github.com/kubesem/kubesem/plan"
	"github.com/kubesem/kubesem/podstatus"
	"github.com/kubesem/kubesem/replicaset"
)

func TestToReplicaSetWrites(t *testing.T) {
	t.Parallel()
	rs := &appsv1.ReplicaSet{ObjectMeta: metav1.ObjectMeta{Name: "web-59b5d5558c", Namespace: "shop", UID: "rs-uid"},
		Spec: appsv1.ReplicaSetSpec{Template: corev1.PodTemplateSpec{ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{"app": "web"}},
			Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "c", Image: "web:1"}}}}}}
	w, err := k8s.ToReplicaSetWrites(rs, replicaset.Plan{Create: plan.Creation[podstatus.Pod]{Count: 2},
		Delete: []plan.Deletion{{Name: "web-old"}}, UpdateStatus: true, Status: replicaset.Status{Replicas: 2}})
	if err != nil {
		t.Fatal(err)
	}
	if len(w.CreatePods) != 2 || w.CreatePods[0].GenerateName != "web-59b5d5558c-" || w.CreatePods[1].Labels["app"] != "web" ||
		w.CreatePods[0].Namespace != "shop" || len(w.DeletePods) != 1 || w.Status == nil || w.Status.Replicas != 2 {
		t.Errorf("writes %+v", w)
	}
	w.CreatePods[0].Labels["x"] = "y"
	if rs.Spec.Template.Labels["x"] != "" || w.CreatePods[1].Labels["x"] != "" {
		t.Error("pods share maps with the template or each other")
	}
}
