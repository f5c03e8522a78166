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
// One rule family per file, the files grouped by prefix, a test file
// beside each:
//
//   - Model (node.go; the one Node and node Lease of every package; the
//     pod's node affinity is podstatus's, aliased here): [Node], [Taint],
//     [Toleration], [Condition], [Lease], [Node.Condition],
//     [Node.IsReady], [Node.AllocatablePods], [Taint.MatchTaint], [Zone],
//     [ExcludedFromDisruption]
//   - Predicates, shared with daemonset (taint.go, affinity.go):
//     [ToleratesTaint], [Tolerates], [FindUntoleratedTaint] with
//     [NoScheduleOrNoExecute], [OnlyNoExecute] or [EffectFilter];
//     [MatchesNodeSelector], [MatchNodeSelectorTerms]. The admission
//     plugin's tolerations (defaulttolerations.go): [DefaultTolerations],
//     [DefaultTolerationsFor]
//   - Input (parse.go, validate.go): [ParseTaint], [ParseTaints] (kubectl
//     taint syntax), [ValidateTolerations], [ValidateTaints] (API
//     validation)
//   - Taint-based eviction (eviction*.go): the per-pod rule (eviction.go)
//     [MatchingTolerations], [MinTolerationTime], [EvictionFor]; the
//     controller's pass (eviction_step.go) [EvictionStep], an
//     [EvictionPlan] (Outcome, Decisions, Delete, Events, Requeue,
//     Memory); its requests (eviction_writes.go) [EvictionPlan.Writes]
//     (per deleted pod the DisruptionTarget status patch, then the delete)
//   - Node lifecycle controller (lifecycle_*.go): node health
//     (lifecycle_health.go) [UpdateHealth], with the [Health] record and
//     what it keeps of a lease, a [SavedLease]; zone states and rates
//     (lifecycle_zone.go) [ComputeZoneState], [ZoneStates], [ZoneRate],
//     [ReducedRate], [HealthyRate], with the zone index in
//     lifecycle_zonetable.go; a zone tainter's token bucket
//     (lifecycle_limiter.go) [Limiter.TryAccept]; its tainting queue
//     (lifecycle_zonequeue.go) [Queued]; the NoExecute not-ready and
//     unreachable taints (lifecycle_noexecute.go), written through
//     lifecycle_taintwrite.go; master disruption mode
//     (lifecycle_disruption.go); the NoSchedule condition taints
//     (lifecycle_conditiontaints.go) [ConditionTaints],
//     [ConditionTaintDiff], and the node worker that applies only them
//     (lifecycle_noschedule.go) [NoScheduleStep]; pods marked not ready
//     (lifecycle_podsnotready.go); the monitor pass (lifecycle_monitor.go)
//     [Step], a [Plan] (lifecycle_plan.go: Outcome, Conditions, Taints,
//     MarkPodsNotReady, Zones, Disrupted, Events, Requeue, Memory) with
//     the controller's [Memory] (lifecycle_memory.go), and its requests
//     (lifecycle_writes.go) [Plan.Writes] (node status updates, taint
//     patches, pod status updates); what Step rejects
//     (lifecycle_validate.go)
//   - Kubelet (kubelet_*.go): graceful shutdown (kubelet_shutdown.go)
//     [MigrateShutdownConfig], [ShutdownPeriods], [GroupForPriority],
//     [Shutdown], [ShutdownDelay], [ValidateShutdownPeriods]; all of them
//     at once (shutdown_plan.go): [PlanShutdown]; heartbeats
//     (kubelet_heartbeat.go) [LeaseRenewInterval], [NextLeaseRenewal],
//     [LeaseRetryBackoff], [StatusUpdate] with a [StatusChange],
//     [StatusReportFrequency]
//
// # One package, not three
//
// The model and predicates, the controllers that act on nodes and the
// kubelet's node-side decisions stay one package, grouped by prefix:
//
//   - The decision names are a contract. Vectors in testdata/node name
//     node.Step, node.EvictionStep, node.Shutdown and node.StatusUpdate for
//     implementations in any language; separate Go packages would either
//     rename those decisions or break the rule that a decision is named for
//     its package.
//   - One [Options] carries both the toleration gate, read by the
//     predicates, validation and taint eviction, and the controller flags
//     the lifecycle reads; vectors carry it, and cluster.Options holds it
//     as one "node" object. Three packages would split it and every stored
//     configuration.
//   - DESIGN places node low (after field, intstr and podstatus) for what
//     several packages share; the lifecycle and eviction files read the
//     model's unexported zone labels and option defaults, which a split
//     would export or move to internal/.
//   - The kubelet part (two files) reads only the model and podstatus. If
//     it grows (an eviction manager, image GC), moving kubelet_*.go into a
//     kubelet package with kubelet.* decisions is a file move.
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
//   - Pod conditions' observedGeneration: the DisruptionTarget condition of
//     [EvictionPlan.Writes] carries the pod's generation, as upstream sets
//     it (gate PodObservedGenerationTracking, locked on in v1.36.3); the
//     Ready=False update of [Plan.Writes] keeps the condition's own, as
//     upstream's MarkPodsNotReady does.
//   - Leases are {name, renewTime} ([Lease]).
//   - Not modelled in the kubelet: the renew interval's 4 % jitter, the
//     wait for volume unmounts during shutdown and logind's inhibit delay.
//   - The seed's status updates "every 5 minutes": v1.36.3 reports every 5
//     minutes plus a random delay in [−2.5 m, +2.5 m) after a change or a
//     restart; [StatusUpdate] takes the drawn delay as an argument.
//   - Options.TaintTolerationComparisonOperators (off by default: alpha gate
//     TaintTolerationComparisonOperators, off in v1.36.3) adds the Lt and Gt
//     toleration operators (vectors "toleration-gt-gate-off" and those with
//     "taintTolerationComparisonOperators" in testdata/node/tolerations.json;
//     conformance/upstream's toleration differential runs with the gate on
//     and off). [Toleration] is podstatus.Toleration, so a pod spec's
//     tolerations pass as they are.
//   - Options.NodeMonitorGracePeriod (zero: v1.36.3's 50 s) takes the seed's
//     40 s (vectors with "nodeMonitorGracePeriod" in testdata/node/health.json
//     and step.json).
//
// More upstream behaviour worth knowing, which kubesem follows:
//
//   - A fully disrupted zone (while others are healthy) is tainted at the
//     normal rate (0.1/s) whatever its size (kubernetes/kubernetes#70501,
//     #110114); a partially disrupted zone at 0.01/s only if it has more
//     than 50 nodes, else 0 ([ZoneRate]).
//   - The API server reports invalid node taints under metadata.taints[i],
//     not spec.taints[i] (ValidateNode passes the metadata path);
//     [ValidateTaints] takes the path it is given.
//   - The kubelet's migrateConfig truncates each of the two shutdown periods
//     to whole seconds separately (30.5 s / 10.7 s → 19 s + 10 s,
//     [MigrateShutdownConfig]).
//   - The kubelet's groupByPriority indexes groups[-1] (a panic) when the
//     configuration is empty and there are pods; it is never reached
//     because NewManager returns a stub manager for an empty configuration.
//     A configuration that migrates to two 0 s groups (e.g. 0.5 s / 0 s) is
//     not empty: the manager runs and kills every pod with grace 0.
//   - nodeStatusReportFrequency defaults to nodeStatusUpdateFrequency when
//     only the latter is set (backward compatibility): a kubelet tuned with
//     nodeStatusUpdateFrequency 4s also patches its status every 4 s, not
//     every 5 minutes ([StatusReportFrequency]).
//   - The lease controller's first retry waits 200 ms (its 100 ms start is
//     doubled before the first sleep; [LeaseRetryBackoff]); the waits run
//     on the wall clock (time.After), not the controller's clock.
//
// Differential tests against v1.36.3: conformance/upstream TestNode…, listed
// in that package's documentation.
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
