// Package upstream documents kubesem's differential test module: every
// decision of kubesem checked against the code of Kubernetes v1.36.3
// (k8s.io/kubernetes, every staging module at v0.36.3), on random states
// drawn with rapid (10,000 per property) and on every vector of testdata.
// The package itself holds no code; the tests live in one package per
// kind, each with its own test binary:
//
//	cronjob/        CronJob schedules, zones, eras, the sync, its vectors
//	daemonset/      DaemonSet eligibility, sync, sequences, revisions, validation
//	deployment/     Deployment rollout steps, rollback, template equality, validation
//	intstr/         int-or-percent scaling and JSON
//	job/            Job rules, helpers, step, sequences, writes, validation
//	node/           node lifecycle, taint eviction, heartbeats, kubelet shutdown
//	pdb/            disruption budgets, the eviction API
//	podgc/          the pod GC controller
//	podstatus/      pod phase, readiness, restart backoff, updates
//	replicaset/     ReplicaSet ranking, slow start, status, sync, validation
//	rolloutstatus/  kubectl rollout status, the Deployment status
//	statefulset/    StatefulSet sync, identity, claims, revisions, writes
//	wholecluster/   every controller together, against upstream's, and the
//	                side-by-side sync benchmark (BenchmarkWholeClusterSync)
//	internal/difftest/  what several kinds share (see its package doc)
//
// The tests of an adapter (module k8s) function live with the kind it
// converts (TestAdapter… in daemonset/, deployment/, statefulset/ …).
// A package whose tests build upstream controllers runs
// TestHarnessesDoNotLeak over them.
//
// Run everything (go test runs two packages at a time on the project's
// 2-core machine; about 6 minutes):
//
//	go -C conformance/upstream test -timeout 30m ./...
//
// or one kind, a longer run, the side-by-side benchmarks:
//
//	go -C conformance/upstream test ./node/
//	go -C conformance/upstream test ./... -args -rapid.checks=1000000
//	go -C conformance/upstream test -run '^$' -bench . -benchmem ./pdb/ ./node/
//
// Environment variables (relative file names are relative to the kind's
// package directory, where go test runs its binary):
//
//	KUBESEM_WRITE_VECTORS=1           replays fill the wants a vector leaves out (several kinds)
//	KUBESEM_GEN_CRONJOB=1             cronjob/: rewrite the generated CronJob vectors
//	KUBESEM_FILL_CRONJOB_STEP=1       cronjob/: fill the step vectors' wants
//	CRONJOB_ZONES=all                 cronjob/: every zone × change, exhaustively
//	KUBESEM_SLOW=1                    cronjob/: TestCronJobIssue19Slow
//	DS_TIES=1                         daemonset/: TestDaemonSetVectorTies
//	KUBESEM_WRITE_SHAPES=1            deployment/: rewrite podstatus/apishapes.go
//	KUBESEM_NODE_STEP_SEQUENCES=n     node/: sequences of TestNodeStepDifferential
//	KUBESEM_WRITE_NODE_STEP_VECTORS=1 node/: rewrite testdata/node/step.json
//	PODSTATUS_PRINT_UPSTREAM=1        podstatus/: print upstream's differing answers
//	KUBESEM_WHOLE_SCENARIOS=n         wholecluster/: scenarios of TestWholeClusterDifferential
//	KUBESEM_WHOLE_EVENTS=n            wholecluster/: the most events a scenario draws (default 4)
//	KUBESEM_WHOLE_FAIL=1              wholecluster/: fail on the first difference, shrunk by rapid
//	KUBESEM_WHOLE_ALL=<file>          wholecluster/: write every differing scenario
//	WCD_DUMP=<file>, WCD_DEBUG=1      wholecluster/: a differing instant's writes; debug output
//	WC_TRACE=<file>, WC_STACKS=<file> wholecluster/: the canonical trace, goroutine stacks on a hang
//	KUBESEM_BENCH_SIZES=100,1000      wholecluster/: pod counts of BenchmarkWholeClusterSync; every kind:
//	                                  object counts of BenchmarkGrowth (difftest.Growth)
//	KUBESEM_GROWTH_SKIP_AFTER=10s     every kind: BenchmarkGrowth skips a side whose one op takes longer
//
// What the kinds check (the tests named here live in the kind's package):
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
// The update rules (validation_update_test.go) run each kind's registry
// strategy, PrepareForUpdate then ValidateUpdate (difftest.RegistryUpdate),
// on random updates of stored objects; the …UpdateVectorsUpstream tests
// (and TestStatefulSetCreateVectorsUpstream, through PrepareForCreate and
// Validate) replay the validate_update.json and validate_create.json
// vectors the same way and require upstream's verdict, path and kind
// (difftest.ReplayValidationVectors; KUBESEM_WRITE_VECTORS=1 writes the
// wants from upstream).
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
// testdata/daemonset holds 252 vectors (the seed table, the upstream tables
// and update_test.go scenarios including the MaxSurge and not-ready
// variants, PR #117658, PR #96441, #60163; the claim's). Differentials
// (go -C conformance/upstream test -run DaemonSet ., 10,000 states each):
// eligibility against NodeShouldRunDaemonPod, the tolerations of NewPod,
// UnavailableCount, SurgeCount and AllowsSurge, and one whole syncDaemonSet
// of the real controller on a fake clientset against Step on clusters of
// 1–200 nodes with 0–3 pods per node in every state, some orphans,
// another controller's or no longer selected, and starting
// ControllerRevisions claimed, adopted, released or ignored (manage
// actions exact as sets, rolling-update picks compared as counts plus
// every forced action, the claim's adoptions and releases exact; a sync
// upstream ends at the refused renumbering of a revision it adopted is
// checked to end so in kubesem's writes): zero differences.
package upstream
