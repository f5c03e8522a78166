package daemonset

import "github.com/kubesem/kubesem/internal/apijson"

// UnmarshalJSON reads the delay as a Go duration string ("2s"), the way
// plan.Encode writes it, or as integer nanoseconds.
func (e *BackoffEntry) UnmarshalJSON(b []byte) error {
	type plain BackoffEntry
	var p plain
	if err := apijson.Unmarshal(b, &p); err != nil {
		return err
	}
	*e = BackoffEntry(p)
	return nil
}

// UnmarshalJSON reads durations as Go duration strings or integer
// nanoseconds. Keys are case-sensitive; an unknown or repeated key is a
// *field.Error at its name (Unsupported, Duplicate).
func (o *Options) UnmarshalJSON(b []byte) error {
	type plain Options
	var p plain
	if err := apijson.UnmarshalStrict(b, &p); err != nil {
		return err
	}
	*o = Options(p)
	return nil
}
