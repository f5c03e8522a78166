package field_test

import (
	"errors"
	"fmt"
	"testing"

	"github.com/kubesem/kubesem/field"
)

func TestErrorIs(t *testing.T) {
	t.Parallel()
	sentinels := []error{field.ErrInvalid, field.ErrNegative, field.ErrOverflow, field.ErrRequired, field.ErrUnsupported, field.ErrDuplicate, field.ErrForbidden}
	kinds := []string{"Invalid", "Negative", "Overflow", "Required", "Unsupported", "Duplicate", "Forbidden"}
	for i, s := range sentinels {
		err := error(field.New("spec.replicas", "-1", s))
		if !errors.Is(err, s) {
			t.Errorf("errors.Is(%v, %v) = false; want true", err, s)
		}
		if got := field.Kind(err); got != kinds[i] {
			t.Errorf("Kind(%v) = %q; want %q", err, got, kinds[i])
		}
		wrapped := fmt.Errorf("%w: cause", s)
		if got := field.Kind(field.New("x", "", wrapped)); got != kinds[i] {
			t.Errorf("Kind(wrapped %v) = %q; want %q", s, got, kinds[i])
		}
	}
	if got := field.Kind(errors.New("other")); got != "" {
		t.Errorf("Kind(other) = %q; want empty", got)
	}
}

func TestErrorMessageNamesPath(t *testing.T) {
	t.Parallel()
	err := field.Int("spec.replicas", -3, field.ErrNegative)
	want := `spec.replicas: "-3": must be non-negative`
	if got := err.Error(); got != want {
		t.Errorf("Error() = %q; want %q", got, want)
	}
	var nilErr *field.Error
	if got := nilErr.Error(); got != "<nil>" {
		t.Errorf("nil Error() = %q", got)
	}
}

func TestPaths(t *testing.T) {
	t.Parallel()
	if got := field.Child(field.Index("pods", 3), "metadata"); got != "pods[3].metadata" {
		t.Errorf("Child(Index) = %q", got)
	}
	if got := field.Child("", "spec"); got != "spec" {
		t.Errorf("Child(\"\", spec) = %q", got)
	}
}

func ExampleError() {
	err := field.New("spec.strategy.rollingUpdate.maxSurge", "abc%", field.ErrInvalid)
	fmt.Println(err)
	fmt.Println(errors.Is(err, field.ErrInvalid), field.Kind(err))
	// Output:
	// spec.strategy.rollingUpdate.maxSurge: "abc%": invalid value
	// true Invalid
}
