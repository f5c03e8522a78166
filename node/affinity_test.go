package node

import (
	"github.com/kubesem/kubesem/internal/names"

	"errors"
	"testing"

	"github.com/kubesem/kubesem/field"
)

func req(terms ...NodeSelectorTerm) *Affinity {
	return &Affinity{NodeAffinity: &NodeAffinity{RequiredDuringSchedulingIgnoredDuringExecution: &NodeSelector{NodeSelectorTerms: terms}}}
}

func TestMatchesNodeSelector(t *testing.T) {
	t.Parallel()
	n := &Node{}
	n.Name = "node-1"
	n.Labels = map[string]string{"zone": "a", "gen": "5", "disk": "ssd"}
	expr := func(k string, op NodeSelectorOperator, v ...string) NodeSelectorRequirement {
		return NodeSelectorRequirement{Key: k, Operator: op, Values: v}
	}
	cases := []struct {
		name    string
		sel     map[string]string
		aff     *Affinity
		want    bool
		wantErr bool
	}{
		{"nothing", nil, nil, true, false},
		{"selector match", map[string]string{"zone": "a"}, nil, true, false},
		{"selector miss", map[string]string{"zone": "b"}, nil, false, false},
		{"selector empty value needs label", map[string]string{"x": ""}, nil, false, false},
		{"In", nil, req(NodeSelectorTerm{MatchExpressions: []NodeSelectorRequirement{expr("zone", SelectorIn, "a", "b")}}), true, false},
		{"NotIn absent", nil, req(NodeSelectorTerm{MatchExpressions: []NodeSelectorRequirement{expr("x", SelectorNotIn, "a")}}), true, false},
		{"Exists and DoesNotExist", nil, req(NodeSelectorTerm{MatchExpressions: []NodeSelectorRequirement{expr("disk", SelectorExists), expr("gpu", SelectorDoesNotExist)}}), true, false},
		{"Gt", nil, req(NodeSelectorTerm{MatchExpressions: []NodeSelectorRequirement{expr("gen", SelectorGt, "4")}}), true, false},
		{"Lt", nil, req(NodeSelectorTerm{MatchExpressions: []NodeSelectorRequirement{expr("gen", SelectorLt, "5")}}), false, false},
		{"terms OR", nil, req(NodeSelectorTerm{MatchExpressions: []NodeSelectorRequirement{expr("zone", SelectorIn, "b")}}, NodeSelectorTerm{MatchFields: []NodeSelectorRequirement{expr(FieldNodeName, SelectorIn, "node-1")}}), true, false},
		{"matchFields miss", nil, req(NodeSelectorTerm{MatchFields: []NodeSelectorRequirement{expr(FieldNodeName, SelectorIn, "node-2")}}), false, false},
		{"empty term matches nothing", nil, req(NodeSelectorTerm{}), false, false},
		{"no terms", nil, req(), false, false},
		{"bad term lazily", nil, req(NodeSelectorTerm{MatchExpressions: []NodeSelectorRequirement{expr("zone", "Foo", "a")}}, NodeSelectorTerm{MatchExpressions: []NodeSelectorRequirement{expr("zone", SelectorIn, "a")}}), true, false},
		{"bad term alone", nil, req(NodeSelectorTerm{MatchExpressions: []NodeSelectorRequirement{expr("gen", SelectorGt, "x")}}), false, true},
		{"field Exists unsupported", nil, req(NodeSelectorTerm{MatchFields: []NodeSelectorRequirement{expr(FieldNodeName, SelectorExists)}}), false, true},
	}
	for _, c := range cases {
		got, err := MatchesNodeSelector(c.sel, c.aff, n)
		if got != c.want || (err != nil) != c.wantErr {
			t.Errorf("%s: got %v, %v", c.name, got, err)
		}
		if err != nil && !errors.Is(err, field.ErrInvalid) && !errors.Is(err, field.ErrUnsupported) && !errors.Is(err, field.ErrRequired) {
			t.Errorf("%s: error %v", c.name, err)
		}
	}
	_, err := MatchesNodeSelector(nil, req(NodeSelectorTerm{MatchExpressions: []NodeSelectorRequirement{expr("gen", SelectorGt, "x")}}), n)
	var fe *field.Error
	if !errors.As(err, &fe) || fe.Path != "spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchExpressions[0].values[0]" {
		t.Errorf("path: %v", err)
	}
}

func TestNames(t *testing.T) {
	t.Parallel()
	for _, s := range []string{"a", "a.b/c", "example.com/MyName", "A_b-c.d"} {
		if !names.QualifiedName(s) {
			t.Errorf("%q rejected", s)
		}
	}
	for _, s := range []string{"", "/a", "a/", "a/b/c", "-a", "Example.com/a", "a..b/c"} {
		if names.QualifiedName(s) {
			t.Errorf("%q accepted", s)
		}
	}
}
