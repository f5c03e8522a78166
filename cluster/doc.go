// Package cluster is the world: every modelled kind of object in one
// State, the API server that applies any write, the controllers of
// kube-controller-manager composed over it, an explicit environment
// (scheduler, kubelets, node heartbeats, garbage collector, users), and
// time that jumps from one due instant to the next, recording every write
// in a trace. Like the rest of kubesem it is pure: no clock, randomness,
// I/O or globals; the same scenario always gives the same trace, whatever
// the order of its objects.
//
// Reference semantics: Kubernetes v1.36.3 with default feature gates, as
// decided by the workload packages (rollout, replicaset, statefulset,
// daemonset, job, cronjob, pdb, podgc, node, podstatus); this package adds
// only the glue and the environment, each documented below as a model.
//
// # Index
//
//   - State (state.go): NewState, State.Clone, Get, ByUID, Keys, Objects,
//     Dependents, PodsOnNode, and per kind Pods, Nodes, Leases, Deployments,
//     ReplicaSets, ReplicationControllers, StatefulSets, DaemonSets, Jobs,
//     CronJobs, PDBs, ControllerRevisions, Claims; Key, Kind, KindOf,
//     KindOfResource, Kind.Resource; State.Put loads a dump as it is.
//   - The API server (apply.go): State.Apply of any plan.Write — create
//     (generateName, uid, creationTimestamp, generation, status reset,
//     defaults), update and patch (generation on spec change, the status
//     subresource), pods/binding, pods/eviction (pdb.Evict), delete
//     (podstatus.GracefulDelete for pods, finalizers); Result;
//     ErrNotFound, ErrAlreadyExists, ErrConflict, ErrTooManyRequests,
//     ErrForbidden; DefaultTerminationGracePeriodSeconds.
//   - Names and hashes (namer.go): Namer, DefaultNamer, Alphabet.
//   - The world (world.go): World, New, Options, World.Step, Run,
//     RunUntilSettled, Clone; Entry (the trace), Decision.
//   - One sync of the control plane (sync.go): World.Sync, ForceSync,
//     ControllerNames and the Ctl… names; one adapter per controller in
//     ctl_<kind>.go.
//   - The environment (env.go): Scheduler, FewestPods, Fits, HasRoom,
//     KubeletOptions, the Reason… constants of environment writes.
//   - For a model checker (explore.go, package check): World.NextDue,
//     NextBusy, Inject (an event that replays as a scenario's), Memory
//     (what a world keeps besides its State); Options.Rewrite, a mutation
//     hook for tests.
//   - Decisions as vectors (stepcall.go): Options.OnStep receives each
//     StepCall, a Step (or eviction) the world makes, as a conformance
//     vector's decision, input and options (kubesem check --vectors).
//   - Scenarios (scenario.go): Scenario, PodBehavior, Event, EventKind and
//     the Event… kinds, Scenario.Validate.
//
// # State
//
// A State holds each object once, as a pointer to its kind's one model
// (*podstatus.Pod, *node.Node, *node.Lease, *rollout.Deployment,
// *replicaset.ReplicaSet for ReplicaSets and ReplicationControllers,
// *statefulset.StatefulSet, *daemonset.DaemonSet, *job.Job,
// *cronjob.CronJob, *pdb.PodDisruptionBudget,
// *history.ControllerRevision, *statefulset.Claim). Stored objects are
// never modified: a write stores a new object (copy-on-write), so Clone
// copies only maps and pointers read from a State stay valid. Indexes: by
// namespace and name, by UID, by owner UID (every owner reference), by
// controller UID and kind (a sorted list, replaced on change and shared by
// clones, so a controller's dependents are a lookup), pods by
// spec.nodeName, and the pods, ReplicaSets and ControllerRevisions without
// a controller per namespace. Lists
// are always in (namespace, name) order.
//
// # One sync
//
// World.Sync runs, in this order, the controllers deployment, replicaset,
// replicationcontroller, statefulset, daemonset, job, cronjob,
// ttlafterfinished, disruption, podgc, node-lifecycle and taint-eviction,
// each on its objects by namespace and name,
// each Step seeing the State the writes before it left (a controller
// manager with a perfectly fresh cache). A controller syncs at an instant
// when a kind it watches changed since its last pass or one of its
// requeues is due, as its informers and work queue would wake it; a Plan's
// writes are applied at once, in order; the first refused write ends the
// Plan's writes and requeues the object with client-go's default rate
// limiter (5 ms doubling to 1000 s), unless the controller drops that
// error (plan.Write.IgnoreRefusal: the Deployment controller's scale-down
// of an old ReplicaSet in a rolling update). Controller memory (job backoff,
// daemonset backoff, node lifecycle memory, pod GC quarantine, scheduled
// taint evictions) is kept in the World, per controller and object.
//
// Where an informer handler filters what wakes a controller and the
// difference shows, the world filters the same way: the taint-eviction
// controller passes node.EvictionStep every pod of a node only when the
// node's NoExecute taints changed, else only new pods, pods whose
// tolerations changed and pods whose eviction is due (so an eviction that
// fired is not repeated; checked against the real controller by
// conformance/upstream TestClusterDiffTaintEvictionTriggers); a DaemonSet
// with minReadySeconds is woken minReadySeconds + 1 s after a pod turns
// ready (upstream updatePod); the Job controller also syncs orphan pods
// that keep its tracking finalizer (its orphan queue).
//
// # Environment
//
// Each environment action is a plan.Write applied by the same Apply and
// traced, under the controller names "scheduler", "kubelet/<node>",
// "garbage-collector" and "user":
//
//   - Garbage collector: when an object is removed, its dependents whose
//     every owner is gone are deleted (background propagation), at once,
//     in the same instant. A delete with propagationPolicy Orphan (an
//     Event's PropagationPolicy, `kubectl delete --cascade=orphan`) leaves
//     the object with FinalizerOrphan; the garbage collector then patches
//     each dependent to remove its references to the object, and the
//     object to remove the finalizer, which removes it, as upstream's
//     orphanDependents and removeFinalizer do: the dependents become
//     orphans a controller whose selector selects them adopts (the
//     Deployment, ReplicaSet, StatefulSet and DaemonSet controllers claim
//     as upstream's do).
//     Foreground is taken as Background.
//   - Scheduler (Options.Scheduler, default FewestPods): each unscheduled
//     pod not being deleted, in (namespace, name) order, is bound
//     (pods/binding) to the eligible node with the fewest non-terminal
//     pods, ties by name: Ready, schedulable (or, cordoned, the pod
//     tolerates node.kubernetes.io/unschedulable:NoSchedule, as a
//     DaemonSet's do), tolerated NoSchedule and NoExecute taints,
//     nodeSelector and required node affinity, room for one more pod
//     under status.allocatable.pods (HasRoom).
//   - Kubelet (per node whose heartbeats run): a bound pod's containers
//     start after StartDelay (init containers complete at once, sidecars
//     run), become ready after ReadyDelay (never with NeverReady), exit after
//     RunFor with ExitCode or at a failPod event, and restart as
//     podstatus.ShouldRestart and podstatus.RestartBackoff decide; the phase
//     and conditions are podstatus.Generate's. A deleting pod's containers
//     are killed at its deletionTimestamp (exit 137, phase from podstatus)
//     and the pod is deleted with grace 0. A stopped node's kubelet does
//     nothing.
//   - Heartbeats: each running node renews its Lease in kube-node-lease
//     every node.LeaseRenewInterval (10 s) and posts Ready=True when its
//     Ready condition is not True or node.StatusUpdate says the periodic
//     report is due. stopNode and startNode events stop and restart them.
//     A node whose Ready condition is not True in the scenario's objects
//     starts stopped (a dump of a cluster with a dead node).
//   - Users: the scenario's events (scale, image, template, pause, resume,
//     create, update, delete, cordon, uncordon, drain, evict, stopNode,
//     startNode, failPod). A drain cordons the node and evicts its pods
//     (not the DaemonSet's) through pods/eviction, retrying refused ones
//     every 5 s.
//
// # Time and the trace
//
// World.Step jumps to the next due instant: the earliest scenario event,
// requeue, kubelet timer, heartbeat, drain retry or pending garbage
// collection; there are no fixed ticks. At an instant the scenario events
// due run first, then rounds of environment and Sync until a round writes
// nothing (at most Options.MaxRounds). Every write, refused or not, and
// every event a Plan records is an Entry of World.Trace. RunUntilSettled
// stops once no write but heartbeats happened for Options.SettleQuiet
// (default 1 minute, longer than the node monitor grace period) and nothing
// but periodic work (heartbeats, node monitor and pod GC passes) is due.
//
// The world never hangs: Step runs one instant at most Options.MaxSteps
// times in a row (default 8, each at most MaxRounds rounds). A world that
// would run it once more — something stays due in the past, a modelling
// error — stops: its trace ends with an Entry of Controller "world"
// (CtlWorld) and Reason "Stuck" (ReasonStuck) whose Err lists what was
// still due, World.Err wraps ErrStuck, Step returns false and
// RunUntilSettled reports not settled.
//
// # Divergences
//
//   - Every controller's writes are its package's Plan.Writes; only the
//     TTL-after-finished controller (a job.TimeLeft decision, no Plan)
//     writes its delete here.
//   - The Job controller's orphan queue: after the Jobs, it looks at every
//     pod with the tracking finalizer each time pods or Jobs change and
//     removes the finalizer from those no running Job controls, where
//     upstream looks at the pods its informer events name (the outcome is
//     the same once events are delivered).
//   - The garbage collector reacts to removals and Orphan deletes made
//     during a run: a dependent whose every owner is already absent when
//     the State is built (a dump's dangling owner references) is left,
//     where upstream's collector deletes it once it finds the owners
//     missing: a State cannot tell an owner gone from the cluster from one
//     left out of a partial dump, and deleting on a guess would be a
//     confident wrong answer.
//   - The TTL-after-finished controller deletes with background
//     propagation, not foreground. The StatefulSet and DaemonSet
//     controllers are given the pods and revisions they control and the
//     namespace's orphans they would adopt (not every pod and revision of
//     the namespace: only those can be claimed; the Plan is the same).
//     spec.templateRevision and the DaemonSet's
//     hash are those of the newest revision holding the template (compared
//     by its JSON encoding, where upstream compares the stored bytes), else
//     Namer.RevisionHash (a StatefulSet's) and Namer.PodTemplateHash (a
//     DaemonSet's, as upstream names them by the pod-template-hash).
//   - The ReplicaSet controller is given the pods it controls (of which
//     replicaset.Step keeps those upstream's pod index lists: a controller
//     reference naming its namespace, kind, name and UID, as
//     statefulset.ClaimPod and daemonset.ClaimPod do; the world lists the
//     Job's and, per ReplicaSet, the Deployment's so) and the namespace's
//     orphans,
//     not every pod of the namespace (only those can
//     be claimed; the Plan is the same); the ranks of a scale-down count
//     every pod of the namespace a sibling's selector selects, as
//     upstream's. Likewise the Deployment controller is given the
//     ReplicaSets it controls and the namespace's orphans it would adopt
//     (rollout.ClaimReplicaSet), and adopts and releases them as
//     upstream's claim does (rollout.Plan.Adopt, Release).
//   - The API server: no resourceVersion (a write marked
//     plan.Write.FromCache is refused with Conflict when an earlier write
//     of the same sync changed its object, which is when upstream's
//     resourceVersion check refuses it), no validation of objects beyond
//     what Apply names, no admission but DefaultTolerationSeconds, API
//     defaulting of Jobs and of a pod's terminationGracePeriodSeconds
//     only. A user's update (scenario events, the model checker's) is
//     validated as the API server validates an update of its kind: a
//     changed immutable field (a Deployment's, ReplicaSet's, DaemonSet's
//     or Job's selector, a Job's template outside the suspended-Job
//     exceptions, its completions, completion mode and policies, a
//     StatefulSet's fields other than replicas, ordinals, template,
//     update strategy, history limit, retention policy and
//     minReadySeconds, a pod's spec) or an invalid result (a template the
//     selector does not select …) is refused with the field's error
//     (rollout, replicaset, daemonset, statefulset and job ValidateUpdate,
//     cronjob.Validate, podstatus.ValidateUpdate, pdb.Validate), over
//     the fields kubesem models. A user's create of a workload or budget
//     is validated likewise (each kind's Validate; a StatefulSet's
//     statefulset.ValidateCreate); pods and nodes are not. Controllers'
//     writes are not validated (upstream's write only valid objects and
//     change no immutable field).
//   - DefaultNamer's names, UIDs and hashes are kubesem's own (see
//     DefaultNamer); the k8s adapter supplies v1.36.3's hashes. The CLI's
//     namer takes its template hashes from the adapter (k8s.TemplateHash
//     for ReplicaSets and DaemonSet revisions, k8s.StatefulSetRevisionName's
//     hash for StatefulSet revisions), so a template written as the API
//     server stores it (defaults included, as kubectl get -o yaml prints
//     it) gets the name Kubernetes gives it; a hand-written template without
//     the API defaults hashes differently, as it would before the API server
//     defaults it. Generated suffixes and UIDs are deterministic stand-ins
//     for the API server's random ones.
//
// The world is checked against the real controllers as a whole:
// conformance/upstream TestWholeClusterDifferential runs random scenarios
// (1–4 nodes; Deployments, ReplicaSets, StatefulSets, DaemonSets, Jobs and
// CronJobs, scaled and updated, deleted, Deployments, ReplicaSets,
// StatefulSets and DaemonSets also deleted with propagationPolicy Orphan
// and created again, as they were or relabelled, Deployments and
// ReplicaSets relabelled in place; nodes that stop and restart
// heartbeating; pods that fail or never become ready) on the world and on v1.36.3's
// controllers together on one fake clientset, with the world's environment
// sent to both, and compares every controller write of every instant and
// the final state, and runs each user update through v1.36.3's registry
// (PrepareForUpdate, ValidateUpdate), which must refuse exactly the ones
// the world refuses. It fails on any difference (KUBESEM_WHOLE_SCENARIOS=N
// for more than the default 1,000; KUBESEM_WHOLE_FAIL=1 shrinks the first
// difference to a minimal scenario). Where upstream's answer is any of a
// set, the comparison says so by name: the Job's uncounted uids and the
// node monitor's per-node writes (Go map order, parallel workers) are put in
// one order on both sides; a DaemonSet rolling update's or a Job's choice
// among equally ranked pods stops that scenario there (counted). Two
// harness limitations stop scenarios too: upstream's ReplicaSet controller
// ranks pods for scale-down at the wall clock, not the scenario's; and the
// harness, which syncs every object every round without rate limiting,
// cannot end an instant at which a sync fails at every round (a
// StatefulSet creating a pod whose name an orphan it cannot adopt holds).
//
// # Errors
//
// Apply, New and Scenario.Validate return *field.Error values naming the
// field (metadata.name, events[2].target.kind, objects[0].metadata.uid …)
// and wrapping a field sentinel or one of this package's Err… sentinels.
// Step errors and refused writes are recorded in Decision.Err and
// Decision.Refused and in the
// trace, never returned from Run.
//
// Vectors: none yet — this package registers no conformance decision.
package cluster
