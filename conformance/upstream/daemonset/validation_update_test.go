package daemonset_test

import (
	"encoding/json"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	utilfield "k8s.io/apimachinery/pkg/util/validation/field"
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

// TestDaemonSetUpdateVectorsUpstream replays
// testdata/daemonset/validate_update.json through v1.36.3's DaemonSet
// registry: each side written as the apps/v1 DaemonSet the adapter makes
// of it and defaulted, as stored (resourceVersion "1"), then
// PrepareForUpdate (which bumps the template generation when the template
// changes) and ValidateUpdate. A vector wanting {valid: true} is an update
// upstream accepts; one wanting an error names the path and kind of one of
// upstream's errors. The stored DaemonSet must be one the registry
// creates. KUBESEM_WRITE_VECTORS=1 rewrites the wants from upstream.
func TestDaemonSetUpdateVectorsUpstream(t *testing.T) {
	ok, refused := difftest.ReplayValidationVectors(t, "daemonset/validate_update.json", "daemonset.ValidateUpdate", "new", func(input json.RawMessage) utilfield.ErrorList {
		var in struct {
			Old *daemonset.DaemonSet `json:"old"`
			New *daemonset.DaemonSet `json:"new"`
		}
		difftest.DecodeJSON(t, input, &in)
		oldV1, newV1 := difftest.Must(k8s.ToDaemonSet(in.Old)), difftest.Must(k8s.ToDaemonSet(in.New))
		for _, ds := range []*appsv1.DaemonSet{oldV1, newV1} {
			legacyscheme.Scheme.Default(ds)
			ds.ResourceVersion = "1"
		}
		if errs := difftest.RegistryCreate(t, dsregistry.Strategy, "apps", "daemonsets", oldV1.DeepCopy(), &apps.DaemonSet{}); len(errs) > 0 {
			t.Errorf("the stored DaemonSet is one the registry refuses: %v", errs.ToAggregate())
		}
		return difftest.RegistryUpdate(t, dsregistry.Strategy, "apps", "daemonsets", oldV1, newV1, &apps.DaemonSet{}, &apps.DaemonSet{})
	})
	if ok < 3 || refused < 3 {
		t.Errorf("only %d accepted and %d refused updates replayed", ok, refused)
	}
}
