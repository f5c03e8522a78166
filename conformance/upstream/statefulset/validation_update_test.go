package statefulset_test

import (
	"encoding/json"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	utilfield "k8s.io/apimachinery/pkg/util/validation/field"
	"k8s.io/kubernetes/pkg/api/legacyscheme"
	"k8s.io/kubernetes/pkg/apis/apps"
	stsregistry "k8s.io/kubernetes/pkg/registry/apps/statefulset"
	"pgregory.net/rapid"

	"github.com/kubesem/kubesem/conformance/upstream/internal/difftest"
	"github.com/kubesem/kubesem/k8s"
	"github.com/kubesem/kubesem/statefulset"
)

// TestStatefulSetUpdateValidationParity: statefulset.ValidateUpdate
// refuses exactly the updates of a valid, stored StatefulSet that v1.36.3's
// registry refuses (PrepareForUpdate, then ValidateUpdate: the new spec and
// the fields an update may not change), at one of upstream's paths. The
// claim templates differ only in their metadata (their spec is not
// modelled).
func TestStatefulSetUpdateValidationParity(t *testing.T) {
	counts := map[string]int{}
	none := func(error) string { return "" }
	rapid.Check(t, func(t *rapid.T) {
		labels := map[string]string{"app": "db"}
		r := int32(3)
		oldV1 := &appsv1.StatefulSet{ObjectMeta: metav1.ObjectMeta{Name: "db", Namespace: "default", ResourceVersion: "1"},
			Spec: appsv1.StatefulSetSpec{Replicas: &r, ServiceName: "db", Selector: &metav1.LabelSelector{MatchLabels: labels},
				Template: corev1.PodTemplateSpec{ObjectMeta: metav1.ObjectMeta{Labels: labels},
					Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "db", Image: "db:1"}}}},
				VolumeClaimTemplates: []corev1.PersistentVolumeClaim{{ObjectMeta: metav1.ObjectMeta{Name: "data"},
					Spec: corev1.PersistentVolumeClaimSpec{AccessModes: []corev1.PersistentVolumeAccessMode{corev1.ReadWriteOnce}}}}}}
		if rapid.Bool().Draw(t, "parallel") {
			oldV1.Spec.PodManagementPolicy = appsv1.ParallelPodManagement
		}
		legacyscheme.Scheme.Default(oldV1)
		newV1 := oldV1.DeepCopy()
		s := &newV1.Spec
		sets := []map[string]string{{"app": "db"}, {"app": "db", "tier": "x"}, {"app": "other"}}
		if rapid.IntRange(0, 3).Draw(t, "changeReplicas") == 0 {
			v := rapid.SampledFrom([]int32{-1, 0, 5}).Draw(t, "replicas")
			s.Replicas = &v
		}
		if rapid.IntRange(0, 4).Draw(t, "changeService") == 0 {
			s.ServiceName = "db-headless"
		}
		if rapid.IntRange(0, 4).Draw(t, "changePolicy") == 0 {
			s.PodManagementPolicy = rapid.SampledFrom([]appsv1.PodManagementPolicyType{appsv1.OrderedReadyPodManagement, appsv1.ParallelPodManagement}).Draw(t, "policy")
		}
		if rapid.IntRange(0, 4).Draw(t, "changeSelector") == 0 {
			s.Selector = &metav1.LabelSelector{MatchLabels: rapid.SampledFrom(sets).Draw(t, "selector")}
		}
		if rapid.IntRange(0, 6).Draw(t, "expressionSelector") == 0 {
			// An expression, well-formed or with an operator the API rejects.
			op := rapid.SampledFrom([]metav1.LabelSelectorOperator{metav1.LabelSelectorOpIn, "Near"}).Draw(t, "operator")
			s.Selector = &metav1.LabelSelector{MatchExpressions: []metav1.LabelSelectorRequirement{{Key: "app", Operator: op, Values: []string{"db"}}}}
		}
		if rapid.IntRange(0, 3).Draw(t, "changeLabels") == 0 {
			s.Template.Labels = rapid.SampledFrom(sets).Draw(t, "labels")
		}
		if rapid.IntRange(0, 2).Draw(t, "changeImage") == 0 {
			s.Template.Spec.Containers[0].Image = "db:2"
		}
		if rapid.IntRange(0, 4).Draw(t, "changeClaims") == 0 {
			s.VolumeClaimTemplates[0].Name = "logs"
		}
		if rapid.IntRange(0, 4).Draw(t, "changeMinReady") == 0 {
			s.MinReadySeconds = rapid.SampledFrom([]int32{-1, 10}).Draw(t, "minReady")
		}
		if rapid.IntRange(0, 4).Draw(t, "changeOrdinals") == 0 {
			s.Ordinals = &appsv1.StatefulSetOrdinals{Start: rapid.SampledFrom([]int32{-1, 0, 3}).Draw(t, "start")}
		}
		if rapid.IntRange(0, 4).Draw(t, "changeStrategy") == 0 {
			s.UpdateStrategy = appsv1.StatefulSetUpdateStrategy{Type: appsv1.OnDeleteStatefulSetStrategyType}
		}
		legacyscheme.Scheme.Default(newV1)
		uerrs := difftest.RegistryUpdate(t, stsregistry.Strategy, "apps", "statefulsets", oldV1, newV1, &apps.StatefulSet{}, &apps.StatefulSet{})
		kerr := statefulset.ValidateUpdate(difftest.Must(k8s.FromStatefulSet(oldV1)), difftest.Must(k8s.FromStatefulSet(newV1)))
		difftest.Verdict(t, "StatefulSet update", kerr, uerrs, none, counts)
	})
	difftest.LogCounts(t, counts)
}

// statefulSetV1 is the apps/v1 StatefulSet the adapter makes of the
// vector's set, defaulted, as stored (resourceVersion "1").
func statefulSetV1(t *testing.T, set *statefulset.StatefulSet) *appsv1.StatefulSet {
	u := difftest.Must(k8s.ToStatefulSet(set))
	legacyscheme.Scheme.Default(u)
	u.ResourceVersion = "1"
	return u
}

// TestStatefulSetUpdateVectorsUpstream replays
// testdata/statefulset/validate_update.json through v1.36.3's StatefulSet
// registry: each side written as the apps/v1 StatefulSet the adapter makes
// of it and defaulted, as stored (resourceVersion "1"), then
// PrepareForUpdate and ValidateUpdate. A vector wanting {valid: true} is
// an update upstream accepts; one wanting an error names the path and kind
// of one of upstream's errors. The stored StatefulSet must be one the
// registry creates. KUBESEM_WRITE_VECTORS=1 rewrites the wants from
// upstream.
func TestStatefulSetUpdateVectorsUpstream(t *testing.T) {
	ok, refused := difftest.ReplayValidationVectors(t, "statefulset/validate_update.json", "statefulset.ValidateUpdate", "new", func(input json.RawMessage) utilfield.ErrorList {
		var in struct {
			Old *statefulset.StatefulSet `json:"old"`
			New *statefulset.StatefulSet `json:"new"`
		}
		difftest.DecodeJSON(t, input, &in)
		oldV1, newV1 := statefulSetV1(t, in.Old), statefulSetV1(t, in.New)
		if errs := difftest.RegistryCreate(t, stsregistry.Strategy, "apps", "statefulsets", oldV1.DeepCopy(), &apps.StatefulSet{}); len(errs) > 0 {
			t.Errorf("the stored StatefulSet is one the registry refuses: %v", errs.ToAggregate())
		}
		return difftest.RegistryUpdate(t, stsregistry.Strategy, "apps", "statefulsets", oldV1, newV1, &apps.StatefulSet{}, &apps.StatefulSet{})
	})
	if ok < 3 || refused < 4 {
		t.Errorf("only %d accepted and %d refused updates replayed", ok, refused)
	}
}

// TestStatefulSetCreateVectorsUpstream replays
// testdata/statefulset/validate_create.json through v1.36.3's StatefulSet
// registry: the set written as the apps/v1 StatefulSet the adapter makes
// of it and defaulted, then PrepareForCreate and Validate. A vector
// wanting {valid: true} is a StatefulSet upstream creates; one wanting an
// error names the path and kind of one of upstream's errors.
// KUBESEM_WRITE_VECTORS=1 rewrites the wants from upstream.
func TestStatefulSetCreateVectorsUpstream(t *testing.T) {
	ok, refused := difftest.ReplayValidationVectors(t, "statefulset/validate_create.json", "statefulset.ValidateCreate", "set", func(input json.RawMessage) utilfield.ErrorList {
		var in struct {
			Set *statefulset.StatefulSet `json:"set"`
		}
		difftest.DecodeJSON(t, input, &in)
		return difftest.RegistryCreate(t, stsregistry.Strategy, "apps", "statefulsets", statefulSetV1(t, in.Set), &apps.StatefulSet{})
	})
	if ok < 1 || refused < 4 {
		t.Errorf("only %d accepted and %d refused StatefulSets replayed", ok, refused)
	}
}
