// Package daemonset states what the Kubernetes v1.36.3 DaemonSet
// controller decides: which nodes run a daemon pod, what one sync creates
// and deletes on each node, how a rolling update spends its budget, and the
// status it writes.
//
// # Rules
//
//   - [NodeShouldRunDaemonPod] (eligibility.go): eligibility (template
//     nodeName, nodeSelector and required node affinity, taints against the
//     template's and the controller's [DefaultTolerations]; spec.unschedulable
//     is not read); [PodTolerations].
//   - [NewPod], [PinToNode] (pods.go): the pod a sync creates;
//     [TargetNodeName], [IsPodUpdated], [TemplateGeneration]: which node a
//     pod is for and whether it is of the current template.
//   - [UnavailableCount], [SurgeCount], [AllowsSurge], [UnavailableNumbers]
//     (numbers.go): the rolling-update budget (percentages round up; 0 and
//     0 → 1); the rolling update itself is rolling.go.
//   - [RevisionHash] (revision.go): the hash a ControllerRevision
//     (history.ControllerRevision) stands for; the revision bookkeeping and
//     history cleanup of a sync, Plan.Revisions (history.Write, like the
//     StatefulSet's).
//   - [ClaimPod], [ClaimRevision] (claim.go): which listed pods and
//     ControllerRevisions the DaemonSet owns, adopts (an orphan its
//     selector selects), releases (one it controls and no longer selects)
//     or ignores, as v1.36.3's ClaimPods and ClaimControllerRevisions
//     decide (Plan.Adopt, Release, AdoptRevisions, ReleaseRevisions).
//   - [Backoff], [BackoffKey] (backoff.go): the failed-pod backoff, the
//     sync's explicit memory (Plan.Memory).
//   - [Validate], [ValidateUpdateStrategy], [ValidateTemplate]
//     (validate.go, with the label and node selector checks in
//     validate_selectors.go): what API validation rejects among the fields
//     read.
//   - [Step] (step.go): one sync: manage (manage.go: what each node gets
//     created and deleted), rolling update (rolling.go), history
//     (revision.go), status (status.go), requeue.
//   - [Plan.Writes] (writes.go): the API requests of the sync, in
//     v1.36.3's order, with the objects as they leave the controller
//     (revisions, pods from podstatus.FromTemplate, the status).
//
// # Order
//
// Upstream walks its node lister and a Go map (nodeToDaemonPods) in
// arbitrary order, so which old pods a rolling update picks, and which
// creations and deletions a burst cap keeps, vary between runs. Step walks
// nodes by name and pods by name then UID; vectors where upstream may pick
// differently state the tie set (wantOneOf).
//
// # Divergences
//
//   - The template hash (controller.ComputeHash) is an input
//     ([History].Hash; k8s.ControllerRevisionHash and k8s.DaemonSetHistory
//     compute it from a real object): an empty hash is a field.ErrRequired
//     error on history.hash, never a guess.
//   - Claims: the adoption's recheck of the live DaemonSet reads it as
//     given (the input is taken as fresh). Upstream's informer does not
//     see its own claim patches within a sync, so each of its listings of
//     the pods (manage, rolling update, history cleanup, status) patches
//     the same pods again: [Plan.Writes] repeats them; a renumbering of a
//     revision the same sync adopted is sent from the stale copy and
//     refused (FromCache), which ends upstream's sync, while the Plan goes
//     on as if it had not been refused. An orphan the sync adopts and
//     deletes, and the API server removes at once (unscheduled or
//     terminal, no finalizer), is not found by the later listings (their
//     adoption gets NotFound): the history cleanup and the status leave it
//     out. (A real informer that delivers the adoption, and not yet the
//     deletion, during the sync makes the status count it: kubesem reads
//     the cache as of the sync's start.) Inputs state their controller
//     references: a pod or revision without one is an orphan; a node's
//     pods are walked controlled ones first, then the orphans, as
//     upstream's pod index lists them.
//   - A claimed revision without labels is an error (ErrUpstreamCrashes):
//     upstream's controller crashes adding the controller-revision-hash
//     label to it. One with labels but not that one is labelled with its
//     name first, as upstream does ([LabelRevisions]).
//   - Expectations are taken as satisfied at the start of the sync; a Step
//     whose manage phase writes anything leaves the rolling update for the
//     next sync, as upstream does once its expectations are pending.
//   - A revision holds the current template when its hash is the current
//     one ([RevisionHash]) or History.Same names it (upstream compares the
//     stored template bytes with the DaemonSet's; k8s.DaemonSetHistory
//     fills Same so). Of several such revisions the newest is kept (of one
//     number, the last given; upstream's lister order is arbitrary), the
//     sync goes on with its hash, every claimed pod of another hash is
//     relabelled with it ([Plan.Relabel]) and the others are deleted, as
//     upstream's dedupCurHistories does.
//   - Node affinity's preferred terms and pod (anti-)affinity are not
//     modelled; [NewPod] carries them, with every other template field the
//     DaemonSet was decoded with, as podstatus.Template does.
//   - Order (see above): nodes by name, then pods' target nodes missing
//     from the node list, pods by name then UID.
//   - The seed's toleration table lists five keys; v1.36.3 also adds
//     node.kubernetes.io/pid-pressure:NoSchedule (a vector in
//     testdata/daemonset says so).
//   - Options, each zero by default, which is v1.36.3:
//     Options.TaintTolerationComparisonOperators (alpha gate, off) adds the
//     Lt and Gt toleration operators, as node.Options does (vectors with
//     "taintTolerationComparisonOperators" in
//     testdata/daemonset/eligibility.json and validate.json);
//     Options.BurstReplicas (zero: 250 creations and deletions per sync;
//     vectors with "burstReplicas" in testdata/daemonset/step.json);
//     Options.BackoffBase and BackoffCap (zero: 1 s and 15 m, the failed-pod
//     backoff; TestStepFailedPodBackoff).
//
// Upstream behaviour worth knowing, which kubesem follows:
//
//   - Eligibility ([NodeShouldRunDaemonPod]): a template nodeName naming
//     another node, a missing or different nodeSelector label, or a required
//     node affinity that does not match → neither run nor keep running.
//     NoSchedule and NoExecute taints are checked against the template's
//     tolerations plus the controller's defaults (not-ready and unreachable
//     NoExecute; disk-, memory-, pid-pressure and unschedulable NoSchedule;
//     network-unavailable NoSchedule for host-network pods only). An
//     untolerated NoSchedule taint → (false, true); an untolerated NoExecute
//     taint → (false, false). spec.unschedulable is never read: a cordoned
//     node runs daemon pods (kubernetes/kubernetes#60163, PR #61161). The
//     affinity is node.MatchesNodeSelector (upstream's
//     GetRequiredNodeAffinity(pod).Match), whose error the controller
//     ignores, using its bool only.
//   - A NotReady node carries node.kubernetes.io/not-ready:NoSchedule,
//     which the default daemon tolerations do not cover (they cover
//     not-ready and unreachable only with effect NoExecute): a DaemonSet
//     without a blanket toleration "should not run" there, its existing pod
//     keeps running (NoExecute tolerated) and counts as misscheduled, and
//     the node drops out of desiredNumberScheduled (kubesem explain's dump
//     daemons.json: node-exporter, 3 desired and 2 misscheduled of 5 nodes).
//   - Budget: maxUnavailable and maxSurge percentages both round up (a
//     Deployment's maxUnavailable rounds down); with desired > 0 and both 0,
//     maxUnavailable is 1 (reachable for OnDelete sets: the API rejects both
//     0 for RollingUpdate, and kubesem decide answers that error).
//   - [Step]: manage runs per node; if it wrote anything, the rolling update
//     waits for the next sync. Creations and deletions are each capped at
//     250. Failed pods are deleted under a per-node backoff (1 s doubling to
//     15 m) kept in the returned memory. The status is written when a count
//     changed or observedGeneration < generation; the requeue comes after
//     minReadySeconds while ready ≠ available.
//   - With maxSurge, when a node holds an old and an available new pod, the
//     old pod is deleted by manage, not by the rolling update; that sync
//     then skips the rolling update (log-agent in explain's daemons.json).
//   - Where upstream knowingly exceeds maxUnavailable: old pods that are
//     already unavailable are replaced regardless of the budget (no-surge
//     path), and with surge a new pod is created beside every unavailable
//     old pod regardless of maxSurge (PR #96441). A NotReady node holding an
//     old pod stalls the rollout (PR #117658).
//   - Found by the differential tests: a no-surge rolling update deletes an
//     old pod on a node that should not run a new one but may keep its pod
//     (an untolerated NoSchedule taint added after the pod started), and the
//     pod is never recreated there; unavailable pods on such nodes count
//     against maxUnavailable and can stall a rollout;
//     AddOrUpdateTolerationInPodSpec replaces every toleration equal in key,
//     operator, value and effect (dropping its tolerationSeconds) because
//     its "already present" check compares a pointer with a value; status
//     counts a node's oldest pod even when it is failed or being deleted.
//
// Differential tests against v1.36.3: conformance/upstream TestDaemonSet…,
// listed in that package's documentation.
//
// # Inputs
//
// The DaemonSet, nodes and pods are API JSON trimmed to the modelled
// fields: node.Node, and podstatus.Pod, the one pod model of every package
// (its spec.affinity names an unscheduled daemon pod's node); times are
// RFC 3339 and durations Go strings.
//
// # Inputs the API server rejects
//
// [Step] validates its DaemonSet first ([Validate]: what v1.36.3's
// ValidateDaemonSet rejects among the fields kubesem reads) and returns
// the *field.Error at upstream's path; the rules it is built from compute
// what upstream computes even on such input. Absent fields read as apps/v1
// defaulting fills them: an empty update strategy is RollingUpdate, a
// missing rollingUpdate, maxUnavailable or maxSurge is maxUnavailable 1,
// maxSurge 0, a missing revisionHistoryLimit 10. Malformed
// maxUnavailable or maxSurge values (not an integer or "N%") are
// *field.Error with the API path; nothing panics.
//
// Vectors: testdata/daemonset. TestDaemonSetVectorsUpstream replays the
// Step vectors through v1.36.3 and TestDaemonSetWritesUpstream compares
// [Plan.Writes] with the actions v1.36.3 sends to a fake clientset
// (conformance/upstream).
package daemonset
