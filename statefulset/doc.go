// Package statefulset states the identity rules of the Kubernetes v1.36.3
// StatefulSet controller as pure functions: which ordinals a set owns, the
// names of its pods and claims, the stable DNS names and the identity labels.
//
// # Rules
//
//   - [Ordinals]: the ordinals [start, start+replicas).
//   - [PodName], [ParseOrdinal], [ParentAndOrdinal]: pod names and their parsing.
//   - [DNSName]: <pod>.<service>.<namespace>.svc.<domain>.
//   - [ClaimName]: <claim>-<set>-<ordinal>.
//   - [IdentityLabels]: statefulset.kubernetes.io/pod-name and apps.kubernetes.io/pod-index.
//
// Scaling, updates, revisions, claim retention and Step are not yet built
// (see testdata/statefulset/README.md).
package statefulset
