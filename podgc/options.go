package podgc

import "time"

// Defaults of [Options].
const (
	// DefaultTerminatedPodThreshold is --terminated-pod-gc-threshold.
	DefaultTerminatedPodThreshold = 12500
	// QuarantineTime is how long a node must be missing before its pods
	// are orphans.
	QuarantineTime = 40 * time.Second
)

// Options of the collector; the zero value is v1.36.3's default.
type Options struct {
	// TerminatedPodThreshold is --terminated-pod-gc-threshold; nil means
	// 12500, and a value <= 0 turns the terminated-pod step off.
	TerminatedPodThreshold *int `json:"terminatedPodThreshold,omitempty"`
	// Quarantine is how long a node must be missing; 0 means 40s.
	Quarantine time.Duration `json:"quarantine,omitempty"`
}

func (o Options) threshold() int {
	if o.TerminatedPodThreshold == nil {
		return DefaultTerminatedPodThreshold
	}
	return *o.TerminatedPodThreshold
}

func (o Options) quarantine() time.Duration {
	if o.Quarantine == 0 {
		return QuarantineTime
	}
	return o.Quarantine
}
