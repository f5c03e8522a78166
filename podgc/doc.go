// Package podgc states what the pod garbage collector of
// kube-controller-manager decides on one pass: which pods it force-deletes,
// and which it first marks Failed (with a DisruptionTarget condition for
// orphans).
//
// Reference semantics: Kubernetes v1.36.3, pkg/controller/podgc
// (gc_controller.go). A pass runs every 20 s and does, in this order:
//
//  1. terminated pods (phase neither Pending, Running nor Unknown — so an
//     empty phase counts) beyond the threshold (12500), evicted first, then
//     oldest, then by name ([Terminated]);
//  2. terminating pods on nodes that are not Ready and carry the
//     node.kubernetes.io/out-of-service taint ([OutOfService]);
//  3. orphans: pods bound to a node that no longer exists, once the node has
//     been missing for the 40 s quarantine and a GET confirms it is gone
//     ([Step] with the quarantine [Memory]);
//  4. terminating pods never scheduled to a node.
//
// Every deleted pod not already Succeeded or Failed is first patched to
// Failed; orphans also get DisruptionTarget=True, reason DeletionByPodGC,
// message "PodGC: node no longer exists". Deletion is with grace 0.
//
// # Rules
//
// One file per step of the pass, a test file beside each:
//
//   - Terminated pods (terminated.go): [IsTerminated], [IsEvicted],
//     [EvictedFirst], [Terminated]
//   - Terminating pods of out-of-service nodes (outofservice.go):
//     [OutOfService]
//   - Orphans (orphans.go): the node quarantine and the DisruptionTarget
//     condition, both unexported, run by [Step] with its [Memory]
//   - Terminating unscheduled pods (unscheduled.go), unexported, run by
//     [Step]
//   - The pass (step.go): [Step], returning a [Plan] (plan.go: Outcome
//     GarbageCollected, Patch, Delete as plan.Deletion with the pod's
//     namespace, Events, Requeue, Memory — the house vocabulary); Events
//     is always empty, as v1.36.3's collector has no event recorder. What
//     Step rejects: validate.go. Defaults: [Options] (options.go).
//   - Requests (writes.go): [Plan.Writes], the API requests of the pass —
//     per deleted pod, the status patch (pods/status, uid precondition)
//     when it is not terminal, then the delete with grace period 0
//
// # Divergences
//
// Upstream lists pods from its cache and walks them in arbitrary order; a
// pod that several steps select is deleted once by the first and the later
// steps' attempts fail. [Step] deletes each pod once, under the first
// step's reason, and orders orphans and unscheduled pods by namespace, then
// name. Ties in the terminated order (same creation time and name in two
// namespaces) are broken by namespace, then UID; upstream's sort.Sort leaves
// them unspecified.
//
// The GET that confirms a node is gone is [Step]'s unlisted argument: a
// node the cache lists is checked no further; a node missing from the
// cache is gone unless it is unlisted (the API still has it).
//
// The status patch of [Plan.Writes] also sets status.observedGeneration to
// the pod's generation, as upstream's does (CalculatePodStatusObservedGeneration,
// gate PodObservedGenerationTracking locked on).
//
// The quarantine is explicit [Memory]: a node first seen missing at t is
// checked again at t+40 s, inclusive (upstream's delaying queue on its
// clock; conformance/upstream TestPodGCQuarantineDifferential drives three
// passes of the real collector on a fake clock against three Steps).
//
// # Errors
//
// [Step] rejects what the caches and the API server cannot hold, as a
// *field.Error at the input's path: a nil pod or node (pods[i], nodes[i]),
// an empty name (pods[i].metadata.name, nodes[i].metadata.name,
// unlisted[i]), two pods with one namespace and name, a node both listed
// and unlisted or twice, a quarantine entry without a node
// (memory.quarantine[i].node). [Plan.Writes] rejects a Plan entry naming
// no given pod (delete[i].name, patch[i].name).
//
// # Inputs
//
// Pods are podstatus.Pod and nodes node.Node, the one model of each; the
// names of nodes the API has but the cache does not list are a separate
// input. Time is the now argument; the quarantine queue is explicit
// [Memory]. No I/O, no globals; inputs are never modified.
//
// Vectors: testdata/podgc.
package podgc
