package node

import (
	"errors"
	"testing"

	"github.com/kubesem/kubesem/field"
)

func TestValidateTolerations(t *testing.T) {
	t.Parallel()
	gate := Options{TaintTolerationComparisonOperators: true}
	ok := []Toleration{
		{Operator: OpExists},
		{Key: "k", Operator: OpEqual, Value: "v"},
		{Key: "k", Value: "v"},
		{Key: "k", Operator: OpExists, Effect: string(NoExecute), TolerationSeconds: i64(-5)},
		{Key: "k", Operator: OpExists, Effect: string(PreferNoSchedule)},
	}
	if err := ValidateTolerations(ok, "spec.tolerations", Options{}); err != nil {
		t.Fatalf("valid: %v", err)
	}
	if err := ValidateTolerations([]Toleration{{Key: "k", Operator: OpLt, Value: "-3"}, {Key: "k", Operator: OpGt, Value: "9223372036854775807"}}, "p", gate); err != nil {
		t.Fatalf("Lt/Gt with the gate: %v", err)
	}
	bad := []struct {
		tol  Toleration
		opts Options
		path string
		err  error
	}{
		{Toleration{Key: "Bad Key", Operator: OpExists}, Options{}, "p[1].key", field.ErrInvalid},
		{Toleration{Operator: OpEqual}, Options{}, "p[1].operator", field.ErrInvalid},
		{Toleration{Key: "k", Operator: OpExists, TolerationSeconds: i64(1)}, Options{}, "p[1].effect", field.ErrInvalid},
		{Toleration{Key: "k", Operator: OpExists, Effect: string(NoSchedule), TolerationSeconds: i64(1)}, Options{}, "p[1].effect", field.ErrInvalid},
		{Toleration{Key: "k", Value: "-v"}, Options{}, "p[1].operator", field.ErrInvalid},
		{Toleration{Key: "k", Operator: OpExists, Value: "v"}, Options{}, "p[1].operator", field.ErrInvalid},
		{Toleration{Key: "k", Operator: OpLt, Value: "1"}, Options{}, "p[1].operator", field.ErrUnsupported},
		{Toleration{Key: "k", Operator: OpGt, Value: "01"}, gate, "p[1].value", field.ErrInvalid},
		{Toleration{Key: "k", Operator: OpGt, Value: "9223372036854775808"}, gate, "p[1].value", field.ErrInvalid},
		{Toleration{Key: "k", Operator: "In"}, gate, "p[1].operator", field.ErrUnsupported},
		{Toleration{Key: "k", Operator: OpExists, Effect: "Other"}, Options{}, "p[1].effect", field.ErrUnsupported},
	}
	for _, c := range bad {
		err := ValidateTolerations([]Toleration{{Operator: OpExists}, c.tol}, "p", c.opts)
		var fe *field.Error
		if !errors.As(err, &fe) || fe.Path != c.path || !errors.Is(err, c.err) {
			t.Errorf("%+v: %v, want %v at %s", c.tol, err, c.err, c.path)
		}
	}
}

func TestValidateTaints(t *testing.T) {
	t.Parallel()
	ok := []Taint{{Key: "k", Effect: NoSchedule}, {Key: "k", Effect: NoExecute}, {Key: "a/b", Value: "v", Effect: PreferNoSchedule}}
	if err := ValidateTaints(ok, "spec.taints"); err != nil {
		t.Fatalf("valid: %v", err)
	}
	bad := []struct {
		taint Taint
		path  string
		err   error
	}{
		{Taint{Key: "", Effect: NoSchedule}, "t[1].key", field.ErrInvalid},
		{Taint{Key: "k", Value: "v v", Effect: NoSchedule}, "t[1].value", field.ErrInvalid},
		{Taint{Key: "k"}, "t[1].effect", field.ErrRequired},
		{Taint{Key: "k", Effect: "Other"}, "t[1].effect", field.ErrUnsupported},
		{Taint{Key: "x", Value: "other", Effect: NoSchedule}, "t[1]", field.ErrDuplicate},
	}
	for _, c := range bad {
		err := ValidateTaints([]Taint{{Key: "x", Effect: NoSchedule}, c.taint}, "t")
		var fe *field.Error
		if !errors.As(err, &fe) || fe.Path != c.path || !errors.Is(err, c.err) {
			t.Errorf("%+v: %v, want %v at %s", c.taint, err, c.err, c.path)
		}
	}
}
