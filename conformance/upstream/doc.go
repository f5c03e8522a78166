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
//	KUBESEM_WHOLE_FAIL=1              wholecluster/: fail on the first difference, shrunk by rapid
//	KUBESEM_WHOLE_ALL=<file>          wholecluster/: write every differing scenario
//	WCD_DUMP=<file>, WCD_DEBUG=1      wholecluster/: a differing instant's writes; debug output
//	WC_TRACE=<file>, WC_STACKS=<file> wholecluster/: the canonical trace, goroutine stacks on a hang
//	KUBESEM_BENCH_SIZES=100,1000      wholecluster/: pod counts of BenchmarkWholeClusterSync
package upstream
