package k8s_test

import (
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/kubesem/kubesem/k8s"
)

func benchSet() *appsv1.StatefulSet {
	three := int32(3)
	set := &appsv1.StatefulSet{ObjectMeta: metav1.ObjectMeta{Name: "web", Namespace: "default", UID: "uid-web"}}
	set.Spec.Replicas = &three
	set.Spec.Selector = &metav1.LabelSelector{MatchLabels: map[string]string{"app": "web"}}
	set.Spec.Template.Labels = map[string]string{"app": "web"}
	set.Spec.Template.Spec.Containers = []corev1.Container{{Name: "web", Image: "nginx:1.27",
		Env:       []corev1.EnvVar{{Name: "MODE", Value: "fast"}},
		Resources: corev1.ResourceRequirements{Limits: corev1.ResourceList{corev1.ResourceMemory: resource.MustParse("1Gi")}}}}
	set.Spec.VolumeClaimTemplates = []corev1.PersistentVolumeClaim{{ObjectMeta: metav1.ObjectMeta{Name: "data"}}}
	return set
}

func BenchmarkFromStatefulSet(b *testing.B) {
	set := benchSet()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := k8s.FromStatefulSet(set); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkStatefulSetUpdateRevision10(b *testing.B) {
	set := benchSet()
	var revs []*appsv1.ControllerRevision
	for i := range 10 {
		s := set.DeepCopy()
		s.Spec.Template.Spec.Containers[0].Image = "nginx:" + string(rune('a'+i))
		r, err := k8s.NewStatefulSetRevision(s, int64(i+1))
		if err != nil {
			b.Fatal(err)
		}
		revs = append(revs, r)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := k8s.StatefulSetUpdateRevision(set, revs); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkDaemonSetHistory(b *testing.B) {
	set := benchSet()
	ds := &appsv1.DaemonSet{ObjectMeta: set.ObjectMeta, Spec: appsv1.DaemonSetSpec{Selector: set.Spec.Selector, Template: set.Spec.Template}}
	r, err := k8s.NewDaemonSetRevision(ds, 1)
	if err != nil {
		b.Fatal(err)
	}
	revs := []*appsv1.ControllerRevision{r}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := k8s.DaemonSetHistory(ds, revs); err != nil {
			b.Fatal(err)
		}
	}
}

// FuzzStatefulSetUpdateRevision: arbitrary stored revision data never
// makes StatefulSetUpdateRevision fail or panic; it names a given revision
// or the new one.
func FuzzStatefulSetUpdateRevision(f *testing.F) {
	f.Add([]byte(`{"spec":{"template":{"$patch":"replace"}}}`), []byte(`{}`))
	f.Add([]byte(`{"spec":{"template":{"spec":{"terminationGracePeriodSeconds":9223372036854776000}}}}`), []byte(`null`))
	f.Fuzz(func(t *testing.T, a, b []byte) {
		set := benchSet()
		ra := &appsv1.ControllerRevision{Revision: 1}
		ra.Name, ra.Data.Raw = "web-a", a
		rb := &appsv1.ControllerRevision{Revision: 2}
		rb.Name, rb.Data.Raw = "web-b", b
		got, err := k8s.StatefulSetUpdateRevision(set, []*appsv1.ControllerRevision{ra, nil, rb})
		if err != nil {
			t.Fatal(err)
		}
		fresh, _ := k8s.StatefulSetRevisionName(set)
		if got != "web-a" && got != "web-b" && got != fresh {
			t.Fatalf("StatefulSetUpdateRevision = %s", got)
		}
	})
}
