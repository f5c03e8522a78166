package k8s_test

import (
	"fmt"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kubesem/kubesem/daemonset"
	"github.com/kubesem/kubesem/k8s"
	"github.com/kubesem/kubesem/statefulset"
)

// A new StatefulSet with no revision yet: its spec.templateRevision is the
// revision v1.36.3 creates, and ToStatefulSetWrites turns the sync's Plan
// into complete API objects: the ControllerRevision, then the first pod
// from the revision's whole template with its identity.
func ExampleToStatefulSetWrites() {
	now := time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)
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
	var revs []*appsv1.ControllerRevision
	ks, err := k8s.FromStatefulSetWithRevisions(set, revs)
	if err != nil {
		panic(err)
	}
	p, err := statefulset.Step(ks, nil, k8s.FromControllerRevisions(revs), nil, now, statefulset.Options{})
	if err != nil {
		panic(err)
	}
	w, err := k8s.ToStatefulSetWrites(set, revs, nil, nil, p)
	if err != nil {
		panic(err)
	}
	for _, r := range w.CreateRevisions {
		fmt.Println("create revision", r.Name, r.Revision)
	}
	for _, pod := range w.CreatePods {
		fmt.Println("create pod", pod.Name, pod.Spec.Hostname, pod.Spec.Subdomain, pod.Labels["controller-revision-hash"], pod.Spec.Containers[0].Image)
	}
	// Output:
	// create revision web-7d79554569 1
	// create pod web-0 web-0 nginx web-7d79554569 nginx:1.27
}

// A DaemonSet on one node without its pod: DaemonSetHistory gives the hash
// of the current template (here a revision v1.36.3 would create), Step
// decides the pod, and ToDaemonSetWrites builds it whole: the template with
// the default daemon tolerations, hash and generation labels, pinned to its
// node.
func ExampleToDaemonSetWrites() {
	now := time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)
	ds := &appsv1.DaemonSet{
		ObjectMeta: metav1.ObjectMeta{Name: "agent", Namespace: "kube-system", UID: "uid-agent", Generation: 1},
		Spec: appsv1.DaemonSetSpec{
			Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": "agent"}},
			Template: corev1.PodTemplateSpec{
				ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{"app": "agent"}},
				Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "agent", Image: "agent:2"}}},
			},
		},
	}
	kds, err := k8s.FromDaemonSet(ds)
	if err != nil {
		panic(err)
	}
	hist, err := k8s.DaemonSetHistory(ds, nil)
	if err != nil {
		panic(err)
	}
	knodes, err := k8s.FromNodes([]*corev1.Node{{ObjectMeta: metav1.ObjectMeta{Name: "node-1"}}})
	if err != nil {
		panic(err)
	}
	p, err := daemonset.Step(kds, knodes, nil, hist, nil, now, daemonset.Options{})
	if err != nil {
		panic(err)
	}
	w, err := k8s.ToDaemonSetWrites(ds, hist.Hash, p)
	if err != nil {
		panic(err)
	}
	for _, pod := range w.CreatePods {
		pin := pod.Spec.Affinity.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution.NodeSelectorTerms[0].MatchFields[0].Values
		fmt.Println("create pod", pod.GenerateName, pod.Labels["controller-revision-hash"], len(pod.Spec.Tolerations), "tolerations, on", pin)
	}
	// Output:
	// create pod agent- 85db8c4d4c 6 tolerations, on [node-1]
}
