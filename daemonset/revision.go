package daemonset

import (
	"cmp"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/kubesem/kubesem/field"
	"github.com/kubesem/kubesem/history"
	"github.com/kubesem/kubesem/plan"
	"github.com/kubesem/kubesem/podstatus"
)

// ErrUpstreamCrashes marks an input on which v1.36.3's controller crashes
// (a Go panic) instead of deciding: kubesem reports it rather than guess.
var ErrUpstreamCrashes = errors.New("v1.36.3's controller crashes on this input")

// History is the DaemonSet's ControllerRevisions and the hash of its
// current template. Upstream computes Hash from the template with
// controller.ComputeHash; kubesem takes it as input (UPSTREAM §14.3).
type History struct {
	Hash      string                       `json:"hash"`
	Revisions []history.ControllerRevision `json:"revisions,omitempty"`
	// Same names the revisions that hold the current template under
	// another hash (upstream's Match compares a revision's stored data
	// with the template; a revision of hash Hash is taken to hold it):
	// duplicates of the current revision, deduplicated with it.
	// k8s.DaemonSetHistory fills it from real objects.
	Same []string `json:"same,omitempty"`
}

// RevisionHash returns the hash a DaemonSet's ControllerRevision stands
// for: its controller-revision-hash label, or its name when it has none
// (the controller then labels it with its name).
//
// Source: upstream pkg/controller/daemon constructHistory (v1.36.3).
func RevisionHash(r *history.ControllerRevision) string {
	if h, ok := r.Labels[history.HashLabel]; ok {
		return h
	}
	return r.Name
}

// revision is a ControllerRevision as the sync reads it.
type revision struct {
	name     string
	revision int64
	hash     string
	created  time.Time
}

// model is r as a history.ControllerRevision, for its order.
func (r revision) model() history.ControllerRevision {
	c := history.ControllerRevision{Revision: r.revision}
	c.Name, c.CreationTimestamp = r.name, r.created
	return c
}

// constructHistory returns the DaemonSet's old revisions (those of
// another hash) and its revision writes: first the label updates of the
// claimed revisions without the controller-revision-hash label
// ([LabelRevisions]), then the write that makes the current template's
// revision the newest: its creation, named "<ds>-<hash>" and numbered one
// past the old revisions, when no revision has its hash; its renumbering
// when an old revision is newer; none otherwise; and the hash the sync
// goes on with (the kept current revision's, as upstream reads it from
// that revision's label). hist.Revisions are the claimed revisions, all
// the revisions Step was given.
//
// Source: upstream pkg/controller/daemon update.go constructHistory,
// maxRevision (v1.36.3).
func constructHistory(ds *DaemonSet, hist History, all []history.ControllerRevision, pods []*podstatus.Pod) (old []revision, ws []history.Write, relabel []ObjectRef, hash string, err error) {
	if ws, err = LabelRevisions(hist.Revisions); err != nil {
		// (the path of the revision in the input, not among the claimed)
		for i := range hist.Revisions {
			r := &hist.Revisions[i]
			if _, ok := r.Labels[history.HashLabel]; !ok && len(r.Labels) == 0 {
				j := slices.IndexFunc(all, func(a history.ControllerRevision) bool { return a.Name == r.Name && a.UID == r.UID })
				return nil, nil, nil, "", field.Under("history", bareRevision(j, r))
			}
		}
		return nil, nil, nil, "", err
	}
	old, cur, dups := splitHistory(hist)
	next := int64(1)
	for _, r := range old {
		next = max(next, r.revision+1)
	}
	if cur == nil {
		ws = append(ws, history.Write{Verb: plan.VerbCreate, Name: ds.Name + "-" + hist.Hash, Revision: next, Hash: hist.Hash, Reason: ReasonRevisionCreated})
		return old, ws, nil, hist.Hash, nil
	}
	if len(dups) > 0 {
		relabel = Relabel(pods, cur.hash)
		for _, d := range dups {
			ws = append(ws, history.Write{Verb: plan.VerbDelete, Name: d.name, Revision: d.revision, Hash: d.hash, Reason: ReasonDuplicateRevision})
		}
	}
	if cur.revision < next {
		ws = append(ws, history.Write{Verb: plan.VerbUpdate, Name: cur.name, Revision: next, Hash: cur.hash, Reason: ReasonRollback})
	}
	return old, ws, relabel, cur.hash, nil
}

// Relabel returns the pods whose controller-revision-hash label is not
// hash, by name, then UID: when more than one of a DaemonSet's revisions
// holds the current template, the controller sets that label of every pod
// it claims (of any template) to the kept revision's hash before it
// deletes the others. pods are the pods the DaemonSet claims.
//
// Source: upstream pkg/controller/daemon update.go dedupCurHistories
// (v1.36.3).
func Relabel(pods []*podstatus.Pod, hash string) []ObjectRef {
	var out []ObjectRef
	for _, p := range pods {
		if p != nil && p.Labels[history.HashLabel] != hash {
			out = append(out, ObjectRef{Name: p.Name, UID: p.UID, Reason: ReasonDuplicateRevision})
		}
	}
	slices.SortFunc(out, compareRefs)
	return out
}

// bareRevision is LabelRevisions' error for r, the i-th revision of its
// list.
func bareRevision(i int, r *history.ControllerRevision) error {
	return field.New(field.Child(field.Index("revisions", i), "metadata.labels"), "",
		fmt.Errorf("revision %q has no labels: v1.36.3's DaemonSet controller crashes adding its controller-revision-hash label (an assignment into a nil map): %w", r.Name, ErrUpstreamCrashes))
}

// LabelRevisions returns the updates that give each of the DaemonSet's
// claimed revisions without the controller-revision-hash label that label,
// set to the revision's name (its [RevisionHash]), by name, then UID: the
// controller labels them before it compares any with the template. A
// revision with no labels at all is an error: upstream's controller
// assigns into its nil label map and crashes (it cannot be claimed by a
// selector that requires a label, but can by one of only NotIn and
// DoesNotExist requirements), so no answer is upstream's; the error's
// path indexes claimed.
//
// Source: upstream pkg/controller/daemon update.go constructHistory
// (v1.36.3).
func LabelRevisions(claimed []history.ControllerRevision) ([]history.Write, error) {
	var out []history.Write
	var idx []int
	for i := range claimed {
		r := &claimed[i]
		if _, ok := r.Labels[history.HashLabel]; ok {
			continue
		}
		if len(r.Labels) == 0 {
			return nil, bareRevision(i, r)
		}
		idx = append(idx, i)
	}
	slices.SortFunc(idx, func(a, b int) int {
		return cmp.Or(strings.Compare(claimed[a].Name, claimed[b].Name), strings.Compare(claimed[a].UID, claimed[b].UID))
	})
	for _, i := range idx {
		out = append(out, history.Write{Verb: plan.VerbUpdate, Name: claimed[i].Name, Revision: claimed[i].Revision, Hash: claimed[i].Name, Reason: ReasonRevisionLabelled})
	}
	return out, nil
}

// currentHash is the hash a sync goes on with: the kept current
// revision's (of h.Hash or h.Same), else h.Hash.
func currentHash(h History) string {
	if _, cur, _ := splitHistory(h); cur != nil {
		return cur.hash
	}
	return h.Hash
}

// splitHistory splits h into the old revisions, the current one (the
// newest of h.Hash's and h.Same's; of equal numbers, the last) and the
// current one's duplicates (the others, by name, then revision).
func splitHistory(h History) (old []revision, cur *revision, dups []revision) {
	var curs []revision
	for i := range h.Revisions {
		hr := &h.Revisions[i]
		r := revision{created: hr.CreationTimestamp, name: hr.Name, revision: hr.Revision, hash: RevisionHash(hr)}
		if r.hash == h.Hash && h.Hash != "" || slices.Contains(h.Same, r.name) {
			if cur == nil || r.revision >= cur.revision {
				c := r
				cur = &c
			}
			curs = append(curs, r)
			continue
		}
		old = append(old, r)
	}
	for _, r := range curs {
		if r != *cur {
			dups = append(dups, r)
		}
	}
	slices.SortFunc(dups, func(a, b revision) int {
		return cmp.Or(strings.Compare(a.name, b.name), cmp.Compare(a.revision, b.revision))
	})
	return old, cur, dups
}

// cleanupHistory deletes the oldest old revisions beyond
// revisionHistoryLimit (nil means the API default 10), skipping those
// whose hash a claimed pod carries (terminal deleting pods included).
// Upstream sorts by revision number alone, leaving ties in its lister's
// order; the revisions are taken in [history.Sort] order.
func cleanupHistory(ds *DaemonSet, old []revision, pods []*podstatus.Pod) []history.Write {
	keep := int32(10)
	if ds.Spec.RevisionHistoryLimit != nil {
		keep = *ds.Spec.RevisionHistoryLimit
	}
	toKill := len(old) - int(keep)
	if toKill <= 0 {
		return nil
	}
	live := map[string]bool{}
	for _, pod := range pods {
		if pod == nil {
			continue
		}
		if _, err := TargetNodeName(&pod.Spec); err != nil {
			continue
		}
		if h := pod.Labels[history.HashLabel]; h != "" {
			live[h] = true
		}
	}
	sorted := slices.Clone(old)
	slices.SortStableFunc(sorted, func(a, b revision) int { return history.Compare(a.model(), b.model()) })
	var out []history.Write
	for _, r := range sorted {
		if toKill <= 0 {
			break
		}
		if live[r.hash] {
			continue
		}
		out = append(out, history.Write{Verb: plan.VerbDelete, Name: r.name, Revision: r.revision, Hash: r.hash, Reason: ReasonHistoryLimit})
		toKill--
	}
	return out
}
