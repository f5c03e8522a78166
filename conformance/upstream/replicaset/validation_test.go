package replicaset_test

import (
	"math"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	utilfield "k8s.io/apimachinery/pkg/util/validation/field"
	"k8s.io/kubernetes/pkg/api/legacyscheme"
	"k8s.io/kubernetes/pkg/apis/apps"
	appsvalidation "k8s.io/kubernetes/pkg/apis/apps/validation"
	"k8s.io/kubernetes/pkg/apis/core"
	_ "k8s.io/kubernetes/pkg/apis/core/install"
	apivalidation "k8s.io/kubernetes/pkg/apis/core/validation"
	"pgregory.net/rapid"

	"github.com/kubesem/kubesem/conformance/upstream/internal/difftest"
	"github.com/kubesem/kubesem/meta"
	"github.com/kubesem/kubesem/podstatus"
	"github.com/kubesem/kubesem/replicaset"
)

// validationReplicaSet draws a ReplicaSet or ReplicationController whose modelled
// fields sit at and around the limits of API validation.
func validationReplicaSet(t *rapid.T) *replicaset.ReplicaSet {
	rs := &replicaset.ReplicaSet{}
	rs.Name, rs.Namespace = "web", "default"
	rs.Kind = rapid.SampledFrom([]string{replicaset.KindReplicaSet, replicaset.KindReplicationController}).Draw(t, "kind")
	rs.Spec.Replicas = difftest.DrawInt32Ptr(t, "replicas", -1, 0, 1, math.MaxInt32)
	rs.Spec.MinReadySeconds = rapid.SampledFrom([]int32{-1, 0, 5}).Draw(t, "minReady")
	switch rapid.IntRange(0, 4).Draw(t, "selector") {
	case 0:
	case 1:
		rs.Spec.Selector = &meta.LabelSelector{}
	case 2:
		if rs.IsReplicationController() {
			rs.Spec.Selector = meta.SelectorFromSet(map[string]string{"app": "web", "tier": "front"})
		} else {
			rs.Spec.Selector = &meta.LabelSelector{MatchExpressions: []meta.Requirement{{Key: "app", Operator: meta.OpIn, Values: []string{"web"}}}}
		}
	default:
		rs.Spec.Selector = meta.SelectorFromSet(map[string]string{"app": "web"})
	}
	switch rapid.IntRange(0, 3).Draw(t, "labels") {
	case 0:
	case 1:
		rs.Spec.Template.Labels = map[string]string{"app": "other"}
	default:
		rs.Spec.Template.Labels = map[string]string{"app": "web"}
	}
	rs.Spec.Template.Spec.Containers = []podstatus.Container{{Name: "web", Image: "web:1"}}
	return rs
}

// validationUpstream writes rs as the API object a user would submit, defaults it
// as the API server does, converts it and validates it.
func validationUpstream(t *rapid.T, rs *replicaset.ReplicaSet) utilfield.ErrorList {
	tmpl := corev1.PodTemplateSpec{
		ObjectMeta: metav1.ObjectMeta{Labels: rs.Spec.Template.Labels},
		Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "web", Image: "web:1"}}},
	}
	om := metav1.ObjectMeta{Name: rs.Name, Namespace: rs.Namespace}
	if rs.IsReplicationController() {
		u := &corev1.ReplicationController{ObjectMeta: om, Spec: corev1.ReplicationControllerSpec{
			Replicas: rs.Spec.Replicas, MinReadySeconds: rs.Spec.MinReadySeconds, Template: &tmpl}}
		if s := rs.Spec.Selector; s != nil {
			u.Spec.Selector = s.MatchLabels
		}
		legacyscheme.Scheme.Default(u)
		var internal core.ReplicationController
		if err := legacyscheme.Scheme.Convert(u, &internal, nil); err != nil {
			t.Fatalf("convert: %v", err)
		}
		return apivalidation.ValidateReplicationController(&internal, apivalidation.PodValidationOptions{})
	}
	u := &appsv1.ReplicaSet{ObjectMeta: om, Spec: appsv1.ReplicaSetSpec{
		Replicas: rs.Spec.Replicas, MinReadySeconds: rs.Spec.MinReadySeconds, Template: tmpl}}
	if s := rs.Spec.Selector; s != nil {
		u.Spec.Selector = &metav1.LabelSelector{MatchLabels: s.MatchLabels}
		for _, r := range s.MatchExpressions {
			u.Spec.Selector.MatchExpressions = append(u.Spec.Selector.MatchExpressions,
				metav1.LabelSelectorRequirement{Key: r.Key, Operator: metav1.LabelSelectorOperator(r.Operator), Values: r.Values})
		}
	}
	legacyscheme.Scheme.Default(u)
	var internal apps.ReplicaSet
	if err := legacyscheme.Scheme.Convert(u, &internal, nil); err != nil {
		t.Fatalf("convert: %v", err)
	}
	return appsvalidation.ValidateReplicaSet(&internal, apivalidation.PodValidationOptions{})
}

// TestReplicaSetValidationParity: replicaset.Validate accepts exactly the
// ReplicaSets and ReplicationControllers v1.36.3 accepts after v1
// defaulting, and the path of its error is one of upstream's.
func TestReplicaSetValidationParity(t *testing.T) {
	counts := map[string]int{}
	none := func(error) string { return "" }
	rapid.Check(t, func(t *rapid.T) {
		rs := validationReplicaSet(t)
		difftest.Verdict(t, rs.Kind, replicaset.Validate(rs), validationUpstream(t, rs), none, counts)
	})
	difftest.LogCounts(t, counts)
}
