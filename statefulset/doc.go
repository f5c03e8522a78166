// Package statefulset states what the Kubernetes v1.36.3 StatefulSet
// controller decides, as pure functions: the identity of a set's pods and
// claims, and one sync (UpdateStatefulSet and the requeue of sync,
// pkg/controller/statefulset) as [Step].
//
// # Rules
//
// The model (set.go): [StatefulSet], [Claim], and spec as API defaulting
// leaves it: [StatefulSet.Replicas], [StatefulSet.Start],
// [StatefulSet.Policy], [StatefulSet.Strategy], [StatefulSet.Partition],
// [StatefulSet.HistoryLimit], [StatefulSet.Retention],
// [UpdateStrategy.Defaulted] (how Step, [CompleteRollingUpdate] and
// [Validate] read spec.updateStrategy), [RetentionPolicy.Defaulted];
// [PodRevision].
//
// Identity (identity.go):
//   - [Ordinals]: the ordinals [start, start+replicas).
//   - [PodName], [ParseOrdinal], [ParentAndOrdinal], [IsMemberOf]: pod names and their parsing.
//   - [IdentityMatches], [DNSName], [ServiceDNSName]: hostname, subdomain, stable DNS names.
//   - [ClaimName]: <claim>-<set>-<ordinal>.
//   - [IdentityLabels]: statefulset.kubernetes.io/pod-name and apps.kubernetes.io/pod-index.
//   - [Identity]: all of a pod's stable identity at once, as a [PodIdentity].
//
// Ownership (claim.go): [ClaimPod] and [ClaimRevision], what the sync
// adopts, releases or ignores among the pods and ControllerRevisions it
// lists ([Ownership]).
//
// PersistentVolumeClaim retention (retention.go): [ClaimOwnerUpToDate],
// [ClaimOwnerRefs], [UnexpectedController], [ClaimIsStale], each reading
// the claim, the set (its policy and range of ordinals) and the pod.
//
// Revisions (revisions.go): [Revisions] (current and update revision,
// rollback renumbering) and [TruncateHistory] (revision history limit),
// on revisions sorted by history.Sort.
//
// Status (status.go): [IsUnavailable], [CountReplicas],
// [CompleteRollingUpdate], [StatusChanged].
//
// The rolling-update allowance (maxunavailable.go): [MaxUnavailable]
// (MaxUnavailableStatefulSet gate: [Options]).
//
// Validation (validate.go): [Validate], what API validation rejects among
// the fields read.
//
// One sync (step.go): [Step] returns a [Plan] (revision writes as
// history.Write, pod creations with ordinal and revision, claim writes,
// pod updates, deletions with reasons, status, requeue). Its phases are
// unexported, one file each: members.go (the set's pods by ordinal, shared
// ordinals refused), slots.go (one slot per ordinal of the range; the name
// and revision of a missing pod), ordering.go (OrderedReady one at a time,
// Parallel in slow-start batches), replicas.go (the pass over the range:
// failed pods deleted, missing pods created, identity, storage and claim
// ownership fixed), claims.go (the sync's claim creations and owner
// updates), condemned.go (pods past the range, from the highest), update.go
// (the rolling update: partition, one at a time or maxUnavailable).
//
// Writes (writes.go, writes_objects.go): [Plan.Writes], the API requests of
// the sync in v1.36.3's order (writes.go), with the objects as they leave
// the controller: pods, claims, ControllerRevisions, the status
// (writes_objects.go).
//
// # Inputs
//
// Revisions are identified by name: Spec.TemplateRevision is the
// ControllerRevision name the current pod template hashes to (the
// controller-revision-hash value), an input as pod-template-hash is for
// Deployments. Two revisions are equal when their names are. pods are the
// set's pods, podstatus.Pod, whose persistentVolumeClaim volumes
// (spec.volumes) the storage match reads (pods whose name does not parse to the set's name and an
// ordinal are ignored, as upstream's isMemberOf filter does); claims are
// the existing claims of the set's templates, as the claim lister sees them
// (claims created during the sync are not visible to it). Spec.Template,
// Spec.Selector and the revisions' data (history.Data) are read by
// [Plan.Writes] only, to build the objects it writes.
//
// # Divergences
//
//   - Never silently wrong: without Spec.TemplateRevision [Step] answers a
//     field.ErrRequired error on spec.templateRevision rather than guess
//     (k8s.StatefulSetUpdateRevision computes it from real objects).
//   - Name collisions of ControllerRevisions (collisionCount increments in
//     CreateControllerRevision) cannot occur: revision equality is by name.
//     StatefulSetSemanticRevisionComparison (revisions equal after API
//     defaulting) is likewise folded into the name.
//   - A set without spec.selector (which API validation rejects) claims
//     nothing: [Step] takes its pods and revisions as given, the set's own,
//     as hand-written inputs (the vectors) give them; with a selector it
//     claims as upstream's sync does ([ClaimPod], [ClaimRevision]). An
//     update of a pod the sync adopted or released (its identity or
//     storage) is sent from the cached copy the claim's patch made stale
//     and refused, which ends the sync: [Plan.Writes] lists that one
//     request, where upstream's UpdateStatefulPod retries the Conflict up
//     to three more times with its lister's copy (stale too until the
//     patch's watch event arrives).
//   - Events other than ConflictingController are not listed.
//   - [Plan.Writes] lists a Parallel sync's pod and claim writes in
//     ordinal order and a pod's claim volumes in template order (upstream:
//     goroutines, a Go map); a claim it creates carries its template's
//     metadata only (the claim spec is not modelled); a write the API server
//     refuses (see below) is not listed, though upstream sends it.
//   - Parallel syncs run in goroutines upstream; Step lists their writes in
//     ordinal order (the set of writes is the same). One pod's claims are
//     created in template order (upstream walks a map).
//   - Step allocates one slot per replica, as upstream does; above
//     [MaxReplicas] (1,048,576) it answers a field.ErrUnsupported error on
//     spec.replicas instead of exhausting memory (upstream would allocate
//     16 GiB for 2147483647 replicas; a Parallel set of 2^20 takes kubesem
//     about 3 s and 440 MB, its plan 107 MB of JSON).
//   - A set whose last ordinal (start + replicas − 1) is beyond int32 is
//     API-valid and synced as v1.36.3 syncs it: the pod for such an ordinal
//     is named web-2147483648, then renamed from the ordinal that name
//     parses back to in 32 bits (−1): it is created as web--1 (pod-index −1)
//     with the claims of ordinal 1 (www-web-1, what web--1 parses to); it is
//     never one of the set's pods, so every later sync tries to create it
//     again and fails with AlreadyExists; a Parallel set also updates its
//     identity to web-1, which fails unless such a pod exists. A pod named
//     web-2147483648 in the input is handled as upstream handles it:
//     claimed, never synced, left out of the status (except while the set is
//     being deleted), its revision kept live.
//     Options.RefuseOrdinalsPastInt32 (off by default) refuses such a set
//     instead, with a field.ErrOverflow error on spec.ordinals.start (the
//     vector "RefuseOrdinalsPastInt32: …" in testdata/statefulset/step.json).
//   - Options.MaxUnavailableStatefulSet (off by default: gate
//     MaxUnavailableStatefulSet is beta and off in v1.36.3) replaces up to
//     maxUnavailable pods at once: maxUnavailable (a percentage rounded
//     down, at least 1; unset, 1) counts every unavailable pod of the range,
//     even below the partition (openkruise/kruise#1480); terminating pods
//     count as unavailable (vectors with "maxUnavailableStatefulSet" in
//     testdata/statefulset/step.json; conformance/upstream
//     TestStatefulSetStepDifferentialMaxUnavailable).
//   - A write fails as the API server fails it: creating a pod whose name
//     exists (or was created earlier in the sync), updating a pod that is not
//     among pods. Claim writes do not fail (the model has no claim
//     conflicts).
//
// Upstream behaviour worth knowing, which kubesem follows:
//
//   - OrderedReady stops after the first action (create, delete a failed
//     pod, delete a condemned pod, delete an outdated pod) or at the first
//     pod that is terminating, not Running and Ready, or not available;
//     Parallel creates and deletes everything in slow-start batches and
//     still replaces outdated pods one at a time (up to maxUnavailable with
//     the option).
//   - The partition is an index from spec.ordinals.start (ordinal ≥
//     start+partition is updated). A pod created below start+partition gets
//     the current revision, above it the update revision
//     (newVersionedStatefulSetPod). spec.updateStrategy is read as API
//     defaulting leaves it ([UpdateStrategy.Defaulted],
//     SetDefaults_StatefulSet): a set without one, or with an empty type,
//     has a rollingUpdate block with partition 0, so a pod it recreates gets
//     the update revision; an explicit type RollingUpdate without a block
//     keeps none, and a pod recreated below start+status.currentReplicas
//     gets the current revision.
//   - Forced rollback (kubernetes/kubernetes#67250): OrderedReady never gets
//     past a pod on a bad revision that is not Ready, even after the
//     template is reverted; Parallel deletes and recreates it at once.
//   - Status: terminating pods are excluded from current and updated but not
//     from replicas and ready; completeRollingUpdate runs only for
//     RollingUpdate; the status is written only when a count, a revision or
//     a newer observedGeneration differs (collisionCount alone is not
//     written). status.currentReplicas already counts the pod the sync
//     deletes for the update (kubesem explain's dump stateful.json: db at 1
//     current while db-1 is still there).
//
// Differential tests against v1.36.3: conformance/upstream TestStatefulSet…,
// listed in that package's documentation.
//
// # Errors
//
// Invalid input returns a *field.Error with the API field path ([Validate]).
// Pods sharing an ordinal (web-1 and web-01) are an error on the field
// "pods" naming, for the lowest such ordinal, the pod whose name sorts last,
// whatever the order of pods: upstream keeps whichever pod its informer
// lists last, an answer that depends on that order. A write that v1.36.3
// would attempt and that fails (a claim being deleted, a pod that already
// exists, an update of a pod created in the same sync) ends the sync with
// outcome Error and a rate-limited requeue, as upstream's returned error does.
//
// Vectors: testdata/statefulset. The wants of step.json and rules.json are
// computed by v1.36.3 (conformance/upstream TestGenerateStatefulSetVectors)
// and recomputed by TestStatefulSetVectorsUpstream and
// TestStatefulSetRuleVectorsUpstream, which fail when one differs;
// TestStatefulSetWritesUpstream compares [Plan.Writes] on every Step vector
// with the writes v1.36.3 sends.
package statefulset
