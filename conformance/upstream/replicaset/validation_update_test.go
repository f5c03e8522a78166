package replicaset_test

import (
	"encoding/json"
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

// toV1ReplicationController is the core/v1 ReplicationController of an RC
// in the model: its selector's matchLabels as the RC's plain selector.
func toV1ReplicationController(t *testing.T, rs *replicaset.ReplicaSet) *corev1.ReplicationController {
	u := difftest.Must(k8s.ToReplicaSet(rs))
	rc := &corev1.ReplicationController{ObjectMeta: u.ObjectMeta, Spec: corev1.ReplicationControllerSpec{
		Replicas: u.Spec.Replicas, MinReadySeconds: u.Spec.MinReadySeconds, Template: &u.Spec.Template}}
	if s := u.Spec.Selector; s != nil {
		if len(s.MatchExpressions) > 0 {
			t.Fatalf("a ReplicationController's selector has no expressions: %v", s)
		}
		rc.Spec.Selector = s.MatchLabels
	}
	return rc
}

// TestReplicaSetUpdateVectorsUpstream replays
// testdata/replicaset/validate_update.json through v1.36.3's registries:
// each side written as the apps/v1 ReplicaSet (or, for kind
// ReplicationController, the core/v1 ReplicationController) the adapter
// makes of it and defaulted, as stored (resourceVersion "1"), then the
// ReplicaSet or ReplicationController registry's PrepareForUpdate and
// ValidateUpdate. A vector wanting {valid: true} is an update upstream
// accepts; one wanting an error names the path and kind of one of
// upstream's errors. The stored object must be one the registry creates.
// KUBESEM_WRITE_VECTORS=1 rewrites the wants from upstream.
func TestReplicaSetUpdateVectorsUpstream(t *testing.T) {
	ok, refused := difftest.ReplayValidationVectors(t, "replicaset/validate_update.json", "replicaset.ValidateUpdate", "new", func(input json.RawMessage) utilfield.ErrorList {
		var in struct {
			Old *replicaset.ReplicaSet `json:"old"`
			New *replicaset.ReplicaSet `json:"new"`
		}
		difftest.DecodeJSON(t, input, &in)
		if in.New.IsReplicationController() {
			o, n := toV1ReplicationController(t, in.Old), toV1ReplicationController(t, in.New)
			for _, rc := range []*corev1.ReplicationController{o, n} {
				legacyscheme.Scheme.Default(rc)
				rc.ResourceVersion = "1"
			}
			if errs := difftest.RegistryCreate(t, rcregistry.Strategy, "", "replicationcontrollers", o.DeepCopy(), &core.ReplicationController{}); len(errs) > 0 {
				t.Errorf("the stored ReplicationController is one the registry refuses: %v", errs.ToAggregate())
			}
			return difftest.RegistryUpdate(t, rcregistry.Strategy, "", "replicationcontrollers", o, n, &core.ReplicationController{}, &core.ReplicationController{})
		}
		o, n := difftest.Must(k8s.ToReplicaSet(in.Old)), difftest.Must(k8s.ToReplicaSet(in.New))
		for _, rs := range []*appsv1.ReplicaSet{o, n} {
			legacyscheme.Scheme.Default(rs)
			rs.ResourceVersion = "1"
		}
		if errs := difftest.RegistryCreate(t, rsregistry.Strategy, "apps", "replicasets", o.DeepCopy(), &apps.ReplicaSet{}); len(errs) > 0 {
			t.Errorf("the stored ReplicaSet is one the registry refuses: %v", errs.ToAggregate())
		}
		return difftest.RegistryUpdate(t, rsregistry.Strategy, "apps", "replicasets", o, n, &apps.ReplicaSet{}, &apps.ReplicaSet{})
	})
	if ok < 3 || refused < 3 {
		t.Errorf("only %d accepted and %d refused updates replayed", ok, refused)
	}
}
