// Package pdb decides what the PodDisruptionBudget machinery does: the
// disruption controller's status for a budget (expected pods, desired and
// current healthy, disruptions allowed, the DisruptionAllowed condition,
// the disruptedPods map), the API server's answer to one eviction request,
// and kubectl drain as a sequence of such answers.
//
// Reference semantics: Kubernetes v1.36.3 with default feature gates
// (pkg/controller/disruption/disruption.go, pkg/registry/core/pod/storage/
// eviction.go, k8s.io/component-helpers apps/poddisruptionbudget). No gate
// remains: PodDisruptionConditions and PDBUnhealthyPodEvictionPolicy are
// GA. The zero [Options] is v1.36.3; its fields change the two 2-minute
// timeouts.
//
// # Rules
//
//   - Expected pods: [ExpectedPods], [ExpectedScale], [ControllerScale]
//   - Budget: [DisruptedPods], [IsHealthy], [CurrentHealthy],
//     [DisruptionsAllowed], [AllowedCondition], [ConditionsUpToDate],
//     [StaleDisruptionTarget], [Selected]
//   - One controller sync: [Step]; its API requests: [Plan.Writes] (the
//     budget's status update, then each stale pod's status update)
//   - Eviction: [Evict], [IgnoresBudget], [Budgets], [UnhealthyEvictable],
//     [Decrement]
//   - Drain: [Drain]
//   - Input: [Validate]
//
// # Divergences
//
//   - Controllers are an input ([Controller], the API object trimmed): their
//     kind, name, UID, their own controller reference (among
//     metadata.ownerReferences) and spec.replicas. A custom resource whose
//     spec.replicas is nil has no scale subresource. A controller reference
//     to a kind kubesem is not given, or falling through to the scale
//     subresource at an apiVersion no controller of its kind is given at, is
//     "found no controllers" where upstream fails earlier in its REST mapper
//     ("no matches for kind"); both fail the sync the same way, with a
//     different condition message. The "does not implement the scale
//     subresource" message names the kind and object, not the resource.
//   - When two pods' controllers fail, upstream reports the first pod of
//     its lister's order; kubesem reports the first by name.
//   - Evict assumes the pod and budget writes succeed: the retry on
//     conflict, the 429 after a resourceVersion conflict of an unhealthy
//     pod's deletion, and the deleteOptions checks (dry-run mismatch,
//     ignoreStoreReadErrorWithClusterBreakingPotential) are not modelled.
//   - Step assumes its status write succeeds; the requeue of a failed sync
//     is therefore never reported.
//   - The sync and the stale-pod worker are two workers upstream; a Plan
//     holds both, and [Plan.Writes] lists the budget's write before the pod
//     resets, which it orders by pod name (upstream: informer order).
//
// Upstream behaviour worth knowing, which kubesem follows:
//
//   - Expected pods: maxUnavailable and a percentage minAvailable use the
//     sum of the controllers' scale, found by controller reference (a
//     ReplicaSet counts through its Deployment), each counted once; an
//     integer minAvailable uses the number of selected pods. Percentages
//     round up. A pod whose controller is missing or has no scale fails the
//     sync: the fail-safe status (0 allowed, DisruptionAllowed=False,
//     SyncFailed). Vectors: testdata/pdb/expected.json.
//   - Eviction: terminal, pending and deleting pods skip every budget; more
//     than one matching budget is a 500; unhealthyPodEvictionPolicy decides
//     for Running but not Ready pods; an unobserved generation is a 429 with
//     Retry-After 10, a negative budget or more than 2,000 disrupted pods a
//     403, no disruptions left a 429. Vectors: testdata/pdb/evict.json;
//     checked against upstream's EvictionREST.Create (conformance/upstream).
//
// # Inputs
//
// Time is the now argument (the controller's clock and the API server's
// time.Now for the disruptedPods entry). Pods are those of the cluster
// (podstatus.Pod); Step and Evict select by namespace and selector
// themselves. A drain's nodes are node.Node: spec.unschedulable, and
// status.allocatable.pods for the most pods one runs (no limit when
// absent). No I/O, no globals; safe for concurrent use; inputs are never
// modified.
//
// # Errors
//
// [Plan.Writes] returns a *field.Error at resetDisruptionTarget[i].name
// for a reset naming no given pod of the budget's namespace.
//
// [Validate], [Step] and [Drain] return a *field.Error with the API field
// path for a budget the API server rejects (both fields set, negative
// values, percentages above 100% or malformed, an unknown policy, an invalid
// selector). A controller that cannot be found or scaled is not an input
// error: [ExpectedPods] returns a *ScaleError and [Step] the fail-safe
// status, as upstream does.
//
// Vectors: testdata/pdb.
package pdb
