package k8s_test

import (
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kubesem/kubesem/daemonset"
	"github.com/kubesem/kubesem/k8s"
	"github.com/kubesem/kubesem/plan"
)

func dsForWrites() *appsv1.DaemonSet {
	return &appsv1.DaemonSet{
		ObjectMeta: metav1.ObjectMeta{Name: "agent", Namespace: "kube-system", UID: "ds-uid",
			Annotations: map[string]string{appsv1.DeprecatedTemplateGeneration: "2"}},
		Spec: appsv1.DaemonSetSpec{Template: corev1.PodTemplateSpec{
			ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{"app": "agent"}},
			Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "agent", Image: "agent:2",
				Resources: corev1.ResourceRequirements{}}}, HostNetwork: true},
		}},
	}
}

func TestToDaemonSetWrites(t *testing.T) {
	t.Parallel()
	ds := dsForWrites()
	p := daemonset.Plan{
		Create:       plan.Creation[daemonset.PodCreation]{Count: 1, Objects: []daemonset.PodCreation{{Node: "node-1", Reason: "NoDaemonPod"}}},
		Delete:       []plan.Deletion{{Name: "agent-x", Reason: "UpdateOldPod"}},
		Status:       daemonset.Status{DesiredNumberScheduled: 3},
		UpdateStatus: true,
	}
	w, err := k8s.ToDaemonSetWrites(ds, "6c8d7b9f4", p)
	if err != nil {
		t.Fatal(err)
	}
	pod := w.CreatePods[0]
	terms := pod.Spec.Affinity.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution.NodeSelectorTerms
	if pod.Namespace != "kube-system" || pod.GenerateName != "agent-" || pod.Labels["controller-revision-hash"] != "6c8d7b9f4" ||
		pod.Labels["pod-template-generation"] != "2" || len(pod.Spec.Tolerations) != 7 || terms[0].MatchFields[0].Values[0] != "node-1" ||
		pod.OwnerReferences[0].UID != "ds-uid" || ds.Spec.Template.Spec.Affinity != nil {
		t.Errorf("pod %+v", pod)
	}
	if len(w.DeletePods) != 1 || w.Status == nil || w.Status.DesiredNumberScheduled != 3 {
		t.Errorf("deletes %v status %+v", w.DeletePods, w.Status)
	}
	ds.Annotations[appsv1.DeprecatedTemplateGeneration] = "two"
	if _, err := k8s.ToDaemonSetWrites(ds, "h", p); err == nil {
		t.Error("unparseable template generation: no error")
	}
}
