// Package history models the apps/v1 ControllerRevision, the object in
// which the StatefulSet and DaemonSet controllers keep the history of their
// pod templates. It is the one revision model: package statefulset and
// package daemonset both read it.
//
// Only the fields the controllers' decisions read are modelled: the
// metadata (name, labels, owner references, creation time) and the
// revision number. The revision's data (the stored pod template) is not:
// which revision the current template matches is an input of each kind
// (statefulset's Spec.TemplateRevision, daemonset's History.Hash), computed
// exactly by the k8s adapter module.
//
// Reference semantics: Kubernetes v1.36.3, k8s.io/api apps/v1
// ControllerRevision and pkg/controller/history.
//
// Vectors: the revisions of testdata/statefulset and testdata/daemonset.
package history
