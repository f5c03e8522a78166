package plan_test

import (
	"testing"

	"github.com/kubesem/kubesem/plan"
)

func TestFirst(t *testing.T) {
	t.Parallel()
	if _, ok := plan.First(nil); ok {
		t.Error("First(nil): ok")
	}
	r, ok := plan.First([]plan.Requeue{{After: 5, Reason: "a"}, {After: 2, Reason: "b"}, {After: 2, Reason: "c"}})
	if !ok || r.Reason != "b" {
		t.Errorf("First = %v, %v; want b", r, ok)
	}
}
