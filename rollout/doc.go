// Package rollout computes what the Deployment controller does in one sync:
// how far a rolling update may surge above and fall below the desired count,
// which ReplicaSet is new, how ReplicaSets grow and shrink (rolling,
// Recreate, proportional scaling), the status and conditions it writes,
// revision history and rollback, and what `kubectl rollout status` reports.
//
// Reference semantics: Kubernetes v1.36.3 with default feature gates
// (pkg/controller/deployment and its util package; kubectl v0.36.3
// pkg/polymorphichelpers for rollout status). [Options]' zero value is that
// reference; its one field, TemplateHash, injects v1.36.3's exact
// pod-template-hash (the k8s adapter's k8s.RolloutOptions).
//
// # Rules
//
//   - Fenceposts: [Fenceposts], [Deployment.MaxSurge], [Deployment.MaxUnavailable], [Deployment.MinAvailable], [Deployment.Bounds]
//   - New ReplicaSet size: [NewReplicaSetReplicas]
//   - Identity: [FindNewReplicaSet], [FindOldReplicaSets], [ReplicaSetName],
//     [HashLabel], [Deployment] TemplateHash, [Options] TemplateHash
//   - Proportional scaling: [Proportional], [Proportion], [Deployment.IsScalingEvent],
//     [Deployment.IsSaturated], [Scale]
//   - Rolling update: [ReconcileNewReplicaSet], [ReconcileOldReplicaSets],
//     [CleanupUnhealthy], [ScaleDownOld]
//   - Recreate: [OldPodsRunning]
//   - Status: [ComputeStatus], [SyncProgress], [SyncStatus], [RequeueStuck], [Deployment.IsComplete],
//     [Deployment.IsProgressing], [Deployment.IsTimedOut], [Deployment.HasProgressDeadline]
//   - Conditions (as meta.Conditions: Find, Set, Remove),
//     [PausedCondition]
//   - Revisions: [Revision], [MaxRevision], [LastRevision], [SortByRevision],
//     [NewReplicaSetAnnotations], [ReplicasAnnotation],
//     [ReplicasAnnotationsNeedUpdate], [HistoryToDelete]
//   - Rollback: [Rollback], [RollbackResult]
//   - What `kubectl rollout status` prints lives in package rolloutstatus.
//   - Sync: [Step] returns a [Plan] (outcome, writes and events, every
//     constant a [Reason]); [Plan.Writes] lists the API requests it makes in
//     the controller's order; [Plan.Apply] plays its ReplicaSet writes on a
//     slice of ReplicaSets, for simulations; [Validate] is the check Step
//     runs first.
//
// # Divergences
//
//   - Template identity: the pod-template-hash depends on Go's encoding of
//     the full API PodTemplateSpec, which kubesem neither models nor hashes.
//     The caller may inject it as Options.TemplateHash (k8s.TemplateHash
//     computes v1.36.3's) or give it as Deployment.TemplateHash; otherwise a
//     created ReplicaSet is named with kubesem's own hash (stable, but not
//     Kubernetes'). The new ReplicaSet is found by comparing whole templates
//     (upstream EqualIgnoreHash) either way, as the API server stores them:
//     defaulted and decoded (podstatus.Template.Comparable).
//   - Step takes replicaSets as the ReplicaSets the Deployment already
//     controls; adoption and release (ClaimReplicaSets) are the caller's.
//   - Plan.Update lists the new ReplicaSet's revision update once; upstream,
//     reading its cache again, sends it twice in one sync (three times when
//     Recreate looks the new ReplicaSet up again), and [Plan.Writes] lists
//     every request. A create the API server rejects (the name of a hash
//     collision) is not a write.
//   - Step validates its input as the API server would ([Validate]) and also
//     rejects spec.replicas + maxSurge beyond int32; the rules themselves,
//     given such input, compute in int32 and wrap as upstream does.
//   - A maxSurge or maxUnavailable that API validation rejects but upstream
//     scales ("-5%") is invalid here (see package intstr).
//   - Proportional scaling (seed 000:L1585) and the seed's rollover (000:L1328)
//     agree with v1.36.3; the seed's "kill the 3 pods at once" is, under the
//     default 25%/25%, one pod in the first sync (maxUnavailable is 1).
//
// # Inputs
//
// Time is the now argument; there is no I/O, no global state and no clock.
// Functions are safe for concurrent use and never modify their inputs: a
// Plan describes the writes instead of making them.
//
// # Errors
//
// Errors are *field.Error values naming the field the way API validation
// does (spec.strategy.rollingUpdate.maxSurge, replicaSets[2].spec.replicas)
// and wrapping field.ErrInvalid, field.ErrNegative, field.ErrOverflow,
// field.ErrRequired, field.ErrUnsupported or field.ErrDuplicate. [Step]
// validates once; the rules document what they assume.
//
// Vectors: testdata/rollout.
package rollout
