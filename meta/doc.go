// Package meta models the object metadata every workload kind shares:
// names, UIDs, labels, annotations, owner references, timestamps, label
// selectors and condition statuses.
//
// Only the fields kubesem's rules read are modelled. JSON tags follow the
// Kubernetes API, so a real object's metadata, trimmed, decodes as is.
//
// # Rules
//
//   - [ObjectMeta.ControllerRef], [ObjectMeta.IsControlledBy], [ObjectMeta.IsDeleting]
//   - [LabelSelector.Matches], [LabelSelector.Validate], [SelectorFromSet]
//
// # Divergences
//
//   - Only the fields kubesem's rules read are modelled. A [Condition] has no
//     observedGeneration, so conditions kubesem writes (a pod's
//     DisruptionTarget or Ready=False, a budget's DisruptionAllowed) leave
//     out the field upstream sets from the object's generation.
//
// Source: apimachinery v0.36.3 pkg/apis/meta/v1 (types.go, helpers.go) and
// pkg/labels (selector.go).
package meta
