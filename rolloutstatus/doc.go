// Package rolloutstatus computes what `kubectl rollout status` prints and
// the exit code it gives, for Deployments, DaemonSets and StatefulSets.
// It is kubectl's view of a workload's status, not a controller decision,
// so it lives apart from the controllers' packages.
//
// The reference is kubectl v0.36.3 (Kubernetes v1.36.3). kubectl reads the
// object the API server stored, which v1 defaulting completed, so an unset
// field the viewers read is its default: spec.replicas 1, an absent update
// strategy RollingUpdate, a StatefulSet rollingUpdate block's partition 0.
//
// # Rules
//
//   - [Deployment], [DaemonSet], [StatefulSet]: the message, whether the
//     rollout is done, or kubectl's error.
//   - [Status.ExitCode]: the exit code and whether kubectl stops, in
//     [Watch] or [Once] mode.
//
// # Divergences
//
//   - None from kubectl; from the documentation: it quotes the message as
//     "Waiting for rollout to finish: …", kubectl v0.36.3 prints
//     "Waiting for deployment "<name>" rollout to finish: …", and so does
//     [Deployment].
//
// # Inputs
//
// Functions read their arguments only; they are pure and safe for concurrent
// use. DaemonSets and StatefulSets are the daemonset and statefulset
// packages' models (daemonset.DaemonSet, statefulset.StatefulSet), so a
// Step's Plan.Status can be fed to [DaemonSet] and [StatefulSet] as the
// object's status.
//
// # Vectors
//
// testdata/rolloutstatus.
package rolloutstatus
