package node

import (
	"errors"
	"testing"

	"github.com/kubesem/kubesem/field"
)

func TestParseTaint(t *testing.T) {
	t.Parallel()
	ok := map[string]Taint{
		"k":                        {Key: "k"},
		"k:NoSchedule":             {Key: "k", Effect: NoSchedule},
		"k=v:NoExecute":            {Key: "k", Value: "v", Effect: NoExecute},
		"k=:NoSchedule":            {Key: "k", Effect: NoSchedule},
		"a.b/c=v:PreferNoSchedule": {Key: "a.b/c", Value: "v", Effect: PreferNoSchedule},
	}
	for s, want := range ok {
		got, err := ParseTaint(s, "p")
		if err != nil || got.Key != want.Key || got.Value != want.Value || got.Effect != want.Effect {
			t.Errorf("ParseTaint(%q) = %+v, %v; want %+v", s, got, err, want)
		}
	}
	bad := map[string]error{
		"k:Other":            field.ErrUnsupported,
		"k:NoSchedule:x":     field.ErrInvalid,
		"k=v=w:NoSchedule":   field.ErrInvalid,
		"k=-v:NoSchedule":    field.ErrInvalid,
		"Bad Key:NoSchedule": field.ErrInvalid,
		"":                   field.ErrInvalid,
		"k=v":                field.ErrInvalid, // a value needs an effect
	}
	for s, kind := range bad {
		_, err := ParseTaint(s, "taints[3]")
		var fe *field.Error
		if !errors.As(err, &fe) || fe.Path != "taints[3]" || !errors.Is(err, kind) {
			t.Errorf("ParseTaint(%q) error %v, want %s at taints[3]", s, err, kind)
		}
	}
}

func TestParseTaints(t *testing.T) {
	t.Parallel()
	add, remove, err := ParseTaints([]string{"a=1:NoSchedule", "b:NoExecute-", "c-", "a=2:NoExecute"})
	if err != nil || len(add) != 2 || add[1].Value != "2" || len(remove) != 2 || remove[0].Effect != NoExecute || remove[1].Key != "c" || remove[1].Effect != "" {
		t.Fatalf("%+v %+v %v", add, remove, err)
	}
	// the value of a removal is dropped
	_, remove, _ = ParseTaints([]string{"k=v:NoSchedule-"})
	if remove[0].Value != "" {
		t.Fatalf("removal keeps its value: %+v", remove)
	}
	var fe *field.Error
	if _, _, err := ParseTaints([]string{"a:NoSchedule", "a=x:NoSchedule"}); !errors.As(err, &fe) || !errors.Is(err, field.ErrDuplicate) || fe.Path != "taints[1]" {
		t.Fatalf("duplicate: %v", err)
	}
	if _, _, err := ParseTaints([]string{"a:NoSchedule", "b"}); !errors.As(err, &fe) || !errors.Is(err, field.ErrRequired) || fe.Path != "taints[1]" {
		t.Fatalf("missing effect: %v", err)
	}
	if _, _, err := ParseTaints([]string{"a:Bad-"}); !errors.As(err, &fe) || fe.Path != "taints[0]" {
		t.Fatalf("bad removal: %v", err)
	}
	// same key with two effects is no duplicate
	if add, _, err := ParseTaints([]string{"a:NoSchedule", "a:NoExecute"}); err != nil || len(add) != 2 {
		t.Fatalf("two effects: %v", err)
	}
}
