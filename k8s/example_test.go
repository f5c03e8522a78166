package k8s_test

import (
	"fmt"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kubesem/kubesem/k8s"
	"github.com/kubesem/kubesem/rollout"
)

// A controller holding real API objects asks what the Deployment controller
// does next, and gets the ReplicaSet to create back as an API object.
func Example() {
	replicas := int32(3)
	d := &appsv1.Deployment{
		ObjectMeta: metav1.ObjectMeta{Name: "web", Namespace: "default", UID: "uid-web", Generation: 1},
		Spec: appsv1.DeploymentSpec{
			Replicas: &replicas,
			Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": "web"}},
			Template: corev1.PodTemplateSpec{
				ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{"app": "web"}},
				Spec: corev1.PodSpec{Containers: []corev1.Container{{
					Name: "web", Image: "nginx:1.27",
					Env: []corev1.EnvVar{{Name: "MODE", Value: "fast"}},
				}}},
			},
		},
	}
	kd, err := k8s.FromDeployment(d)
	if err != nil {
		panic(err)
	}
	plan, err := rollout.Step(kd, nil, nil, time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC), rollout.Options{})
	if err != nil {
		panic(err)
	}
	w, err := k8s.DeploymentActions(d, nil, plan)
	if err != nil {
		panic(err)
	}
	rs := w.Create[0]
	fmt.Println(plan.Outcome, rs.Name, *rs.Spec.Replicas, rs.Spec.Template.Spec.Containers[0].Env[0].Value)
	// Output: RollingUpdate web-59b5d5558c 3 fast
}
