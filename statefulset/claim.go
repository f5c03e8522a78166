package statefulset

import (
	"cmp"
	"slices"
	"strings"

	"github.com/kubesem/kubesem/history"
	"github.com/kubesem/kubesem/meta"
	"github.com/kubesem/kubesem/podstatus"
)

// Ownership is what the controller does with an object it lists (see
// [meta.Ownership]).
type Ownership = meta.Ownership

// Ownerships.
const (
	Owned   = meta.Owned
	Adopt   = meta.Adopt
	Release = meta.Release
	Ignore  = meta.Ignore
)

// Reasons of the claim's writes.
const (
	// ReasonOrphanSelected: an orphan pod or revision the set claims is
	// adopted.
	ReasonOrphanSelected Reason = "OrphanSelected"
	// ReasonSelectorMismatch: a pod the set controls and no longer claims
	// (not selected, or not named after the set) is released.
	ReasonSelectorMismatch Reason = "SelectorMismatch"
	// ReasonCannotAdopt: the set is being deleted and has orphan revisions
	// to adopt: the adoption fails and the sync ends with an error.
	ReasonCannotAdopt Reason = "CannotAdopt"
)

// ObjectRef names a pod or ControllerRevision a Plan adopts or releases.
type ObjectRef struct {
	Name   string `json:"name"`
	UID    string `json:"uid,omitempty"`
	Reason Reason `json:"reason,omitempty"`
}

// ClaimPod decides what the controller does with pod p, listed in set's
// namespace: set claims a pod its selector selects that is one of its
// members by name ([IsMemberOf]). A pod set
// controls (by UID) is Owned while claimed and released otherwise, unless
// set is being deleted (then ignored); an orphan set claims is adopted
// unless set or the pod is being deleted or the pod lives in another
// namespace; anything else (another controller's, an orphan set does not
// claim, nil) is ignored. A pod whose controller reference names set's
// UID under another kind or name, or in another namespace, is ignored:
// upstream's pod index (FilterPodsByOwner) does not list it.
//
// Source: upstream pkg/controller/statefulset/stateful_set.go
// getPodsForStatefulSet (isMemberOf), canAdoptFunc;
// pkg/controller/controller_ref_manager.go ClaimPods, ClaimObject
// (v1.36.3).
func ClaimPod(set *StatefulSet, p *podstatus.Pod) Ownership {
	if set == nil {
		return Ignore
	}
	return claimPod(set, set.Spec.Selector.Matches, p)
}

func claimPod(set *StatefulSet, selects func(map[string]string) bool, p *podstatus.Pod) Ownership {
	if p == nil {
		return Ignore
	}
	if ref := p.ControllerRef(); ref != nil && ref.UID == set.UID &&
		(ref.Kind != "StatefulSet" || ref.Name != set.Name || set.Namespace != "" && p.Namespace != "" && p.Namespace != set.Namespace) {
		return Ignore // (upstream's pod index, keyed by namespace, kind, name and UID, does not list it)
	}
	return meta.ClaimObject(&set.ObjectMeta, &p.ObjectMeta, selects(p.Labels) && IsMemberOf(set.Name, p.Name))
}

// ClaimRevision decides what the controller does with ControllerRevision
// r, listed in set's namespace: the revisions of the set are those it
// controls (by UID) and the orphans, whose labels its selector selects;
// an orphan among them is adopted (whether r or set is being deleted: the
// adoption of a set being deleted then fails, see [Step]); any other
// revision is ignored. The controller never releases a revision.
//
// Source: upstream pkg/controller/statefulset/stateful_set.go
// adoptOrphanRevisions; stateful_set_control.go ListRevisions,
// AdoptOrphanRevisions; pkg/controller/history/controller_history.go
// ListControllerRevisions, AdoptControllerRevision (v1.36.3).
func ClaimRevision(set *StatefulSet, r *history.ControllerRevision) Ownership {
	if set == nil {
		return Ignore
	}
	return claimRevision(set, set.Spec.Selector.Matches, r)
}

func claimRevision(set *StatefulSet, selects func(map[string]string) bool, r *history.ControllerRevision) Ownership {
	if r == nil || !selects(r.Labels) {
		return Ignore
	}
	ref := r.ControllerRef()
	switch {
	case ref == nil:
		return Adopt
	case ref.UID == set.UID:
		return Owned
	}
	return Ignore
}

// claimed is what a sync claims: the pods and revisions it works with (in
// input order) and the claim's writes, each list by name, then UID.
type claimed struct {
	pods                []*podstatus.Pod
	revisions           []history.ControllerRevision
	adopt, release      []ObjectRef
	adoptRevisions      []ObjectRef
	stalePods, staleRev map[string]bool
}

func claimAll(set *StatefulSet, pods []*podstatus.Pod, revisions []history.ControllerRevision) claimed {
	var c claimed
	selects := set.Spec.Selector.Matcher()
	c.pods = pods[:0:0]
	for i, p := range pods {
		switch claimPod(set, selects, p) {
		case Owned:
			if len(c.pods) == i {
				c.pods = pods[: i+1 : i+1]
				continue
			}
			c.pods = append(c.pods, p)
		case Adopt:
			c.pods = append(c.pods, p)
			c.adopt = append(c.adopt, ObjectRef{Name: p.Name, UID: p.UID, Reason: ReasonOrphanSelected})
		case Release:
			c.release = append(c.release, ObjectRef{Name: p.Name, UID: p.UID, Reason: ReasonSelectorMismatch})
		}
	}
	c.revisions = revisions[:0:0]
	for i := range revisions {
		switch claimRevision(set, selects, &revisions[i]) {
		case Owned:
			if len(c.revisions) == i {
				c.revisions = revisions[: i+1 : i+1]
				continue
			}
			c.revisions = append(c.revisions, revisions[i])
		case Adopt:
			c.revisions = append(c.revisions, revisions[i])
			c.adoptRevisions = append(c.adoptRevisions, ObjectRef{Name: revisions[i].Name, UID: revisions[i].UID, Reason: ReasonOrphanSelected})
		}
	}
	byName := func(a, b ObjectRef) int {
		return cmp.Or(strings.Compare(a.Name, b.Name), strings.Compare(a.UID, b.UID))
	}
	for _, l := range [][]ObjectRef{c.adopt, c.release, c.adoptRevisions} {
		slices.SortFunc(l, byName)
	}
	c.stalePods = names(c.adopt, c.release)
	c.staleRev = names(c.adoptRevisions)
	return c
}

// names returns the set of the names refs hold (nil when none).
func names(refs ...[]ObjectRef) map[string]bool {
	var m map[string]bool
	for _, l := range refs {
		for _, r := range l {
			if m == nil {
				m = map[string]bool{}
			}
			m[r.Name] = true
		}
	}
	return m
}
