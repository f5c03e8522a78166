// Package node decides what Kubernetes does with nodes: the scheduling
// predicates the scheduler and the DaemonSet controller share (taints and
// tolerations, nodeSelector, required node affinity), the node lifecycle
// controller (node health from heartbeats and leases, condition taints,
// zone states and eviction rates), taint-based eviction of pods, and the
// kubelet's graceful node shutdown and heartbeats.
//
// Reference semantics: Kubernetes v1.36.3 with default feature gates and
// default flags (pkg/controller/nodelifecycle, pkg/controller/tainteviction,
// plugin/pkg/admission/defaulttolerationseconds, pkg/kubelet/nodeshutdown,
// k8s.io/component-helpers scheduling/corev1 and apimachinery/lease,
// k8s.io/api core/v1 Toleration). The zero [Options] is v1.36.3.
//
// # Rules
//
//   - Model (the one Node and node Lease of every package; the pod's node
//     affinity is podstatus's, aliased here): [Node], [Taint], [Toleration],
//     [Condition], [Lease], [Node.Condition], [Node.IsReady],
//     [Node.AllocatablePods], [Zone], [ExcludedFromDisruption]
//   - Predicates (shared with daemonset): [ToleratesTaint], [Tolerates],
//     [FindUntoleratedTaint] with [NoScheduleOrNoExecute], [OnlyNoExecute]
//     or [EffectFilter]; [MatchesNodeSelector], [MatchNodeSelectorTerms];
//     [DefaultTolerations], [DefaultTolerationsFor]
//   - Input: [ParseTaint], [ParseTaints] (kubectl taint syntax),
//     [ValidateTolerations], [ValidateTaints] (API validation)
//   - Taint-based eviction: [MatchingTolerations], [MinTolerationTime],
//     [EvictionFor], [EvictionStep] (an [EvictionPlan]: Outcome, Decisions,
//     Delete, Events, Requeue, Memory), [EvictionPlan.Writes] (per deleted
//     pod the DisruptionTarget status patch, then the delete)
//   - Node lifecycle: [UpdateHealth], [ComputeZoneState], [ZoneStates], [ReducedRate],
//     [HealthyRate], [ZoneRate], [ConditionTaints], [ConditionTaintDiff],
//     [Step] (a [Plan]: Outcome, Conditions, Taints, MarkPodsNotReady,
//     Zones, Disrupted, Events, Requeue, Memory), [Plan.Writes] (node status
//     updates, taint patches, pod status updates)
//   - Graceful shutdown: [MigrateShutdownConfig], [ShutdownPeriods],
//     [GroupForPriority], [Shutdown], [ShutdownDelay]; all of them at once:
//     [PlanShutdown]
//   - Heartbeats: [LeaseRenewInterval], [NextLeaseRenewal],
//     [LeaseRetryBackoff], [StatusUpdate], [StatusReportFrequency]
//
// # Conflicts with the seed documents
//
//   - Ready → Unknown after node-monitor-grace-period: the seed says 40 s,
//     v1.36.3 defaults to 50 s; [Options.NodeMonitorGracePeriod] takes 40 s.
//     The comparison is strict (now must be after probe + grace).
//   - The seed's pod-eviction-timeout (5 minutes) is dead in v1.36.3: pods
//     leave an unreachable node through the NoExecute taint and the 300 s
//     tolerations the DefaultTolerationSeconds admission plugin adds
//     ([DefaultTolerations], [EvictionFor]).
//
// # Upstream behaviour worth knowing
//
//   - [Zone] reads the deprecated failure-domain.beta labels first, the
//     topology.kubernetes.io labels only when those are absent.
//   - [EvictionFor] uses, per taint, the first toleration that tolerates
//     it, not the shortest; tolerationSeconds large enough to overflow
//     time.Duration (about 292 years) wrap negative and mean "never".
//   - A node seen for the first time loses its not-ready and unreachable
//     taints; the NoExecute taint checks in the same pass still read the
//     node as listed, so a new node with Ready=False and an unreachable
//     taint gets the not-ready taint at once, outside the rate limiter.
//   - When every zone is fully disrupted the controller removes all
//     NoExecute condition taints and stops tainting (rate 0); on leaving
//     that mode every node's probe time is reset to now.
//   - The rate-limited tainter spends a token before it looks at the node
//     (a node that is Ready again still costs a token).
//   - A zone whose nodes are gone, or all excluded from disruption checks,
//     loses its state but not its tainter, which keeps running: an excluded
//     node alone in its zone is still tainted, even in master disruption
//     mode (whose rate 0 only reaches zones with a state). A node of that
//     zone seen again gives the zone a new tainter (empty queue, full
//     bucket).
//   - Removing the not-ready and unreachable taints looks only for taints
//     the node had as listed at the start of the pass: a taint swapped in
//     earlier in the same pass survives entering master disruption mode.
//   - A zone's token bucket accepts when less than a nanosecond's worth of
//     a token is missing (x/time/rate truncates the wait), e.g. 9.99999985 s
//     after the last token at float32(0.1)/s, and then holds slightly less
//     than nothing.
//   - The limiter of a zone set to rate 0 never accepts but reports a QPS
//     of 1, so with EvictionRate 1 a stopped zone stays stopped; a new zone
//     with EvictionRate 0 gets a bucket that still spends its first token.
//   - A condition update is written only when the Ready condition changes;
//     the pressure conditions of a node already Unknown are left as they are.
//   - An existing scheduled eviction is kept whenever it was created
//     earlier, even if the pod's tolerations changed.
//
// # Divergences
//
//   - The NoExecute tainter runs every 100 ms upstream; [Step] runs it once,
//     at now, after the monitor pass. With the default 5 s monitor period
//     and rates up to 0.2/s the count of taints per pass is the same; with
//     higher rates upstream taints more nodes between passes.
//   - Upstream walks nodes and zones in informer and map order; Step walks
//     nodes by name and zones by key, and a tainting queue breaks ties of
//     process time by node name (upstream's ties follow its eight parallel
//     workers). Zones that lose their nodes all lose their state at once
//     (upstream stops at the first zone, in map order, that is not fully
//     disrupted, and may keep the state of the others one more pass).
//   - The ready-transition timestamp upstream keeps in its node health
//     record is never read, so [Health] does not carry it.
//   - Shutdown groups with equal priorities keep their input order (upstream
//     sorts unstably; kubelet validation rejects duplicates anyway).
//   - Pods are marked not ready by node (MarkPodsNotReady lists nodes);
//     given the pods of the controller's cache, [Step] records the Warning
//     NodeNotReady event of each pod marked and [Plan.Writes] lists their
//     status updates, by namespace and name (upstream: pod cache order).
//   - Upstream's monitor pass updates nodes on eight parallel workers; the
//     Plan and its Writes take them by name.
//   - Pod conditions carry no observedGeneration (podstatus does not model
//     it): the DisruptionTarget condition of [EvictionPlan.Writes] and the
//     Ready=False update of [Plan.Writes] leave it out, where upstream sets
//     it from the pod's generation.
//   - The controller's node label reconciliation (kubernetes.io/os and
//     kubernetes.io/arch from their beta labels, reconcileNodeLabels) is
//     not modelled.
//
// # Inputs
//
// Times are arguments (the controllers' clocks). Controller memory (node
// health records, zone states, rate limiters, tainting queues, scheduled
// evictions) is explicit input and output. No I/O, no globals; inputs are
// never modified.
//
// # Errors
//
// [Step] rejects nil, unnamed or duplicate nodes and duplicate leases;
// [ValidateTolerations], [ValidateTaints] and [ParseTaints] report what the
// API server and kubectl reject;
// [Shutdown] negative seconds, repeated priorities and negative
// terminationGracePeriodSeconds; [MatchesNodeSelector] reports a malformed
// term (unknown operator, missing or extra values, non-integer Gt/Lt, an
// invalid label key or value) as a *field.Error, only when no term matched,
// as upstream does.
//
// Vectors: testdata/node (conformance decisions node.*).
package node
