package node

import (
	"errors"
	"testing"

	"github.com/kubesem/kubesem/field"
)

func TestValidateStep(t *testing.T) {
	t.Parallel()
	a, b := &Node{}, &Node{}
	a.Name, b.Name = "a", "b"
	if o, err := validateStep([]*Node{a, b}, []Lease{lease("a"), lease("b")}); err != nil || o != (inOrder{true, true}) {
		t.Fatalf("valid: %v %+v", err, o)
	}
	if o, err := validateStep([]*Node{b, a}, []Lease{lease("a"), lease("b")}); err != nil || o != (inOrder{false, true}) {
		t.Fatalf("valid: %v %+v", err, o)
	}
	if o, err := validateStep([]*Node{a, b}, []Lease{lease("b"), lease("a")}); err != nil || o != (inOrder{true, false}) {
		t.Fatalf("valid: %v %+v", err, o)
	}
	cases := []struct {
		nodes  []*Node
		leases []Lease
		path   string
		err    error
	}{
		{[]*Node{a, nil}, nil, "nodes[1]", field.ErrRequired},
		{[]*Node{a, {}}, nil, "nodes[1].metadata.name", field.ErrRequired},
		{[]*Node{a, b, a}, nil, "nodes[2].metadata.name", field.ErrDuplicate},
		{[]*Node{a, b, b}, nil, "nodes[2].metadata.name", field.ErrDuplicate},
		{[]*Node{b, a, b}, nil, "nodes[2].metadata.name", field.ErrDuplicate},
		{[]*Node{a}, []Lease{lease("a"), lease("b"), lease("a")}, "leases[2].metadata.name", field.ErrDuplicate},
		{[]*Node{a}, []Lease{lease("b"), lease("a"), lease("b")}, "leases[2].metadata.name", field.ErrDuplicate},
		{[]*Node{a}, []Lease{lease("a"), {}}, "leases[1].metadata.name", field.ErrRequired},
		{[]*Node{a}, []Lease{lease("a"), lease("a")}, "leases[1].metadata.name", field.ErrDuplicate},
	}
	for _, c := range cases {
		_, err := validateStep(c.nodes, c.leases)
		var fe *field.Error
		if !errors.As(err, &fe) || fe.Path != c.path || !errors.Is(err, c.err) {
			t.Errorf("%s: %v", c.path, err)
		}
	}
}

func lease(name string) Lease {
	var l Lease
	l.Name = name
	return l
}
