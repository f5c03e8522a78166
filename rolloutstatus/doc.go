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
// # Inputs
//
// Functions read their arguments only; they are pure and safe for concurrent
// use. DaemonSets and StatefulSets are given as [DaemonSetView] and
// [StatefulSetView], the fields kubectl reads, until the daemonset and
// statefulset packages model those kinds.
//
// # Vectors
//
// testdata/rolloutstatus.
package rolloutstatus
