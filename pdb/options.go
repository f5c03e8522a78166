package pdb

import (
	"bytes"
	"encoding/json"
	"time"

	"github.com/kubesem/kubesem/field"
)

// Options selects deviations from Kubernetes v1.36.3 with default feature
// gates. The zero value is v1.36.3.
type Options struct {
	// DeletionTimeout is how long an evicted pod stays in
	// status.disruptedPods before the controller stops expecting its
	// deletion; 0 means [DefaultDeletionTimeout].
	DeletionTimeout time.Duration `json:"deletionTimeout,omitempty"`
	// StalePodDisruptionTimeout is how long a DisruptionTarget=True condition
	// may stay on a running pod before the controller resets it; 0 means
	// [DefaultStalePodDisruptionTimeout].
	StalePodDisruptionTimeout time.Duration `json:"stalePodDisruptionTimeout,omitempty"`
}

// DefaultDeletionTimeout is the disruption controller's DeletionTimeout.
//
// Source: upstream pkg/controller/disruption/disruption.go DeletionTimeout
// (v1.36.3).
const DefaultDeletionTimeout = 2 * time.Minute

// DefaultStalePodDisruptionTimeout is the controller's default for stale
// DisruptionTarget conditions.
//
// Source: upstream pkg/controller/disruption/disruption.go
// defaultStalePodDisruptionTimeout (v1.36.3).
const DefaultStalePodDisruptionTimeout = 2 * time.Minute

func (o Options) deletionTimeout() time.Duration {
	if o.DeletionTimeout <= 0 {
		return DefaultDeletionTimeout
	}
	return o.DeletionTimeout
}

func (o Options) staleTimeout() time.Duration {
	if o.StalePodDisruptionTimeout <= 0 {
		return DefaultStalePodDisruptionTimeout
	}
	return o.StalePodDisruptionTimeout
}

// UnmarshalJSON reads durations as Go duration strings ("10m"), the way
// plan.Encode writes them, or as integer nanoseconds.
func (o *Options) UnmarshalJSON(b []byte) error {
	var raw struct {
		DeletionTimeout           json.RawMessage `json:"deletionTimeout"`
		StalePodDisruptionTimeout json.RawMessage `json:"stalePodDisruptionTimeout"`
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&raw); err != nil {
		return field.New("", err.Error(), field.ErrInvalid)
	}
	var err error
	if o.DeletionTimeout, err = duration(raw.DeletionTimeout, "deletionTimeout"); err != nil {
		return err
	}
	o.StalePodDisruptionTimeout, err = duration(raw.StalePodDisruptionTimeout, "stalePodDisruptionTimeout")
	return err
}

func duration(raw json.RawMessage, path string) (time.Duration, error) {
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
