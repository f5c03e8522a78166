package deployment_test

import (
	"encoding/json"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	utilfield "k8s.io/apimachinery/pkg/util/validation/field"
	"k8s.io/kubernetes/pkg/api/legacyscheme"
	"k8s.io/kubernetes/pkg/apis/apps"
	deploymentregistry "k8s.io/kubernetes/pkg/registry/apps/deployment"
	"pgregory.net/rapid"

	"github.com/kubesem/kubesem/conformance/upstream/internal/difftest"
	"github.com/kubesem/kubesem/k8s"
	"github.com/kubesem/kubesem/meta"
	"github.com/kubesem/kubesem/rollout"
)

// TestDeploymentUpdateValidationParity: rollout.ValidateUpdate refuses
// exactly the updates of a valid, stored Deployment that v1.36.3's registry
// refuses (PrepareForUpdate, then ValidateUpdate: the new spec's
// validation and the immutable selector), at one of upstream's paths.
func TestDeploymentUpdateValidationParity(t *testing.T) {
	counts := map[string]int{}
	rapid.Check(t, func(t *rapid.T) {
		d := validationDeployment(t)
		if rapid.IntRange(0, 9).Draw(t, "valid") > 0 { // (most drawn Deployments are invalid)
			r := int32(3)
			d.Spec.Replicas, d.Spec.MinReadySeconds, d.Spec.RevisionHistoryLimit, d.Spec.ProgressDeadlineSeconds = &r, 0, nil, nil
			d.Spec.Selector = meta.SelectorFromSet(map[string]string{"app": "web"})
			d.Spec.Template.Labels = map[string]string{"app": "web"}
			d.Spec.Strategy = rollout.Strategy{}
		}
		oldV1 := validationToV1(d)
		if len(validationUpstream(t, oldV1)) > 0 { // (defaults oldV1: as stored)
			counts["old not valid (skipped)"]++
			return
		}
		oldV1.ResourceVersion = "1"
		newV1 := oldV1.DeepCopy()
		s := &newV1.Spec
		if rapid.IntRange(0, 2).Draw(t, "changeSelector") == 0 {
			s.Selector.MatchLabels = rapid.SampledFrom([]map[string]string{{"app": "web", "tier": "front"}, {"app": "api"}, {"app": "web"}}).Draw(t, "newSelector")
			s.Selector.MatchExpressions = nil
		}
		if rapid.IntRange(0, 2).Draw(t, "changeLabels") == 0 {
			s.Template.Labels = rapid.SampledFrom([]map[string]string{{"app": "web", "tier": "front"}, {"app": "api"}, {"app": "web"}}).Draw(t, "newLabels")
		}
		if rapid.Bool().Draw(t, "changeImage") {
			s.Template.Spec.Containers[0].Image = "web:2"
		}
		if rapid.Bool().Draw(t, "changeReplicas") {
			r := rapid.SampledFrom([]int32{-1, 0, 5}).Draw(t, "newReplicas")
			s.Replicas = &r
		}
		legacyscheme.Scheme.Default(newV1)
		uerrs := difftest.RegistryUpdate(t, deploymentregistry.Strategy, "apps", "deployments", oldV1, newV1, &apps.Deployment{}, &apps.Deployment{})
		kerr := rollout.ValidateUpdate(difftest.Must(k8s.FromDeployment(oldV1)), difftest.Must(k8s.FromDeployment(newV1)))
		difftest.Verdict(t, "Deployment update", kerr, uerrs, func(error) string { return "" }, counts)
	})
	difftest.LogCounts(t, counts)
}

// TestRolloutUpdateVectorsUpstream replays
// testdata/rollout/validate_update.json through v1.36.3's Deployment
// registry: each side written as the apps/v1 Deployment the adapter makes
// of it and defaulted, as stored (resourceVersion "1"), then
// PrepareForUpdate and ValidateUpdate. A vector wanting {valid: true} is an
// update upstream accepts; one wanting an error names the path and kind of
// one of upstream's errors. The stored Deployment must be one the registry
// creates. KUBESEM_WRITE_VECTORS=1 rewrites the wants from upstream.
func TestRolloutUpdateVectorsUpstream(t *testing.T) {
	ok, refused := difftest.ReplayValidationVectors(t, "rollout/validate_update.json", "rollout.ValidateUpdate", "new", func(input json.RawMessage) utilfield.ErrorList {
		var in struct {
			Old *rollout.Deployment `json:"old"`
			New *rollout.Deployment `json:"new"`
		}
		difftest.DecodeJSON(t, input, &in)
		oldV1, newV1 := difftest.Must(k8s.ToDeployment(in.Old)), difftest.Must(k8s.ToDeployment(in.New))
		for _, d := range []*appsv1.Deployment{oldV1, newV1} {
			legacyscheme.Scheme.Default(d)
			d.ResourceVersion = "1"
		}
		if errs := difftest.RegistryCreate(t, deploymentregistry.Strategy, "apps", "deployments", oldV1.DeepCopy(), &apps.Deployment{}); len(errs) > 0 {
			t.Errorf("the stored Deployment is one the registry refuses: %v", errs.ToAggregate())
		}
		return difftest.RegistryUpdate(t, deploymentregistry.Strategy, "apps", "deployments", oldV1, newV1, &apps.Deployment{}, &apps.Deployment{})
	})
	if ok < 3 || refused < 4 {
		t.Errorf("only %d accepted and %d refused updates replayed", ok, refused)
	}
}
