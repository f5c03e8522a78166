package deployment_test

import (
	"math"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	utilfield "k8s.io/apimachinery/pkg/util/validation/field"
	"k8s.io/kubernetes/pkg/api/legacyscheme"
	"k8s.io/kubernetes/pkg/apis/apps"
	_ "k8s.io/kubernetes/pkg/apis/apps/install"
	appsvalidation "k8s.io/kubernetes/pkg/apis/apps/validation"
	apivalidation "k8s.io/kubernetes/pkg/apis/core/validation"
	"pgregory.net/rapid"

	"github.com/kubesem/kubesem/conformance/upstream/internal/difftest"
	"github.com/kubesem/kubesem/k8s"
	"github.com/kubesem/kubesem/meta"
	"github.com/kubesem/kubesem/podstatus"
	"github.com/kubesem/kubesem/rollout"
)

// validationDeployment draws a Deployment whose modelled fields sit at and around
// the limits of API validation.
func validationDeployment(t *rapid.T) *rollout.Deployment {
	d := &rollout.Deployment{}
	d.Name, d.Namespace = "web", "default"
	d.Spec.Replicas = difftest.DrawInt32Ptr(t, "replicas", -1, 0, 1, 3, math.MaxInt32)
	d.Spec.MinReadySeconds = rapid.SampledFrom([]int32{-1, 0, 5, 599, 600, 601}).Draw(t, "minReady")
	d.Spec.RevisionHistoryLimit = difftest.DrawInt32Ptr(t, "history", -1, 0, 10)
	d.Spec.ProgressDeadlineSeconds = difftest.DrawInt32Ptr(t, "deadline", -1, 0, 5, 6, 600)
	switch rapid.IntRange(0, 4).Draw(t, "selector") {
	case 0: // absent
	case 1:
		d.Spec.Selector = &meta.LabelSelector{}
	case 2:
		d.Spec.Selector = &meta.LabelSelector{MatchExpressions: []meta.Requirement{{Key: "app", Operator: meta.OpIn, Values: []string{"web", "api"}}}}
	default:
		d.Spec.Selector = meta.SelectorFromSet(map[string]string{"app": "web"})
	}
	switch rapid.IntRange(0, 3).Draw(t, "labels") {
	case 0:
	case 1:
		d.Spec.Template.Labels = map[string]string{"app": "other"}
	case 2:
		d.Spec.Template.Labels = map[string]string{"app": "web", "tier": "front"}
	default:
		d.Spec.Template.Labels = map[string]string{"app": "web"}
	}
	d.Spec.Template.Spec.Containers = []podstatus.Container{{Name: "web", Image: "web:1"}}
	d.Spec.Strategy.Type = rapid.SampledFrom([]rollout.StrategyType{"", rollout.RollingUpdateStrategy, rollout.RecreateStrategy, "BlueGreen"}).Draw(t, "strategy")
	if rapid.Bool().Draw(t, "rollingUpdate") {
		d.Spec.Strategy.RollingUpdate = &rollout.RollingUpdate{MaxSurge: difftest.DrawBound(t, "maxSurge"), MaxUnavailable: difftest.DrawBound(t, "maxUnavailable")}
	}
	return d
}

// validationUpstream defaults u as the API server does for apps/v1, converts it to
// the internal version and validates it.
func validationUpstream(t *rapid.T, u *appsv1.Deployment) utilfield.ErrorList {
	legacyscheme.Scheme.Default(u)
	var internal apps.Deployment
	if err := legacyscheme.Scheme.Convert(u, &internal, nil); err != nil {
		t.Fatalf("convert: %v", err)
	}
	return appsvalidation.ValidateDeployment(&internal, apivalidation.PodValidationOptions{})
}

// validationKnownDifference names the classes of difference still open: none (the
// int32 overflow class closed when the rules started wrapping as upstream).
func validationKnownDifference(error) string { return "" }

// TestDeploymentValidationParity: rollout.Validate accepts exactly the
// Deployments v1.36.3 accepts after apps/v1 defaulting, and the path of its
// error is one of upstream's.
func TestDeploymentValidationParity(t *testing.T) {
	counts := map[string]int{}
	rapid.Check(t, func(t *rapid.T) {
		d := validationDeployment(t)
		difftest.Verdict(t, "Deployment", rollout.Validate(d, nil, nil), validationUpstream(t, validationToV1(d)), validationKnownDifference, counts)
	})
	difftest.LogCounts(t, counts)
}

// validationToV1 is d as a user would submit it: the adapter's apps/v1 Deployment,
// not defaulted (validationUpstream defaults it as the API server does).
func validationToV1(d *rollout.Deployment) *appsv1.Deployment {
	return difftest.Must(k8s.ToDeployment(d))
}
