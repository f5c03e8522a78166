package daemonset_test

import (
	"testing"

	"k8s.io/kubernetes/pkg/api/legacyscheme"
	"k8s.io/kubernetes/pkg/apis/apps"
	apivalidation "k8s.io/kubernetes/pkg/apis/core/validation"
	dsregistry "k8s.io/kubernetes/pkg/registry/apps/daemonset"
	"pgregory.net/rapid"

	"github.com/kubesem/kubesem/conformance/upstream/internal/difftest"
	"github.com/kubesem/kubesem/daemonset"
	"github.com/kubesem/kubesem/k8s"
)

// TestDaemonSetUpdateValidationParity: daemonset.ValidateUpdate refuses
// exactly the updates of a valid, stored DaemonSet that v1.36.3's registry
// refuses (PrepareForUpdate, which bumps the template generation when the
// template changes, then ValidateUpdate: the immutable selector and the new
// spec), at one of upstream's paths.
func TestDaemonSetUpdateValidationParity(t *testing.T) {
	counts := map[string]int{}
	none := func(error) string { return "" }
	rapid.Check(t, func(t *rapid.T) {
		oldV1 := difftest.Must(k8s.ToDaemonSet(validationDaemonSet(t)))
		if len(validationValidateV1(t, oldV1, apivalidation.PodValidationOptions{})) > 0 {
			counts["old not valid (skipped)"]++
			return
		}
		legacyscheme.Scheme.Default(oldV1)
		oldV1.ResourceVersion = "1"
		upd := validationDaemonSet(t) // the new spec's fields, drawn the same way
		newV1 := oldV1.DeepCopy()
		if rapid.Bool().Draw(t, "changeSelector") {
			newV1.Spec.Selector = difftest.Must(k8s.ToDaemonSet(upd)).Spec.Selector
		}
		if rapid.Bool().Draw(t, "changeTemplate") {
			newV1.Spec.Template = difftest.Must(k8s.ToDaemonSet(upd)).Spec.Template
		}
		if rapid.Bool().Draw(t, "changeStrategy") {
			newV1.Spec.UpdateStrategy = difftest.Must(k8s.ToDaemonSet(upd)).Spec.UpdateStrategy
		}
		legacyscheme.Scheme.Default(newV1)
		uerrs := difftest.RegistryUpdate(t, dsregistry.Strategy, "apps", "daemonsets", oldV1, newV1, &apps.DaemonSet{}, &apps.DaemonSet{})
		kerr := daemonset.ValidateUpdate(difftest.Must(k8s.FromDaemonSet(oldV1)), difftest.Must(k8s.FromDaemonSet(newV1)), daemonset.Options{})
		difftest.Verdict(t, "DaemonSet update", kerr, uerrs, none, counts)
	})
	difftest.LogCounts(t, counts)
}
