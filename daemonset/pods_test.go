package daemonset

import (
	"errors"
	"testing"

	"github.com/kubesem/kubesem/field"
	"github.com/kubesem/kubesem/history"
	"github.com/kubesem/kubesem/node"
	"github.com/kubesem/kubesem/podstatus"
)

func TestTemplateGeneration(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		ann  map[string]string
		gen  int64
		okay bool
	}{
		{nil, 0, false},
		{map[string]string{AnnotationTemplateGeneration: "7"}, 7, true},
		{map[string]string{AnnotationTemplateGeneration: "-2"}, -2, true},
		{map[string]string{AnnotationTemplateGeneration: "x"}, 0, false},
		{map[string]string{AnnotationTemplateGeneration: "99999999999999999999"}, 0, false},
		{map[string]string{"other": "7"}, 0, false},
	} {
		ds := testDS()
		ds.Annotations = c.ann
		if g, ok := TemplateGeneration(ds); g != c.gen || ok != c.okay {
			t.Errorf("%v: %d, %v", c.ann, g, ok)
		}
	}
}

func TestIsPodUpdated(t *testing.T) {
	t.Parallel()
	pod := func(hash, gen string) *podstatus.Pod {
		p := &podstatus.Pod{}
		p.Labels = map[string]string{}
		if hash != "" {
			p.Labels[history.HashLabel] = hash
		}
		if gen != "" {
			p.Labels[LabelTemplateGeneration] = gen
		}
		return p
	}
	ds := func(gen string) *DaemonSet {
		d := &DaemonSet{}
		if gen != "" {
			d.Annotations = map[string]string{AnnotationTemplateGeneration: gen}
		}
		return d
	}
	for _, c := range []struct {
		pod  *podstatus.Pod
		hash string
		ds   *DaemonSet
		want bool
	}{
		{pod("h", ""), "h", ds(""), true},
		{pod("o", ""), "h", ds(""), false},
		{pod("", ""), "", ds(""), false}, // an empty hash matches nothing
		{pod("o", "3"), "h", ds("3"), true},
		{pod("o", "3"), "h", ds("4"), false},
		{pod("o", "3"), "h", ds(""), false},
		{pod("o", "3"), "h", ds("x3"), false}, // an unparsable generation is none
		{pod("o", ""), "h", ds("0"), false},
		{pod("o", "3"), "h", nil, false},
		{nil, "h", ds("3"), false},
	} {
		var labels map[string]string
		if c.pod != nil {
			labels = c.pod.Labels
		}
		if got := IsPodUpdated(c.pod, c.hash, c.ds); got != c.want {
			t.Errorf("IsPodUpdated(%v, %q, %v) = %v", labels, c.hash, c.ds, got)
		}
	}
}

func TestTargetNodeName(t *testing.T) {
	t.Parallel()
	req := func(terms ...node.NodeSelectorTerm) *node.Affinity {
		return &node.Affinity{NodeAffinity: &node.NodeAffinity{RequiredDuringSchedulingIgnoredDuringExecution: &node.NodeSelector{NodeSelectorTerms: terms}}}
	}
	field1 := func(op node.NodeSelectorOperator, key string, vals ...string) node.NodeSelectorTerm {
		return node.NodeSelectorTerm{MatchFields: []node.NodeSelectorRequirement{{Key: key, Operator: op, Values: vals}}}
	}
	for _, c := range []struct {
		name string
		spec podstatus.Spec
		want string
		path string
	}{
		{"nodeName wins", podstatus.Spec{Affinity: PinToNode(nil, "b")}, "a", ""},
		{"pinned", podstatus.Spec{Affinity: PinToNode(nil, "b")}, "b", ""},
		{"second term", podstatus.Spec{Affinity: req(field1(node.SelectorIn, "metadata.labels", "x"), field1(node.SelectorIn, node.FieldNodeName, "c"))}, "c", ""},
		{"NotIn is not a target", podstatus.Spec{Affinity: req(field1(node.SelectorNotIn, node.FieldNodeName, "c"))}, "", "spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms"},
		{"two values", podstatus.Spec{Affinity: req(field1(node.SelectorIn, node.FieldNodeName, "c", "d"))}, "", "spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchFields[0].values"},
		{"no affinity", podstatus.Spec{}, "", "spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution"},
		{"no terms", podstatus.Spec{Affinity: req()}, "", "spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms"},
	} {
		if c.name == "nodeName wins" {
			c.spec.NodeName = "a"
		}
		got, err := TargetNodeName(&c.spec)
		var fe *field.Error
		switch {
		case c.path == "" && (err != nil || got != c.want):
			t.Errorf("%s: %q, %v; want %q", c.name, got, err, c.want)
		case c.path != "" && (!errors.As(err, &fe) || fe.Path != c.path):
			t.Errorf("%s: %q, %v; want an error at %s", c.name, got, err, c.path)
		}
	}
}

func TestPinToNode(t *testing.T) {
	t.Parallel()
	in := PinToNode(nil, "old")
	got := PinToNode(in, "new")
	if n, _ := TargetNodeName(&podstatus.Spec{Affinity: got}); n != "new" {
		t.Errorf("PinToNode pins to %q", n)
	}
	if n, _ := TargetNodeName(&podstatus.Spec{Affinity: in}); n != "old" {
		t.Errorf("PinToNode modified its input: %q", n)
	}
	if terms := got.Required().NodeSelectorTerms; len(terms) != 1 || len(terms[0].MatchFields) != 1 || len(terms[0].MatchExpressions) != 0 {
		t.Errorf("PinToNode terms %+v; want exactly one metadata.name In term", terms)
	}
}

func TestNewPod(t *testing.T) {
	t.Parallel()
	ds := testDS()
	ds.Annotations = map[string]string{AnnotationTemplateGeneration: "4"}
	ds.Spec.Template.Spec.HostNetwork = true
	p := NewPod(ds, "n1", "abc")
	if p.Labels[history.HashLabel] != "abc" || p.Labels[LabelTemplateGeneration] != "4" || p.Labels["app"] != "d" {
		t.Errorf("labels %v", p.Labels)
	}
	if ds.Spec.Template.Labels[history.HashLabel] != "" {
		t.Error("NewPod modified the template's labels")
	}
	if len(p.Spec.Tolerations) != 7 {
		t.Errorf("tolerations %+v; want the 7 defaults of a host-network pod", p.Spec.Tolerations)
	}
	if n, _ := TargetNodeName(&podstatus.Spec{Affinity: p.Spec.Affinity}); n != "n1" {
		t.Errorf("pinned to %q", n)
	}
	if q := NewPod(testDS(), "n1", ""); len(q.Labels) != 1 {
		t.Errorf("without hash and generation: labels %v", q.Labels)
	}
}

func TestOlderPod(t *testing.T) {
	t.Parallel()
	a := testPod("a", "n", "h", tHour, tHour)
	b := testPod("b", "n", "h", tHour, tHour)
	later := testPod("0-later", "n", "h", tNow, tNow)
	unsched := pinned(testPod("0-unscheduled", "n", "h", tHour.Add(-1), tHour))
	for _, c := range []struct {
		x, y *podstatus.Pod
		want bool
	}{
		{a, b, true}, {b, a, false}, // same time: by name
		{a, later, true}, {later, a, false},
		{later, unsched, true}, {unsched, later, false}, // scheduled first, even when younger
		{a, a, false},
	} {
		if got := olderPod(c.x, c.y); got != c.want {
			t.Errorf("olderPod(%s, %s) = %v", c.x.Name, c.y.Name, got)
		}
	}
}
