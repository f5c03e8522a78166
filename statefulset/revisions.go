package statefulset

import (
	"github.com/kubesem/kubesem/history"
	"github.com/kubesem/kubesem/plan"
)

// Revisions returns the current and update revision names and the write
// (if any) that makes the update revision the newest: the newest revision
// when it already is the template's; the template's older revision
// renumbered past the newest (rollback); otherwise a new revision numbered
// one past the newest. The current revision is status.currentRevision when
// such a revision exists, else the update revision. revs must be sorted
// with [history.Sort]. Revisions are equal when their names are (see the
// package's Divergences).
//
// Source: upstream pkg/controller/statefulset stateful_set_control.go
// getStatefulSetRevisions; stateful_set_utils.go nextRevision (v1.36.3).
func Revisions(set *StatefulSet, revs []history.ControllerRevision) (current, update string, write *history.Write) {
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
		write = &history.Write{Verb: plan.VerbUpdate, Name: update, Revision: next, Reason: ReasonRollback}
	default:
		write = &history.Write{Verb: plan.VerbCreate, Name: update, Revision: next, Reason: ReasonRevisionCreated}
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
// non-live revisions, oldest first; live reports whether a revision is
// current, update or some pod's controller-revision-hash. A negative limit
// keeps all. revs must be sorted with [history.Sort].
//
// Source: upstream pkg/controller/statefulset stateful_set_control.go
// truncateHistory (v1.36.3).
func TruncateHistory(revs []history.ControllerRevision, limit int32, live func(name string) bool) []history.Write {
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
	out := make([]history.Write, 0, len(hist))
	for _, i := range hist {
		out = append(out, history.Write{Verb: plan.VerbDelete, Name: revs[i].Name, Revision: revs[i].Revision, Reason: ReasonHistoryLimit})
	}
	return out
}
