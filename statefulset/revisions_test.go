package statefulset

import (
	"reflect"
	"testing"

	"github.com/kubesem/kubesem/history"
	"github.com/kubesem/kubesem/plan"
)

func TestRevisions(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name             string
		template, status string
		revs             []history.ControllerRevision
		current, update  string
		write            *history.Write
	}{
		{"no revisions: the first", "web-v1", "", nil, "web-v1", "web-v1",
			&history.Write{Verb: plan.VerbCreate, Name: "web-v1", Revision: 1, Reason: ReasonRevisionCreated}},
		{"the newest is the template's: no write", "web-v2", "web-v1", revs("web-v1", "web-v2"), "web-v1", "web-v2", nil},
		{"a new template: one past the newest", "web-v3", "web-v2", revs("web-v1", "web-v2"), "web-v2", "web-v3",
			&history.Write{Verb: plan.VerbCreate, Name: "web-v3", Revision: 3, Reason: ReasonRevisionCreated}},
		{"an older template: renumbered past the newest", "web-v1", "web-v2", revs("web-v1", "web-v2"), "web-v2", "web-v1",
			&history.Write{Verb: plan.VerbUpdate, Name: "web-v1", Revision: 3, Reason: ReasonRollback}},
		{"status names no revision: current is update", "web-v2", "web-gone", revs("web-v1", "web-v2"), "web-v2", "web-v2", nil},
		{"gaps in numbers: one past the highest", "web-new", "web-v1", []history.ControllerRevision{rev("web-v1", 4), rev("web-v2", 9)}, "web-v1", "web-new",
			&history.Write{Verb: plan.VerbCreate, Name: "web-new", Revision: 10, Reason: ReasonRevisionCreated}},
	} {
		s := gset(1, template(c.template), current(c.status, ""))
		cur, upd, w := Revisions(&s, c.revs)
		if cur != c.current || upd != c.update || !reflect.DeepEqual(w, c.write) {
			t.Errorf("%s: %s, %s, %+v; want %s, %s, %+v", c.name, cur, upd, w, c.current, c.update, c.write)
		}
	}
}

func TestTruncateHistory(t *testing.T) {
	t.Parallel()
	names := func(ws []history.Write) []string {
		var out []string
		for _, w := range ws {
			if w.Verb != plan.VerbDelete || w.Reason != ReasonHistoryLimit {
				t.Errorf("write %+v", w)
			}
			out = append(out, w.Name)
		}
		return out
	}
	rs := revs("r1", "r2", "r3", "r4", "r5")
	none := func(string) bool { return false }
	live := func(n string) bool { return n == "r2" || n == "r5" }
	for _, c := range []struct {
		name  string
		limit int32
		live  func(string) bool
		want  []string
	}{
		{"limit equal to the history keeps all", 5, none, nil},
		{"limit one below deletes the oldest", 4, none, []string{"r1"}},
		{"limit 0 deletes all non-live, oldest first", 0, live, []string{"r1", "r3", "r4"}},
		{"live revisions do not count", 2, live, []string{"r1"}},
		{"limit 3 with 3 non-live keeps all", 3, live, nil},
		{"a negative limit keeps all", -1, none, nil},
	} {
		if got := names(TruncateHistory(rs, c.limit, c.live)); !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s: %v; want %v", c.name, got, c.want)
		}
	}
}
