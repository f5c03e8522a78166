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

// A Ranker ranks pods for a ReplicaSet's scale-down as [RankForDeletion]
// does, keeping its working memory between calls so that repeated
// rankings allocate nothing once it has grown (see [podstatus.Ranker]).
// The zero Ranker is ready to use; it is not safe for concurrent use.
type Ranker struct{ r podstatus.Ranker }

// RankForDeletion returns what [RankForDeletion] returns, in rk's memory:
// the Ranking (and the Victims taken from it) holds until rk's next call.
//
// Source: upstream pkg/controller/replicaset/replica_set.go getPodsToDelete
// (v1.36.3).
func (rk *Ranker) RankForDeletion(pods []*podstatus.Pod, ranks []int, now time.Time, opts Options) Ranking {
	return rk.r.RankForDeletion(pods, ranks, now, podstatus.CostMode(!opts.DisablePodDeletionCost))
}
