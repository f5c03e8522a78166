package rollout

import (
	"cmp"
	"slices"
	"strings"

	"github.com/kubesem/kubesem/meta"
	"github.com/kubesem/kubesem/replicaset"
)

// Reasons of the claim's writes (Plan.Adopt, Plan.Release).
const (
	// ReasonOrphanSelected: an orphan ReplicaSet the selector selects is
	// adopted.
	ReasonOrphanSelected Reason = "OrphanSelected"
	// ReasonSelectorMismatch: a ReplicaSet the Deployment controls and no
	// longer selects is released.
	ReasonSelectorMismatch Reason = "SelectorMismatch"
)

// ReplicaSetRef names a ReplicaSet a Plan adopts or releases.
type ReplicaSetRef struct {
	Name   string `json:"name"`
	UID    string `json:"uid,omitempty"`
	Reason Reason `json:"reason,omitempty"`
}

// ClaimReplicaSet decides what the Deployment controller does with rs, a
// ReplicaSet it lists in d's namespace: one d controls (by UID) is
// [replicaset.Owned] while d's selector selects its labels and released
// otherwise, unless d is being deleted (then ignored); an orphan (no
// controller reference) d selects is adopted unless d or rs is being
// deleted or rs lives in another namespace than d (a d without namespace
// checks none); any other ReplicaSet (another controller's, an orphan d
// does not select, nil) is ignored. A nil selector selects nothing.
//
// The adoption's recheck of d's deletion against the API server
// (RecheckDeletionTimestamp, a read of the live Deployment) sees d as given:
// the input is taken as fresh.
//
// Source: upstream pkg/controller/deployment/deployment_controller.go
// getReplicaSetsForDeployment, pkg/controller/controller_ref_manager.go
// ReplicaSetControllerRefManager.ClaimReplicaSets,
// BaseControllerRefManager.ClaimObject, RecheckDeletionTimestamp (v1.36.3).
func ClaimReplicaSet(d *Deployment, rs *replicaset.ReplicaSet) replicaset.Ownership {
	if d == nil {
		return replicaset.Ignore
	}
	return claimWith(d, d.Spec.Selector.Matches, rs)
}

func claimWith(d *Deployment, selects func(map[string]string) bool, rs *replicaset.ReplicaSet) replicaset.Ownership {
	if rs == nil {
		return replicaset.Ignore
	}
	return meta.ClaimObject(&d.ObjectMeta, &rs.ObjectMeta, selects(rs.Labels))
}

// claimAll claims replicaSets for d: it returns those d owns or adopts, in
// their input order, and the adoptions and releases by name, then UID
// (upstream claims in its informer's order, which is arbitrary).
func claimAll(d *Deployment, replicaSets []*replicaset.ReplicaSet) (claimed []*replicaset.ReplicaSet, adopt, release []ReplicaSetRef) {
	selects := d.Spec.Selector.Matcher()
	claimed = replicaSets[:0:0]
	for i, rs := range replicaSets {
		switch claimWith(d, selects, rs) {
		case replicaset.Owned:
			if len(claimed) == i {
				// every one so far is claimed: share the input (capped,
				// so that an append copies)
				claimed = replicaSets[: i+1 : i+1]
				continue
			}
			claimed = append(claimed, rs)
		case replicaset.Adopt:
			claimed = append(claimed, rs)
			adopt = append(adopt, ReplicaSetRef{Name: rs.Name, UID: rs.UID, Reason: ReasonOrphanSelected})
		case replicaset.Release:
			release = append(release, ReplicaSetRef{Name: rs.Name, UID: rs.UID, Reason: ReasonSelectorMismatch})
		}
	}
	byName := func(a, b ReplicaSetRef) int {
		return cmp.Or(strings.Compare(a.Name, b.Name), strings.Compare(a.UID, b.UID))
	}
	slices.SortFunc(adopt, byName)
	slices.SortFunc(release, byName)
	return claimed, adopt, release
}
