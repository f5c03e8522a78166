package k8s_test

import (
	"fmt"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kubesem/kubesem/k8s"
	"github.com/kubesem/kubesem/rollout"
	"github.com/kubesem/kubesem/statefulset"
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
	plan, err := rollout.Step(kd, nil, nil, time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC), k8s.RolloutOptions())
	if err != nil {
		panic(err)
	}
	w, err := k8s.ToDeploymentWrites(d, nil, plan)
	if err != nil {
		panic(err)
	}
	rs := w.Create[0]
	fmt.Println(plan.Outcome, rs.Name, *rs.Spec.Replicas, rs.Spec.Template.Spec.Containers[0].Env[0].Value)
	// Output: RollingUpdate web-59b5d5558c 3 fast
}

// A StatefulSet as the API returns it: the adapter computes the
// ControllerRevision name v1.36.3 gives its template, and Step creates the
// first pod with that revision.
func ExampleFromStatefulSet() {
	two := int32(2)
	set := &appsv1.StatefulSet{
		ObjectMeta: metav1.ObjectMeta{Name: "web", Namespace: "default", UID: "uid-web", Generation: 1},
		Spec: appsv1.StatefulSetSpec{
			Replicas:    &two,
			ServiceName: "nginx",
			Selector:    &metav1.LabelSelector{MatchLabels: map[string]string{"app": "web"}},
			Template: corev1.PodTemplateSpec{
				ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{"app": "web"}},
				Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "nginx", Image: "nginx:1.27"}}},
			},
		},
	}
	ks, err := k8s.FromStatefulSet(set)
	if err != nil {
		panic(err)
	}
	p, err := statefulset.Step(ks, nil, nil, nil, time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC), statefulset.Options{})
	if err != nil {
		panic(err)
	}
	fmt.Println(p.Revisions[0].Verb, p.Revisions[0].Name)
	fmt.Println(p.Create.Objects[0].Name, p.Create.Objects[0].Revision)
	// Output:
	// create web-7d79554569
	// web-0 web-7d79554569
}

// A DaemonSet and its ControllerRevisions: DaemonSetHistory finds the
// revision holding the current template and gives its hash.
func ExampleDaemonSetHistory() {
	ds := &appsv1.DaemonSet{
		ObjectMeta: metav1.ObjectMeta{Name: "agent", Namespace: "kube-system", UID: "uid-agent"},
		Spec: appsv1.DaemonSetSpec{
			Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": "agent"}},
			Template: corev1.PodTemplateSpec{
				ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{"app": "agent"}},
				Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "agent", Image: "agent:2"}}},
			},
		},
	}
	old := ds.DeepCopy()
	old.Spec.Template.Spec.Containers[0].Image = "agent:1"
	r1, _ := k8s.NewDaemonSetRevision(old, 1)
	r2, _ := k8s.NewDaemonSetRevision(ds, 2)
	h, err := k8s.DaemonSetHistory(ds, []*appsv1.ControllerRevision{r1, r2})
	if err != nil {
		panic(err)
	}
	fmt.Println(r2.Name, h.Hash, len(h.Revisions))
	// Output:
	// agent-85db8c4d4c 85db8c4d4c 2
}
