package job

import "time"

// Options selects deviations from Kubernetes v1.36.3 with default feature
// gates. The zero value is v1.36.3.
type Options struct {
	// BackoffCap caps the pod failure backoff delay. 0 (or negative) means
	// v1.36.3's 10m; the documentation (seed 000, 004) says 6m.
	BackoffCap time.Duration `json:"backoffCap,omitempty"`
	// BackoffBase is the first backoff delay. 0 (or negative) means
	// v1.36.3's 10s.
	BackoffBase time.Duration `json:"backoffBase,omitempty"`
	// KeepStartTimeOnSuspend keeps status.startTime when a job is suspended,
	// as with feature gate MutableSchedulingDirectivesForSuspendedJobs off
	// (it is Beta and on in v1.36.3, which clears startTime).
	KeepStartTimeOnSuspend bool `json:"keepStartTimeOnSuspend,omitempty"`
}

func (o Options) backoffCap() time.Duration {
	if o.BackoffCap <= 0 {
		return DefaultBackoffCap
	}
	return o.BackoffCap
}

func (o Options) backoffBase() time.Duration {
	if o.BackoffBase <= 0 {
		return BackoffBase
	}
	return o.BackoffBase
}
