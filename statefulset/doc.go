// Package statefulset states what the Kubernetes v1.36.3 StatefulSet
// controller decides, as pure functions: the identity of a set's pods and
// claims, and one sync (UpdateStatefulSet and the requeue of sync,
// pkg/controller/statefulset) as [Step].
//
// # Rules
//
// Identity (identity.go):
//   - [Ordinals]: the ordinals [start, start+replicas).
//   - [PodName], [ParseOrdinal], [ParentAndOrdinal], [IsMemberOf]: pod names and their parsing.
//   - [IdentityMatches], [DNSName], [ServiceDNSName]: hostname, subdomain, stable DNS names.
//   - [ClaimName]: <claim>-<set>-<ordinal>.
//   - [IdentityLabels]: statefulset.kubernetes.io/pod-name and apps.kubernetes.io/pod-index.
//
// Sync:
//   - [Step]: one sync; returns a [Plan] (revision writes, pod creations
//     with ordinal and revision, claim writes, pod updates, deletions with
//     reasons, status, requeue).
//   - [Revisions], [SortRevisions], [TruncateHistory]: current and update
//     revision, rollback renumbering, revision history limit.
//   - [CountReplicas], [CompleteRollingUpdate], [StatusChanged]: status.
//   - [IsUnavailable], [MaxUnavailable]: the rolling-update allowance
//     (MaxUnavailableStatefulSet gate: [Options]).
//   - [ClaimOwnerUpToDate], [ClaimOwnerRefs], [UnexpectedController],
//     [ClaimIsStale]: PersistentVolumeClaim retention policy.
//   - [Validate]: what API validation rejects among the fields read.
//
// # Inputs
//
// Revisions are identified by name: Spec.TemplateRevision is the
// ControllerRevision name the current pod template hashes to (the
// controller-revision-hash value), an input as pod-template-hash is for
// Deployments. Two revisions are equal when their names are. pods are the
// set's pods (pods whose name does not parse to the set's name and an
// ordinal are ignored, as upstream's isMemberOf filter does); claims are
// the existing claims of the set's templates, as the claim lister sees them
// (claims created during the sync are not visible to it).
//
// # Divergences
//
//   - Name collisions of ControllerRevisions (collisionCount increments in
//     CreateControllerRevision) cannot occur: revision equality is by name.
//     StatefulSetSemanticRevisionComparison (revisions equal after API
//     defaulting) is likewise folded into the name.
//   - Events other than ConflictingController are not listed; BlockOwnerDeletion
//     of the controller references the controller writes is not modelled.
//   - Parallel syncs run in goroutines upstream; Step lists their writes in
//     ordinal order (the set of writes is the same).
//   - Step allocates one slot per replica, as upstream does.
//
// # Errors
//
// Invalid input returns a *field.Error with the API field path ([Validate];
// duplicate ordinals among pods name the field "pods"). A write that v1.36.3
// would attempt and that fails (a claim being deleted, a pod that already
// exists, an update of a pod created in the same sync) ends the sync with
// outcome Error and a rate-limited requeue, as upstream's returned error does.
//
// Vectors: testdata/statefulset (replayed through v1.36.3 by
// conformance/upstream statefulset_vectors_test.go).
package statefulset
