package plan

import (
	"encoding/json"
	"time"

	"github.com/kubesem/kubesem/field"
)

// DecodeDuration reads a duration the way [Encode] writes one, a Go
// duration string ("1m30s"), or as integer nanoseconds; absent or null is
// 0. A malformed value is a *field.Error at path.
func DecodeDuration(raw json.RawMessage, path string) (time.Duration, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return 0, nil
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		d, err := time.ParseDuration(s)
		if err != nil {
			return 0, field.New(path, s, field.ErrInvalid)
		}
		return d, nil
	}
	var n int64
	if err := json.Unmarshal(raw, &n); err != nil {
		return 0, field.New(path, string(raw), field.ErrInvalid)
	}
	return time.Duration(n), nil
}
