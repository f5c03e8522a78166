package statefulset

import (
	"cmp"
	"slices"

	"github.com/kubesem/kubesem/history"
)

// RevisionVerb is what a RevisionWrite does.
type RevisionVerb string

// Revision writes.
const (
	RevisionCreate RevisionVerb = "create"
	RevisionUpdate RevisionVerb = "update"
	RevisionDelete RevisionVerb = "delete"
)

// RevisionWrite is one ControllerRevision write: a new revision, an older
// one renumbered (rollback), or one deleted by the history limit.
type RevisionWrite struct {
	Verb     RevisionVerb `json:"verb"`
	Name     string       `json:"name"`
	Revision int64        `json:"revision"`
	Reason   Reason       `json:"reason"`
}

// SortRevisions sorts revisions by revision number, then creation time,
// then name (SortControllerRevisions, controller/history, v1.36.3).
func SortRevisions(revs []history.ControllerRevision) {
	slices.SortStableFunc(revs, func(a, b history.ControllerRevision) int {
		if c := cmp.Compare(a.Revision, b.Revision); c != 0 {
			return c
		}
		if c := a.CreationTimestamp.Compare(b.CreationTimestamp); c != 0 {
			return c
		}
		return cmp.Compare(a.Name, b.Name)
	})
}

// Revisions returns the current and update revision names and the write
// (if any) that makes the update revision the newest: the newest revision
// when it already is the template's; the template's older revision
// renumbered past the newest (rollback); otherwise a new revision numbered
// one past the newest. The current revision is status.currentRevision when
// such a revision exists, else the update revision. revs must be sorted
// with [SortRevisions] (getStatefulSetRevisions, stateful_set_control.go,
// v1.36.3; revisions are equal when their names are).
func Revisions(set *StatefulSet, revs []history.ControllerRevision) (current, update string, write *RevisionWrite) {
	next := int64(1)
	if n := len(revs); n > 0 {
		next = revs[n-1].Revision + 1
	}
	update = set.Spec.TemplateRevision
	eq := -1
	for i := range revs {
		if revs[i].Name == update {
			eq = i
		}
	}
	switch {
	case eq >= 0 && eq == len(revs)-1:
	case eq >= 0:
		write = &RevisionWrite{Verb: RevisionUpdate, Name: update, Revision: next, Reason: ReasonRollback}
	default:
		write = &RevisionWrite{Verb: RevisionCreate, Name: update, Revision: next, Reason: ReasonRevisionCreated}
	}
	current = update
	for i := range revs {
		if revs[i].Name == set.Status.CurrentRevision {
			current = revs[i].Name
			break
		}
	}
	return current, update, write
}

// TruncateHistory returns the revisions deleted to keep revisionHistoryLimit
// non-live revisions, oldest first; a revision is live when it is current,
// update or some pod's controller-revision-hash. A negative limit keeps all
// (truncateHistory, stateful_set_control.go, v1.36.3). revs must be sorted.
func TruncateHistory(revs []history.ControllerRevision, limit int32, live func(name string) bool) []RevisionWrite {
	var hist []int
	for i := range revs {
		if !live(revs[i].Name) {
			hist = append(hist, i)
		}
	}
	if limit < 0 || len(hist) <= int(limit) {
		return nil
	}
	hist = hist[:len(hist)-int(limit)]
	out := make([]RevisionWrite, 0, len(hist))
	for _, i := range hist {
		out = append(out, RevisionWrite{Verb: RevisionDelete, Name: revs[i].Name, Revision: revs[i].Revision, Reason: ReasonHistoryLimit})
	}
	return out
}
