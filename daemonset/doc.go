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
//     ([History].Hash), as is the claimed pod list (adoption and release
//     are not modelled).
//   - Expectations are taken as satisfied at the start of the sync; a Step
//     whose manage phase writes anything leaves the rolling update for the
//     next sync, as upstream does once its expectations are pending.
//   - Duplicate current ControllerRevisions are not deduplicated (the
//     newest is kept as current, the others are ignored).
//   - Node affinity's preferred terms and pod (anti-)affinity are not
//     modelled; [NewPod] carries them, with every other template field the
//     DaemonSet was decoded with, as podstatus.Template does.
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
