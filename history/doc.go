// Package history models the apps/v1 ControllerRevision, the object in
// which the StatefulSet and DaemonSet controllers keep the history of their
// pod templates. It is the one revision model: package statefulset and
// package daemonset both read it, and both write it the same way.
//
//   - [ControllerRevision]: the metadata (name, labels, owner references,
//     creation time), the revision number and the data ([Data]: the pod
//     template under spec.template, as the controllers store it).
//   - [HashLabel] (controller-revision-hash, on pods and a DaemonSet's
//     revisions) and [RevisionHashLabel] (controller.kubernetes.io/hash,
//     on a StatefulSet's revisions): the labels, declared once.
//   - [Sort], [Compare]: revisions oldest first (SortControllerRevisions).
//   - [Write]: one revision write of a sync (create, update to renumber,
//     delete), with [ReasonNewRevision], [ReasonRollback] and
//     [ReasonHistoryLimit]; the StatefulSet and DaemonSet Plans list theirs
//     as Revisions (JSON "revisions").
//   - [New]: the revision a controller creates (snapshot, newRevision).
//
// Which revision the current template matches is an input of each kind
// (statefulset's Spec.TemplateRevision, daemonset's History.Hash),
// computed exactly by the k8s adapter module; the data is read only to
// build the objects a Plan's Writes sends.
//
// # Divergences
//
// Revisions are identified by name: two revisions are equal when their
// names are, so ControllerRevision name collisions (collisionCount) are not
// expressible (see package statefulset).
//
// Reference semantics: Kubernetes v1.36.3, k8s.io/api apps/v1
// ControllerRevision and pkg/controller/history.
//
// Vectors: the revisions of testdata/statefulset and testdata/daemonset.
package history
