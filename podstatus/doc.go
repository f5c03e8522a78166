// Package podstatus models a Pod and decides the facts about it that every
// workload controller reads: whether it is ready, available, active,
// terminating or terminal, and when its availability must be looked at again.
//
// Reference semantics: Kubernetes v1.36.3 with default feature gates
// (pkg/api/v1/pod/util.go, pkg/controller/controller_utils.go). Phase and
// condition generation (kubelet getPhase, generateAPIPodStatus), restart
// backoff and pod GC come in later files of this package and read the same
// model.
//
// # Rules
//
//   - Readiness: [IsReady], [ReadyTime], [IsAvailable], [NextAvailabilityCheck],
//     [NextAvailabilityCheckSince]
//   - Lifecycle: [IsActive], [IsTerminating], [IsTerminal]
//   - Containers: [IsRestartableInit], [MaxRestarts]
//   - Annotations: [DeletionCost]
//   - Deletion order (upstream's ActivePods and ActivePodsWithRanks, shared by
//     the ReplicaSet and Job controllers): [RankForDeletion], [RankActive],
//     [DeletesBefore], [Ranking.Ties], [Ranking.Victims]; the radix sort
//     behind them is internal/radix
//
// # Divergences
//
// The seeds describe availability as "ready for at least minReadySeconds";
// v1.36.3 compares readyTime+minReadySeconds <= now, inclusive, which is what
// [IsAvailable] does (v1.31 and earlier were strict).
//
// Upstream dereferences nil pods; kubesem treats a nil pod as absent: not
// ready, available, active, terminating or terminal, skipped by
// [NextAvailabilityCheck], with deletion cost 0 and no restarts.
//
// The seeds give the deletion-cost range as [-2147483647, 2147483647];
// v1.36.3, and [DeletionCost], also accept -2147483648.
//
// # Inputs
//
// Time is the now argument. No I/O, no globals; pods are never modified.
// Safe for concurrent use.
//
// # Errors
//
// The readiness, lifecycle, container and annotation rules cannot fail:
// every pod, however malformed, has an answer.
//
// Vectors: testdata/podstatus.
package podstatus
