package plan

import (
	"encoding/json"
	"time"

	"github.com/kubesem/kubesem/field"
	"github.com/kubesem/kubesem/internal/apijson"
)

// DecodeDuration reads a duration the way [Encode] writes one, a Go
// duration string ("1m30s"), or as integer nanoseconds; absent or null is
// 0. A malformed value is a *field.Error at path.
func DecodeDuration(raw json.RawMessage, path string) (time.Duration, error) {
	if len(raw) == 0 {
		return 0, nil
	}
	var d time.Duration
	if err := apijson.Unmarshal(raw, &d); err != nil {
		return 0, field.Under(path, err)
	}
	return d, nil
}
