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
//     ([Ranking.Ties], [Victims].Tied, Plan.DeleteTied: the pods whose
//     order v1.36.3 leaves open; issue kubernetes/kubernetes#111443).
//     Vectors with ties use wantOneOf.
//   - Upstream's comparator is not transitive when pods that reach the
//     ready-time or creation-time rule together share an exact time while
//     another pod in the same log2 bucket has a different time (two pods
//     ready in the same second are enough): no order agrees with every
//     upstream pair there. [RankForDeletion] orders such a time's pods by
//     their smallest UID, a strict weak order that agrees with upstream's
//     Less (and [DeletesBefore]) on every pair of pods neither of which
//     shares an exact ready or creation time with another pod of the list
//     (conformance/upstream TestReplicaSetPairwiseDifferential checks every
//     pair of random lists built to hit the cycles; about 0.06% of pairs,
//     all with a shared time, differ).
//   - The seed lists four scale-down criteria (000:L2274); v1.36.3 applies
//     eight: unscheduled, phase, not ready, pod-deletion-cost, pods on the
//     same node, ready time on a log2 scale with UID tie-break, restarts,
//     creation time on a log2 scale. The seed's four are a subset, each
//     with its vector (testdata/replicaset/rank_order.json).
//   - Informer order: upstream walks pods in its informer's order, which is
//     arbitrary; [Step] walks them by name, then UID, so its Plan is
//     independent of the input's order (a property test) and the adopted
//     and released pods come in that order.
//   - [Step] assumes every API call succeeds, so its status never carries
//     ReplicaFailure; [ComputeStatus] takes the failure as an argument.
//     Expectations (in-flight creations and deletions) are not modelled.
//   - Upstream sends its claim patches in informer order and its deletions
//     concurrently; [Plan.Writes] pins both by name. A created pod's event
//     has no message, since upstream's names the pod the API server names.
//   - Options, each off (zero) by default, which is v1.36.3:
//     Options.DisablePodDeletionCost turns gate PodDeletionCost (on) off
//     and ignores controller.kubernetes.io/pod-deletion-cost (vectors with
//     "disablePodDeletionCost" in testdata/replicaset/rank_order.json and
//     rank_pairs.json, testdata/podstatus/deletion_pairs.json);
//     Options.DisableTerminatingReplicas turns gate
//     DeploymentReplicaSetTerminatingReplicas (on) off and omits
//     status.terminatingReplicas (testdata/replicaset/status.json);
//     Options.BurstReplicas changes the 500 creations or deletions per sync
//     (testdata/replicaset/diff.json). LogarithmicScaleDown is locked on in
//     v1.36.3 and is not an option.
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
