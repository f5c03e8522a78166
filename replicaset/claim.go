package replicaset

import "github.com/kubesem/kubesem/podstatus"

// Ownership is what a controller does with an active pod it lists.
type Ownership string

// Ownerships.
const (
	// Owned: rs controls the pod and selects it; it counts.
	Owned Ownership = "Owned"
	// Adopt: the pod has no controller and rs selects it; rs becomes its
	// controller and it counts.
	Adopt Ownership = "Adopt"
	// Release: rs controls the pod but no longer selects it; rs removes its
	// controller reference.
	Release Ownership = "Release"
	// Ignore: the pod has another controller, or is an orphan rs does not
	// select or cannot adopt (rs or the pod is being deleted, or the pod is
	// in another namespace), or rs is being deleted and no longer selects it.
	Ignore Ownership = "Ignore"
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
	if ref := p.ControllerRef(); ref != nil {
		switch {
		case ref.UID != rs.UID:
			return Ignore
		case selects(p.Labels):
			return Owned
		case rs.IsDeleting():
			return Ignore
		}
		return Release
	}
	if rs.IsDeleting() || !selects(p.Labels) || p.IsDeleting() {
		return Ignore
	}
	if rs.Namespace != "" && rs.Namespace != p.Namespace {
		return Ignore
	}
	return Adopt
}
