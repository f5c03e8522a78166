package podgc

import "github.com/kubesem/kubesem/plan"

// Reason is why the collector deletes a pod or how a pass ended.
type Reason = plan.Reason

// Reasons.
const (
	// ReasonTerminated: a terminated pod beyond the threshold.
	ReasonTerminated Reason = "Terminated"
	// ReasonTerminatingOutOfService: a terminating pod on a not-Ready node
	// with the out-of-service taint.
	ReasonTerminatingOutOfService Reason = "TerminatingOutOfService"
	// ReasonOrphaned: the pod's node no longer exists.
	ReasonOrphaned Reason = "Orphaned"
	// ReasonTerminatingUnscheduled: a terminating pod without a node.
	ReasonTerminatingUnscheduled Reason = "TerminatingUnscheduled"
	// ReasonGarbageCollected is the outcome of every pass.
	ReasonGarbageCollected Reason = "GarbageCollected"
	// ReasonPeriodic is the requeue of the next pass.
	ReasonPeriodic Reason = "Periodic"
)
