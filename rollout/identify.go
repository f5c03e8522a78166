package rollout

import (
	"cmp"
	"slices"

	"github.com/kubesem/kubesem/replicaset"
)

// FindNewReplicaSet returns d's new ReplicaSet among replicaSets: the oldest
// (by creationTimestamp, then name) whose template is d's template, or nil.
//
// Template identity: a ReplicaSet has d's template when its template equals
// d's apart from the pod-template-hash label (nil and empty maps and slices
// are equal), as upstream's EqualIgnoreHash does, over the whole template:
// the modelled fields and, for templates decoded from JSON, every other
// field they carried (env, resources, volumes …; see podstatus.Template).
// The oldest match wins when several exist (kubernetes/kubernetes#40415).
// Nil entries are skipped.
//
// Source: upstream deployment_util.go FindNewReplicaSet, EqualIgnoreHash (v1.36.3).
func FindNewReplicaSet(d *Deployment, replicaSets []*replicaset.ReplicaSet) *replicaset.ReplicaSet {
	var found *replicaset.ReplicaSet
	for _, rs := range replicaSets {
		if rs == nil || !hasTemplate(d, rs) {
			continue
		}
		if found == nil || olderFirst(rs, found) < 0 {
			found = rs
		}
	}
	return found
}

// hasTemplate reports whether rs runs d's pod template.
func hasTemplate(d *Deployment, rs *replicaset.ReplicaSet) bool {
	return sameTemplate(&rs.Spec.Template, &d.Spec.Template)
}

// FindOldReplicaSets returns d's old ReplicaSets: every ReplicaSet of
// replicaSets but the one [FindNewReplicaSet] picks (and any sharing its
// non-empty UID), oldest first (creationTimestamp, then name); active are those among them with spec.replicas != 0.
// Nil entries are skipped.
//
// Source: upstream deployment_util.go FindOldReplicaSets (v1.36.3).
func FindOldReplicaSets(d *Deployment, replicaSets []*replicaset.ReplicaSet) (active, all []*replicaset.ReplicaSet) {
	return oldReplicaSets(FindNewReplicaSet(d, replicaSets), replicaSets)
}

func oldReplicaSets(newReplicaSet *replicaset.ReplicaSet, replicaSets []*replicaset.ReplicaSet) (active, all []*replicaset.ReplicaSet) {
	for _, rs := range byAge(replicaSets) {
		if rs == nil || (newReplicaSet != nil && (rs == newReplicaSet || (rs.UID != "" && rs.UID == newReplicaSet.UID))) {
			continue
		}
		all = append(all, rs)
		if rs.Replicas() != 0 {
			active = append(active, rs)
		}
	}
	return active, all
}

// olderFirst orders ReplicaSets by creationTimestamp, then name.
//
// Source: upstream pkg/controller/controller_utils.go ReplicaSetsByCreationTimestamp (v1.36.3).
func olderFirst(a, b *replicaset.ReplicaSet) int {
	if c := a.CreationTimestamp.Compare(b.CreationTimestamp); c != 0 {
		return c
	}
	return cmp.Compare(a.Name, b.Name)
}

// byAge returns a copy of replicaSets without nil entries, oldest first.
func byAge(replicaSets []*replicaset.ReplicaSet) []*replicaset.ReplicaSet {
	s := make([]*replicaset.ReplicaSet, 0, len(replicaSets))
	for _, rs := range replicaSets {
		if rs != nil {
			s = append(s, rs)
		}
	}
	slices.SortStableFunc(s, olderFirst)
	return s
}

// isActive reports whether rs is non-nil and has spec.replicas > 0.
func isActive(rs *replicaset.ReplicaSet) bool {
	return rs != nil && rs.Replicas() > 0
}

// ReplicaSetName returns the name of the ReplicaSet a Deployment named
// deployment creates for a template with pod-template-hash hash:
// "<deployment>-<hash>", with the Deployment name cut short so that the
// whole fits in 253 characters (when the hash leaves room for any of it).
//
// Source: upstream pkg/controller/deployment/sync.go generateReplicaSetName (v1.36.3).
func ReplicaSetName(deployment, hash string) string {
	keep := 253 - 1 - len(hash)
	if len(deployment) > keep && keep > 0 {
		deployment = deployment[:keep]
	}
	return deployment + "-" + hash
}
