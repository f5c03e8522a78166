// Package upstream holds kubesem's differential tests against Kubernetes
// v1.36.3 itself; it has no API, only tests (package upstream_test).
//
// This is a separate module that requires k8s.io/kubernetes v1.36.3 (with
// every k8s.io/* staging module replaced by its v0.36.3), so the main module
// stays light. Its tests generate random states with rapid (edge values
// included: 0, 1, MaxInt32, percentages 0–100 % and beyond, empty and long
// lists, ties), ask kubesem and upstream, and fail on any difference.
// Unexported upstream functions are reached with //go:linkname; whole syncs
// (syncDeployment, syncJob, syncCronJob, UpdateStatefulSet, syncDaemonSet,
// the node lifecycle and pod GC passes) run upstream's controllers on
// client-go fakes. Every vector whose expectation upstream can compute is
// also run through upstream itself (the …VectorsUpstream tests).
//
// By default each property checks 10,000 states. The module runs in one
// process (about 8 minutes and 375 s of CPU on a shared 2-core machine):
// its harnesses stop the v1.36.3 controllers they build per random state
// (work queues, event broadcasters, informers; TestHarnessesDoNotLeak fails
// when a harness family leaves goroutines behind). For the long run:
//
//	go -C conformance/upstream test ./... -args -rapid.checks=1000000
//
// Each differential was broken on purpose once and failed.
//
// # Validation parity
//
// validation_*_test.go write random Deployments, ReplicaSets,
// ReplicationControllers and CronJobs (every modelled field at and around
// its limits) as the API objects a user submits, default them with
// upstream's v1 defaulting, convert and validate them with upstream's
// ValidateDeployment, ValidateReplicaSet, ValidateReplicationController and
// ValidateCronJobCreate, and require the same accept/reject with kubesem's
// field path among upstream's. Sizes at the int32 edge are valid and wrap as
// upstream's arithmetic wraps (see package rollout); no class of difference
// is left open.
//
// # The whole world
//
// TestWholeClusterDifferential runs random scenarios on package cluster's
// world and on v1.36.3's controllers together on one fake clientset and
// compares every controller write of every instant and the final state; see
// package cluster, Divergences, for what it compares and its knobs
// (KUBESEM_WHOLE_SCENARIOS, KUBESEM_WHOLE_FAIL).
//
// # The k8s adapter
//
// Every conversion, hash, revision and pod builder of the k8s module is
// checked against upstream on 10,000 random inputs
// (go -C conformance/upstream test -run TestAdapter .): HashControllerRevision,
// newRevision, UpdateStatefulSet's update revision and created pods,
// syncDaemonSet's revision and pod hash, newVersionedStatefulSetPod,
// getPersistentVolumeClaims, CreatePodTemplate +
// ReplaceDaemonSetPodNodeNameNodeAffinity + GetPodFromTemplate,
// getJobFromTemplate2, ComputeHash; and kubectl-shaped fixtures
// (k8s/testdata/real) go unmodified through the adapter and through
// upstream's controllers with the same result (TestAdapterReal…).
// TestAdapterStatefulSetHugeGraceUpstreamFails pins that a
// terminationGracePeriodSeconds near MaxInt64 makes upstream's StatefulSet
// unsyncable (see package k8s, Divergences).
//
// # Pods and pod GC
//
// 10,000 states each:
//
//   - TestPodStatusPhaseDifferential: the kubelet's getPhase (go:linkname),
//     random init, sidecar and regular containers in every state, every pod
//     and container policy and rule, duplicate and stray statuses, static
//     pods (0.4 s).
//   - TestPodStatusGenerateDifferential: getPhase + status.Generate*Condition
//     (AllContainersRestarting included, random runtime views) +
//     updateLastTransitionTime (linkname), assembled as
//     generateAPIPodStatus does (2.0 s).
//   - TestPodStatusGenerateRestartAllOffDifferential: the same with gate
//     RestartAllContainersOnContainerExits off (1.4 s).
//   - TestPodStatusStatusVectorsUpstream: replays the 143 Status, 25
//     AllContainersRestartingCondition and 6 CanRestartAll vectors through
//     the kubelet's functions, under each vector's gates (0.1 s).
//   - TestPodStatusUpdateDifferential: the API server's ValidatePodUpdate
//     (v1 defaults, conversion to internal), random updates of valid pods:
//     images, containers added, removed or renamed, deadlines, grace
//     periods, tolerations, immutable fields; verdict and field path (1.2 s).
//   - TestPodStatusUpdateVectorsUpstream: replays the 30 ValidateUpdate
//     vectors through ValidatePodUpdate (0.1 s).
//   - TestPodStatusCrashLoopVectorsUpstream: replays the CrashLoopBounds and
//     CrashLoopDelays vectors through kubelet config v1beta1 defaulting,
//     conversion, newCrashLoopBackOff (linkname) and client-go's Backoff
//     (0.1 s).
//   - TestPodStatusBackoffDifferential: client-go flowcontrol.Backoff with
//     the kubelet's 600 s expiry, driven as doBackOff (0.1 s).
//   - TestPodStatusBackoffKey: kuberuntime.GetBackoffKey (0.1 s).
//   - TestPodGCStepDifferential: the controller's gc pass (linkname) over a
//     fake clientset and informers (deleted, patched, DisruptionTarget sets)
//     (8 s).
//   - TestPodGCQuarantineDifferential: three gc passes with the controller's
//     delaying node queue on a fake clock against three Steps carrying
//     Memory; time moves 0–60 s and nodes appear in and vanish from cache
//     and API between passes (8 s).
//   - TestPodStatusGracefulDeleteDifferential: the API server's
//     rest.BeforeDelete with the pod strategy (CheckGracefulDelete): outcome,
//     grace, deletion timestamp, for any request, spec grace, node, phase
//     and earlier deletion (0.1 s).
//   - TestPodStatusVectorsUpstream: replays the 204 phase, condition and
//     restart-rule vectors through the kubelet and podutil (0.1 s).
//
// What these found is listed in package podstatus, Divergences.
//
// # Nodes
//
// Vectors (testdata/node): 217 vectors, 23 decisions (kubesem decisions |
// grep node.): ParseTaints 10 (kubectl taint syntax), Validate 10 (API
// validation of tolerations and taints), ToleratesTaint 19,
// FindUntoleratedTaint 11 (with the seed 000 DaemonSet toleration table),
// DefaultTolerations 6 (kubernetes/kubernetes#124243), MatchesNodeSelector
// 29, MinTolerationTime 6 (TestGetMinTolerationTime), EvictionFor 8,
// EvictionStep 5 (#101599), ComputeZoneState 12, ZoneRate 8 (#70501,
// #110114, #131182), ZoneStates 3, Zone 5, ConditionTaints 6
// (TestTaintsNodeByCondition), UpdateHealth 11 (TestTryUpdateNodeHealth,
// …UpdateStatus(+WithLease)), Step 28 (chained scenarios: the seed 001
// outage, 40 s grace, master disruption and recovery, partial disruption in
// small and large zones, rate-limited tainting, leases, registration),
// MigrateShutdownConfig 6 (Test_migrateConfig and the seed's 30 s/10 s),
// Shutdown 8 (both seed priority tables, system-node-critical in the
// migrated critical group, a 0 s group), GroupForPriority 7
// (Test_groupByPriority), LeaseRetryBackoff 6, LeaseRenewInterval 2,
// StatusUpdate 5, StatusReportFrequency 4 (SetDefaults_KubeletConfiguration).
//
// Differentials (go -C conformance/upstream test -run 'TestNode' ., 10,000
// states each, about 30 s in all):
//
//   - tolerations and untolerated taints (gate on and off); eviction time
//     against GetMatchingTolerations + getMinTolerationTime; required node
//     affinity against GetRequiredNodeAffinity(pod).Match (bool and error);
//   - zone state and rates against the controller's ComputeZoneState,
//     ReducedQPSFunc, HealthyQPSFunc (zones of 0–200 nodes, 45–56 around the
//     threshold); tryUpdateNodeHealth through the controller on fakes
//     (three checks per state, heartbeats and leases at and around the 50 s
//     boundary); doNoScheduleTaintingPass; zone keys and ZoneStates against
//     GetZoneKey and monitorNodeHealth's grouping (up to 100 nodes; a
//     quarter of the clusters with random label values up to 20 characters,
//     often more than the 32 zones ZoneStates' table holds before it grows);
//   - ParseTaints against pkg/util/taints.ParseTaints; EvictionStep against
//     the taint-eviction controller's processPodOnNode work queue over three
//     node updates (creation and fire times); ValidateTolerations and
//     ValidateTaints against the API server's ValidateTolerations and
//     ValidateNode (rejected or not);
//   - graceful shutdown (node_shutdown_diff_test.go): MigrateShutdownConfig
//     against the kubelet's migrateConfig (fractional, negative,
//     int64-extreme durations, critical above the total); GroupForPriority
//     and Shutdown's grouping against groupByPriority (1–6 groups, duplicates
//     for GroupForPriority, pod priorities at and next to every boundary,
//     int32 extremes, 2,000,000,000 and 2,000,001,000); ShutdownPeriods +
//     Shutdown against the kubelet's own pod manager (newPodManager:
//     migration, gate, sort; killPods on fakes recording each pod's grace
//     period, each group's pods and each group's wait), legacy or
//     by-priority configurations given unsorted, terminationGracePeriodSeconds
//     below, at and above the group period;
//   - heartbeats (node_heartbeat_diff_test.go): the defaults against
//     SetDefaults_KubeletConfiguration; StatusReportFrequency against the
//     same defaulting; LeaseRenewInterval and NextLeaseRenewal against the
//     kubelet's renew interval (its nodeLeaseRenewIntervalFraction read from
//     the upstream source) for every NodeLeaseDurationSeconds kind;
//     LeaseRetryBackoff against the lease controller's backoff (its
//     minDuration by linkname, maxBackoff and first sleep read from the
//     upstream source) for attempts −1…100; the real lease controller on a
//     failing fake client (waits between its first four attempts measured:
//     200/400/800 ms, 1.4 s of wall time); StatusUpdate against the kubelet's
//     isUpdateStatusPeriodExpired (linkname, on a Kubelet whose fields are
//     set by reflection) at and one nanosecond around lastReport +
//     frequency + delay, delays drawn by the kubelet's own calculateDelay among others;
//   - 81 vectors replayed through upstream (TestNodeVectorsUpstream) and the
//     39 kubelet vectors (shutdown, heartbeats) that expect no error
//     (TestNodeKubeletVectorsUpstream).
//
// Each was broken on purpose once and failed (the latest: migration
// rounding, boundary group, empty group taking time, grace ignored, renew
// fraction, backoff start and cap, report-period comparison,
// report-frequency fallback, zone table rehash, zone key without region).
//
// node.Step as a whole is checked against sequences of monitorNodeHealth
// passes of the real controller, each followed by one NoExecute and one
// NoSchedule tainting pass, with memory carried across passes and instants
// drawn on every grace-period and token-bucket boundary
// (TestNodeStepDifferential, at default flags and with every lifecycle flag
// changed); the harness moves each zone's token bucket onto the
// controller's fake clock. Limits: the NoExecute tainter runs once per pass
// (upstream: every 100 ms on the wall clock); the lease controller's
// backoff is timed on the real controller for its first waits only (the
// 7 s cap against its constants).
//
// In package node itself: rapid properties (zone state monotone in
// not-ready nodes; an emptied toleration effect keeps a match; eviction
// never before the taint; shutdown groups cover each pod once and sum to the
// delay; Step independent of input order; ZoneStates equals grouping by
// Zone in a map, up to 300 nodes, random label values, many zones) and
// fuzz tests (FuzzStep: Step twice and EvictionStep; FuzzMatchesNodeSelector:
// selector expressions, Gt/Lt integers; FuzzToleration; FuzzParseTaints;
// FuzzShutdown).
//
// # StatefulSets
//
// testdata/statefulset holds 303 vectors (the seed walk-throughs, the
// upstream tables and TestStatefulSetControl scenarios for Monotonic and
// Burst under each PVC policy, kubernetes/kubernetes#67250, #137409,
// openkruise/kruise#1480, kubernetes/website#7057, update strategies as
// submitted, sets past int32), every want computed by upstream
// (TestGenerateStatefulSetVectors, with KUBESEM_WRITE_VECTORS=1) and
// recomputed by the replay tests. TestStatefulSetStepDifferential and
// TestStatefulSetStepDifferentialMaxUnavailable run one Step against one
// upstream UpdateStatefulSet on fakes (gate off and on) on 10,000 random
// sets each (start ordinals up to two past int32, partitions, both
// policies, update strategies as submitted and defaulted by upstream's
// SetDefaults_StatefulSet, pods in every phase, readiness, revision,
// terminating and identity combination, missing and extra ordinals, claims
// with every kind of owner reference): zero differences. The claim rules
// and maxUnavailable are checked against isClaimOwnerUpToDate,
// updateClaimOwnerRefForSetAndPod and getStatefulSetMaxUnavailable, and the
// Step vectors are replayed through upstream.
//
// # DaemonSets
//
// testdata/daemonset holds 215 vectors (the seed table, the upstream tables
// and update_test.go scenarios including the MaxSurge and not-ready
// variants, PR #117658, PR #96441, #60163). Differentials
// (go -C conformance/upstream test -run DaemonSet ., 10,000 states each):
// eligibility against NodeShouldRunDaemonPod, the tolerations of NewPod,
// UnavailableCount, SurgeCount and AllowsSurge, and one whole syncDaemonSet
// of the real controller on a fake clientset against Step on clusters of
// 1–200 nodes with 0–3 pods per node in every state (manage actions exact
// as sets, rolling-update picks compared as counts plus every forced
// action): zero differences.
package upstream
