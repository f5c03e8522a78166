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
// resize conditions. The conditions it generates (AllContainersRestarting
// aside, as upstream's) observe the pod's generation, as v1.36.3's kubelet
// sets them (gate PodObservedGenerationTracking, locked on);
// [DisruptionCondition]'s callers set it likewise (pod GC, taint eviction,
// the disruption controller's reset).
//
// Feature gates: Options.DisableRestartAllContainersOnContainerExits (off
// by default: gate RestartAllContainersOnContainerExits is beta and on in
// v1.36.3) turns the gate off for [Generate]: no AllContainersRestarting
// condition, no restart-all rules in the phase and Initialized (vectors with
// "disableRestartAllContainersOnContainerExits" in
// testdata/podstatus/status_restart_all.json; conformance/upstream
// TestPodStatusGenerateRestartAllOffDifferential). The other kubelet rules
// ([KubeletPhase], [ShouldRestart], [InitializedCondition],
// [IsKubeletCondition]) follow the v1.36.3 defaults. SidecarContainers is
// locked on in v1.36.3 and is not an option.
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
// Upstream behaviour worth knowing, which kubesem follows (the kubelet's
// rules, v1.36.3):
//
//   - A crash-looping pod stays Running (kubernetes/website#7090): a
//     container waiting with a past exit counts as stopped, and under Always
//     or OnFailure (or a restartable rule) the pod is Running. A container
//     waiting with no past exit (ContainerCreating, RunContainerError —
//     kubernetes/kubernetes#14491) keeps the pod Pending, even beside running
//     containers.
//   - Sidecars (restartable init containers) count as running while they
//     run, never as stopped, and their exit codes never make the pod Failed.
//     A sidecar not yet started keeps the pod Pending only until a regular
//     container has run.
//   - ContainerRestartRules is on by default in 1.36: a container's own
//     restartPolicy and its exit-code rules (In/NotIn, first match) decide
//     whether it restarts; the pod restart policy is only the fallback. Init
//     containers that fail follow the same rule (Never: the pod is Failed).
//   - A pod the kubelet has decided is terminal gets Succeeded or Failed even
//     with restartPolicy Always, except static pods (config.source other
//     than api). There is no transition out of a terminal phase: the kubelet
//     keeps Succeeded or Failed once written; reason and message are kept
//     while the phase does not change.
//   - Ready follows ContainersReady, then readiness gates ("corresponding
//     condition of pod readiness gate "x" does not exist." / "… is not
//     "True", but False"); Initialized stays True once a regular container
//     has started, and once True.
//   - AllContainersRestarting (gate RestartAllContainersOnContainerExits,
//     beta and on in 1.36) is written after PodScheduled, only for pods with
//     a RestartAllContainers rule: True (RestartAllContainersStarted,
//     "container exited with restart policy rule") while the old status says
//     True, or a container the runtime reports as exited matches the rule
//     (with the runtime's exit code, or with its API status's terminated
//     exit code), and until the runtime holds none of the pod's containers;
//     False PodCompleted or PodFailed in a terminal phase. A container the
//     runtime does not report as exited is never looked at, whatever its API
//     status says. With the gate on, Initialized once True stays True and a
//     RestartAllContainers rule or the RestartingAllContainers exit reason
//     makes a container restartable.
//   - Crash-loop backoff: 10 s doubling to 300 s (KubeletCrashLoopBackOffMax
//     on: the configured maximum, the initial delay lowered to it); in
//     backoff while now − finishedAt < delay (strict). The reset is 600 s
//     after the last backoff update, fixed: not "10 minutes of running", not
//     2 × max.
//   - Grace periods: the request's, else the spec's, else 0; 0 for
//     unscheduled or terminal pods; negative → 1; grace 0 deletes at once. A
//     second DELETE can only shorten (a timestamp in the past becomes now,
//     grace 1). The kubelet always leaves ≥ 2 s between SIGTERM and SIGKILL;
//     a preStop hook eats whole seconds of the grace period and is skipped
//     at grace 0.
//   - Pod updates ([ValidateUpdate], checked in the API server's order):
//     container and init-container lists may not grow or shrink, images may
//     not become empty or padded, activeDeadlineSeconds may be set from nil
//     to [1, 2^31-1] (0 is rejected by the pod spec's own check) or lowered,
//     never raised or unset; tolerations may only be added
//     (tolerationSeconds may change); everything else is immutable. A
//     negative grace period is stored as 1 (v1 to internal conversion), so
//     negative ↔ 1 is no change.
//
// Upstream behaviour the differential tests found (conformance/upstream
// TestPodStatus…):
//
//   - ShouldAllContainersRestart looks at a container's API status only when
//     the runtime reports that container as exited: a continue skips the
//     API check for running or missing runtime entries.
//   - A Test_generateAPIPodStatus-style pod that only has a
//     RestartAllContainers rule gets AllContainersRestarting False with no
//     reason while the runtime is empty, even when the old status said True
//     ("cleaned up").
//   - ValidatePodUpdate rejects activeDeadlineSeconds 0 through the spec
//     check (range [1, 2^31-1]) although its own update check allows
//     [0, 2^31-1].
//   - A negative terminationGracePeriodSeconds never reaches validation: the
//     v1-to-internal conversion turns it into 1, so 1 → -5 is "no change"
//     and the documented "negative may become 1" relaxation never fires on
//     stored pods.
//   - An image change whose request omits imagePullPolicy (busybox →
//     nginx:1.27) is rejected as a spec change: defaulting derives the pull
//     policy from the new tag (Always for latest, IfNotPresent otherwise).
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
