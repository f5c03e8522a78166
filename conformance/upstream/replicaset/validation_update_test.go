package replicaset_test

import (
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	utilfield "k8s.io/apimachinery/pkg/util/validation/field"
	"k8s.io/kubernetes/pkg/api/legacyscheme"
	"k8s.io/kubernetes/pkg/apis/apps"
	"k8s.io/kubernetes/pkg/apis/core"
	rsregistry "k8s.io/kubernetes/pkg/registry/apps/replicaset"
	rcregistry "k8s.io/kubernetes/pkg/registry/core/replicationcontroller"
	"pgregory.net/rapid"

	"github.com/kubesem/kubesem/conformance/upstream/internal/difftest"
	"github.com/kubesem/kubesem/k8s"
	"github.com/kubesem/kubesem/replicaset"
)

// TestReplicaSetUpdateValidationParity: replicaset.ValidateUpdate refuses
// exactly the updates of a valid, stored ReplicaSet or ReplicationController
// that v1.36.3's registries refuse (PrepareForUpdate, then ValidateUpdate):
// the new spec's validation, and a ReplicaSet's immutable selector (a
// ReplicationController's may change), at one of upstream's paths.
func TestReplicaSetUpdateValidationParity(t *testing.T) {
	counts := map[string]int{}
	none := func(error) string { return "" }
	rapid.Check(t, func(t *rapid.T) {
		rc := rapid.Bool().Draw(t, "rc")
		sets := []map[string]string{{"app": "web"}, {"app": "web", "tier": "front"}, {"app": "api"}}
		selector := rapid.SampledFrom(sets[:2]).Draw(t, "selector")
		labels := map[string]string{"app": "web", "tier": "front"}
		newSelector, newLabels := selector, labels
		if rapid.Bool().Draw(t, "changeSelector") {
			newSelector = rapid.SampledFrom(sets).Draw(t, "newSelector")
		}
		if rapid.Bool().Draw(t, "changeLabels") {
			newLabels = rapid.SampledFrom(sets).Draw(t, "newLabels")
		}
		r, nr := int32(3), rapid.SampledFrom([]int32{-1, 0, 3, 5}).Draw(t, "newReplicas")
		image := rapid.SampledFrom([]string{"web:1", "web:2"}).Draw(t, "newImage")
		tmpl := func(l map[string]string, image string) corev1.PodTemplateSpec {
			return corev1.PodTemplateSpec{ObjectMeta: metav1.ObjectMeta{Labels: l},
				Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "web", Image: image}}}}
		}
		om := metav1.ObjectMeta{Name: "web", Namespace: "default", ResourceVersion: "1"}
		var kOld, kNew *replicaset.ReplicaSet
		var uerrs utilfield.ErrorList
		if rc {
			ot, nt := tmpl(labels, "web:1"), tmpl(newLabels, image)
			o := &corev1.ReplicationController{ObjectMeta: om, Spec: corev1.ReplicationControllerSpec{Replicas: &r, Selector: selector, Template: &ot}}
			n := &corev1.ReplicationController{ObjectMeta: om, Spec: corev1.ReplicationControllerSpec{Replicas: &nr, Selector: newSelector, Template: &nt}}
			legacyscheme.Scheme.Default(o)
			legacyscheme.Scheme.Default(n)
			uerrs = difftest.RegistryUpdate(t, rcregistry.Strategy, "", "replicationcontrollers", o, n, &core.ReplicationController{}, &core.ReplicationController{})
			kOld, kNew = difftest.Must(k8s.FromReplicationController(o)), difftest.Must(k8s.FromReplicationController(n))
		} else {
			o := &appsv1.ReplicaSet{ObjectMeta: om, Spec: appsv1.ReplicaSetSpec{Replicas: &r, Selector: &metav1.LabelSelector{MatchLabels: selector}, Template: tmpl(labels, "web:1")}}
			n := &appsv1.ReplicaSet{ObjectMeta: om, Spec: appsv1.ReplicaSetSpec{Replicas: &nr, Selector: &metav1.LabelSelector{MatchLabels: newSelector}, Template: tmpl(newLabels, image)}}
			legacyscheme.Scheme.Default(o)
			legacyscheme.Scheme.Default(n)
			uerrs = difftest.RegistryUpdate(t, rsregistry.Strategy, "apps", "replicasets", o, n, &apps.ReplicaSet{}, &apps.ReplicaSet{})
			kOld, kNew = difftest.Must(k8s.FromReplicaSet(o)), difftest.Must(k8s.FromReplicaSet(n))
		}
		difftest.Verdict(t, kNew.Kind+" update", replicaset.ValidateUpdate(kOld, kNew), uerrs, none, counts)
	})
	difftest.LogCounts(t, counts)
}
