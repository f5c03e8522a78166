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
//   - Ownership: [ClaimReplicaSet] (adopt orphans, release the unselected)
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
//     the full API PodTemplateSpec (the struct layout of k8s.io/api), which
//     kubesem neither models nor hashes. The caller may inject it as
//     Options.TemplateHash (k8s.TemplateHash computes v1.36.3's) or give it
//     as Deployment.TemplateHash (JSON templateHash, not an API field);
//     otherwise a created ReplicaSet is named with kubesem's own hash
//     (stable, but not Kubernetes'). Either way the new ReplicaSet is the
//     oldest whose template equals the Deployment's apart from
//     pod-template-hash, as upstream's EqualIgnoreHash decides. A template
//     decoded from JSON keeps every field it had, modelled or not (env,
//     resources, volumes, probes, fields of later releases), writes them
//     back when a Plan creates an object, and takes part whole in every
//     comparison, so an env-var change starts a rollout (vectors
//     "template: …" in testdata/rollout/template.json). Templates compare
//     as the API server stores them (podstatus.Template.Comparable):
//     defaulted (imagePullPolicy, protocol TCP, probe periods,
//     restartPolicy …) and decoded (resources {} and env [] are no
//     resources and no env, a quantity 0.5 is 500m), so a hand-trimmed
//     template equals the one the cluster returns; podstatus/normal.go and
//     podstatus/defaults.go list exactly what is normalised and the
//     residual differences, and conformance/upstream
//     TestTemplateEqualityDifferential checks 12,000 random hand-trimmed
//     pairs against upstream (vectors in
//     testdata/rollout/template_equality.json).
//   - Defaults are applied: an unset progressDeadlineSeconds means 600 and
//     an unset revisionHistoryLimit 10, as after API defaulting (upstream's
//     unit tests use nil for "no deadline"; the vectors use MaxInt32).
//   - Validation first: Step validates its input as the API server would
//     ([Validate]) and rejects what API validation rejects ("+5%", "-5%",
//     negative counts, both rolling-update bounds explicitly 0, a selector
//     that does not match the template labels, type Recreate with
//     rollingUpdate) with a *field.Error, where upstream's helpers would
//     compute something (vectors "validation/…" in testdata/rollout). A
//     maxSurge or maxUnavailable that API validation rejects but upstream
//     scales ("-5%") is invalid here (see package intstr).
//   - int32 wrap, as upstream: the API accepts replicas 2147483647 with
//     maxSurge 1, maxSurge "200%" of that, and ReplicaSets whose sizes sum
//     past int32; v1.36.3 then wraps (sums, replicas + maxSurge, the
//     proportional-scaling product) or truncates (int32() of a scaled
//     percentage, after the both-zero fencepost test on the untruncated
//     value), and so does kubesem, in every rule: Fenceposts("200%", …,
//     2147483647) is surge -2, and the max-replicas annotation can read
//     -2147483648 (vectors "wrap: …" in testdata/rollout/wrap.json, each
//     checked against upstream by TestRolloutWrapVectorsUpstream; whole
//     syncs by TestRolloutStepDifferential's wide mode). A maxSurge
//     percentage beyond int64 ("99999999999999999999%") is accepted by
//     the API but upstream cannot parse it: [Deployment.MaxSurge] and
//     [Deployment.MaxUnavailable] count it as 0 as upstream does, and a
//     sync that must size the new ReplicaSet ends with Outcome SyncFailed
//     (rate-limited requeue), as v1.36.3's sync returns an error.
//   - Requeue: [RequeueStuck] returns the delay the controller actually
//     waits (time left + 1 s); upstream's helper returns the time left.
//   - Plan.Update lists the new ReplicaSet's revision update once; upstream,
//     reading its cache again, sends it twice in one sync (three times when
//     Recreate looks the new ReplicaSet up again), and [Plan.Writes] lists
//     every request. A create the API server rejects (the name of a hash
//     collision) is not a write.
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
