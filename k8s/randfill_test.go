package k8s_test

import (
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
	"sigs.k8s.io/randfill"

	"github.com/kubesem/kubesem/k8s"
)

// filler fills every field of an API object with random values; intstr
// values stay ints or percentages (as validation keeps them).
func filler(seed int64) *randfill.Filler {
	return randfill.NewWithSeed(seed).NilChance(0.2).NumElements(0, 3).Funcs(
		func(v *metav1.FieldsV1, c randfill.Continue) { v.Raw = []byte(`{"f:spec":{}}`) },
		func(v *resource.Quantity, c randfill.Continue) { *v = resource.MustParse("1Gi") },
		func(v *intstr.IntOrString, c randfill.Continue) {
			if c.Bool() {
				*v = intstr.FromInt32(c.Int31n(100))
			} else {
				*v = intstr.FromString("25%")
			}
		},
	)
}

// TestFromAnyObject: objects with every API field set (random values,
// including fields kubesem does not model) convert without error or
// panic, and the revision helpers accept them.
func TestFromAnyObject(t *testing.T) {
	for seed := range int64(100) {
		f := filler(seed)
		var set appsv1.StatefulSet
		f.Fill(&set)
		if _, err := k8s.FromStatefulSet(&set); err != nil {
			t.Fatalf("seed %d: FromStatefulSet: %v", seed, err)
		}
		if _, err := k8s.NewStatefulSetRevision(&set, 1); err != nil {
			t.Fatalf("seed %d: NewStatefulSetRevision: %v", seed, err)
		}
		var ds appsv1.DaemonSet
		f.Fill(&ds)
		if _, err := k8s.FromDaemonSet(&ds); err != nil {
			t.Fatalf("seed %d: FromDaemonSet: %v", seed, err)
		}
		if _, err := k8s.DaemonSetHistory(&ds, nil); err != nil {
			t.Fatalf("seed %d: DaemonSetHistory: %v", seed, err)
		}
		var pod corev1.Pod
		f.Fill(&pod)
		if _, err := k8s.FromPod(&pod); err != nil {
			t.Fatalf("seed %d: FromPod: %v", seed, err)
		}
		var pvc corev1.PersistentVolumeClaim
		f.Fill(&pvc)
		if _, err := k8s.FromPersistentVolumeClaim(&pvc); err != nil {
			t.Fatalf("seed %d: FromPersistentVolumeClaim: %v", seed, err)
		}
	}
}
