// Package replicaset decides what the ReplicaSet and ReplicationController
// controllers do in one sync: how many pods to create or delete, in which
// batches, which pods to delete first, which pods to adopt or release, and
// the status to write.
//
// Reference semantics: Kubernetes v1.36.3 with default feature gates
// (pkg/controller/replicaset, pkg/controller/replication,
// pkg/controller/controller_utils.go, controller_ref_manager.go). The zero
// [Options] is that; its fields turn off the PodDeletionCost and
// DeploymentReplicaSetTerminatingReplicas gates and change the burst of 500.
// LogarithmicScaleDown is GA and locked on in v1.36.3, so it is not an
// option. A [ReplicaSet] whose Kind is "ReplicationController" gets the
// ReplicationController semantics: an equality-based selector defaulting to
// the template labels, and no terminatingReplicas.
//
// # Rules
//
//   - Counting: [Diff], [SlowStart]
//   - Scale-down order: [RankForDeletion] (podstatus's ranking with this
//     package's Options), [NodeRanks], [RelatedPods], [PodsToDelete]; the
//     order itself, its pairwise form and Job's ActivePods order live in
//     podstatus ([podstatus.RankForDeletion], [podstatus.DeletesBefore],
//     [podstatus.RankActive])
//   - Ownership: [ClaimPod], [ReplicaSet.PodSelector]
//   - Status: [ComputeStatus]
//   - Input: [Validate]
//   - One sync: [Step], its [Plan] (with the pod control's events) and
//     [Plan.Writes], the API requests in the controller's order
//     (pod patches from [ReplicaSet.ControllerRefTo], creations from
//     podstatus.FromTemplate, deletions, the status update of
//     [ReplicaSet.Resource])
//
// # Divergences
//
//   - Upstream sorts victims with sort.Sort (unstable) and the wall clock;
//     kubesem takes now and pins pods the order cannot tell apart by name,
//     then UID, then input position, and reports the ties
//     ([Ranking.Ties], [Victims].Tied; issue kubernetes/kubernetes#111443).
//   - Upstream's comparator is not transitive when pods that reach the
//     ready-time or creation-time rule together share an exact time while
//     others in the same log2 bucket do not; [RankForDeletion] orders such a
//     time's pods by their smallest UID, a strict weak order that agrees
//     with [DeletesBefore] on every other pair.
//   - The seed lists four scale-down criteria (000:L2274); v1.36.3 applies
//     eight, of which the seed's are a subset.
//   - [Step] assumes every API call succeeds, so its status never carries
//     ReplicaFailure; [ComputeStatus] takes the failure as an argument.
//     Expectations (in-flight creations and deletions) are not modelled.
//   - Upstream sends its claim patches in informer order and its deletions
//     concurrently; [Plan.Writes] pins both by name. A created pod's event
//     has no message, since upstream's names the pod the API server names.
//
// # Inputs
//
// Time is the now argument. No I/O, no globals; safe for concurrent use;
// inputs are never modified.
//
// # Errors
//
// [Step] and [Validate] return a *field.Error wrapping field.ErrRequired,
// ErrNegative, ErrInvalid, ErrUnsupported or ErrDuplicate with the field
// path. The other rules cannot fail: they document how they treat nil pods
// and out-of-range values.
//
// Vectors: testdata/replicaset.
package replicaset
