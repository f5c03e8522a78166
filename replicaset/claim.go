package replicaset

import (
	"github.com/kubesem/kubesem/meta"
	"github.com/kubesem/kubesem/podstatus"
)

// Ownership is what a controller does with an active pod it lists (see
// [meta.Ownership]).
type Ownership = meta.Ownership

// Ownerships. Ignore: the pod has another controller, or is an orphan rs
// does not select or cannot adopt (rs or the pod is being deleted, or the
// pod is in another namespace), or rs is being deleted and no longer
// selects it.
const (
	Owned   = meta.Owned
	Adopt   = meta.Adopt
	Release = meta.Release
	Ignore  = meta.Ignore
)

// ClaimPod decides what rs does with p: a pod controlled by rs (by UID) is
// Owned while rs selects it and released otherwise, unless rs is being
// deleted; an orphan rs selects is adopted unless rs or the pod is being
// deleted or the pod lives in another namespace; anything else is ignored.
// rs's selector is [ReplicaSet.PodSelector] and must be valid.
//
// Source: upstream pkg/controller/controller_ref_manager.go
// BaseControllerRefManager.ClaimObject, PodControllerRefManager.ClaimPods
// (v1.36.3); seed 000 ReplicaSet acquisition of non-template pods
// (000:L2143), isolating pods (000:L2268).
func ClaimPod(rs *ReplicaSet, p *podstatus.Pod) Ownership {
	return claim(rs, rs.PodSelector().Matches, p)
}

func claim(rs *ReplicaSet, selects func(map[string]string) bool, p *podstatus.Pod) Ownership {
	if p == nil {
		return Ignore
	}
	return meta.ClaimObject(&rs.ObjectMeta, &p.ObjectMeta, selects(p.Labels))
}
