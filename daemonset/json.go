package daemonset

import (
	"encoding/json"
	"time"

	"github.com/kubesem/kubesem/field"
	"github.com/kubesem/kubesem/plan"
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
	d, err := plan.DecodeDuration(raw.Delay, "delay")
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
	if out.BackoffBase, err = plan.DecodeDuration(raw.BackoffBase, "backoffBase"); err != nil {
		return err
	}
	if out.BackoffCap, err = plan.DecodeDuration(raw.BackoffCap, "backoffCap"); err != nil {
		return err
	}
	*o = out
	return nil
}
