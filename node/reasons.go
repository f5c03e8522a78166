package node

import "github.com/kubesem/kubesem/plan"

// Reason is why the node lifecycle machinery did something.
type Reason = plan.Reason

// Outcomes and reasons.
const (
	// ReasonMonitored is the outcome of a lifecycle Step.
	ReasonMonitored Reason = "Monitored"
	// ReasonEvictionsProcessed is the outcome of a taint-eviction Step.
	ReasonEvictionsProcessed Reason = "EvictionsProcessed"

	// Taint writes.
	ReasonRegisteredNode   Reason = "RegisteredNode"   // a node seen for the first time loses its NoExecute condition taints
	ReasonSwapTaint        Reason = "SwapTaint"        // not-ready ↔ unreachable swapped at once
	ReasonTaintNode        Reason = "TaintNode"        // the zone's rate-limited tainter adds the NoExecute taint
	ReasonNodeReady        Reason = "NodeReady"        // Ready=True: not-ready and unreachable taints removed
	ReasonMasterDisruption Reason = "MasterDisruption" // every zone fully disrupted: taints removed from every node
	ReasonConditionTaints  Reason = "ConditionTaints"  // NoSchedule taints follow the node's conditions and unschedulable

	// Pod writes: a pod's Ready condition set to False when its node's
	// Ready condition leaves True.
	ReasonMarkPodNotReady Reason = "MarkPodNotReady"

	// Events.
	ReasonEventRegisteredNode Reason = "RegisteredNode"
	ReasonEventRemovingNode   Reason = "RemovingNode"
	ReasonEventNodeNotReady   Reason = "NodeNotReady"

	// Requeue.
	ReasonNodeMonitorPeriod Reason = "NodeMonitorPeriod"
	ReasonEvictionDue       Reason = "EvictionDue"

	// Taint-eviction deletions.
	ReasonTaintEviction Reason = "TaintManagerEviction"
)
