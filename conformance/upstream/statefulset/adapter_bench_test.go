package statefulset_test

import (
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/kubernetes/pkg/controller/history"

	"github.com/kubesem/kubesem/k8s"
)

// adapterBenchSet is a StatefulSet with a realistic template: two containers
// with env, resources, probes and a volume mount.
func adapterBenchSet() *appsv1.StatefulSet {
	grace := int64(30)
	set := &appsv1.StatefulSet{ObjectMeta: metav1.ObjectMeta{Name: "web", Namespace: "default", UID: "set-uid", Annotations: map[string]string{"team": "a"}}}
	set.Spec.Template.Labels = map[string]string{"app": "web", "tier": "frontend"}
	set.Spec.Template.Spec.TerminationGracePeriodSeconds = &grace
	for _, n := range []string{"web", "sidecar"} {
		set.Spec.Template.Spec.Containers = append(set.Spec.Template.Spec.Containers, corev1.Container{
			Name: n, Image: "registry.example.com/" + n + ":1.2.3",
			Env: []corev1.EnvVar{{Name: "MODE", Value: "production"}, {Name: "LOG", Value: "info"}},
			Resources: corev1.ResourceRequirements{Limits: corev1.ResourceList{corev1.ResourceMemory: resource.MustParse("512Mi"), corev1.ResourceCPU: resource.MustParse("500m")},
				Requests: corev1.ResourceList{corev1.ResourceMemory: resource.MustParse("256Mi")}},
			ReadinessProbe: &corev1.Probe{ProbeHandler: corev1.ProbeHandler{HTTPGet: &corev1.HTTPGetAction{Path: "/healthz"}}, PeriodSeconds: 5},
			VolumeMounts:   []corev1.VolumeMount{{Name: "data", MountPath: "/data"}},
		})
	}
	return set
}

// BenchmarkAdapterStatefulSetRevision: the ControllerRevision of a set,
// k8s.NewStatefulSetRevision against upstream's newRevision.
func BenchmarkAdapterStatefulSetRevision(b *testing.B) {
	set := adapterBenchSet()
	cc := int32(0)
	b.Run("upstream", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := upNewRevision(set, 1, &cc); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("kubesem", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := k8s.NewStatefulSetRevision(set, 1); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkAdapterControllerRevisionHash: the hash of a revision's data,
// k8s.ControllerRevisionHash against history.HashControllerRevision.
func BenchmarkAdapterControllerRevisionHash(b *testing.B) {
	data, err := k8s.StatefulSetRevisionData(adapterBenchSet())
	if err != nil {
		b.Fatal(err)
	}
	cr := &appsv1.ControllerRevision{Data: runtime.RawExtension{Raw: data}}
	cc := int32(1)
	b.Run("upstream", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			history.HashControllerRevision(cr, &cc)
		}
	})
	b.Run("kubesem", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			k8s.ControllerRevisionHash(cr, &cc)
		}
	})
}
