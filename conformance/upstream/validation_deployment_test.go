package upstream_test

import (
	"math"
	"strings"
	"testing"

	utilfield "k8s.io/apimachinery/pkg/util/validation/field"

	appsv1 "k8s.io/api/apps/v1"
	"k8s.io/kubernetes/pkg/api/legacyscheme"
	"k8s.io/kubernetes/pkg/apis/apps"
	_ "k8s.io/kubernetes/pkg/apis/apps/install"
	appsvalidation "k8s.io/kubernetes/pkg/apis/apps/validation"
	apivalidation "k8s.io/kubernetes/pkg/apis/core/validation"
	"pgregory.net/rapid"

	"github.com/kubesem/kubesem/intstr"
	"github.com/kubesem/kubesem/k8s"
	"github.com/kubesem/kubesem/meta"
	"github.com/kubesem/kubesem/podstatus"
	"github.com/kubesem/kubesem/rollout"
)

// vdBound draws a rolling-update bound around the limits API validation
// checks: absent, 0, small, huge, percentages around 0% and 100%, and
// strings that are not numbers.
func vdBound(t *rapid.T, label string) *intstr.Value {
	words := []string{"", "0", "1", "3", "2147483647", "0%", "1%", "25%", "100%", "101%", "200%", "3000000000%", "99999999999999999999%", "000%", "-1", "-5%", "+5%", "abc", "5.5%"}
	w := rapid.SampledFrom(words).Draw(t, label)
	if w == "" {
		return nil
	}
	var v intstr.Value
	if err := v.UnmarshalJSON([]byte(vdJSON(w))); err != nil {
		s := intstr.String(w)
		return &s
	}
	return &v
}

// vdJSON spells a bound the way a manifest does: integers bare, the rest quoted.
func vdJSON(w string) string {
	if strings.HasSuffix(w, "%") || strings.ContainsAny(w, "abc.+") {
		return `"` + w + `"`
	}
	return w
}

func vdInt32(t *rapid.T, label string, values ...int32) *int32 {
	if rapid.IntRange(0, 3).Draw(t, label+"Nil") == 0 {
		return nil
	}
	v := rapid.SampledFrom(values).Draw(t, label)
	return &v
}

// vdDeployment draws a Deployment whose modelled fields sit at and around
// the limits of API validation.
func vdDeployment(t *rapid.T) *rollout.Deployment {
	d := &rollout.Deployment{}
	d.Name, d.Namespace = "web", "default"
	d.Spec.Replicas = vdInt32(t, "replicas", -1, 0, 1, 3, math.MaxInt32)
	d.Spec.MinReadySeconds = rapid.SampledFrom([]int32{-1, 0, 5, 599, 600, 601}).Draw(t, "minReady")
	d.Spec.RevisionHistoryLimit = vdInt32(t, "history", -1, 0, 10)
	d.Spec.ProgressDeadlineSeconds = vdInt32(t, "deadline", -1, 0, 5, 6, 600)
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
		d.Spec.Strategy.RollingUpdate = &rollout.RollingUpdate{MaxSurge: vdBound(t, "maxSurge"), MaxUnavailable: vdBound(t, "maxUnavailable")}
	}
	return d
}

// vdUpstream defaults u as the API server does for apps/v1, converts it to
// the internal version and validates it.
func vdUpstream(t *rapid.T, u *appsv1.Deployment) utilfield.ErrorList {
	legacyscheme.Scheme.Default(u)
	var internal apps.Deployment
	if err := legacyscheme.Scheme.Convert(u, &internal, nil); err != nil {
		t.Fatalf("convert: %v", err)
	}
	return appsvalidation.ValidateDeployment(&internal, apivalidation.PodValidationOptions{})
}

// vdKnownDifference names the classes of difference still open: none (the
// int32 overflow class closed when the rules started wrapping as upstream).
func vdKnownDifference(error) string { return "" }

// TestDeploymentValidationParity: rollout.Validate accepts exactly the
// Deployments v1.36.3 accepts after apps/v1 defaulting, and the path of its
// error is one of upstream's.
func TestDeploymentValidationParity(t *testing.T) {
	counts := map[string]int{}
	rapid.Check(t, func(t *rapid.T) {
		d := vdDeployment(t)
		verdict(t, "Deployment", rollout.Validate(d, nil, nil), vdUpstream(t, vdToV1(d)), vdKnownDifference, counts)
	})
	logCounts(t, counts)
}

// vdToV1 is d as a user would submit it: the adapter's apps/v1 Deployment,
// not defaulted (vdUpstream defaults it as the API server does).
func vdToV1(d *rollout.Deployment) *appsv1.Deployment { return must(k8s.ToDeployment(d)) }
