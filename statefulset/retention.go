package statefulset

import (
	"github.com/kubesem/kubesem/internal/deepcopy"
	"github.com/kubesem/kubesem/meta"
)

// Owner reference coordinates of the set and of its pods.
const (
	setAPIVersion = "apps/v1"
	setKind       = "StatefulSet"
	podAPIVersion = "v1"
	podKind       = "Pod"
)

// Owner names an object a claim may reference: the set or one of its pods.
type Owner struct {
	Name string `json:"name"`
	UID  string `json:"uid,omitempty"`
}

func refMatches(r *meta.OwnerReference, o Owner, apiVersion, kind string) bool {
	return r.APIVersion == apiVersion && r.Kind == kind && r.Name == o.Name
}

func hasRefUID(c *Claim, uid string) bool {
	for i := range c.OwnerReferences {
		if c.OwnerReferences[i].UID == uid {
			return true
		}
	}
	return false
}

// staleRef reports whether the first reference naming o (by kind and name)
// carries another UID (hasStaleOwnerRef, stateful_set_utils.go, v1.36.3).
func staleRef(c *Claim, o Owner, apiVersion, kind string) bool {
	for i := range c.OwnerReferences {
		if refMatches(&c.OwnerReferences[i], o, apiVersion, kind) {
			return c.OwnerReferences[i].UID != o.UID
		}
	}
	return false
}

// setOwner is the set as a claim's owner.
func setOwner(set *StatefulSet) Owner { return Owner{Name: set.Name, UID: set.UID} }

// scaledDown reports whether the pod named pod is outside the set's range
// of ordinals, reading its ordinal from its name: one that carries none is
// outside every range (!podInOrdinalRange, stateful_set_utils.go, v1.36.3,
// which compares in int).
func scaledDown(set *StatefulSet, pod string) bool {
	o, start := int64(ParseOrdinal(pod)), int64(set.Start())
	return !(o >= start && o < start+int64(set.Replicas()))
}

// UnexpectedController reports whether, under a retention policy of set
// other than Retain/Retain, the claim has a controller other than set and
// pod, or a reference to the set's or pod's name with another UID. A nil
// claim or set has none.
//
// Source: upstream pkg/controller/statefulset stateful_set_utils.go
// hasUnexpectedController (v1.36.3).
func UnexpectedController(c *Claim, set *StatefulSet, pod Owner) bool {
	if c == nil || set == nil {
		return false
	}
	return unexpectedController(c, set.Retention(), setOwner(set), pod)
}

// unexpectedController is UnexpectedController with the set's policy and
// owner coordinates read.
func unexpectedController(c *Claim, policy RetentionPolicy, set, pod Owner) bool {
	if policy.WhenScaled == Retain && policy.WhenDeleted == Retain {
		return false
	}
	for i := range c.OwnerReferences {
		r := &c.OwnerReferences[i]
		if refMatches(r, set, setAPIVersion, setKind) {
			if r.UID != set.UID {
				return true
			}
			continue
		}
		if refMatches(r, pod, podAPIVersion, podKind) {
			if r.UID != pod.UID {
				return true
			}
			continue
		}
		if r.IsController() {
			return true
		}
	}
	return false
}

func nonControllerOwner(c *Claim, set, pod Owner) bool {
	for i := range c.OwnerReferences {
		r := &c.OwnerReferences[i]
		if (r.UID == set.UID || r.UID == pod.UID) && !r.IsController() {
			return true
		}
	}
	return false
}

// ClaimOwnerUpToDate reports whether a claim's owner references agree with
// the retention policy of set for pod, whose ordinal (read from its name)
// is in the set's range of ordinals or, scaled down, outside it:
// Retain/Retain no reference, whenDeleted Delete a set reference (in
// range), whenScaled Delete a pod reference once scaled down. Stale
// references (the set's or pod's name with another UID) and claims held
// by another controller ([UnexpectedController]) count as up to date. A
// nil claim or set is up to date.
//
// Source: upstream pkg/controller/statefulset stateful_set_utils.go
// isClaimOwnerUpToDate, podInOrdinalRange (v1.36.3).
func ClaimOwnerUpToDate(c *Claim, set *StatefulSet, pod Owner) bool {
	if c == nil || set == nil {
		return true
	}
	return claimOwnerUpToDate(c, set.Retention(), setOwner(set), pod, scaledDown(set, pod.Name))
}

// claimOwnerUpToDate is ClaimOwnerUpToDate with the set's policy, owner
// coordinates and the pod's place in its range read.
func claimOwnerUpToDate(c *Claim, policy RetentionPolicy, set, pod Owner, scaledDown bool) bool {
	if staleRef(c, set, setAPIVersion, setKind) || staleRef(c, pod, podAPIVersion, podKind) {
		return true
	}
	if unexpectedController(c, policy, set, pod) {
		return !hasRefUID(c, set.UID) && !hasRefUID(c, pod.UID)
	}
	if nonControllerOwner(c, set, pod) {
		return false
	}
	hasSet, hasPod := hasRefUID(c, set.UID), hasRefUID(c, pod.UID)
	switch {
	case policy.WhenScaled == Retain && policy.WhenDeleted == Delete:
		return hasSet && !hasPod
	case policy.WhenScaled == Delete && policy.WhenDeleted == Retain:
		return !hasSet && scaledDown == hasPod
	case policy.WhenScaled == Delete && policy.WhenDeleted == Delete:
		return scaledDown != hasSet && scaledDown == hasPod
	default: // Retain/Retain, and unknown values treated as Retain
		return !hasSet && !hasPod
	}
}

// ClaimOwnerRefs returns the owner references a claim gets under the
// retention policy of set for pod (whose ordinal, read from its name, is
// in the set's range or, scaled down, outside it): its references to the
// set's and pod's names removed, then, unless another controller holds the
// claim ([UnexpectedController]), a controller reference to the set
// (whenDeleted Delete and in range) or to the pod (whenScaled Delete and
// scaled down). The input is not modified; a nil claim or set gives nil.
//
// Source: upstream pkg/controller/statefulset stateful_set_utils.go
// updateClaimOwnerRefForSetAndPod, podInOrdinalRange (v1.36.3).
func ClaimOwnerRefs(c *Claim, set *StatefulSet, pod Owner) []meta.OwnerReference {
	if c == nil || set == nil {
		return nil
	}
	return claimOwnerRefs(c, set.Retention(), setOwner(set), pod, scaledDown(set, pod.Name))
}

// claimOwnerRefs is ClaimOwnerRefs with the set's policy, owner
// coordinates and the pod's place in its range read.
func claimOwnerRefs(c *Claim, policy RetentionPolicy, set, pod Owner, scaledDown bool) []meta.OwnerReference {
	unexpected := unexpectedController(c, policy, set, pod)
	refs := make([]meta.OwnerReference, 0, len(c.OwnerReferences)+2)
	for _, r := range c.OwnerReferences {
		if refMatches(&r, set, setAPIVersion, setKind) || refMatches(&r, pod, podAPIVersion, podKind) {
			continue
		}
		refs = append(refs, deepcopy.Copy(r))
	}
	if unexpected {
		return refs
	}
	add := func(o Owner, apiVersion, kind string) {
		for i := range refs {
			if refs[i].UID == o.UID {
				return
			}
		}
		refs = append(refs, meta.NewControllerRef(apiVersion, kind, o.Name, o.UID))
	}
	switch {
	case policy.WhenScaled == Retain && policy.WhenDeleted == Delete:
		add(set, setAPIVersion, setKind)
	case policy.WhenScaled == Delete && policy.WhenDeleted == Retain:
		if scaledDown {
			add(pod, podAPIVersion, podKind)
		}
	case policy.WhenScaled == Delete && policy.WhenDeleted == Delete:
		if scaledDown {
			add(pod, podAPIVersion, podKind)
		} else {
			add(set, setAPIVersion, setKind)
		}
	}
	return refs
}

// ClaimIsStale reports whether a claim blocks the creation of pod: under
// set's whenScaled Delete, a claim whose reference to the pod's name
// carries another UID (a pod not yet created has no UID, so any such
// reference is stale). A nil claim or set is not stale.
//
// Source: upstream pkg/controller/statefulset stateful_pod_control.go
// PodClaimIsStale, stateful_set_utils.go hasStaleOwnerRef (v1.36.3).
func ClaimIsStale(c *Claim, set *StatefulSet, pod Owner) bool {
	if c == nil || set == nil || set.Retention().WhenScaled == Retain {
		return false
	}
	return staleRef(c, pod, podAPIVersion, podKind)
}
