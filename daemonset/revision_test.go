package daemonset

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/kubesem/kubesem/field"
	"github.com/kubesem/kubesem/history"
	"github.com/kubesem/kubesem/meta"
	"github.com/kubesem/kubesem/plan"
	"github.com/kubesem/kubesem/podstatus"
)

// A ControllerRevision as the API server returns it stands for its
// controller-revision-hash label, or its name when unlabelled; an empty
// label is the empty hash.
func TestRevisionHash(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		in         string
		name, want string
	}{
		{`{"apiVersion":"apps/v1","kind":"ControllerRevision","metadata":{"name":"agent-6c8d7b9f4","labels":{"controller-revision-hash":"6c8d7b9f4"}},"revision":2}`,
			"agent-6c8d7b9f4", "6c8d7b9f4"},
		{`{"metadata":{"name":"agent-old"},"revision":1}`, "agent-old", "agent-old"},
		{`{"metadata":{"name":"agent-e","labels":{"controller-revision-hash":""}},"revision":1}`, "agent-e", ""},
	} {
		var r history.ControllerRevision
		if err := json.Unmarshal([]byte(c.in), &r); err != nil || r.Name != c.name {
			t.Fatalf("%s: %+v, %v", c.in, r, err)
		}
		if got := RevisionHash(&r); got != c.want {
			t.Errorf("%s: RevisionHash = %q; want %q", c.in, got, c.want)
		}
	}
}

func TestStepRevisions(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name           string
		h              History
		create, update *history.Write
	}{
		{"current is the newest", History{Hash: "new", Revisions: []history.ControllerRevision{rev("ds-old", 1, "old"), rev("ds-new", 2, "new")}}, nil, nil},
		{"current renumbered past the old ones", History{Hash: "new", Revisions: []history.ControllerRevision{rev("ds-new", 1, "new"), rev("ds-old", 4, "old")}}, nil, &history.Write{Verb: plan.VerbUpdate, Name: "ds-new", Revision: 5, Hash: "new", Reason: ReasonRollback}},
		{"no current: created with max+1", History{Hash: "new", Revisions: []history.ControllerRevision{rev("ds-a", 2, "a"), rev("ds-b", 7, "b")}}, &history.Write{Verb: plan.VerbCreate, Name: "ds-new", Revision: 8, Hash: "new", Reason: ReasonRevisionCreated}, nil},
		{"no revisions: created as 1", History{Hash: "new"}, &history.Write{Verb: plan.VerbCreate, Name: "ds-new", Revision: 1, Hash: "new", Reason: ReasonRevisionCreated}, nil},
		{"two current: the newest is kept, the other deleted", History{Hash: "new", Revisions: []history.ControllerRevision{rev("ds-new-2", 3, "new"), rev("ds-new", 2, "new"), rev("ds-old", 1, "old")}}, &history.Write{Verb: plan.VerbDelete, Name: "ds-new", Revision: 2, Hash: "new", Reason: ReasonDuplicateRevision}, nil},
		{"two current of one number: the last is kept", History{Hash: "new", Revisions: []history.ControllerRevision{rev("ds-new-a", 1, "new"), rev("ds-new-b", 1, "new"), rev("ds-old", 3, "old")}}, &history.Write{Verb: plan.VerbDelete, Name: "ds-new-a", Revision: 1, Hash: "new", Reason: ReasonDuplicateRevision}, &history.Write{Verb: plan.VerbUpdate, Name: "ds-new-b", Revision: 4, Hash: "new", Reason: ReasonRollback}},
	} {
		p, err := Step(testDS(), nil, nil, c.h, nil, tNow, Options{})
		if err != nil {
			t.Fatal(err)
		}
		var want []history.Write
		for _, w := range []*history.Write{c.create, c.update} {
			if w != nil {
				want = append(want, *w)
			}
		}
		if !slices.Equal(p.Revisions, want) {
			t.Errorf("%s: revisions %+v, want %+v", c.name, p.Revisions, want)
		}
	}
}

func TestCleanupHistory(t *testing.T) {
	t.Parallel()
	old := []revision{{name: "r3", revision: 3, hash: "h3"}, {name: "r1", revision: 1, hash: "h1"}, {name: "r2", revision: 2, hash: "h2"}, {name: "r4", revision: 4, hash: "h4"}}
	one := int32(1)
	ds := testDS()
	ds.Spec.RevisionHistoryLimit = &one
	live := deleting(withPhase(testPod("p", "a", "h1", tHour, never), podstatus.Failed), tHour) // terminal deleting pods keep their hash live
	got := cleanupHistory(ds, old, []*podstatus.Pod{live})
	var gotNames []string
	for _, d := range got {
		gotNames = append(gotNames, d.Name)
		if d.Reason != ReasonHistoryLimit {
			t.Errorf("reason %s", d.Reason)
		}
	}
	if want := []string{"r2", "r3", "r4"}; !slices.Equal(gotNames, want) {
		t.Errorf("limit 1: deleted %v; want %v (oldest first, r1's hash is live, so one more is kept than the limit)", gotNames, want)
	}
	ds.Spec.RevisionHistoryLimit = nil
	var ten []revision
	for i := range 10 {
		ten = append(ten, revision{name: fmt.Sprint("r", i), revision: int64(i), hash: fmt.Sprint("h", i)})
	}
	if got := cleanupHistory(ds, ten, nil); len(got) != 0 {
		t.Errorf("no limit reads as 10: 10 old revisions, deleted %v", got)
	}
	if got := cleanupHistory(ds, append(ten, revision{name: "r10", revision: 10, hash: "h10"}), nil); len(got) != 1 || got[0].Name != "r0" {
		t.Errorf("no limit reads as 10: 11 old revisions, deleted %v", got)
	}
}

// A claimed revision stored without the controller-revision-hash label is
// labelled with its name before anything else (by name, then UID), and its
// written object carries the label, as does a renumbering of it after; an
// unclaimed one is left alone; one with no labels at all is an error.
func TestLabelRevisions(t *testing.T) {
	t.Parallel()
	unlabelled := func(name string, n int64) history.ControllerRevision {
		r := rev(name, n, "")
		delete(r.Labels, history.HashLabel)
		return r
	}
	foreign := unlabelled("ds-foreign", 9)
	foreign.OwnerReferences = []meta.OwnerReference{meta.NewControllerRef("apps/v1", "DaemonSet", "other", "other-uid")}
	h := History{Hash: "ds-cur", Revisions: []history.ControllerRevision{unlabelled("ds-old", 2), foreign, unlabelled("ds-cur", 1), rev("ds-x", 1, "x")}}
	ds := testDS()
	p, err := Step(ds, nil, nil, h, nil, tNow, Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := []history.Write{
		{Verb: plan.VerbUpdate, Name: "ds-cur", Revision: 1, Hash: "ds-cur", Reason: ReasonRevisionLabelled},
		{Verb: plan.VerbUpdate, Name: "ds-old", Revision: 2, Hash: "ds-old", Reason: ReasonRevisionLabelled},
		{Verb: plan.VerbUpdate, Name: "ds-cur", Revision: 3, Hash: "ds-cur", Reason: ReasonRollback},
	}
	if !slices.Equal(p.Revisions, want) {
		t.Fatalf("revisions %+v, want %+v", p.Revisions, want)
	}
	ws, err := p.Writes(ds, nil, h)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, w := range ws {
		if w.Resource != "controllerrevisions" {
			continue
		}
		r := w.Object.(*history.ControllerRevision)
		got = append(got, fmt.Sprintf("%s %s %d %s", w.Verb, r.Name, r.Revision, r.Labels[history.HashLabel]))
	}
	if w := []string{"update ds-cur 1 ds-cur", "update ds-old 2 ds-old", "update ds-cur 3 ds-cur"}; !slices.Equal(got, w) {
		t.Errorf("writes %q, want %q", got, w)
	}
	if _, ok := h.Revisions[0].Labels[history.HashLabel]; ok {
		t.Error("Writes labelled its input")
	}

	bare := unlabelled("ds-bare", 1)
	bare.Labels = nil
	ds.Spec.Selector = &meta.LabelSelector{MatchExpressions: []meta.Requirement{{Key: "tier", Operator: meta.OpDoesNotExist}}}
	_, err = Step(ds, nil, nil, History{Hash: "x", Revisions: []history.ControllerRevision{foreign, rev("ds-x", 1, "x"), bare}}, nil, tNow, Options{})
	var fe *field.Error
	if !errors.As(err, &fe) || !errors.Is(err, ErrUpstreamCrashes) || fe.Path != "history.revisions[2].metadata.labels" {
		t.Fatalf("a claimed revision without labels: %v", err)
	}
}

// With two revisions of the current hash, the sync lists (and claims) the
// pods once more, patches every claimed pod of another hash with the kept
// hash, deletes the other revision, then renumbers the kept one; an
// adopted pod's relabelling keeps its adoption, and the later listings'
// adoption patches carry the label (each patch replaces the object here).
func TestDedupWrites(t *testing.T) {
	t.Parallel()
	ds := testDS()
	mine := testPod("p1", "a", "old", tHour, never)
	orphan := testPod("p2", "b", "old", tHour, never)
	orphan.OwnerReferences = nil
	current := testPod("p3", "c", "new", tHour, never)
	pods := []*podstatus.Pod{mine, orphan, current}
	h := History{Hash: "new", Revisions: []history.ControllerRevision{rev("ds-new", 2, "new"), rev("ds-new-2", 1, "new"), rev("ds-old", 3, "old")}}
	p, err := Step(ds, nil, pods, h, nil, tNow, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if w := []ObjectRef{{"p1", mine.UID, ReasonDuplicateRevision}, {"p2", orphan.UID, ReasonDuplicateRevision}}; !slices.Equal(p.Relabel, w) {
		t.Fatalf("relabel %v, want %v", p.Relabel, w)
	}
	ws, err := p.Writes(ds, pods, h)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, w := range ws {
		s := string(w.Verb) + " " + w.Resource + "/" + w.Name
		if pod, ok := w.Object.(*podstatus.Pod); ok {
			s += fmt.Sprintf(" %s owned=%v", pod.Labels[history.HashLabel], pod.IsControlledBy(ds.UID))
		}
		got = append(got, s)
	}
	want := []string{
		"patch pods/p2 old owned=true", // the dedup's listing claims the orphan
		"patch pods/p1 new owned=true", // the relabelling
		"patch pods/p2 new owned=true", // (adopted, the adoption kept)
		"delete controllerrevisions/ds-new-2",
		"update controllerrevisions/ds-new",
		"patch pods/p2 new owned=true", // manage's listing
	}
	if len(got) < len(want) || !slices.Equal(got[:len(want)], want) {
		t.Fatalf("writes\n%s\nwant first\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if mine.Labels[history.HashLabel] != "old" || orphan.Labels[history.HashLabel] != "old" || orphan.OwnerReferences != nil {
		t.Error("Writes changed its input")
	}
}
