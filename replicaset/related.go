package replicaset

import (
	"time"

	"github.com/kubesem/kubesem/podstatus"
)

// NodeRanks returns, for each of pods, the number of active pods among
// related that run on the same node (unscheduled pods share the node "").
// These are the ranks of [RankForDeletion]: pods doubled up with their
// siblings are deleted first. related is usually [RelatedPods].
//
// Source: upstream pkg/controller/replicaset/replica_set.go
// getPodsRankedByRelatedPodsOnSameNode (v1.36.3).
func NodeRanks(pods, related []*podstatus.Pod) []int {
	onNode := make(map[string]int)
	for _, p := range related {
		if p != nil && podstatus.IsActive(p) {
			onNode[p.Spec.NodeName]++
		}
	}
	ranks := make([]int, len(pods))
	for i, p := range pods {
		if p != nil {
			ranks[i] = onNode[p.Spec.NodeName]
		}
	}
	return ranks
}

// RelatedPods returns the pods selected by every ReplicaSet of replicaSets
// that has the same controller as rs (rs itself included when listed), in
// rs's namespace, each pod once by UID, in the order of replicaSets and
// then pods. It returns nil when rs has no controller: the ranks of a
// standalone ReplicaSet are all 0.
//
// Source: upstream pkg/controller/replicaset/replica_set.go
// getIndirectlyRelatedPods, getReplicaSetsWithSameController (v1.36.3).
func RelatedPods(rs *ReplicaSet, replicaSets []*ReplicaSet, pods []*podstatus.Pod) []*podstatus.Pod {
	ref := rs.ControllerRef()
	if ref == nil {
		return nil
	}
	var out []*podstatus.Pod
	seen := make(map[string]bool)
	for _, other := range replicaSets {
		if other == nil {
			continue
		}
		oref := other.ControllerRef()
		if oref == nil || oref.UID != ref.UID {
			continue
		}
		sel := other.PodSelector()
		if sel.Validate("") != nil {
			continue
		}
		for _, p := range pods {
			if p == nil || p.Namespace != other.Namespace || !sel.Matches(p.Labels) || seen[p.UID] {
				continue
			}
			seen[p.UID] = true
			out = append(out, p)
		}
	}
	return out
}

// PodsToDelete returns the victims of deleting diff of pods: they are ranked
// by [RankForDeletion] with ranks from [NodeRanks] of related, and the
// first diff are taken (all of them when diff >= len(pods)).
//
// Source: upstream pkg/controller/replicaset/replica_set.go getPodsToDelete
// (v1.36.3), with now in place of the wall clock.
func PodsToDelete(pods, related []*podstatus.Pod, diff int, now time.Time, opts Options) Victims {
	return RankForDeletion(pods, NodeRanks(pods, related), now, opts).Victims(diff)
}
