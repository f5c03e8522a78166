package rollout

import (
	"math"
	"slices"

	"github.com/kubesem/kubesem/replicaset"
)

// revisionHistoryLimit returns spec.revisionHistoryLimit, 10 when unset.
func revisionHistoryLimit(d *Deployment) int32 {
	if d.Spec.RevisionHistoryLimit == nil {
		return 10
	}
	return *d.Spec.RevisionHistoryLimit
}

// HistoryToDelete returns the old ReplicaSets the controller deletes to keep
// d's revision history within spec.revisionHistoryLimit (10 when unset; no
// limit when MaxInt32), oldest revision first.
//
// The candidates are the old ReplicaSets not already being deleted, in
// [SortByRevision] order; only the first len(candidates) - limit are looked
// at, and of those only the ones fully scaled down (status.replicas and
// spec.replicas 0) and observed by the ReplicaSet controller (generation <=
// status.observedGeneration) are deleted. So fewer than len - limit may go,
// and a ReplicaSet that still has pods is never deleted. A negative limit
// counts as 0. The result shares no backing array with oldReplicaSets.
//
// The controller runs this once a rollout is complete, and on every sync of a
// paused Deployment without a rollback request.
//
// Source: upstream pkg/controller/deployment/sync.go cleanupDeployment
// (v1.36.3); seed 000 "수정 버전 기록 제한".
func HistoryToDelete(d *Deployment, oldReplicaSets []*replicaset.ReplicaSet) []*replicaset.ReplicaSet {
	limit := revisionHistoryLimit(d)
	if limit == math.MaxInt32 {
		return nil
	}
	limit = max(limit, 0)
	n := 0
	for _, rs := range oldReplicaSets {
		if rs != nil && !rs.IsDeleting() {
			n++
		}
	}
	diff := n - int(limit)
	if diff <= 0 {
		return nil
	}
	candidates := make([]*replicaset.ReplicaSet, 0, n)
	for _, rs := range oldReplicaSets {
		if rs != nil && !rs.IsDeleting() {
			candidates = append(candidates, rs)
		}
	}
	slices.SortFunc(candidates, byRevision)
	var out []*replicaset.ReplicaSet
	for _, rs := range candidates[:diff] {
		if rs.Status.Replicas != 0 || rs.Replicas() != 0 || rs.Generation > rs.Status.ObservedGeneration {
			continue
		}
		out = append(out, rs)
	}
	return out
}
