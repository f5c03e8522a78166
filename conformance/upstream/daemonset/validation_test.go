package daemonset_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	utilfield "k8s.io/apimachinery/pkg/util/validation/field"
	"k8s.io/kubernetes/pkg/api/legacyscheme"
	"k8s.io/kubernetes/pkg/apis/apps"
	appsvalidation "k8s.io/kubernetes/pkg/apis/apps/validation"
	apivalidation "k8s.io/kubernetes/pkg/apis/core/validation"
	"pgregory.net/rapid"

	"github.com/kubesem/kubesem/conformance/upstream/internal/difftest"
	"github.com/kubesem/kubesem/daemonset"
	"github.com/kubesem/kubesem/intstr"
	"github.com/kubesem/kubesem/k8s"
	"github.com/kubesem/kubesem/meta"
	"github.com/kubesem/kubesem/node"
	"github.com/kubesem/kubesem/podstatus"
)

// validationLabels draws a label map around the syntax the API checks.
func validationLabels(t *rapid.T, label string) map[string]string {
	if validationOneIn(t, label+"Odd", 4) {
		return rapid.SampledFrom([]map[string]string{nil, {"app": "other"}, {"app": "web", "bad key": "x"}, {"app": "web", "tier": "-front"}}).Draw(t, label+"OddSet")
	}
	return rapid.SampledFrom([]map[string]string{{"app": "web"}, {"app": "web", "example.com/tier": "front"}}).Draw(t, label)
}

// validationSelector draws spec.selector: absent, empty, labels, expressions with
// every operator (and an unknown one), with and without values, keys and
// values the API rejects.
func validationSelector(t *rapid.T) *meta.LabelSelector {
	switch rapid.IntRange(0, 15).Draw(t, "selector") {
	case 15:
		return nil
	case 14:
		return &meta.LabelSelector{}
	case 13:
		return &meta.LabelSelector{MatchLabels: validationLabels(t, "matchLabels")}
	case 11, 12:
		var rs []meta.Requirement
		for i := range rapid.IntRange(1, 2).Draw(t, "nexpr") {
			l := "se" + string(rune('0'+i))
			r := meta.Requirement{
				Key:      rapid.SampledFrom([]string{"app", "app", "example.com/app", "", "bad key"}).Draw(t, l+"k"),
				Operator: meta.Operator(rapid.SampledFrom([]string{"In", "NotIn", "Exists", "DoesNotExist", "Near"}).Draw(t, l+"op")),
			}
			for j := range rapid.IntRange(0, 2).Draw(t, l+"nv") {
				r.Values = append(r.Values, rapid.SampledFrom([]string{"web", "api", "-bad"}).Draw(t, l+"v"+string(rune('0'+j))))
			}
			rs = append(rs, r)
		}
		return &meta.LabelSelector{MatchExpressions: rs}
	default:
		return meta.SelectorFromSet(map[string]string{"app": "web"})
	}
}

// validationOneIn is true about once in n draws (rapid favours the ends of a
// range, so the middle value is the rare one).
func validationOneIn(t *rapid.T, label string, n int) bool {
	return rapid.IntRange(0, n-1).Draw(t, label) == n/2
}

// validationToleration draws a toleration over valid and invalid keys,
// operators, values, effects and seconds.
func validationToleration(t *rapid.T, l string) node.Toleration {
	tol := node.Toleration{
		Key:      rapid.SampledFrom([]string{"a", "example.com/a", "node.kubernetes.io/not-ready", "", "bad key"}).Draw(t, l+"k"),
		Operator: rapid.SampledFrom([]string{"Exists", "Equal", "", "Exists", "Lt", "Gt", "Bogus"}).Draw(t, l+"op"),
		Value:    rapid.SampledFrom([]string{"", "", "v", "5", "-v"}).Draw(t, l+"v"),
		Effect:   rapid.SampledFrom([]string{"NoExecute", "NoSchedule", "", "PreferNoSchedule", "NoExecute", "Bogus"}).Draw(t, l+"e"),
	}
	if rapid.IntRange(0, 3).Draw(t, l+"hasSecs") == 0 {
		s := int64(30)
		tol.TolerationSeconds = &s
	}
	return tol
}

// validationAffinity draws a required node affinity: no terms, empty terms,
// label expressions with every operator and value count, field
// expressions on metadata.name and on other keys.
func validationAffinity(t *rapid.T) *node.Affinity {
	if rapid.IntRange(0, 2).Draw(t, "hasAff") > 0 {
		return nil
	}
	var terms []node.NodeSelectorTerm
	for i := range rapid.IntRange(0, 2).Draw(t, "nterms") {
		l := "t" + string(rune('0'+i))
		var term node.NodeSelectorTerm
		for j := range rapid.IntRange(0, 2).Draw(t, l+"ne") {
			m := l + "e" + string(rune('0'+j))
			r := node.NodeSelectorRequirement{
				Key:      rapid.SampledFrom([]string{"zone", "example.com/zone", "zone", "", "bad key"}).Draw(t, m+"k"),
				Operator: node.NodeSelectorOperator(rapid.SampledFrom([]string{"In", "Exists", "NotIn", "DoesNotExist", "Gt", "Lt", "Near"}).Draw(t, m+"op")),
			}
			for k := range rapid.IntRange(0, 2).Draw(t, m+"nv") {
				r.Values = append(r.Values, rapid.SampledFrom([]string{"a", "5", "-bad", ""}).Draw(t, m+"v"+string(rune('0'+k))))
			}
			term.MatchExpressions = append(term.MatchExpressions, r)
		}
		if rapid.IntRange(0, 2).Draw(t, l+"hasField") == 0 {
			r := node.NodeSelectorRequirement{
				Key:      rapid.SampledFrom([]string{"metadata.name", "metadata.name", "metadata.labels"}).Draw(t, l+"fk"),
				Operator: node.NodeSelectorOperator(rapid.SampledFrom([]string{"In", "NotIn", "Exists"}).Draw(t, l+"fop")),
			}
			for k := range rapid.IntRange(0, 2).Draw(t, l+"fnv") {
				r.Values = append(r.Values, rapid.SampledFrom([]string{"node-1", "node-1", "Node_1", ""}).Draw(t, l+"fv"+string(rune('0'+k))))
			}
			term.MatchFields = append(term.MatchFields, r)
		}
		terms = append(terms, term)
	}
	return &node.Affinity{NodeAffinity: &node.NodeAffinity{RequiredDuringSchedulingIgnoredDuringExecution: &node.NodeSelector{NodeSelectorTerms: terms}}}
}

// validationDaemonSet draws a DaemonSet whose modelled fields sit at and around
// the limits of API validation, with absent fields apps/v1 defaulting
// fills.
func validationDaemonSet(t *rapid.T) *daemonset.DaemonSet {
	ds := &daemonset.DaemonSet{}
	ds.Name, ds.Namespace = "agent", "default"
	ds.Spec.Selector = validationSelector(t)
	ds.Spec.Template.Labels = validationLabels(t, "labels")
	ds.Spec.MinReadySeconds = rapid.SampledFrom([]int32{0, 5}).Draw(t, "minReady")
	if validationOneIn(t, "negMinReady", 8) {
		ds.Spec.MinReadySeconds = rapid.SampledFrom([]int32{-1, -5}).Draw(t, "minReadyNeg")
	}
	ds.Spec.RevisionHistoryLimit = difftest.DrawInt32Ptr(t, "history", 10, 0)
	if validationOneIn(t, "negHistory", 8) {
		ds.Spec.RevisionHistoryLimit = difftest.Ptr(int32(-1))
	}
	ds.Spec.UpdateStrategy.Type = daemonset.StrategyType(rapid.SampledFrom([]string{"RollingUpdate", "", "OnDelete"}).Draw(t, "strategy"))
	if validationOneIn(t, "badStrategy", 16) {
		ds.Spec.UpdateStrategy.Type = "Recreate"
	}
	switch {
	case validationOneIn(t, "noRollingUpdate", 4):
	case validationOneIn(t, "wildRollingUpdate", 4):
		// Around the limits: each bound absent, 0, huge, at and past
		// 100%, malformed.
		ds.Spec.UpdateStrategy.RollingUpdate = &daemonset.RollingParams{MaxUnavailable: difftest.DrawBound(t, "maxUnavailable"), MaxSurge: difftest.DrawBound(t, "maxSurge")}
	default:
		// Mostly valid: one bound non-zero, the other 0 or absent.
		set := rapid.SampledFrom([]*intstr.Value{difftest.Ptr(intstr.Int(1)), difftest.Ptr(intstr.String("25%")), difftest.Ptr(intstr.Int(3)), difftest.Ptr(intstr.String("100%")), nil}).Draw(t, "bound")
		var zero *intstr.Value
		if rapid.Bool().Draw(t, "zeroSet") {
			z := intstr.Int(0)
			zero = &z
		}
		ru := &daemonset.RollingParams{MaxUnavailable: set, MaxSurge: zero}
		if rapid.Bool().Draw(t, "surge") {
			ru.MaxUnavailable, ru.MaxSurge = zero, set
		}
		ds.Spec.UpdateStrategy.RollingUpdate = ru
	}
	sp := &ds.Spec.Template.Spec
	sp.Containers = []podstatus.Container{{Name: "agent", Image: "agent:1"}}
	if rapid.IntRange(0, 9).Draw(t, "hasRestart") == 0 {
		sp.RestartPolicy = podstatus.RestartPolicy(rapid.SampledFrom([]string{"Always", "Always", "Never", "OnFailure", "Sometimes"}).Draw(t, "restart"))
	}
	if rapid.IntRange(0, 19).Draw(t, "hasDeadline") == 0 {
		d := rapid.SampledFrom([]int64{30, 0}).Draw(t, "deadline")
		sp.ActiveDeadlineSeconds = &d
	}
	if rapid.IntRange(0, 3).Draw(t, "hasNodeName") == 0 {
		sp.NodeName = rapid.SampledFrom([]string{"node-1", "node-1", "Node_1", "-node", "a.b"}).Draw(t, "nodeName")
	}
	if rapid.IntRange(0, 2).Draw(t, "hasNodeSelector") == 0 {
		sp.NodeSelector = rapid.SampledFrom([]map[string]string{{"zone": "a"}, {"zone": "a"}, {"zone": ""}, {"bad key": "a"}, {"zone": "-a"}}).Draw(t, "nodeSelector")
	}
	sp.HostNetwork = rapid.Bool().Draw(t, "hostNetwork")
	for i := range rapid.SampledFrom([]int{0, 0, 0, 1, 1, 2}).Draw(t, "ntols") {
		sp.Tolerations = append(sp.Tolerations, validationToleration(t, "tol"+string(rune('0'+i))))
	}
	sp.Affinity = validationAffinity(t)
	return ds
}

// validationUpstream writes ds as the apps/v1 object a user submits, defaults it
// as the API server does, converts it and validates it.
func validationUpstream(t interface{ Fatalf(string, ...any) }, ds *daemonset.DaemonSet) utilfield.ErrorList {
	u, err := k8s.ToDaemonSet(ds)
	if err != nil {
		t.Fatalf("ToDaemonSet: %v", err)
	}
	return validationValidateV1(t, u, apivalidation.PodValidationOptions{})
}

func validationValidateV1(t interface{ Fatalf(string, ...any) }, u *appsv1.DaemonSet, opts apivalidation.PodValidationOptions) utilfield.ErrorList {
	u = u.DeepCopy()
	legacyscheme.Scheme.Default(u)
	var internal apps.DaemonSet
	if err := legacyscheme.Scheme.Convert(u, &internal, nil); err != nil {
		t.Fatalf("convert: %v", err)
	}
	return appsvalidation.ValidateDaemonSet(&internal, opts)
}

// TestDaemonSetValidationParity: daemonset.Validate accepts exactly the
// DaemonSets v1.36.3 accepts after apps/v1 defaulting (over the modelled
// fields: selector, template labels, restart policy, active deadline,
// nodeName, nodeSelector, tolerations, required node affinity,
// minReadySeconds, revisionHistoryLimit, update strategy), and the path of
// its error is one of upstream's.
func TestDaemonSetValidationParity(t *testing.T) {
	counts := map[string]int{}
	none := func(error) string { return "" }
	rapid.Check(t, func(t *rapid.T) {
		ds := validationDaemonSet(t)
		difftest.Verdict(t, "DaemonSet", daemonset.Validate(ds, daemonset.Options{}), validationUpstream(t, ds), none, counts)
	})
	difftest.LogCounts(t, counts)
	if counts["accept"] < 1000 {
		t.Errorf("only %d valid DaemonSets drawn", counts["accept"])
	}
}

// TestDaemonSetVectorsValidation replays the DaemonSet of every daemonset
// vector through v1.36.3's apps/v1 defaulting and ValidateDaemonSet: an
// error vector at daemonSet.spec… names one of upstream's paths, and a
// Validate or Step vector with a want is a DaemonSet upstream accepts.
func TestDaemonSetVectorsValidation(t *testing.T) {
	files, err := filepath.Glob(difftest.Repo("testdata", "daemonset", "*.json"))
	if err != nil {
		t.Fatal(err)
	}
	var errs, oks int
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var vs []struct {
			Decision string `json:"decision"`
			Name     string `json:"name"`
			// Options holds the one option validation reads; a vector's
			// misspelt option (options.json) is not this test's concern.
			Options *struct {
				TaintTolerationComparisonOperators bool `json:"taintTolerationComparisonOperators"`
			} `json:"options"`
			Input struct {
				DaemonSet *daemonset.DaemonSet `json:"daemonSet"`
			} `json:"input"`
			Want      json.RawMessage `json:"want"`
			WantOneOf json.RawMessage `json:"wantOneOf"`
			WantError *struct {
				Field string `json:"field"`
			} `json:"wantError"`
		}
		if err := json.Unmarshal(b, &vs); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		for _, v := range vs {
			if v.Input.DaemonSet == nil {
				continue
			}
			u, err := k8s.ToDaemonSet(v.Input.DaemonSet)
			if err != nil {
				t.Fatalf("%s %q: %v", filepath.Base(f), v.Name, err)
			}
			popts := apivalidation.PodValidationOptions{}
			if v.Options != nil {
				popts.AllowTaintTolerationComparisonOperators = v.Options.TaintTolerationComparisonOperators
			}
			up := validationValidateV1(t, u, popts)
			paths := make([]string, len(up))
			for i, e := range up {
				paths[i] = e.Field
			}
			switch {
			case v.WantError != nil && strings.HasPrefix(v.WantError.Field, "daemonSet.spec."):
				p := strings.TrimPrefix(v.WantError.Field, "daemonSet.")
				if !slices.Contains(paths, p) {
					t.Errorf("%s %q: wants an error at %s; upstream reports %q", filepath.Base(f), v.Name, p, paths)
				}
				errs++
			case v.WantError == nil && (v.Decision == "daemonset.Step" || v.Decision == "daemonset.Validate"):
				if len(up) > 0 {
					t.Errorf("%s %q: upstream rejects the DaemonSet: %v", filepath.Base(f), v.Name, up.ToAggregate())
				}
				oks++
			}
		}
	}
	t.Logf("%d error vectors at upstream paths, %d valid DaemonSets accepted", errs, oks)
	if errs < 20 || oks < 70 {
		t.Errorf("only %d error vectors and %d valid ones replayed", errs, oks)
	}
}
