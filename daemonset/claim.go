package daemonset

import (
	"cmp"
	"slices"
	"strings"

	"github.com/kubesem/kubesem/history"
	"github.com/kubesem/kubesem/meta"
	"github.com/kubesem/kubesem/podstatus"
)

// Ownership is what the controller does with a pod or ControllerRevision
// it lists (see [meta.Ownership]).
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
	// ReasonOrphanSelected: an orphan pod or revision the selector selects
	// is adopted.
	ReasonOrphanSelected Reason = "OrphanSelected"
	// ReasonSelectorMismatch: a pod or revision the DaemonSet controls and
	// no longer selects is released.
	ReasonSelectorMismatch Reason = "SelectorMismatch"
)

// ObjectRef names a pod or ControllerRevision a Plan adopts or releases.
type ObjectRef struct {
	Name   string `json:"name"`
	UID    string `json:"uid,omitempty"`
	Reason Reason `json:"reason,omitempty"`
}

// ClaimPod decides what the controller does with pod p, listed in ds's
// namespace: a pod ds controls (by UID) is Owned while ds's selector
// selects its labels and released otherwise, unless ds is being deleted
// (then ignored); an orphan the selector selects is adopted unless ds or
// the pod is being deleted or the pod lives in another namespace (a ds
// without namespace checks none); anything else (another controller's, an
// orphan not selected, nil) is ignored. A nil selector selects nothing. A
// pod whose controller reference names ds's UID but another kind or name,
// or in another namespace, is ignored: upstream's index does not list it.
//
// The adoption's recheck of ds against the API server (a read of the live
// DaemonSet) sees ds as given: the input is taken as fresh.
//
// Source: upstream pkg/controller/daemon/daemon_controller.go
// getDaemonPods; pkg/controller/controller_ref_manager.go ClaimPods,
// ClaimObject, RecheckDeletionTimestamp (v1.36.3).
func ClaimPod(ds *DaemonSet, p *podstatus.Pod) Ownership {
	if ds == nil || p == nil || !listsPod(ds, p) {
		return Ignore
	}
	return claimObject(ds, ds.Spec.Selector.Matches, &p.ObjectMeta)
}

// listsPod reports whether the controller's listing of ds's pods holds p
// at all: upstream looks pods up in an index keyed by namespace and
// controller reference (kind, name and UID), so a pod whose controller
// reference names ds's UID under another kind or name, or that lives in
// another namespace, is not listed. An object without namespace is taken
// as in ds's (inputs may leave it out).
func listsPod(ds *DaemonSet, p *podstatus.Pod) bool {
	ref := p.ControllerRef()
	if ref == nil || ref.UID != ds.UID {
		return true // (an orphan's namespace is the claim's to check; another's is ignored anyway)
	}
	return ref.Kind == "DaemonSet" && ref.Name == ds.Name && sameNamespace(ds, &p.ObjectMeta)
}

// sameNamespace reports whether m is in ds's namespace, either being
// empty counting as the same.
func sameNamespace(ds *DaemonSet, m *meta.ObjectMeta) bool {
	return ds.Namespace == "" || m.Namespace == "" || ds.Namespace == m.Namespace
}

// ClaimRevision decides what the controller does with ControllerRevision
// r, listed in ds's namespace, by the rule of [ClaimPod] on its labels: a
// revision ds controls is Owned while selected, else released (unless ds
// is being deleted); an orphan selected is adopted unless ds or r is being
// deleted or r lives in another namespace; others (those of another
// namespace, which upstream's lister does not list, included) are ignored.
//
// Source: upstream pkg/controller/daemon/update.go controlledHistories;
// pkg/controller/controller_ref_manager.go ClaimControllerRevisions,
// ClaimObject (v1.36.3).
func ClaimRevision(ds *DaemonSet, r *history.ControllerRevision) Ownership {
	if ds == nil || r == nil || !sameNamespace(ds, &r.ObjectMeta) {
		return Ignore
	}
	return claimObject(ds, ds.Spec.Selector.Matches, &r.ObjectMeta)
}

func claimObject(ds *DaemonSet, selects func(map[string]string) bool, m *meta.ObjectMeta) Ownership {
	return meta.ClaimObject(&ds.ObjectMeta, m, selects(m.Labels))
}

// claimed is what a sync claims: the pods and revisions it works with (in
// input order) and the claim's writes, each list by name, then UID.
type claimed struct {
	pods                             []*podstatus.Pod
	revisions                        []history.ControllerRevision
	adopt, release                   []ObjectRef
	adoptRevisions, releaseRevisions []ObjectRef
}

// claimAll claims pods and the revisions of hist for ds.
func claimAll(ds *DaemonSet, pods []*podstatus.Pod, revisions []history.ControllerRevision) claimed {
	var c claimed
	selects := ds.Spec.Selector.Matcher()
	c.pods = pods[:0:0]
	for i, p := range pods {
		if p == nil || !listsPod(ds, p) {
			continue
		}
		switch claimObject(ds, selects, &p.ObjectMeta) {
		case Owned:
			if len(c.pods) == i {
				// every one so far is claimed: share the input (capped,
				// so that an append copies)
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
		r := &revisions[i]
		if !sameNamespace(ds, &r.ObjectMeta) {
			continue
		}
		switch claimObject(ds, selects, &r.ObjectMeta) {
		case Owned:
			if len(c.revisions) == i {
				c.revisions = revisions[: i+1 : i+1]
				continue
			}
			c.revisions = append(c.revisions, *r)
		case Adopt:
			c.revisions = append(c.revisions, *r)
			c.adoptRevisions = append(c.adoptRevisions, ObjectRef{Name: r.Name, UID: r.UID, Reason: ReasonOrphanSelected})
		case Release:
			c.releaseRevisions = append(c.releaseRevisions, ObjectRef{Name: r.Name, UID: r.UID, Reason: ReasonSelectorMismatch})
		}
	}
	for _, l := range [][]ObjectRef{c.adopt, c.release, c.adoptRevisions, c.releaseRevisions} {
		slices.SortFunc(l, compareRefs)
	}
	return c
}

func compareRefs(a, b ObjectRef) int {
	return cmp.Or(strings.Compare(a.Name, b.Name), strings.Compare(a.UID, b.UID))
}
