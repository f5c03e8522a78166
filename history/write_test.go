package history_test

import (
	"slices"
	"testing"
	"time"

	"github.com/kubesem/kubesem/history"
	"github.com/kubesem/kubesem/meta"
)

// Sort orders by revision number, then creation time, then name, whatever
// the input order.
func TestSort(t *testing.T) {
	t.Parallel()
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	rev := func(name string, n int64, created time.Time) history.ControllerRevision {
		return history.ControllerRevision{ObjectMeta: meta.ObjectMeta{Name: name, CreationTimestamp: created}, Revision: n}
	}
	in := []history.ControllerRevision{rev("c", 2, t0), rev("b", 1, t0.Add(time.Second)), rev("z", 1, t0), rev("a", 1, t0), rev("d", 10, time.Time{})}
	want := []string{"a", "z", "b", "c", "d"}
	for range 3 {
		revs := slices.Clone(in)
		history.Sort(revs)
		var got []string
		for _, r := range revs {
			got = append(got, r.Name)
		}
		if !slices.Equal(got, want) {
			t.Errorf("order %v; want %v", got, want)
		}
		slices.Reverse(in)
	}
}

// Data round-trips through the controllers' JSON form, "$patch" marker
// included; New shares nothing with its inputs.
func TestDataAndNew(t *testing.T) {
	t.Parallel()
	var d history.Data
	if err := d.UnmarshalJSON([]byte(`{"spec":{"template":{"$patch":"replace","metadata":{"labels":{"app":"a"}},"spec":{"containers":[{"name":"c","image":"i","resources":{}}]}}}}`)); err != nil {
		t.Fatal(err)
	}
	if d.Template.Labels["app"] != "a" || len(d.Template.Spec.Containers) != 1 {
		t.Fatalf("decoded %+v", d)
	}
	b, err := d.MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"spec":{"template":{"$patch":"replace","metadata":{"labels":{"app":"a"}},"spec":{"containers":[{"image":"i","name":"c","resources":{}}]}}}}`; string(b) != want {
		t.Errorf("encoded %s\nwant    %s", b, want)
	}
	ann := map[string]string{"k": "v"}
	r := history.New("ds-h", "ns", &d.Template, history.HashLabel, "h", ann, meta.NewControllerRef("apps/v1", "DaemonSet", "ds", "u"), 4)
	if r.Labels[history.HashLabel] != "h" || r.Labels["app"] != "a" || r.Annotations["k"] != "v" || r.Revision != 4 || r.Namespace != "ns" {
		t.Errorf("New %+v", r)
	}
	r.Labels["app"], r.Annotations["k"], r.Data.Template.Labels["app"] = "x", "x", "x"
	if d.Template.Labels["app"] != "a" || ann["k"] != "v" {
		t.Error("New aliases its inputs")
	}
}
