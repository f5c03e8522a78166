package plan_test

import (
	"encoding/json"
	"errors"
	"testing"
	"time"

	"github.com/kubesem/kubesem/field"
	"github.com/kubesem/kubesem/plan"
)

func TestDecodeDuration(t *testing.T) {
	t.Parallel()
	for raw, want := range map[string]time.Duration{"": 0, "null": 0, `"1m30s"`: 90 * time.Second, "1500": 1500, `"-2s"`: -2 * time.Second} {
		got, err := plan.DecodeDuration(json.RawMessage(raw), "d")
		if err != nil || got != want {
			t.Errorf("DecodeDuration(%s) = %v, %v; want %v", raw, got, err, want)
		}
	}
	for _, raw := range []string{`"90"`, `true`, `"1x"`, `1.5`} {
		_, err := plan.DecodeDuration(json.RawMessage(raw), "spec.d")
		var fe *field.Error
		if !errors.As(err, &fe) || fe.Path != "spec.d" {
			t.Errorf("DecodeDuration(%s) = %v; want a field error at spec.d", raw, err)
		}
	}
}
