package replicaset

import (
	"time"

	"github.com/kubesem/kubesem/podstatus"
)

// Ranking is an order in which a controller deletes pods, with its ties
// (see [podstatus.Ranking]).
type Ranking = podstatus.Ranking

// Victims are the pods a scale-down deletes (see [podstatus.Victims]).
type Victims = podstatus.Victims

// RankForDeletion ranks pods for a ReplicaSet's scale-down, first to delete
// first: [podstatus.RankForDeletion] with ranks from [NodeRanks], reading the
// pod-deletion-cost annotation unless opts.DisablePodDeletionCost.
//
// Source: upstream pkg/controller/replicaset/replica_set.go getPodsToDelete
// (v1.36.3); seed 000 ReplicaSet scale-down order (000:L2274).
func RankForDeletion(pods []*podstatus.Pod, ranks []int, now time.Time, opts Options) Ranking {
	return podstatus.RankForDeletion(pods, ranks, now, podstatus.CostMode(!opts.DisablePodDeletionCost))
}
