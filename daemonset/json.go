package daemonset

import (
	"encoding/json"
	"time"

	"github.com/kubesem/kubesem/field"
)

// UnmarshalJSON reads the delay as a Go duration string ("2s"), the way
// plan.Encode writes it, or as integer nanoseconds.
func (e *BackoffEntry) UnmarshalJSON(b []byte) error {
	var raw struct {
		Delay      json.RawMessage `json:"delay"`
		LastUpdate time.Time       `json:"lastUpdate"`
	}
	if err := json.Unmarshal(b, &raw); err != nil {
		return field.New("", err.Error(), field.ErrInvalid)
	}
	d, err := jsonDuration(raw.Delay, "delay")
	if err != nil {
		return err
	}
	*e = BackoffEntry{Delay: d, LastUpdate: raw.LastUpdate}
	return nil
}

// UnmarshalJSON reads durations as Go duration strings or integer
// nanoseconds.
func (o *Options) UnmarshalJSON(b []byte) error {
	var raw struct {
		TaintTolerationComparisonOperators bool            `json:"taintTolerationComparisonOperators"`
		BurstReplicas                      int             `json:"burstReplicas"`
		BackoffBase                        json.RawMessage `json:"backoffBase"`
		BackoffCap                         json.RawMessage `json:"backoffCap"`
	}
	if err := json.Unmarshal(b, &raw); err != nil {
		return field.New("", err.Error(), field.ErrInvalid)
	}
	out := Options{TaintTolerationComparisonOperators: raw.TaintTolerationComparisonOperators, BurstReplicas: raw.BurstReplicas}
	var err error
	if out.BackoffBase, err = jsonDuration(raw.BackoffBase, "backoffBase"); err != nil {
		return err
	}
	if out.BackoffCap, err = jsonDuration(raw.BackoffCap, "backoffCap"); err != nil {
		return err
	}
	*o = out
	return nil
}

func jsonDuration(raw json.RawMessage, path string) (time.Duration, error) {
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
