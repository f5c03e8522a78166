package rollout_test

import (
	"fmt"
	"reflect"
	"slices"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"

	"github.com/kubesem/kubesem/meta"
	"github.com/kubesem/kubesem/plan"
	"github.com/kubesem/kubesem/podstatus"
	"github.com/kubesem/kubesem/replicaset"
	"github.com/kubesem/kubesem/rollout"
)

// claimed returns a ReplicaSet of d's namespace and labels, controlled by
// the owner UID given ("" for none).
func claimed(name, owner string) *replicaset.ReplicaSet {
	r := rs(name, 1, 1, 0)
	r.Namespace = "ns"
	r.Labels = map[string]string{"app": "foo", rollout.HashLabel: name}
	if owner != "" {
		r.OwnerReferences = []meta.OwnerReference{meta.NewControllerRef("apps/v1", "Deployment", "foo", owner)}
	}
	return r
}

func TestClaimReplicaSet(t *testing.T) {
	t.Parallel()
	d := deploy(3, "", "")
	d.Namespace, d.UID = "ns", "d-uid"
	gone := t0
	deleting := *d
	deleting.DeletionTimestamp = &gone
	bare := *d
	bare.Namespace = ""
	unselected := func(r *replicaset.ReplicaSet) *replicaset.ReplicaSet {
		r.Labels = map[string]string{"app": "bar"}
		return r
	}
	dying := func(r *replicaset.ReplicaSet) *replicaset.ReplicaSet { r.DeletionTimestamp = &gone; return r }
	elsewhere := func(r *replicaset.ReplicaSet) *replicaset.ReplicaSet { r.Namespace = "other"; return r }
	owner := func(r *replicaset.ReplicaSet) *replicaset.ReplicaSet {
		// d as an owner, not as controller
		r.OwnerReferences = []meta.OwnerReference{{APIVersion: "apps/v1", Kind: "Deployment", Name: "foo", UID: d.UID}}
		return r
	}
	for _, tt := range []struct {
		name string
		d    *rollout.Deployment
		rs   *replicaset.ReplicaSet
		want replicaset.Ownership
	}{
		{"controlled and selected: owned", d, claimed("a", "d-uid"), replicaset.Owned},
		{"controlled and selected, d being deleted: still owned", &deleting, claimed("a", "d-uid"), replicaset.Owned},
		{"controlled and selected, being deleted: owned", d, dying(claimed("a", "d-uid")), replicaset.Owned},
		{"controlled, not selected: released", d, unselected(claimed("a", "d-uid")), replicaset.Release},
		{"controlled, not selected, d being deleted: ignored", &deleting, unselected(claimed("a", "d-uid")), replicaset.Ignore},
		{"orphan selected: adopted", d, claimed("a", ""), replicaset.Adopt},
		{"orphan with d as a mere owner: adopted", d, owner(claimed("a", "")), replicaset.Adopt},
		{"orphan selected, d being deleted: ignored", &deleting, claimed("a", ""), replicaset.Ignore},
		{"orphan selected, being deleted: ignored", d, dying(claimed("a", "")), replicaset.Ignore},
		{"orphan not selected: ignored", d, unselected(claimed("a", "")), replicaset.Ignore},
		{"orphan of another namespace: ignored", d, elsewhere(claimed("a", "")), replicaset.Ignore},
		{"orphan, d without namespace: adopted", &bare, elsewhere(claimed("a", "")), replicaset.Adopt},
		{"another controller's, selected: ignored", d, claimed("a", "other"), replicaset.Ignore},
		{"another controller's, not selected: ignored", d, unselected(claimed("a", "other")), replicaset.Ignore},
		{"nil: ignored", d, nil, replicaset.Ignore},
	} {
		if got := rollout.ClaimReplicaSet(tt.d, tt.rs); got != tt.want {
			t.Errorf("%s: ClaimReplicaSet = %s; want %s", tt.name, got, tt.want)
		}
	}
}

// TestStepClaims: Step adopts the orphan its selector selects, releases
// the ReplicaSet it controls and no longer selects, ignores another
// controller's, and works with the adopted one as its own (here the new
// ReplicaSet: no create); Writes patches first (by name) and sends the
// adopted ReplicaSet's resize from its cached copy.
func TestStepClaims(t *testing.T) {
	t.Parallel()
	d := deploy(3, "", "")
	d.Namespace, d.UID = "ns", "d-uid"
	d.Spec.Template.Labels = map[string]string{"app": "foo"}
	adopted := claimed("foo-new", "")
	adopted.Spec.Template = d.Spec.Template
	adopted.Spec.Template.Labels = map[string]string{"app": "foo", rollout.HashLabel: "new"}
	adopted.Annotations = map[string]string{rollout.RevisionAnnotation: "1"}
	released := claimed("foo-gone", "d-uid")
	released.Labels = map[string]string{"app": "bar"}
	theirs := claimed("foo-theirs", "other")
	p, err := rollout.Step(d, []*replicaset.ReplicaSet{theirs, released, adopted}, nil, t0, rollout.Options{})
	if err != nil {
		t.Fatal(err)
	}
	wantAdopt := []rollout.ReplicaSetRef{{Name: "foo-new", UID: "uid-foo-new", Reason: rollout.ReasonOrphanSelected}}
	wantRelease := []rollout.ReplicaSetRef{{Name: "foo-gone", UID: "uid-foo-gone", Reason: rollout.ReasonSelectorMismatch}}
	if !reflect.DeepEqual(p.Adopt, wantAdopt) || !reflect.DeepEqual(p.Release, wantRelease) {
		t.Errorf("Adopt %v, Release %v; want %v, %v", p.Adopt, p.Release, wantAdopt, wantRelease)
	}
	if p.Create.Count != 0 || len(p.Scale) != 1 || p.Scale[0].Name != "foo-new" || p.Scale[0].Replicas != 3 {
		t.Fatalf("create %+v, scale %+v; want foo-new scaled to 3", p.Create, p.Scale)
	}
	ws, err := p.Writes(d, []*replicaset.ReplicaSet{theirs, released, adopted}, nil, t0)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, w := range ws {
		got = append(got, fmt.Sprintf("%s %s/%s %s %s cache=%v", w.Verb, w.Resource, w.Subresource, w.Name, w.Reason, w.FromCache))
	}
	want := []string{
		"patch replicasets/ foo-gone SelectorMismatch cache=false",
		"patch replicasets/ foo-new OrphanSelected cache=false",
		"update deployments/status foo Revision cache=true",
		"update replicasets/ foo-new ScaleUpNew cache=true",
		"update deployments/status foo StatusChanged cache=true",
	}
	if !slices.Equal(got, want) {
		t.Errorf("Writes:\n%s\nwant\n%s", cmp.Diff(want, got), "")
	}
	if r := ws[0].Object.(*replicaset.ReplicaSet); len(r.OwnerReferences) != 0 {
		t.Errorf("released foo-gone keeps %v", r.OwnerReferences)
	}
	if r := ws[1].Object.(*replicaset.ReplicaSet); !reflect.DeepEqual(r.OwnerReferences, []meta.OwnerReference{meta.NewControllerRef("apps/v1", "Deployment", "foo", "d-uid")}) {
		t.Errorf("adopted foo-new has %v", r.OwnerReferences)
	}
	if r := ws[3].Object.(*replicaset.ReplicaSet); len(r.OwnerReferences) != 0 {
		t.Errorf("the resize of foo-new is not from the cached copy: %v", r.OwnerReferences)
	}
}

// checkClaims: whatever the ReplicaSets' ownership, Plan.Adopt and
// Plan.Release are those ClaimReplicaSet adopts and releases, by name, and
// the rest of the sync is the sync of the ReplicaSets d owns and adopts,
// the adopted ones given as d's, up to the first resize of an adopted one:
// that resize is Stale (refused). Without one, the same Plan, and the same
// writes after the claim's patches.
func checkClaims(t *rapid.T) {
	d := deploy(rapid.Int32Range(0, 6).Draw(t, "replicas"), "", "")
	d.Namespace, d.UID = "ns", "d-uid"
	d.TemplateHash = "h"
	if rapid.Bool().Draw(t, "recreate") {
		d.Spec.Strategy = rollout.Strategy{Type: rollout.RecreateStrategy}
	}
	d.Spec.Paused = rapid.IntRange(0, 4).Draw(t, "paused") == 0
	if rapid.IntRange(0, 6).Draw(t, "deleting") == 0 {
		ts := t0
		d.DeletionTimestamp = &ts
	}
	var rss []*replicaset.ReplicaSet
	var asOwned []*replicaset.ReplicaSet
	var wantAdopt, wantRelease []string
	for i := range rapid.IntRange(0, 5).Draw(t, "k") {
		name := fmt.Sprintf("rs-%d", i)
		owner := rapid.SampledFrom([]string{"d-uid", "d-uid", "", "other"}).Draw(t, fmt.Sprintf("owner%d", i))
		r := claimed(name, owner)
		n := rapid.Int32Range(0, 4).Draw(t, fmt.Sprintf("size%d", i))
		r.Spec.Replicas, r.Status.Replicas, r.Status.AvailableReplicas = &n, n, n
		r.Annotations = map[string]string{rollout.RevisionAnnotation: fmt.Sprint(i + 1)}
		if rapid.IntRange(0, 3).Draw(t, fmt.Sprintf("unselected%d", i)) == 0 {
			r.Labels = map[string]string{"app": "bar"}
		}
		if rapid.IntRange(0, 5).Draw(t, fmt.Sprintf("dying%d", i)) == 0 {
			ts := t0
			r.DeletionTimestamp = &ts
		}
		if rapid.Bool().Draw(t, fmt.Sprintf("current%d", i)) {
			r.Spec.Template = d.Spec.Template
		}
		r.Spec.Template.Labels = map[string]string{"app": "foo", rollout.HashLabel: name}
		rss = append(rss, r)
		switch rollout.ClaimReplicaSet(d, r) {
		case replicaset.Owned:
			asOwned = append(asOwned, r)
		case replicaset.Adopt:
			wantAdopt = append(wantAdopt, name)
			c := *r
			c.OwnerReferences = []meta.OwnerReference{meta.NewControllerRef("apps/v1", "Deployment", "foo", d.UID)}
			asOwned = append(asOwned, &c)
		case replicaset.Release:
			wantRelease = append(wantRelease, name)
		}
	}
	p, err := rollout.Step(d, rss, nil, t0, rollout.Options{})
	if err != nil {
		t.Fatal(err)
	}
	names := func(refs []rollout.ReplicaSetRef) []string {
		var out []string
		for _, r := range refs {
			out = append(out, r.Name)
		}
		return out
	}
	if !slices.Equal(names(p.Adopt), wantAdopt) || !slices.Equal(names(p.Release), wantRelease) {
		t.Fatalf("Adopt %v, Release %v; want %v, %v", names(p.Adopt), names(p.Release), wantAdopt, wantRelease)
	}
	q, err := rollout.Step(d, asOwned, nil, t0, rollout.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(q.Adopt)+len(q.Release) != 0 {
		t.Fatalf("Step of owned ReplicaSets claims: %v %v", q.Adopt, q.Release)
	}
	for i, r := range p.Scale {
		if r.Stale != slices.Contains(wantAdopt, r.Name) {
			t.Fatalf("scale[%d] %s: Stale %v; adopted %v", i, r.Name, r.Stale, wantAdopt)
		}
		if i >= len(q.Scale) || q.Scale[i].Name != r.Name || q.Scale[i].Replicas != r.Replicas {
			t.Fatalf("scale[%d] %+v; the sync of the claimed scales %+v", i, r, q.Scale)
		}
		if r.Stale {
			return // the rest follows a refused write
		}
	}
	rest := p
	rest.Adopt, rest.Release = nil, nil
	if !reflect.DeepEqual(rest, q) {
		t.Fatalf("the claimed sync differs from the sync of the claimed:\n%s", cmp.Diff(q, rest))
	}
	ws, err := p.Writes(d, rss, nil, t0)
	if err != nil {
		t.Fatal(err)
	}
	qs, err := q.Writes(d, asOwned, nil, t0)
	if err != nil {
		t.Fatal(err)
	}
	claims := len(p.Adopt) + len(p.Release)
	if len(ws) != claims+len(qs) {
		t.Fatalf("%d writes; want %d patches and %d more", len(ws), claims, len(qs))
	}
	for i, w := range ws[:claims] {
		if w.Verb != plan.VerbPatch || w.Resource != "replicasets" || (i > 0 && ws[i-1].Name > w.Name) {
			t.Fatalf("write %d: %s %s %s; want the claim's patches by name", i, w.Verb, w.Resource, w.Name)
		}
	}
	for i, w := range ws[claims:] {
		v := qs[i]
		// an update of an adopted ReplicaSet is sent from the cached copy
		stale := w.Resource == "replicasets" && slices.Contains(wantAdopt, w.Name) && w.Verb == plan.VerbUpdate
		if w.Verb != v.Verb || w.Resource != v.Resource || w.Subresource != v.Subresource || w.Name != v.Name || w.Reason != v.Reason ||
			w.FromCache != (v.FromCache || stale) {
			t.Fatalf("write %d: %+v; want %+v", claims+i, w, v)
		}
	}
}

func TestClaims(t *testing.T) { t.Parallel(); rapid.Check(t, checkClaims) }

// TestStepStaleScaleDown: a rolling update that scales down an old
// ReplicaSet it adopts in the same sync sends the resize from the cached
// copy the adoption made stale; the API server refuses it, and upstream
// drops that error and scales no other old ReplicaSet down (no event, the
// sync goes on: here the status write). Writes marks it FromCache and
// IgnoreRefusal.
func TestStepStaleScaleDown(t *testing.T) {
	t.Parallel()
	d := deploy(4, "1", "1")
	d.Namespace, d.UID = "ns", "d-uid"
	d.Spec.Template.Labels = map[string]string{"app": "foo"}
	d.Spec.Template.Spec.Containers = []podstatus.Container{{Name: "app", Image: "app:2"}}
	newRS := claimed("foo-new", "d-uid")
	newRS.Spec.Template = d.Spec.Template
	newRS.Spec.Template.Labels = map[string]string{"app": "foo", rollout.HashLabel: "new"}
	two := int32(2)
	newRS.Spec.Replicas, newRS.Status.Replicas, newRS.Status.AvailableReplicas = &two, 2, 2
	newRS.Annotations = map[string]string{rollout.RevisionAnnotation: "3"}
	var old []*replicaset.ReplicaSet
	for i, owner := range []string{"", "d-uid"} {
		r := claimed(fmt.Sprintf("foo-old%d", i), owner)
		r.CreationTimestamp = t0.Add(time.Duration(i) * time.Minute)
		r.Spec.Replicas, r.Status.Replicas, r.Status.AvailableReplicas = &two, 2, 2
		r.Spec.Template.Labels = map[string]string{"app": "foo", rollout.HashLabel: r.Name}
		r.Annotations = map[string]string{rollout.RevisionAnnotation: fmt.Sprint(i + 1)}
		old = append(old, r)
	}
	rss := append(old, newRS)
	p, err := rollout.Step(d, rss, nil, t0, rollout.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Adopt) != 1 || p.Adopt[0].Name != "foo-old0" {
		t.Fatalf("Adopt %v; want foo-old0", p.Adopt)
	}
	if len(p.Scale) != 1 || p.Scale[0].Name != "foo-old0" || !p.Scale[0].Stale || len(p.Events) != 0 {
		t.Fatalf("Scale %+v, events %v; want foo-old0's resize alone, stale, no event", p.Scale, p.Events)
	}
	ws, err := p.Writes(d, rss, nil, t0)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, w := range ws {
		got = append(got, fmt.Sprintf("%s %s/%s %s cache=%v ignore=%v", w.Verb, w.Resource, w.Subresource, w.Name, w.FromCache, w.IgnoreRefusal))
	}
	want := []string{
		"patch replicasets/ foo-old0 cache=false ignore=false",
		"update deployments/status foo cache=true ignore=false",
		"update replicasets/ foo-old0 cache=true ignore=true",
		"update deployments/status foo cache=true ignore=false",
	}
	if !slices.Equal(got, want) {
		t.Errorf("Writes:\n%s", cmp.Diff(want, got))
	}
	if sizes := p.Apply(rss, t0); sizes[0].Replicas() != 2 {
		t.Errorf("Apply resized the refused foo-old0 to %d", sizes[0].Replicas())
	}
}
