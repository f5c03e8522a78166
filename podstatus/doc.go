// Package podstatus models a Pod and decides the facts about it that every
// workload controller reads: whether it is ready, available, active,
// terminating or terminal, and when its availability must be looked at again.
//
// Reference semantics: Kubernetes v1.36.3 with default feature gates
// (pkg/api/v1/pod/util.go, pkg/controller/controller_utils.go), and what the
// kubelet decides about a pod (pkg/kubelet/kubelet_pods.go getPhase and
// generateAPIPodStatus, pkg/kubelet/status/generate.go, the crash-loop
// backoff) and what the API server does on a pod DELETE or update. Pod
// garbage collection is package podgc.
//
// # Rules
//
//   - Readiness: [IsReady], [ReadyTime], [IsAvailable], [NextAvailabilityCheck],
//     [NextAvailabilityCheckSince]
//   - Lifecycle: [IsActive], [IsTerminating], [IsTerminal]
//   - Containers: [IsRestartableInit], [MaxRestarts]
//   - Annotations: [DeletionCost]
//   - Phase (kubelet): [KubeletPhase], [ShouldRestart], [MatchRule],
//     [IsStatic], [AnyRegularStarted]
//   - Conditions (kubelet): [Generate] (phase, reason, message and the
//     conditions with transition times), [InitializedCondition],
//     [ReadyCondition], [ContainersReadyCondition], [IsKubeletCondition],
//     [AllContainersRestartingCondition], [RestartAllTriggered],
//     [CanRestartAll]; gates in [Options]
//   - Restart backoff: [CrashLoopBounds], [RestartBackoff],
//     [CrashLoopDelays], [BackoffKey]
//   - Termination: [GracefulDelete], [KillGracePeriod], [PlanKill],
//     [DisruptionCondition]; pod updates: [ValidateUpdate]
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
// The kubelet's inputs beyond the pod (podIsTerminal, whether a regular
// container of the current sandbox has started, whether a new sandbox is
// needed, the runtime's containers) are the explicit [Observed]; the pod's
// status stands both for the old API status and for the container statuses
// the kubelet observes (upstream's status-manager cache, when it differs
// from the API status, is not modelled). Whether a new sandbox is needed is
// an input, not derived from sandbox statuses. [Generate] does not produce
// resize conditions, and conditions carry no observedGeneration.
//
// Feature gates: [Options] carries RestartAllContainersOnContainerExits
// (on by default in v1.36) for [Generate]; the other kubelet rules
// ([KubeletPhase], [ShouldRestart], [InitializedCondition],
// [IsKubeletCondition]) follow the v1.36.3 defaults.
//
// The seed says the restart backoff resets after 10 minutes of running
// without problems; v1.36.3 resets it when the exit comes more than 600 s
// after the backoff was last updated (not 2 x max: the kubelet replaces
// client-go's expiry), whatever the configured maximum.
//
// The seed describes the preStop over-run as a one-time 2 s extension; in
// v1.36.3 every container gets at least 2 s between SIGTERM and SIGKILL
// ([PlanKill]), preStop or not, and a grace period of 0 skips the hook.
//
// [BackoffKey] takes container resources as unset; upstream hashes their
// printed form.
//
// [ValidateUpdate] checks only the modelled spec fields and returns the
// first error; upstream returns every error and also checks metadata and
// the new pod on its own (names, labels, tolerations): both pods are taken
// as valid stored pods. A request that omits imagePullPolicy gets it
// defaulted from the image tag, which can turn an image change into a
// forbidden change upstream; kubesem's pods have no pull policy.
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
// The readiness, lifecycle, container, annotation, phase, condition,
// backoff and termination rules cannot fail: every pod, however malformed,
// has an answer (a nil pod is Pending, has no statuses, is deleted at
// once). [ValidateUpdate] returns a *field.Error with the API's field path.
// [CrashLoopDelays], whose answer is as long as its n, returns a
// *field.Error (field.ErrOverflow at "n") beyond [MaxCrashLoopDelays]
// instead of allocating.
//
// Vectors: testdata/podstatus.
package podstatus
