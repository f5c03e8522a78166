// Command kubesem asks kubesem what the Kubernetes v1.36.3 workload
// controllers decide: it answers single decisions (decide, serve), checks
// implementations against the conformance vectors (conformance), explains
// what the controllers do next in a cluster dump or a live cluster
// (explain), watches a live cluster for controller writes kubesem does not
// predict (shadow), runs workloads and whole scenarios on the world of
// package cluster (simulate), and explores every interleaving of a small
// cluster's events against properties (check).
//
// This comment is the CLI's manual. Each section below is exactly what
// "kubesem help <command>" and "kubesem <command> -h" print
// (TestDocIsTheManual keeps them equal; "go test -run TestDocIsTheManual
// -update" in cmd/kubesem rewrites this file from the commands' help).
//
// Install kubesem and the kubectl plugin kubectl-kubesem:
//
//	go install github.com/kubesem/kubesem/cmd/kubesem/...@latest
//
// # Usage
//
// usage: kubesem <command> [arguments]
//
// commands:
//
//	decide [FILE]            decide one request {"decision","options","input"} (stdin when no FILE)
//	conformance [flags]      run the conformance vectors (--vectors DIR, --exec CMD, --package P, -v)
//	serve [flags]            answer requests line by line on stdin/stdout (the --exec protocol; --timeout, --max-line)
//	decisions [-v]           list the decisions kubesem implements
//	explain [flags] [FILE]   what each controller does next in a cluster dump (kubectl get ... -o json), or live (--kubeconfig, -n, -A)
//	shadow [flags]           watch a live cluster and report each controller write kubesem does not predict
//	simulate cluster [flags] run a scenario of objects and timed events on the whole world
//	simulate rollout [flags] print a Deployment rollout as a timeline
//	simulate cronjob [flags] print a CronJob's schedule slots over a window
//	simulate drain [flags]   drain nodes under a PodDisruptionBudget
//	simulate pod [flags]     a pod's containers on a simulated kubelet: phase, conditions, restarts, backoff
//	simulate node-outage [flags] nodes that stop heartbeating: Unknown, taints, zone states, evictions
//	simulate statefulset [flags] a StatefulSet: ordinals, revisions, pod states
//	simulate daemonset [flags] a DaemonSet rolling update per node, with taints and NotReady nodes
//	check --scenario FILE    explore every interleaving of a scenario's events; check properties
//	check merge FILE...      merge the -o json reports of check --shard parts
//	help [command]           this list, or a command's manual (the same as "<command> -h")
//
// Exit codes: 0 success; 1 a failure: a conformance vector, a violated
// property, a shadow mismatch, or an error that is not the input's; 2 bad
// usage or invalid input (one line on stderr names the field).
//
// # kubesem decide
//
// usage: kubesem decide [FILE]
//
// Reads one request {"decision","options","input"} from FILE (stdin when
// FILE is absent or "-") and prints the decision's output as JSON.
// "kubesem decisions -v" lists every decision with its input, options and
// output shape (described in testdata/<package>/README.md); API objects in
// an input are accepted as kubectl get -o json prints them. A Step's answer
// is its Plan in the shared vocabulary (outcome, create, delete, status,
// updateStatus, events, requeue; VOCABULARY.md), durations as Go durations
// ("1m30s") and times in RFC 3339 UTC.
//
// A key that "decisions -v" prints without "?" is required: a request
// without it (or with it null) is refused with a Required error at its path
// (input.replicas), never answered from a zero value. Invalid input prints
// {"error": ...} and one line on stderr naming the field from the top of the
// request (input.replicaSets[0].spec.replicas, options.burstReplicas,
// input.now for a time that does not parse), and exits 2.
//
// Every JSON kubesem reads (requests, vectors, dumps, the library's
// UnmarshalJSON methods) is read as the API server reads it
// (internal/apijson): keys are case-sensitive ("Replicas" next to
// "replicas" is an unknown key, dropped inside API objects, an error among
// a request's, an input's or an Options' own keys), a key given twice is an
// error naming its path, nothing may follow the request, and an error
// quotes at most 256 bytes of a value. A request larger than 256 MiB is
// refused.
//
// Example:
//
//	echo '{"decision":"rollout.Fenceposts","input":{"maxSurge":"25%","maxUnavailable":"25%","replicas":3}}' \
//	  | kubesem decide
//	{
//	  "surge": 1,
//	  "unavailable": 0
//	}
//
// # kubesem conformance
//
// usage: kubesem conformance [flags]
//
// Runs the conformance vectors against kubesem, or against an external
// implementation (--exec), and prints a table per package; exits 1 when a
// vector fails. The line protocol --exec speaks and the vector format are
// described in conformance/README.md.
//
// --allow-unsupported skips (instead of failing) the vectors whose decision
// the implementation answers "unsupported"; --run REGEX keeps the vectors
// whose <package>/<name> matches; --timeout bounds each answer. The
// implementation's stderr is forwarded; every failure prints its file, name,
// input and diff.
//
// Examples:
//
//	kubesem conformance                      # every vector against kubesem
//	kubesem conformance --exec "./my-impl"   # against your implementation
//	kubesem conformance --vectors ./mine     # your own vectors
//	kubesem conformance --exec "./my-impl" --allow-unsupported --run 'rollout/'
//
// flags:
//
//	-allow-unsupported
//	  	skip, instead of failing, vectors whose decision the implementation does not support
//	-exec string
//	  	external implementation to check, run with sh -c; speaks the line protocol of conformance/README.md
//	-package string
//	  	comma-separated packages to run (default: all)
//	-run string
//	  	run only the vectors whose "<package>/<name>" matches this regular expression
//	-timeout duration
//	  	with --exec, how long to wait for each answer (default 10s)
//	-v	list every vector, not only failures
//	-vectors string
//	  	folder of <package>/*.json vectors (default: the vectors built into kubesem)
//
// # kubesem serve
//
// usage: kubesem serve [flags]
//
// Answers requests line by line on stdin/stdout: the protocol an external
// implementation speaks under "kubesem conformance --exec" (see
// conformance/README.md), served by kubesem itself.
//
// Every line is answered with exactly one response line, in order. A line
// that is not a request, longer than --max-line, whose decision panics (an
// internal error naming the decision: please report it with the request)
// or that takes longer than --timeout is answered with a failure, and the
// next line is read. A decision that timed out is abandoned but may keep
// running in the background until it ends (it uses a CPU meanwhile).
//
// flags:
//
//	-max-line int
//	  	the longest request line read, in bytes; a longer one is answered with a failure and skipped (default 268435456)
//	-timeout duration
//	  	the longest one request may take before it is answered with a failure (default 10s)
//
// # kubesem decisions
//
// usage: kubesem decisions [-v]
//
// Lists every decision kubesem answers; -v adds each one's input, options
// and output shape (a key printed without "?" is required). Each decision,
// its vectors and the tests that check it against v1.36.3 are listed in
// conformance/DECISIONS.md.
//
// Example:
//
//	kubesem decisions -v    # every decision with its input, options and output shape
//
// # kubesem explain
//
// usage: kubesem explain [flags]
//
// Reads a cluster dump (kubectl get deploy,rs,rc,sts,ds,controllerrevisions,
// job,cronjob,pdb,pvc,pods,nodes,leases -A -o json|yaml, kubectl cluster-info
// dump: a List, typed Lists, a stream of objects or of Lists, JSON or YAML;
// FILE, or stdin when FILE is absent or "-") exactly as the API server
// returns it, builds the world of package cluster from it and runs one sync
// of the control plane at --now: every controller kubesem models
// (deployment, replicaset, replicationcontroller, statefulset, daemonset,
// job, cronjob, ttlafterfinished, disruption, podgc, node-lifecycle,
// taint-eviction), each on its objects, each seeing the writes of those
// before it, as kube-controller-manager with perfectly fresh caches would.
// The library never reads the clock; --now defaults to the current time.
//
// It prints per object what its controller does next, why, and when it
// looks again; a Deployment's ReplicaSets and a CronJob's Jobs are shown
// under it; "write status" says when a controller writes its status. -o json
// prints the same with each decision's whole Plan and its API writes.
// ReplicaSet and ControllerRevision names are v1.36.3's (the k8s adapter's
// hashes, as in simulate cluster): a StatefulSet or DaemonSet whose template
// no stored revision holds gets the revision v1.36.3 creates, by its exact
// name. Revisions are matched by the world (the newest revision holding the
// template, whatever its name; an unlabelled DaemonSet revision's hash is
// its whole name, daemonset.RevisionHash).
//
// With --timeline it then runs the world on (scheduler, kubelets and node
// heartbeats as in "simulate cluster") and prints the predicted timeline
// until the cluster settles (at most --limit), and the state it settles in.
//
// Never silently wrong: when the dump cannot tell what a controller does,
// the outcome is Unknown, there is no plan, and a note says what is missing:
// a DaemonSet without Nodes in the dump (the DaemonSet, pod GC and node
// controllers do not run then: with no nodes they would delete every bound
// pod), a StatefulSet with volumeClaimTemplates and no PersistentVolumeClaim
// (unless the dump holds a PersistentVolumeClaimList, even empty). Daemon
// pods that failed are shown as after a controller restart (the failed-pod
// backoff is controller memory), and the node lifecycle controller starts
// with no memory of heartbeats, as after a restart. Objects of kinds kubesem
// does not model are listed as NotModelled.
//
// Time is near-linear in the dump: 100,000 pods of 1,000 Deployments with
// 1,000 PodDisruptionBudgets in one namespace (70 MB) take about 3.6 s of
// CPU (TestExplainScale, BenchmarkExplainScale). A dump over --max-bytes
// and Lists nested more than 4 deep are refused.
//
// Live: with --live, --kubeconfig, --context, -n or -A (and always as
// "kubectl kubesem explain"), explain reads the cluster itself with
// client-go instead of a dump, read-only, only ever through list requests
// (the reader in cmd/kubesem/kube.go has no other method;
// TestReaderSendsNoWrite checks the verbs on a fake clientset): every kind
// above in the namespace (-n, default the context's) or in all of them (-A),
// plus the Nodes and their Leases in kube-node-lease whatever the namespace
// (without the right to list them it warns and goes on without). It builds
// from them the dump "kubectl get --raw" would give (typed Lists) and prints
// exactly what explain prints on that dump. Arguments TYPE/NAME
// (deploy/nginx, sts/web, ds/fluentd-elasticsearch, cronjob/hello …) keep
// the output to those objects (a Deployment with its ReplicaSets, a CronJob
// with its Jobs); a named object the cluster does not hold exits 1.
//
// Examples:
//
//	kubectl get deploy,rs,rc,sts,ds,controllerrevisions,job,cronjob,pdb,pvc,pods,nodes,leases -A -o json \
//	  | kubesem explain                       # one sync of the world over the dump (-o json, --now)
//	kubectl get … -A -o yaml | kubesem explain --timeline   # … and the predicted timeline until the cluster settles
//	kubectl kubesem explain deploy/nginx-deployment -n shop # the same, read live through the kubeconfig
//	kubesem explain --kubeconfig ~/.kube/config -A          # the same without the plugin
//
// Output on the example dumps cmd/kubesem/testdata/explain/stateful.json and
// daemons.json at --now 2026-11-23T12:00:00Z (excerpts of the checked-in
// goldens):
//
//	StatefulSet data/db: RollingUpdate
//	  delete pod db-1 (Outdated)
//	  status: 3 replica(s), 3 ready, 3 available; 1 at current revision db-7c9f5b8d4, 1 at update revision db-5d8b7f9c6
//	  write status
//
//	StatefulSet data/ledger: RollingUpdate
//	  create ControllerRevision ledger-6684695b94 as revision 2 (NewRevision)
//	  delete pod ledger-1 (Outdated)
//	  status: 2 replica(s), 2 ready, 2 available; 1 at current revision ledger-9c8b7d6f5, 0 at update revision ledger-6684695b94
//	  write status
//
//	Controller node-lifecycle: Monitored
//	  add taint node.kubernetes.io/memory-pressure:NoSchedule to Node node-c (ConditionTaints)
//	  ...
//
//	Node node-e (taint-eviction): EvictionsProcessed
//	  delete pod node-exporter-c5v8b (TaintManagerEviction)
//
//	DaemonSet kube-system/gpu-plugin: RollingUpdate
//	  create ControllerRevision gpu-plugin-57cccc4f56 as revision 3 (NewRevision)
//	  delete pod gpu-plugin-n3p6q (UpdateOldPod)
//	  status: 1 node(s) should run a pod, 1 do, 0 updated, 1 ready, 1 available, 0 unavailable, 0 misscheduled
//	  write status
//
// The example dumps are generated by cmd/kubesem/testdata/explain/gen.py
// (objects as the API server returns them; their revision names are not real
// hashes) and cover: Deployments mid-rollout, stuck past their progress
// deadline, paused and recreating; bare ReplicaSets and
// ReplicationControllers; CronJobs running, suspended and forbidden; Jobs
// failing, indexed and finished with a TTL; a PDB over Deployment pods and
// one (maxUnavailable) over StatefulSet pods; StatefulSets in a partitioned
// rolling update, stuck on a crash-looping pod (OrderedReady), OnDelete with
// a deleted pod, and with an unseen template change; DaemonSets in a maxSurge
// rolling update, with a NotReady node, a NoExecute-tainted node, OnDelete
// with a failed pod, and with an unseen template change; a stream without
// Nodes and ControllerRevisions. What they show of upstream's behaviour is
// noted in packages daemonset and statefulset (Divergences).
//
// flags:
//
//	-A	short for --all-namespaces
//	-all-namespaces
//	  	read every namespace
//	-context string
//	  	the kubeconfig context to use (default: the current context)
//	-kubeconfig string
//	  	read the live cluster through this kubeconfig file (default: $KUBECONFIG, then ~/.kube/config, then in-cluster)
//	-limit duration
//	  	with --timeline, the longest time to wait for the cluster to settle (default 6h0m0s)
//	-live
//	  	read the live cluster of the kubeconfig (implied by --kubeconfig, --context, -n and -A; the default of kubectl kubesem)
//	-max-bytes int
//	  	the largest dump read, in bytes (default 2147483648)
//	-n string
//	  	short for --namespace
//	-namespace string
//	  	the namespace to read (default: the context's namespace)
//	-now string
//	  	the time of the sync, RFC 3339 (default: the current time)
//	-o string
//	  	output format: text or json (default "text")
//	-timeline
//	  	then print the predicted timeline until the cluster settles
//
// # kubesem shadow
//
// usage: kubesem shadow [flags]
//
// Watches a live cluster, read-only (list and watch requests only), and
// checks every write the workload controllers make against kubesem: after each
// change it observes, it asks the library what the controllers do next (one
// sync of the world of package cluster over the objects it holds, with
// v1.36.3's exact names, as explain does) and compares with what they do.
// It runs until interrupted (or for --for), prints each mismatch as it finds
// it with the objects before and after, and exits 1 if it found any.
//
// Two kinds of mismatch:
//
//	unexpected  the controllers made a write that kubesem, from no state of
//	            the cluster in the --window before it, predicts: a create,
//	            update or delete of an object no sync kubesem runs makes, or
//	            a field it sets to another value;
//	missing     the cluster (the namespace, and the cluster-scoped objects)
//	            has been quiet for --window and kubesem still predicts a
//	            write the controllers have not made for another --window.
//
// What is compared: the verb (create, update, delete — a pod's delete is the
// deletionTimestamp being set), the resource, the namespace and name, and the
// fields the write changes: every field of an update that differs between the
// object before and after; for a create, the name (or, when the API server
// generates it, the generateName), the labels and annotations kubesem
// predicts (the object may carry more: admission adds some), the owner
// references, and per kind what the controller decides: a ReplicaSet's whole
// spec, a pod's hostname, subdomain, nodeName and affinity, a
// ControllerRevision's revision number. An update matches any of the writes
// kubesem's sync makes to the object, not only the last (a controller may
// write one object more than once in a sync).
//
// The eviction API (a POST to pods/NAME/eviction: a user's request, decided
// by the API server) writes too: a budget's status with the pod added to
// disruptedPods is compared with kubesem's eviction decision (pdb.Evict of
// that pod on the objects before: it must allow the eviction and decrement
// that budget to the status written); the pod's DisruptionTarget condition
// with reason EvictionByEvictionAPI and the deletion of a pod that carries it
// are the request's, inputs. A refused eviction writes nothing and is not
// seen.
//
// What is ignored: resourceVersion, uid and managedFields anywhere,
// metadata.generation, the values of timestamps (a timestamp is compared only
// for being set or not), the random suffixes of generated names, and the
// order and timing of writes within --window, and which of several pods of
// one controller in the same phase and readiness a scale-down deletes (the
// ReplicaSet controller's ranking leaves such ties in its cache's order). Writes of the environment are
// inputs, never compared: Leases, Node status (the kubelet), pods' status and
// binding (kubelet, scheduler), and every change to a spec by a user.
//
// Which changes are the controllers': a Deployment's status and revision
// annotation; a ReplicaSet's creation, deletion, scale and annotations under a
// Deployment, and its status; the status of StatefulSets, DaemonSets, Jobs,
// CronJobs, PodDisruptionBudgets; a pod's creation under a controller, its
// deletion (deletionTimestamp set, or removed without one), its owner
// references, the Job tracking finalizer, the DisruptionTarget condition;
// ControllerRevisions; a StatefulSet's claims; a CronJob's Jobs; a node's
// taints the node lifecycle controller writes (node.kubernetes.io/not-ready,
// unreachable, unschedulable, memory-pressure, disk-pressure, pid-pressure,
// network-unavailable: any other taint, out-of-service included, is a
// user's) and its conditions turning Unknown.
//
// Controllers with memory: the node lifecycle controller (when it last saw
// each node alive; its zones' tainting queues and rate limiters), the
// taint-eviction controller (the evictions it scheduled, and when) and the pod
// garbage collector (its quarantine of missing nodes) are not in the world
// above. Shadow keeps one world of these three for its whole run: at every
// change of a node or pod (on the state right before it, and 0.5 s before it on
// the state right after it: the controller may have seen the change first, and
// a timer it starts must not fire later than the controller's) and at every
// tick, it sets that world's objects to the ones it holds and syncs it; the
// world carries the three controllers' memory from sync to sync. A write of
// theirs matches one such a sync predicted no earlier than the controller's
// allowance before it: 10 s for the node lifecycle controller (two 5 s
// monitor periods: its probe times are set at its passes), 1 s for taint
// eviction, 60 s for the pod GC (three 20 s periods: its quarantine starts at
// a pass and its queue may hand a node back a period late). A node's write no
// sync predicted also matches when that world, synced on from the state right
// before it every 250 ms for 10 s, makes it (the world's monitor passes run at
// its own phase, up to two periods after the controller's). Taints are
// compared one by one (key, value, effect), not as a list: the write must add
// the taints the change adds and remove those it removes, on the node as it
// then is. Their missing writes are those first predicted more than the
// allowance and --window ago that would still change the cluster and that the
// world as it was before that prediction, synced now, still makes. That world
// starts with shadow, as the controllers after a restart: a node's grace period
// and a pod GC quarantine start at its first sync, and what it decides there
// (a node seen for the first time loses its not-ready and unreachable taints)
// is not a prediction.
//
// Limits (documented, not compared): the other controllers start with no
// memory at each prediction (the Job and DaemonSet failure backoffs are those
// after a controller restart); a node that stopped heartbeating shortly before
// shadow started, or a node quarantined then, is acted on by the controllers
// earlier than shadow's world predicts (an unexpected mismatch); predictions
// run at the local clock, so a cluster whose clock is skewed from this
// machine's by more than --window shows time-bound decisions (minReadySeconds,
// deadlines) as mismatches.
//
// With --out DIR each mismatch is also saved as DIR/NNNN-<resource>-<name>.json,
// a conformance-vector-like record ready for a bug report:
// {"decision":"cluster.Sync","name","source","input","want","got","before","after"}
// where input is {"now", "objects"}: the cluster's objects before the write (a
// List explain reads: kubesem explain --now NOW on it replays kubesem's side),
// want is what the controllers did ({"writes":[...]}: verb, resource,
// subresource, namespace, name, the changed fields and the object after),
// got is what kubesem predicts, and before/after are the written object's API
// form before and after. (cluster.Sync is not a registered decision: the
// record is for a person to reduce to a vector of the package at fault.)
//
// Examples:
//
//	kubectl kubesem shadow -n shop --out mismatches/   # the plugin: the kubeconfig's cluster, namespace shop
//	kubesem shadow --kubeconfig ~/.kube/config -A --for 10m -v
//
// flags:
//
//	-A	short for --all-namespaces
//	-all-namespaces
//	  	read every namespace
//	-context string
//	  	the kubeconfig context to use (default: the current context)
//	-for duration
//	  	stop after this long (0: run until interrupted)
//	-kubeconfig string
//	  	read the live cluster through this kubeconfig file (default: $KUBECONFIG, then ~/.kube/config, then in-cluster)
//	-n string
//	  	short for --namespace
//	-namespace string
//	  	the namespace to read (default: the context's namespace)
//	-out string
//	  	save each mismatch as a vector-like JSON file in this directory
//	-v	also print each controller write observed and each quiet check
//	-window duration
//	  	how long a controller may take to make a predicted write, and how long a quiet cluster is watched before kubesem's remaining predictions count as missing (default 5s)
//
// # kubesem simulate
//
// usage: kubesem simulate <simulation> [flags]
//
// simulations:
//
//	cluster   a scenario of objects and timed events on the whole world (every controller, kubelets, users)
//	rollout   a Deployment rollout on the world, as a timeline
//	cronjob   a CronJob's schedule slots over a window
//	drain     node drains under a PodDisruptionBudget on the world
//	pod       a pod's containers on a simulated kubelet (phase, conditions, restarts, backoff)
//	node-outage  nodes that stop heartbeating: Unknown, taints, zone states, evictions
//	statefulset  a StatefulSet on the world: ordinals, revisions, pod states
//	daemonset    a DaemonSet rolling update per node, with taints and NotReady nodes
//
// Each takes -h for its flags ("kubesem help simulate <simulation>" is the same).
//
// Every simulation is a scenario on package cluster's world: its flags build
// a cluster.Scenario (objects, timed events, pod behaviours), the world runs
// it (the controllers, the API server, the scheduler, the kubelets and the
// node heartbeats, jumping from one due instant to the next) and the
// subcommand prints from the world's trace and state; cmd/kubesem holds no
// rule of its own (TestNoRules checks it).
//
// Every simulation takes --svg FILE, which writes its timeline as a
// standalone SVG (standard library only): pods per revision and readiness per
// instant for rollouts, the Jobs for CronJobs, pod states per instant for
// drains. Its title says what was simulated (the command's header: the
// flags; for simulate cluster the scenario's name: or its file, with its
// objects, start and end), and its labels are laid out by their estimated
// widths so that none is clipped or overlaps another (TestSVGLayout checks
// it on the example scenarios and every simulation). docs/rollout.svg is
// simulate rollout's proportional-scaling example.
//
// # kubesem simulate cluster
//
// usage: kubesem simulate cluster [flags]
//
// Runs a scenario on the world (package cluster): every controller of
// kube-controller-manager that kubesem models, the API server, a scheduler,
// kubelets, node heartbeats and the scenario's users, with time jumping from
// one due instant to the next, and prints the timeline: each write with its
// time offset, controller, request, object and reason, and each event a
// controller records (a refusal repeated, such as a drain under a budget, is
// printed once with its count); then how the run ended and the state it
// ended in.
//
// The scenario (--scenario FILE, "-" for stdin; JSON or YAML) is a document
//
//	name: rolling update under a drain   # optional: the --svg chart's title
//	start: 2026-11-23T12:00:00Z      # the first instant (--start overrides)
//	kubelet: {startDelay: 1s, readyDelay: 5s}
//	settleQuiet: 1m                  # quiet time that counts as settled
//	pods:                            # how the kubelet runs matching pods
//	- {namespace: batch, selector: {matchLabels: {app: x}}, runFor: 30s,
//	   exitCode: 1, neverReady: false, startDelay: 0s, readyDelay: 10s}
//	objects: [ ...API objects, or Lists of them... ]
//	events:
//	- {at: 1m, kind: image, target: {kind: Deployment, namespace: shop, name: web}, image: web:2}
//
// and/or API objects as kubectl get -o json|yaml or kubectl cluster-info dump
// print them (a List, typed Lists whose items carry no kind, a stream of
// objects, kubectl cluster-info dump with its pod logs): a dump alone is a
// scenario without events. Pod behaviours say how the kubelet runs matching
// pods: start and ready delays, never ready, run for a time and exit with a
// code. Event kinds: scale (replicas), image (image), template (template),
// pause, resume, create (object), update (object), delete, cordon, uncordon,
// drain, evict, stopNode, startNode, failPod (exitCode), order (order: the
// controllers that sync first in every round from then on, e.g.
// [statefulset]; kube-controller-manager's controllers run concurrently, so
// any order is one Kubernetes may take). Objects of kinds kubesem does not
// model are listed as not run, never dropped silently.
//
// The world runs until --until after the start, or, without --until, until
// it settles (no write but heartbeats for settleQuiet, default 1 minute, and
// nothing due but periodic work), at most --limit; a CronJob never lets a
// world settle: use --until. -o json prints the trace (plan.Encode), the
// final state and what was not modelled; --svg FILE draws the pods' states
// per busy instant; --heartbeats shows lease renewals too.
//
// Names are v1.36.3's: the namer takes its template hashes from the k8s
// adapter (k8s.TemplateHash for ReplicaSets and DaemonSet revisions,
// k8s.StatefulSetRevisionName's hash for StatefulSet revisions), so a
// template written as the API server stores it (defaults included, as
// kubectl get -o yaml prints it) gets the name Kubernetes gives it; a
// hand-written template without the API defaults hashes differently, as it
// would before the API server defaults it. Generated suffixes and UIDs are
// deterministic stand-ins for the API server's random ones.
//
// Examples (scenarios in cmd/kubesem/testdata/scenarios):
//
//	kubesem simulate cluster --scenario cmd/kubesem/testdata/scenarios/rolling-outage-drain.yaml --until 12m
//	kubesem simulate cluster --scenario cmd/kubesem/testdata/scenarios/statefulset-update.yaml
//	kubesem simulate cluster --scenario cmd/kubesem/testdata/scenarios/job-failures.yaml --svg job.svg
//
// An excerpt of the first: a rolling update of shop/web, 6 replicas, while
// node-c stops heartbeating at 1m20s and node-b is drained at 2m30s under a
// PodDisruptionBudget of minAvailable 5, with a CronJob firing every two
// minutes (the whole timeline is testdata/scenarios/rolling-outage-drain.golden):
//
//	+1m00s    user              update         Deployment shop/web [replicas 6] (image)
//	          deployment        create         ReplicaSet shop/web-8448b6f544 [replicas 2] (CreateNew)
//	          deployment        update         ReplicaSet shop/web-5f5794754f [replicas 5] (ScaleDownOld)
//	          deployment        event          Deployment shop/web Normal ScalingReplicaSet: Scaled up replica set web-8448b6f544 from 0 to 2
//	...
//	+1m20s    user              stopNode       Node node-c
//	...
//	+2m05s    node-lifecycle    update status  Node node-c (Monitored)
//	          node-lifecycle    patch          Node node-c (TaintNode)
//	          node-lifecycle    update status  Pod shop/web-8448b6f544-ccbbb [Running] (MarkPodsNotReady)
//	...
//	+2m30s    user              update         Node node-b (drain)
//	          user              evict          Pod shop/web-8448b6f544-9bbbb (Drain): refused: metadata.name: "web-8448b6f544-9bbbb: NoDisruptionsAllowed The disruption budget web-pdb needs 5 healthy pods and has 4 currently": too many requests (and 57 more time(s) until +7m15s)
//	...
//	+7m05s    taint-eviction    patch status   Pod shop/web-5f5794754f-qbbbb [Running] (TaintManagerEviction)
//	          taint-eviction    delete         Pod shop/web-5f5794754f-qbbbb (TaintManagerEviction)
//	...
//	          replicaset        create         Pod shop/web-8448b6f544-xcbbb (TooFewReplicas)
//	...
//	+7m20s    user              evict          Pod shop/web-8448b6f544-9bbbb (Drain)
//	...
//	at +12m00s:
//	  Node node-b: Ready=True, unschedulable, taint node.kubernetes.io/unschedulable:NoSchedule, pods: none
//	  Node node-c: Ready=Unknown, taint node.kubernetes.io/unreachable:NoExecute, taint node.kubernetes.io/unreachable:NoSchedule, pods: 4 terminating
//	  Deployment shop/web: 6 replica(s), 6 updated, 6 ready, 6 available; Available=True (MinimumReplicasAvailable), Progressing=True (NewReplicaSetAvailable)
//	  PodDisruptionBudget shop/web-pdb: 1 disruption(s) allowed, 6 healthy of 5 desired
//
// The drain waits for the budget: node-c's pods count as unhealthy once its
// Ready condition turns Unknown (40 s grace), and only when the
// taint-eviction controller deletes them (300 s after the NoExecute taint,
// the default toleration) and their replacements are ready does the budget
// let node-b's pods go. The pods on node-c stay Terminating: its kubelet is
// gone.
//
// The world is checked against v1.36.3's controllers as a whole by
// conformance/upstream TestWholeClusterDifferential (package cluster's
// documentation says how).
//
// flags:
//
//	-heartbeats
//	  	also print the node heartbeats (lease renewals, periodic status reports)
//	-limit duration
//	  	the longest run when waiting for the world to settle (default 6h0m0s)
//	-max-bytes int
//	  	the largest scenario read, in bytes (default 2147483648)
//	-o string
//	  	output format: text or json (default "text")
//	-scenario string
//	  	the scenario file, JSON or YAML ("-": stdin)
//	-start string
//	  	the first instant, RFC 3339 (default: the scenario's start, else the current time)
//	-svg FILE
//	  	also draw the pods' states over time as an SVG chart in FILE
//	-until duration
//	  	run until this long after the start (default: until the world settles)
//
// # kubesem simulate rollout
//
// usage: kubesem simulate rollout [flags]
//
// A scenario on the cluster world (package cluster): Deployment web on three
// nodes, converged at image web:v1, gets image web:v2 at 0s; its pods become
// ready --ready-after × --interval after they start (the world's kubelet
// model). --scale-at/--update-at (in units of --interval) scale it or change
// the image again (web:v3). Prints one row per instant at which something
// other than a heartbeat was written: the old and new ReplicaSets' sizes, the
// pods, status.availableReplicas, what the Deployment controller wrote and a
// chart of the pods.
//
// Examples:
//
//	kubesem simulate rollout --replicas 10 --max-surge 25% --max-unavailable 25% --ready-after 2
//	kubesem simulate rollout --replicas 10 --max-surge 3 --max-unavailable 2 \
//	  --ready-after 3 --scale-at 4 --scale-to 15                  # the documentation's proportional scaling
//	kubesem simulate rollout --replicas 10 --max-surge 3 --max-unavailable 2 \
//	  --ready-after 3 --scale-at 4 --scale-to 15 --svg docs/rollout.svg
//
// flags:
//
//	-interval duration
//	  	the unit of --ready-after, --scale-at and --update-at (default 10s)
//	-max-surge string
//	  	spec.strategy.rollingUpdate.maxSurge (number or percent) (default "25%")
//	-max-unavailable string
//	  	spec.strategy.rollingUpdate.maxUnavailable (number or percent) (default "25%")
//	-min-ready-seconds int
//	  	spec.minReadySeconds
//	-ready-after int
//	  	a started pod becomes ready after this many --interval (default 1)
//	-replicas int
//	  	spec.replicas (default 10)
//	-scale-at int
//	  	at this many --interval, scale the Deployment to --scale-to replicas (default -1)
//	-scale-to int
//	  	replicas after the scale event
//	-steps int
//	  	stop after --steps × --interval (default 100)
//	-strategy string
//	  	RollingUpdate or Recreate (default "RollingUpdate")
//	-svg string
//	  	also write the timeline as a standalone SVG chart to this file
//	-update-at int
//	  	at this many --interval, change the image a second time (web:v3) (default -1)
//
// # kubesem simulate cronjob
//
// usage: kubesem simulate cronjob [flags]
//
// A scenario on the cluster world (package cluster): CronJob report is created
// at --from on one node; each of its Jobs runs one pod that succeeds after
// --job-duration (the world's kubelet model), and the CronJob, Job and
// TTL controllers do the rest. --outage-start/--outage-end suspend the
// CronJob over that window: the world cannot stop a controller, and a
// suspended CronJob is skipped by its controller exactly as a stopped one
// misses its slots (both resume from status.lastScheduleTime). Prints every
// Job the controller creates (its scheduled time, when it started), every
// Job it deletes, and the events it records.
//
// Example, the documented outage:
//
//	kubesem simulate cronjob --schedule '* * * * *' --from 2026-01-01T08:25:00Z --window 2h \
//	  --outage-start 08:29 --outage-end 10:21 --starting-deadline-seconds 200
//
// flags:
//
//	-concurrency string
//	  	spec.concurrencyPolicy: Allow, Forbid or Replace (default "Allow")
//	-from string
//	  	start of the window (RFC 3339); the CronJob is created then (default "2026-01-01T08:00:00Z")
//	-job-duration duration
//	  	how long each Job's pod runs before it succeeds (default 20m0s)
//	-outage-end string
//	  	CronJob resumed at this time (RFC 3339 or HH:MM)
//	-outage-start string
//	  	CronJob suspended from this time (RFC 3339 or HH:MM on the day of --from)
//	-refuse-too-many-missed
//	  	the documented behaviour: start nothing after more than 100 missed slots
//	-schedule string
//	  	spec.schedule (standard cron, 5 fields or a macro) (default "*/15 * * * *")
//	-starting-deadline-seconds int
//	  	spec.startingDeadlineSeconds (-1: unset) (default -1)
//	-svg string
//	  	also write the Jobs as a standalone SVG chart to this file
//	-time-zone string
//	  	spec.timeZone (IANA name); empty means the controller's zone, UTC
//	-window duration
//	  	length of the window (default 3h0m0s)
//
// # kubesem simulate drain
//
// usage: kubesem simulate drain [flags]
//
// A scenario on the cluster world (package cluster), after the drain
// walk-through of the Kubernetes disruptions page (seed 000): Deployment web
// (--replicas pods, spread over --nodes nodes by the world's scheduler)
// under budget web-pdb, and pod x, which no controller owns, on node-1. Each
// --drain NODE@TIME cordons the node and evicts its pods through the
// eviction subresource, retrying refused evictions every 5 s as kubectl
// drain does; new pods become ready --ready-after after they start and
// deleted ones terminate over 30 s (the world's kubelet model). Prints every
// eviction and its answer, what the controllers and the kubelets did, the
// budget's status as the disruption controller writes it, and the pods after
// each instant. For a cluster of your own, use simulate cluster --scenario
// with drain events.
//
// Example, the documented kubectl drain, eviction by eviction:
//
//	kubesem simulate drain --min-available 2
//
// flags:
//
//	-drain string
//	  	comma-separated NODE@TIME: kubectl drain NODE at TIME (default "node-1@0s,node-2@10s")
//	-duration duration
//	  	simulate at most this long (default 5m0s)
//	-max-unavailable string
//	  	spec.maxUnavailable (integer or percentage; empty: unset)
//	-min-available string
//	  	spec.minAvailable (integer or percentage; empty: unset) (default "2")
//	-nodes int
//	  	nodes node-1 … node-N (1 to 100) (default 3)
//	-policy string
//	  	spec.unhealthyPodEvictionPolicy: IfHealthyBudget or AlwaysAllow (empty: unset)
//	-ready-after duration
//	  	how long a started pod takes to become ready (default 30s)
//	-replicas int
//	  	the Deployment's spec.replicas (1 to 100) (default 3)
//	-svg string
//	  	also write the pods' states after each printed instant as a standalone SVG chart to this file
//
// # kubesem simulate pod
//
// usage: kubesem simulate pod [flags]
//
// A scenario on the cluster world (package cluster): one pod bound to node-1,
// run by the world's kubelet model, which decides with podstatus's rules
// (ShouldRestart, RestartBackoff, Generate). Prints, for every status the
// kubelet writes, each container's state and restart count, the pod phase,
// its Initialized, ContainersReady and Ready conditions, and for a container
// in CrashLoopBackOff when the kubelet restarted it.
//
// Without --pod it runs the seed's example (pod lifecycle, restart policy): a
// container that crashes 5s after every start, restarted after 10s, 20s,
// 40s … capped at 5 minutes. --pod FILE reads a scenario:
//
//	{"name": "job", "restartPolicy": "OnFailure",
//	 "start": "2026-01-01T08:00:00Z", "horizon": "15m",
//	 "initContainers": [{"name": "proxy", "restartPolicy": "Always",
//	                     "runs": [{"neverExits": true}]}],
//	 "containers": [{"name": "work",
//	                 "restartPolicy": "Never",
//	                 "restartPolicyRules": [{"action": "Restart",
//	                     "exitCodes": {"operator": "In", "values": [42]}}],
//	                 "runs": [{"exitCode": 42, "duration": "10s"}]}]}
//
// The world's kubelet runs every regular container alike: one run, repeated
// at every start (exit with exitCode after duration, or never exit); a
// sidecar (an init container with restartPolicy Always) never exits, and a
// regular init container completes at once with exit code 0. A scenario
// asking for more (successive runs, containers that differ, an init
// container that runs or fails) is refused, naming the field.
//
// flags:
//
//	-horizon duration
//	  	how long to simulate (0: the scenario's horizon, 15m when it has none; built-in: 20m)
//	-max-container-restart-period duration
//	  	kubelet crashLoopBackOff.maxContainerRestartPeriod (0: the default, 5m)
//	-pod string
//	  	read the scenario (containers, runs, restart policies, start, horizon) from this JSON file
//	-svg string
//	  	also write the timeline as a standalone SVG chart to this file
//
// # kubesem simulate node-outage
//
// usage: kubesem simulate node-outage [flags]
//
// A scenario on the cluster world (package cluster), after seed 001 ("Node
// controller"): nodes whose kubelets stop heartbeating. The node lifecycle
// controller marks them Unknown after the grace period, taints them and
// computes zone states and eviction rates; the taint-eviction controller
// deletes their pods when their tolerations run out. Every node runs three
// pods: "web" with the default 300 s tolerations, "bare" without tolerations
// (created before the admission plugin, kubernetes/kubernetes#124243) and
// "agent" tolerating forever (as DaemonSet pods do). Prints every write of
// the control plane (not the heartbeats, not the kubelets'), and the events
// the controllers record.
//
// flags:
//
//	-duration duration
//	  	how long to simulate (default 7m0s)
//	-eviction-rate float
//	  	--node-eviction-rate (default 0.10000000149011612)
//	-grace duration
//	  	node-monitor-grace-period (0: the v1.36.3 default 50s; the seed says 40s)
//	-large-cluster-size int
//	  	--large-cluster-size-threshold (default 50)
//	-recover string
//	  	nodes (or zones) that come back, and when: NODE@DURATION,...
//	-secondary-eviction-rate float
//	  	--secondary-node-eviction-rate (default 0.009999999776482582)
//	-stop string
//	  	nodes (or whole zones) that stop heartbeating, and when: NODE@DURATION,... (default "zone-a-1@0s")
//	-svg string
//	  	also write the nodes' and pods' states per printed instant as a standalone SVG chart to this file
//	-toleration-seconds int
//	  	the not-ready/unreachable tolerationSeconds the web pods get (the admission plugin's default is 300) (default 300)
//	-zones string
//	  	zones and their node counts (nodes are named ZONE-1, ZONE-2, ...) (default "zone-a=3,zone-b=3")
//
// # kubesem simulate statefulset
//
// usage: kubesem simulate statefulset [flags]
//
// A scenario on the cluster world (package cluster): StatefulSet web (image
// web:v1) is created at 0s on three nodes; its pods become ready
// --ready-after × 10s after they start, and a deleted pod terminates over
// --grace (the world's kubelet model). --update-at changes the template to
// web:v2 (at that many 10s), --scale-at/--scale-to change replicas,
// --never-ready makes the pod of that ordinal at web:v2 never Ready. Prints,
// for every instant at which something other than a heartbeat was written,
// what the StatefulSet controller wrote and every ordinal with its revision
// number and state (R ready, N not ready, T terminating), then a chart: one
// row per ordinal, one column per printed instant; --svg FILE draws the pods
// per revision over time.
//
// Example, ordinals, revisions and states per instant of a partitioned update:
//
//	kubesem simulate statefulset --replicas 3 --update-at 4 --partition 1
//
// flags:
//
//	-gate
//	  	turn on the MaxUnavailableStatefulSet feature gate (off in v1.36.3)
//	-grace duration
//	  	the pods' terminationGracePeriodSeconds (default 10s)
//	-max-unavailable string
//	  	spec.updateStrategy.rollingUpdate.maxUnavailable (integer or percentage; empty: unset)
//	-never-ready int
//	  	ordinal whose pod at web:v2 never becomes Ready (-1: none) (default -1)
//	-partition int
//	  	spec.updateStrategy.rollingUpdate.partition
//	-policy string
//	  	spec.podManagementPolicy: OrderedReady or Parallel (default "OrderedReady")
//	-ready-after int
//	  	a started pod becomes Ready after this many 10s (default 1)
//	-replicas int
//	  	spec.replicas (default 3)
//	-scale-at int
//	  	at this many 10s replicas change to --scale-to (-1: never) (default -1)
//	-scale-to int
//	  	replicas after --scale-at (default 1)
//	-start int
//	  	spec.ordinals.start
//	-steps int
//	  	simulate at most this many 10s (default 60)
//	-strategy string
//	  	spec.updateStrategy.type: RollingUpdate or OnDelete (default "RollingUpdate")
//	-svg string
//	  	also write the pods' states after each printed instant as a standalone SVG chart to this file
//	-update-at int
//	  	at this many 10s the template changes to web:v2 (-1: never) (default 6)
//
// # kubesem simulate daemonset
//
// usage: kubesem simulate daemonset [flags]
//
// A scenario on the cluster world (package cluster): DaemonSet agent runs
// image agent:v1 on --nodes nodes; at 0s its image changes to agent:v2. Pods
// become ready --ready-after after they start (the world's kubelet model).
// --not-ready NODE@TIME stops a node's kubelet then (the node lifecycle
// controller marks it Unknown and taints it after its grace period); --taint
// adds a taint at 0s; --second-update changes the image again (agent:v3).
// Prints every pod the DaemonSet controller creates or deletes, then a chart
// sampled every --tick (one row per node): o old ready, O old not ready,
// n new ready, + new not ready, x terminating, 2 two pods, . no pod; --svg FILE draws the
// pods per revision and readiness over time.
//
// Example, a surge rollout per node with one node going NotReady:
//
//	kubesem simulate daemonset --nodes 5 --max-surge 1 --max-unavailable 0 --not-ready node-2@15s
//
// flags:
//
//	-max-surge string
//	  	rollingUpdate.maxSurge (integer or percentage) (default "0")
//	-max-unavailable string
//	  	rollingUpdate.maxUnavailable (integer or percentage) (default "1")
//	-min-ready-seconds int
//	  	spec.minReadySeconds
//	-nodes int
//	  	number of nodes (1 to 500) (default 5)
//	-not-ready string
//	  	comma-separated node@time: the node's kubelet stops then, e.g. node-2@15s
//	-ready-after duration
//	  	how long a started pod takes to become ready (default 10s)
//	-second-update duration
//	  	time of a second image change (agent:v3); negative: none (default -1ns)
//	-steps int
//	  	simulate at most this many ticks (default 60)
//	-svg string
//	  	also write the pods per revision and readiness after each tick as a standalone SVG chart to this file
//	-taint string
//	  	comma-separated node=key:Effect taints added at time 0, e.g. node-1=gpu:NoSchedule
//	-tick duration
//	  	the chart's sampling period (default 5s)
//
// # kubesem check
//
// usage: kubesem check [flags]
//
// Explores every interleaving of a small cluster (package check): from the
// scenario's objects, the world (package cluster: every controller, the API
// server, scheduler, kubelets, node heartbeats) runs while the events of an
// alphabet happen at every point of every path (a running pod's containers
// exit, a restart or a failure as its restartPolicy says; a node stops
// heartbeating, and maybe comes back; a pod is evicted; a node is drained;
// the users' events: scale, image, template, pause, resume, create, update,
// delete, cordon …, each at most once), breadth first, so that each
// property violated is reported with a shortest counterexample, printed as
// simulate cluster's timeline.
//
// The scenario file is simulate cluster's (see "kubesem simulate cluster -h"),
// whose scenario document may hold a check section:
//
//	check:
//	  podFailures: 1       # at most 1 running pod's containers exit (restart or fail)
//	  nodeOutages: 1       # at most 1 running node stops heartbeating
//	  nodeReturns: false   # a stopped node may come back
//	  evictions: 0         # at most this many evictions of running pods
//	  drains: 0            # at most this many node drains
//	  orders: 0            # at most this many changes of the controllers' sync order
//	  events:              # users' events, each happening at most once, anywhere
//	  - {kind: image, target: {kind: Deployment, namespace: default, name: web}, image: web:2}
//	  properties: [deployment-max-surge, "available(deploy/web) >= 2"]
//	  depth: 60            # transitions on a path
//	  horizon: 30m         # events happen within this long of the first state
//	  window: 45m          # liveness: settle good within this long
//
// Without a check section: 1 pod failure, 1 node outage, and one image update
// (the first image with "-next" appended) of each Deployment, StatefulSet
// and DaemonSet when there are at most 2 of them; it says so. Without
// properties: every builtin that applies. For instance "kubesem check
// --scenario cmd/kubesem/testdata/scenarios/statefulset-update.yaml"
// (simulate cluster's example) finds, within its bound, that a StatefulSet
// whose node stops never completes: its pods on the unreachable node are
// evicted but stay Terminating, and their names stay taken.
//
// Properties. The builtins (--list prints each with exactly what it counts):
// deployment-max-surge (a Deployment whose controller has seen its spec never
// runs more than replicas + maxSurge pods that are neither terminating nor
// finished), deployment-availability (while nothing has failed, the
// ReplicaSet controller never deletes an available pod leaving fewer than
// replicas − maxUnavailable available), statefulset-ordered-ready (ordinal n
// is created only when 0..n−1 exist, Running and Ready; checked on each
// write, against the state just before it), pdb-eviction (an accepted
// eviction of a healthy pod never leaves a budget below its desiredHealthy),
// job-parallelism (active ≤ parallelism, and active + terminating under
// podReplacementPolicy Failed), job-exclusive (active + terminating ≤
// parallelism, whatever the policy), cronjob-forbid (a Forbid CronJob never
// runs two Jobs); and liveness under fairness: deployment-completes,
// statefulset-completes, daemonset-completes (on its Ready nodes),
// drain-completes: from every reachable state, the world left alone (the
// environment stops failing) must settle (reach a state that repeats, time
// read relative to now) where the property holds, within the window; a world
// that settles elsewhere violates it for ever, one that has not settled
// within the window violates it within the bound. A workload whose template
// is broken (the scenario's pod behaviour for its labels says neverReady, or
// a non-zero exit) is not asked to complete. A property is a builtin's name
// or an expression over replicas, pods, terminating, ready, available,
// updated, succeeded, failed, running (CronJobs), healthy, desired and
// allowed (budgets), nodes() and draining() (check.Expression):
// "available(deploy/web) >= 2", "pods(deploy/web) <= replicas(deploy/web) +
// 1", "terminating(job/batch) == 0 || pods(job/batch) < 2", "eventually
// ready(sts/db) == 3". Library users write a check.Property as Go functions.
//
// The four known cases, found from their configuration alone (no scripted
// event; each a scenario under cmd/kubesem/testdata/check, a test, and a
// fixed configuration, <name>-fixed.yaml, reported safe within the bound):
//
//	kubesem check --scenario cmd/kubesem/testdata/check/statefulset-forced-rollback.yaml
//	kubesem check --scenario cmd/kubesem/testdata/check/drain-budget-zero.yaml
//	kubesem check --scenario cmd/kubesem/testdata/check/job-replacement-beside-terminating.yaml
//	kubesem check --scenario cmd/kubesem/testdata/check/daemonset-notready-node.yaml
//
// The StatefulSet forced-rollback trap (seed 002): an OrderedReady
// StatefulSet of 3 may be updated to a template whose pods never become
// Ready and reverted. Fixed by podManagementPolicy Parallel, under which the
// revert replaces the broken pod.
//
//	  VIOLATED  statefulset-completes      left alone, the world stays where it does not hold, for ever: StatefulSet default/web has 3 replicas, 2 ready, 2 updated of 3
//	  3 transition(s) from the first state: template StatefulSet/default/web at +1m20s, tick, template StatefulSet/default/web at +1m55s
//
//	+1m20s    user             update         StatefulSet default/web [replicas 3] (template)
//	          statefulset      create         ControllerRevision default/web-6669cf5446 (NewRevision)
//	          statefulset      delete         Pod default/web-2 (Outdated)
//	+1m50s    kubelet/node-2   delete         Pod default/web-2 (Killing)
//	          statefulset      create         Pod default/web-2 (Missing)
//	          kubelet/node-2   update status  Pod default/web-2 [Running] (Started)
//	+1m55s    user             update         StatefulSet default/web [replicas 3] (template)
//	          statefulset      update         ControllerRevision default/web-6d45df9599 (Rollback)
//	── statefulset-completes: obliged from here, never met at +1m55s
//	  StatefulSet default/web: 3 replica(s), 2 ready, 2 available; 2 at current revision web-6d45df9599, 2 at update revision web-6d45df9599
//
// A drain that never finishes: a Deployment of 6 on 3 nodes under a budget of
// maxUnavailable 0, any node drained. Fixed by maxUnavailable 1.
//
//	  VIOLATED  drain-completes  left alone, the world settles 12m0s later where it does not hold, for ever: node node-0 is still being drained
//	+1m10s    user             update         Node node-0 (drain)
//	          user             evict          Pod default/web-6cf4b6d9bb-2bbbb (Drain): refused: … NoDisruptionsAllowed The disruption budget web needs 6 healthy pods and has 6 currently": too many requests
//	+1m15s    user             evict          Pod default/web-6cf4b6d9bb-2bbbb (Drain): refused: … (and 203 more time(s) until +18m10s)
//
// A Job's replacement beside its terminating pod: a Job of parallelism 2
// whose pod may be evicted, under the default podReplacementPolicy
// (TerminatingOrFailed without a podFailurePolicy). Fixed by
// podReplacementPolicy Failed.
//
//	  VIOLATED  job-exclusive    Job default/batch (podReplacementPolicy TerminatingOrFailed) runs 2 active pods beside 1 terminating, more than parallelism 2
//	+1m10s    user             evict          Pod default/batch-jbbbb (evict)
//	+1m20s    job              create         Pod default/batch-nbbbb (TooFewActive)
//	          kubelet/node-0   update status  Pod default/batch-nbbbb [Running] (Started)
//	── job-exclusive: violated at +1m20s
//
// A DaemonSet update with maxUnavailable 1 and one NotReady node: the stopped
// node's old pod, deleted for the update, stays Terminating (its kubelet is
// gone) and spends the whole budget; no Ready node is updated. Fixed by
// maxUnavailable 2.
//
//	  VIOLATED  daemonset-completes  left alone, the world settles 40s later where it does not hold, for ever: DaemonSet default/agent: Ready node node-1 runs pod agent-rbbbb of an old revision
//	+1m10s    user             stopNode       Node node-0
//	+1m15s    user             update         DaemonSet default/agent (image)
//	          daemonset        delete         Pod default/agent-pbbbb (UpdateOldPod)
//	+1m55s    node-lifecycle   patch          Node node-0 (TaintNode)
//	  DaemonSet default/agent: 3 node(s) should run a pod, 3 do, 0 updated, 3 ready, 3 available
//
// Counterexamples replay. Each is a path of events at instants: --save DIR
// writes it as a scenario (the input's objects and the counterexample's
// events) that "kubesem simulate cluster --scenario DIR/<property>.yaml
// --until …" replays step for step (a test checks the replayed state is the
// counterexample's, fingerprint for fingerprint); --svg FILE draws the first
// counterexample's pods over time; -o json prints the report. --vectors DIR
// writes the decisions along each counterexample (every Step that wrote or
// failed, every eviction) as conformance vectors, DIR/<package>/
// check-<property>.json, each input what the world's Step read; their wants
// are left {}: kubesem does not state its own expectations, and each
// vector's source names the test of conformance/upstream that fills the
// want from v1.36.3 (testdata/<package>/check-*.json are the known cases'
// vectors, filled so).
//
// How it explores. A transition is a tick (the world runs its due instants,
// each: the scenario's events, then rounds of environment and every
// controller's sync in its fixed order, until something happens) or an event
// of the alphabet, at the world's next due instant, before what is due then;
// events happen only after something happened (or in a settled world), so
// only their order among the world's happenings is explored, and the world's
// timers (ready delays, grace periods, requeues, heartbeats) place them in
// time. Time is read exactly where rules read it. States are hashed on a
// canonical form: generated names and UIDs renamed by content, nodes renamed
// by content (symmetry reduction: of two states that differ by the names of
// interchangeable pods and nodes, one is explored; --no-symmetry: not),
// instants relative to now (exact back to a cap, the longest duration a rule
// reads plus a minute, default 11m; older ones keep their order), the
// world's memory (requeues, backoffs, node health, kubelet timers) included;
// a world with a CronJob keeps absolute time. The world first runs, with no
// event, until it settles (--from-start: not); a world that never does (a
// CronJob) is explored from its start. Not explored: the order of
// controllers within an instant (the world's fixed order, a controller
// manager with a perfectly fresh cache).
//
// Shards. --shard i/n splits a search into n independent parts (i empty:
// $JOB_COMPLETION_INDEX): the states up to the first level with 16×n new
// states are explored by every part, then each part takes those whose hash
// is i mod n, and all that follows them. -o json reports merge with
// "kubesem check merge FILE..."; deploy/check/indexed-job.yaml runs the
// parts as an Indexed Job whose $JOB_COMPLETION_INDEX picks the part
// (--shard /4; a Dockerfile beside it builds the image). On a small search
// the parts do more work in total than one search (the rolling-update goal:
// about 8,000 states in four parts against 4,800 in one). Its scale (states
// per second, memory per state) is in scripts/bench-notes.md.
//
// Memory. Unless GOGC is set, the search runs with the garbage collector's
// target at 400% (GOGC=400): the heap may grow to five times what is live
// instead of twice, for about a third less CPU time. Set GOGC (e.g. 100) to
// trade the time back for memory.
//
// Exit codes: 0 every property held within the bound, 1 a property was
// violated, 2 bad usage or input.
//
// flags:
//
//	-depth value
//	  	the most transitions on a path (default: the check section's, else 60)
//	-drains value
//	  	the most node drains on a path (default: the check section's, else 0)
//	-evictions value
//	  	the most evictions on a path (default: the check section's, else 0)
//	-from-start
//	  	explore from the scenario's start, not from where it settles
//	-horizon duration
//	  	events happen within this long of the first state (default: the check section's, else 30m)
//	-list
//	  	list the builtin properties and exit
//	-max-bytes int
//	  	the largest scenario read, in bytes (default 2147483648)
//	-max-states value
//	  	the most states explored (default 2,000,000)
//	-no-symmetry
//	  	turn symmetry reduction off (nodes that differ only by name are distinct states)
//	-node-outages value
//	  	the most node outages on a path (default: the check section's, else 1)
//	-o string
//	  	output format: text or json (json reports merge with kubesem check merge) (default "text")
//	-orders value
//	  	the most changes of the controllers' sync order on a path: each moves one controller with objects to the front of every round, as kube-controller-manager's concurrent controllers may run (default: the check section's, else 0: the world's fixed order)
//	-pod-failures value
//	  	the most pod failures on a path (default: the check section's, else 1)
//	-property value
//	  	a property to check: a builtin's name or an expression (repeatable; default: the check section's, else every builtin that applies)
//	-save DIR
//	  	write each counterexample as a scenario in DIR (<property>.yaml), which simulate cluster replays
//	-scenario string
//	  	the scenario file, JSON or YAML ("-": stdin)
//	-shard i/n
//	  	explore part i of n (i/n; i empty: $JOB_COMPLETION_INDEX)
//	-svg FILE
//	  	draw the first counterexample's pods over time as an SVG chart in FILE
//	-vectors DIR
//	  	write the decisions along each counterexample as conformance vectors in DIR (<package>/check-<property>.json; wants left {} for conformance/upstream to fill from v1.36.3)
//	-window duration
//	  	liveness: the world must settle good within this long (default: the check section's, else 45m)
//
// # kubesem check merge
//
// usage: kubesem check merge [flags]
//
// Merges the -o json reports of kubesem check --shard i/n (FILE...): states add up, a property holds when it held in every part, its counterexample is the shortest.
//
// flags:
//
//	-o string
//	  	output format: text or json (default "text")
//
// # kubectl kubesem
//
// usage: kubectl kubesem <command> [arguments]
//
// What the Kubernetes v1.36.3 workload controllers do next in your cluster,
// read-only (kubesem sends list and watch requests only, never a write).
//
// commands:
//
//	explain [TYPE/NAME ...] [flags]  what each controller does next, and why (kubesem explain --live)
//	shadow [flags]                   watch the cluster and report every controller write kubesem did not predict
//	decide, conformance, serve, decisions, simulate …  as kubesem's (kubectl kubesem help-all)
//
// cluster flags (explain, shadow): --kubeconfig, --context, -n/--namespace, -A/--all-namespaces
// Each command takes -h for its manual and flags ("kubectl kubesem help <command>" is the same).
//
// Install: kubectl runs kubectl-kubesem from $PATH ("go install
// github.com/kubesem/kubesem/cmd/kubesem/...@latest" installs kubesem and
// kubectl-kubesem); a copy of or link to kubesem named kubectl-kubesem is the
// same plugin.
package main
