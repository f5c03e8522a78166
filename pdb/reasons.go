package pdb

import "github.com/kubesem/kubesem/plan"

// Reason says why a Plan or an eviction decision ended as it did.
type Reason = plan.Reason

// Condition reasons of DisruptionAllowed (policy/v1 constants).
const (
	ReasonSufficientPods   Reason = "SufficientPods"
	ReasonInsufficientPods Reason = "InsufficientPods"
	ReasonSyncFailed       Reason = "SyncFailed"
)

// Step outcomes and event reasons.
const (
	// ReasonSynced: the status was computed from the pods and controllers.
	ReasonSynced Reason = "Synced"
	// ReasonNoPods: no pod matches the selector (Normal event), or the
	// selector is invalid (Warning event; the sync fails).
	ReasonNoPods Reason = "NoPods"
	// ReasonCalculateExpectedPodCountFailed: a pod's controller could not be
	// found or scaled; the sync fails.
	ReasonCalculateExpectedPodCountFailed Reason = "CalculateExpectedPodCountFailed"
	// ReasonUnmanagedPods: a selected pod has no controller while the
	// expected count comes from controllers (Warning event).
	ReasonUnmanagedPods Reason = "UnmanagedPods"
	// ReasonNotDeleted: a pod recorded in disruptedPods outlived the
	// deletion timeout (Warning event on the pod).
	ReasonNotDeleted Reason = "NotDeleted"
	// ReasonDisruptedPodExpiry: requeue when the first disruptedPods entry
	// expires.
	ReasonDisruptedPodExpiry Reason = "DisruptedPodExpiry"
	// ReasonStaleDisruptionTarget: requeue (or write) for a pod whose
	// DisruptionTarget condition is stale.
	ReasonStaleDisruptionTarget Reason = "StaleDisruptionTarget"
)

// Eviction reasons.
const (
	// ReasonIgnoresBudget: the pod is Succeeded, Failed, Pending or being
	// deleted; it is deleted without consulting any budget.
	ReasonIgnoresBudget Reason = "IgnoresBudget"
	// ReasonNoBudget: no budget selects the pod.
	ReasonNoBudget Reason = "NoBudget"
	// ReasonTooManyBudgets: more than one budget selects the pod (500).
	ReasonTooManyBudgets Reason = "TooManyBudgets"
	// ReasonUnhealthyAlwaysAllow: the pod is not Ready and the policy is
	// AlwaysAllow.
	ReasonUnhealthyAlwaysAllow Reason = "UnhealthyAlwaysAllow"
	// ReasonUnhealthyHealthyBudget: the pod is not Ready and the budget has
	// its desired healthy pods.
	ReasonUnhealthyHealthyBudget Reason = "UnhealthyHealthyBudget"
	// ReasonBudgetDecremented: the budget allowed the eviction and was
	// decremented.
	ReasonBudgetDecremented Reason = "BudgetDecremented"
	// ReasonGenerationNotObserved: the budget's generation is not observed
	// yet (429).
	ReasonGenerationNotObserved Reason = "GenerationNotObserved"
	// ReasonNegativeBudget: disruptionsAllowed is negative (403).
	ReasonNegativeBudget Reason = "NegativeBudget"
	// ReasonTooManyDisruptedPods: disruptedPods holds more than 2000 entries
	// (403).
	ReasonTooManyDisruptedPods Reason = "TooManyDisruptedPods"
	// ReasonNoDisruptionsAllowed: disruptionsAllowed is 0 (429).
	ReasonNoDisruptionsAllowed Reason = "NoDisruptionsAllowed"
)
