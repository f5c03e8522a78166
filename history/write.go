package history

import (
	"cmp"
	"slices"

	"github.com/kubesem/kubesem/plan"
)

// HashLabel is the label controller-revision-hash: on a pod, the
// revision of the template it was created from (a StatefulSet pod carries
// its ControllerRevision's name, a DaemonSet pod the template hash); on a
// DaemonSet's ControllerRevision, the template hash it stores.
//
// Source: apps/v1 ControllerRevisionHashLabelKey, StatefulSetRevisionLabel
// and DefaultDaemonSetUniqueLabelKey (k8s.io/api v0.36.3).
const HashLabel = "controller-revision-hash"

// RevisionHashLabel is the label controller.kubernetes.io/hash that
// NewControllerRevision puts on the revisions it builds (a StatefulSet's):
// the hash of the revision's data.
//
// Source: ControllerRevisionHashLabel, pkg/controller/history (v1.36.3).
const RevisionHashLabel = "controller.kubernetes.io/hash"

// The reasons of a [Write].
const (
	// ReasonNewRevision: no revision holds the current template; one is
	// created, numbered one past the newest.
	ReasonNewRevision plan.Reason = "NewRevision"
	// ReasonRollback: an older revision holds the current template; it is
	// renumbered one past the newest.
	ReasonRollback plan.Reason = "Rollback"
	// ReasonHistoryLimit: a revision no pod uses, beyond
	// spec.revisionHistoryLimit, is deleted.
	ReasonHistoryLimit plan.Reason = "HistoryLimit"
)

// Write is one ControllerRevision write of a sync: Verb create (a new
// revision for the current template), update (an older revision
// renumbered to Revision) or delete (history beyond the limit, Revision
// its number). Hash is the revision's template hash when the kind labels
// it with one (a DaemonSet's controller-revision-hash; "" for a
// StatefulSet, whose revisions are identified by name).
//
// The StatefulSet and DaemonSet Plans both list their revision writes as
// Revisions []Write (JSON "revisions"), in the controller's order.
type Write struct {
	Verb     plan.Verb   `json:"verb"`
	Name     string      `json:"name"`
	Revision int64       `json:"revision"`
	Hash     string      `json:"hash,omitempty"`
	Reason   plan.Reason `json:"reason"`
}

// Sort sorts revisions from oldest to newest: by revision number, then
// creation time, then name.
//
// Source: SortControllerRevisions, pkg/controller/history (v1.36.3), a
// stable sort by revision number then creation time, which leaves ties
// in list order; the name makes the order independent of it.
func Sort(revs []ControllerRevision) {
	slices.SortStableFunc(revs, Compare)
}

// Compare orders a before b as [Sort] does: by revision number, then
// creation time, then name.
func Compare(a, b ControllerRevision) int {
	if c := cmp.Compare(a.Revision, b.Revision); c != 0 {
		return c
	}
	if c := a.CreationTimestamp.Compare(b.CreationTimestamp); c != 0 {
		return c
	}
	return cmp.Compare(a.Name, b.Name)
}
