package pdb

import (
	"time"

	"github.com/kubesem/kubesem/internal/apijson"
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
// plan.Encode writes them, or as integer nanoseconds. Keys are
// case-sensitive; an unknown or repeated key is a *field.Error at its name
// (Unsupported, Duplicate).
func (o *Options) UnmarshalJSON(b []byte) error {
	type plain Options
	var p plain
	if err := apijson.UnmarshalStrict(b, &p); err != nil {
		return err
	}
	*o = Options(p)
	return nil
}
