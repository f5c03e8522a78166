package daemonset

import (
	"errors"
	"strings"
	"testing"

	"github.com/kubesem/kubesem/field"
	"github.com/kubesem/kubesem/meta"
	"github.com/kubesem/kubesem/node"
)

const affPath = "spec.template.spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms"

func TestValidate(t *testing.T) {
	t.Parallel()
	req := func(terms ...node.NodeSelectorTerm) *node.Affinity {
		return &node.Affinity{NodeAffinity: &node.NodeAffinity{RequiredDuringSchedulingIgnoredDuringExecution: &node.NodeSelector{NodeSelectorTerms: terms}}}
	}
	expr := func(key string, op node.NodeSelectorOperator, vals ...string) node.NodeSelectorTerm {
		return node.NodeSelectorTerm{MatchExpressions: []node.NodeSelectorRequirement{{Key: key, Operator: op, Values: vals}}}
	}
	fld := func(key string, op node.NodeSelectorOperator, vals ...string) node.NodeSelectorTerm {
		return node.NodeSelectorTerm{MatchFields: []node.NodeSelectorRequirement{{Key: key, Operator: op, Values: vals}}}
	}
	secs := int64(5)
	for _, c := range []struct {
		name string
		mut  func(*DaemonSet)
		path string // "" when valid
		kind error
	}{
		{"valid", nil, "", nil},
		{"missing selector selects nothing", func(d *DaemonSet) { d.Spec.Selector = nil }, "spec.template.metadata.labels", field.ErrInvalid},
		{"empty selector", func(d *DaemonSet) { d.Spec.Selector = &meta.LabelSelector{}; d.Spec.Template.Labels = nil }, "spec.selector", field.ErrInvalid},
		{"selector not selecting the template", func(d *DaemonSet) { d.Spec.Template.Labels = map[string]string{"app": "x"} }, "spec.template.metadata.labels", field.ErrInvalid},
		{"selector label key", func(d *DaemonSet) { d.Spec.Selector.MatchLabels = map[string]string{"bad key": "d"} }, "spec.selector.matchLabels", field.ErrInvalid},
		{"selector label value", func(d *DaemonSet) { d.Spec.Selector.MatchLabels = map[string]string{"app": "-d"} }, "spec.selector.matchLabels", field.ErrInvalid},
		{"selector expression key", func(d *DaemonSet) {
			d.Spec.Selector = &meta.LabelSelector{MatchExpressions: []meta.Requirement{{Key: "bad key", Operator: meta.OpExists}}}
		}, "spec.selector.matchExpressions[0].key", field.ErrInvalid},
		{"selector expression value", func(d *DaemonSet) {
			d.Spec.Selector = &meta.LabelSelector{MatchExpressions: []meta.Requirement{{Key: "app", Operator: meta.OpIn, Values: []string{"d", "-x"}}}}
		}, "spec.selector.matchExpressions[0].values[1]", field.ErrInvalid},
		{"selector expression operator", func(d *DaemonSet) {
			d.Spec.Selector = &meta.LabelSelector{MatchExpressions: []meta.Requirement{{Key: "app", Operator: "Near"}}}
		}, "spec.selector.matchExpressions[0].operator", nil},
		{"negative minReadySeconds", func(d *DaemonSet) { d.Spec.MinReadySeconds = -1 }, "spec.minReadySeconds", field.ErrNegative},
		{"zero revisionHistoryLimit", func(d *DaemonSet) { z := int32(0); d.Spec.RevisionHistoryLimit = &z }, "", nil},
		{"negative revisionHistoryLimit", func(d *DaemonSet) { z := int32(-1); d.Spec.RevisionHistoryLimit = &z }, "spec.revisionHistoryLimit", field.ErrNegative},
		{"strategy omitted: defaulted", func(d *DaemonSet) { d.Spec.UpdateStrategy = UpdateStrategy{} }, "", nil},
		{"rollingUpdate omitted: defaulted", func(d *DaemonSet) { d.Spec.UpdateStrategy.RollingUpdate = nil }, "", nil},
		{"unknown strategy at spec.updateStrategy", func(d *DaemonSet) { d.Spec.UpdateStrategy.Type = "Recreate" }, "spec.updateStrategy", field.ErrUnsupported},
		{"OnDelete's rollingUpdate is not read", func(d *DaemonSet) {
			d.Spec.UpdateStrategy = UpdateStrategy{Type: OnDelete, RollingUpdate: &RollingParams{MaxUnavailable: sv("abc")}}
		}, "", nil},
		{"both bounds 0", func(d *DaemonSet) { d.Spec.UpdateStrategy.RollingUpdate.MaxUnavailable = sv("0%") }, "spec.updateStrategy.rollingUpdate.maxUnavailable", field.ErrRequired},
		{"both bounds set", func(d *DaemonSet) { d.Spec.UpdateStrategy.RollingUpdate.MaxSurge = iv(1) }, "spec.updateStrategy.rollingUpdate.maxSurge", field.ErrInvalid},
		{"only maxSurge: maxUnavailable defaults to 1", func(d *DaemonSet) {
			d.Spec.UpdateStrategy.RollingUpdate = &RollingParams{MaxSurge: iv(1)}
		}, "spec.updateStrategy.rollingUpdate.maxSurge", field.ErrInvalid},
		{"surge alone", func(d *DaemonSet) { withSurge(d, 2) }, "", nil},
		{"maxUnavailable 100%", func(d *DaemonSet) { d.Spec.UpdateStrategy.RollingUpdate.MaxUnavailable = sv("100%") }, "", nil},
		{"maxUnavailable 101%", func(d *DaemonSet) { d.Spec.UpdateStrategy.RollingUpdate.MaxUnavailable = sv("101%") }, "spec.updateStrategy.rollingUpdate.maxUnavailable", field.ErrInvalid},
		{"negative maxSurge", func(d *DaemonSet) { withSurge(d, 1).Spec.UpdateStrategy.RollingUpdate.MaxSurge = iv(-1) }, "spec.updateStrategy.rollingUpdate.maxSurge", field.ErrNegative},
		{"template label", func(d *DaemonSet) { d.Spec.Template.Labels["bad key"] = "x" }, "spec.template.labels", field.ErrInvalid},
		{"restartPolicy Always", func(d *DaemonSet) { d.Spec.Template.Spec.RestartPolicy = "Always" }, "", nil},
		{"restartPolicy OnFailure", func(d *DaemonSet) { d.Spec.Template.Spec.RestartPolicy = "OnFailure" }, "spec.template.spec.restartPolicy", field.ErrUnsupported},
		{"activeDeadlineSeconds", func(d *DaemonSet) { d.Spec.Template.Spec.ActiveDeadlineSeconds = &secs }, "spec.template.spec.activeDeadlineSeconds", field.ErrForbidden},
		{"nodeName", func(d *DaemonSet) { d.Spec.Template.Spec.NodeName = "Node_1" }, "spec.template.spec.nodeName", field.ErrInvalid},
		{"nodeName subdomain", func(d *DaemonSet) { d.Spec.Template.Spec.NodeName = "n-1.example.com" }, "", nil},
		{"nodeSelector key", func(d *DaemonSet) { d.Spec.Template.Spec.NodeSelector = map[string]string{"/x": "a"} }, "spec.template.spec.nodeSelector", field.ErrInvalid},
		{"toleration Exists with a value, at operator", func(d *DaemonSet) {
			d.Spec.Template.Spec.Tolerations = []node.Toleration{{Operator: node.OpExists}, {Key: "k", Operator: node.OpExists, Value: "v"}}
		}, "spec.template.spec.tolerations[1].operator", field.ErrInvalid},
		{"toleration Gt without the gate", func(d *DaemonSet) {
			d.Spec.Template.Spec.Tolerations = []node.Toleration{{Key: "k", Operator: node.OpGt, Value: "3"}}
		}, "spec.template.spec.tolerations[0].operator", field.ErrUnsupported},
		{"affinity without terms", func(d *DaemonSet) { d.Spec.Template.Spec.Affinity = req() }, affPath, field.ErrRequired},
		{"affinity In without values", func(d *DaemonSet) { d.Spec.Template.Spec.Affinity = req(expr("zone", node.SelectorIn)) }, affPath + "[0].matchExpressions[0].values", field.ErrRequired},
		{"affinity Exists with values", func(d *DaemonSet) { d.Spec.Template.Spec.Affinity = req(expr("zone", node.SelectorExists, "a")) }, affPath + "[0].matchExpressions[0].values", field.ErrForbidden},
		{"affinity Gt with two values", func(d *DaemonSet) { d.Spec.Template.Spec.Affinity = req(expr("zone", node.SelectorGt, "1", "2")) }, affPath + "[0].matchExpressions[0].values", field.ErrRequired},
		{"affinity Gt with a word is valid", func(d *DaemonSet) { d.Spec.Template.Spec.Affinity = req(expr("zone", node.SelectorGt, "x")) }, "", nil},
		{"affinity operator", func(d *DaemonSet) { d.Spec.Template.Spec.Affinity = req(expr("zone", "Near", "a")) }, affPath + "[0].matchExpressions[0].operator", field.ErrInvalid},
		{"affinity key", func(d *DaemonSet) { d.Spec.Template.Spec.Affinity = req(expr("", node.SelectorExists)) }, affPath + "[0].matchExpressions[0].key", field.ErrInvalid},
		{"affinity value", func(d *DaemonSet) { d.Spec.Template.Spec.Affinity = req(expr("zone", node.SelectorIn, "a", "-b")) }, affPath + "[0].matchExpressions[0].values[1]", field.ErrInvalid},
		{"second term", func(d *DaemonSet) {
			d.Spec.Template.Spec.Affinity = req(expr("zone", node.SelectorExists), expr("zone", "Near"))
		}, affPath + "[1].matchExpressions[0].operator", field.ErrInvalid},
		{"field expression key", func(d *DaemonSet) { d.Spec.Template.Spec.Affinity = req(fld("metadata.labels", node.SelectorIn, "n")) }, affPath + "[0].matchFields[0].key", field.ErrInvalid},
		{"field expression operator", func(d *DaemonSet) { d.Spec.Template.Spec.Affinity = req(fld(node.FieldNodeName, node.SelectorExists)) }, affPath + "[0].matchFields[0].operator", field.ErrInvalid},
		{"field expression two values", func(d *DaemonSet) {
			d.Spec.Template.Spec.Affinity = req(fld(node.FieldNodeName, node.SelectorIn, "a", "b"))
		}, affPath + "[0].matchFields[0].values", field.ErrRequired},
		{"field expression node name", func(d *DaemonSet) {
			d.Spec.Template.Spec.Affinity = req(fld(node.FieldNodeName, node.SelectorNotIn, "Node_1"))
		}, affPath + "[0].matchFields[0].values[0]", field.ErrInvalid},
		{"field expression valid", func(d *DaemonSet) { d.Spec.Template.Spec.Affinity = PinToNode(nil, "n-1") }, "", nil},
	} {
		ds := testDS()
		if c.mut != nil {
			c.mut(ds)
		}
		err := Validate(ds, Options{})
		var fe *field.Error
		switch {
		case c.path == "" && err != nil:
			t.Errorf("%s: %v; want valid", c.name, err)
		case c.path != "" && (!errors.As(err, &fe) || fe.Path != c.path):
			t.Errorf("%s: %v; want an error at %s", c.name, err, c.path)
		case c.kind != nil && !errors.Is(err, c.kind):
			t.Errorf("%s: %v; want %v", c.name, err, c.kind)
		}
	}
	if err := Validate(nil, Options{}); err == nil {
		t.Error("Validate(nil) = nil")
	}
}

// The gate admits Lt and Gt with an integer value.
func TestValidateComparisonGate(t *testing.T) {
	t.Parallel()
	ds := testDS()
	ds.Spec.Template.Spec.Tolerations = []node.Toleration{{Key: "k", Operator: node.OpLt, Value: "3", Effect: "NoExecute"}}
	if err := Validate(ds, Options{TaintTolerationComparisonOperators: true}); err != nil {
		t.Errorf("gate on: %v", err)
	}
	if err := ValidateTemplate(ds, Options{}); err == nil {
		t.Error("gate off: ValidateTemplate accepts Lt")
	}
}

func TestNonZero(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		v    string
		want bool
	}{{"0", false}, {"3", true}, {"0%", false}, {"000%", false}, {"1%", true}} {
		v := sv(c.v)
		if !strings.HasSuffix(c.v, "%") {
			n := int32(0)
			for _, d := range c.v {
				n = n*10 + int32(d-'0')
			}
			v = iv(n)
		}
		if got := nonZero(*v); got != c.want {
			t.Errorf("nonZero(%s) = %v", c.v, got)
		}
	}
}

func TestOptionsDefaults(t *testing.T) {
	t.Parallel()
	var o Options
	if o.burst() != 250 || o.backoffBase() != DefaultBackoffBase || o.backoffCap() != DefaultBackoffCap {
		t.Errorf("zero Options: burst %d, backoff %s..%s", o.burst(), o.backoffBase(), o.backoffCap())
	}
	o = Options{BurstReplicas: 7, BackoffBase: 3, BackoffCap: 9}
	if o.burst() != 7 || o.backoffBase() != 3 || o.backoffCap() != 9 {
		t.Errorf("set Options: %d %s %s", o.burst(), o.backoffBase(), o.backoffCap())
	}
	o = Options{BurstReplicas: -1, BackoffBase: -1, BackoffCap: -1}
	if o.burst() != DefaultBurstReplicas || o.backoffBase() != DefaultBackoffBase || o.backoffCap() != DefaultBackoffCap {
		t.Errorf("negative Options are the defaults: %d %s %s", o.burst(), o.backoffBase(), o.backoffCap())
	}
}
