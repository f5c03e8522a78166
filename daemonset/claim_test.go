package daemonset

import (
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/kubesem/kubesem/history"
	"github.com/kubesem/kubesem/meta"
	"github.com/kubesem/kubesem/node"
	"github.com/kubesem/kubesem/plan"
	"github.com/kubesem/kubesem/podstatus"
)

// owned sets m's controller to uid ("" for none).
func owned(m *meta.ObjectMeta, uid string) {
	m.OwnerReferences = nil
	if uid != "" {
		m.OwnerReferences = []meta.OwnerReference{meta.NewControllerRef("apps/v1", "DaemonSet", "ds", uid)}
	}
}

// The claim rule of v1.36.3's ClaimObject, for pods and revisions alike
// (upstream: controller_ref_manager_test.go TestClaimPods's cases).
func TestClaimPodAndRevision(t *testing.T) {
	t.Parallel()
	at := tNow
	cases := []struct {
		name        string
		owner       string // the object's controller UID
		unselected  bool
		ns          string // the object's namespace (default "default")
		deleting    bool   // the object
		dsDeleting  bool
		nonCtlOwner bool // a non-controller reference to the DaemonSet only
		want        Ownership
	}{
		{name: "orphan selected: adopted", want: Adopt},
		{name: "orphan not selected: ignored", unselected: true, want: Ignore},
		{name: "orphan being deleted: ignored", deleting: true, want: Ignore},
		{name: "orphan of another namespace: ignored", ns: "other", want: Ignore},
		{name: "orphan, DaemonSet being deleted: ignored", dsDeleting: true, want: Ignore},
		{name: "orphan with a non-controller reference to the DaemonSet: adopted", nonCtlOwner: true, want: Adopt},
		{name: "controlled and selected: owned", owner: "ds-uid", want: Owned},
		{name: "controlled, selected, being deleted: owned", owner: "ds-uid", deleting: true, want: Owned},
		{name: "controlled, selected, DaemonSet being deleted: owned", owner: "ds-uid", dsDeleting: true, want: Owned},
		{name: "controlled, not selected: released", owner: "ds-uid", unselected: true, want: Release},
		{name: "controlled, not selected, being deleted: released", owner: "ds-uid", unselected: true, deleting: true, want: Release},
		{name: "controlled, not selected, DaemonSet being deleted: ignored", owner: "ds-uid", unselected: true, dsDeleting: true, want: Ignore},
		{name: "another controller's: ignored", owner: "other", want: Ignore},
		{name: "another controller's, not selected: ignored", owner: "other", unselected: true, want: Ignore},
	}
	for _, c := range cases {
		ds := testDS()
		if c.dsDeleting {
			ds.DeletionTimestamp = &at
		}
		m := meta.ObjectMeta{Name: "x", Namespace: "default", UID: "x-uid", Labels: map[string]string{"app": "d"}}
		if c.ns != "" {
			m.Namespace = c.ns
		}
		if c.unselected {
			m.Labels["app"] = "e"
		}
		if c.deleting {
			m.DeletionTimestamp = &at
		}
		owned(&m, c.owner)
		if c.nonCtlOwner {
			m.OwnerReferences = []meta.OwnerReference{{APIVersion: "apps/v1", Kind: "DaemonSet", Name: "ds", UID: "ds-uid"}}
		}
		if got := ClaimPod(ds, &podstatus.Pod{ObjectMeta: m}); got != c.want {
			t.Errorf("ClaimPod: %s: %s", c.name, got)
		}
		if got := ClaimRevision(ds, &history.ControllerRevision{ObjectMeta: m}); got != c.want {
			t.Errorf("ClaimRevision: %s: %s", c.name, got)
		}
	}
	ds := testDS()
	ds.Namespace = ""
	if got := ClaimPod(ds, &podstatus.Pod{ObjectMeta: meta.ObjectMeta{Name: "x", Namespace: "other", Labels: map[string]string{"app": "d"}}}); got != Adopt {
		t.Errorf("a DaemonSet without namespace checks none: %s", got)
	}
	ds.Spec.Selector = nil
	if got := ClaimPod(ds, &podstatus.Pod{ObjectMeta: meta.ObjectMeta{Name: "x", Labels: map[string]string{"app": "d"}}}); got != Ignore {
		t.Errorf("a nil selector selects nothing: %s", got)
	}
	// upstream's index lists a controlled pod by namespace, kind, name
	// and UID; its lister lists the revisions of the namespace
	for _, ref := range []meta.OwnerReference{meta.NewControllerRef("apps/v1", "ReplicaSet", "ds", "ds-uid"), meta.NewControllerRef("apps/v1", "DaemonSet", "other", "ds-uid")} {
		p := &podstatus.Pod{ObjectMeta: meta.ObjectMeta{Name: "x", Namespace: "default", Labels: map[string]string{"app": "e"}, OwnerReferences: []meta.OwnerReference{ref}}}
		require.Equal(t, Ignore, ClaimPod(testDS(), p), "%s/%s", ref.Kind, ref.Name)
	}
	away := meta.ObjectMeta{Name: "x", Namespace: "other", Labels: map[string]string{"app": "e"}, OwnerReferences: []meta.OwnerReference{testRef}}
	require.Equal(t, Ignore, ClaimPod(testDS(), &podstatus.Pod{ObjectMeta: away}))
	require.Equal(t, Ignore, ClaimRevision(testDS(), &history.ControllerRevision{ObjectMeta: away}))
	require.Equal(t, Ignore, ClaimPod(nil, &podstatus.Pod{}))
	require.Equal(t, Ignore, ClaimPod(testDS(), nil))
	require.Equal(t, Ignore, ClaimRevision(nil, &history.ControllerRevision{}))
	require.Equal(t, Ignore, ClaimRevision(testDS(), nil))
}

// writeKeys are ws as "verb resource/subresource name" strings.
func writeKeys(ws []plan.Write) []string {
	var out []string
	for _, w := range ws {
		s := string(w.Verb) + " " + w.Resource + "/" + w.Subresource + " " + w.Name
		if w.FromCache {
			s += " fromCache"
		}
		if w.IgnoreRefusal {
			s += " ignoreRefusal"
		}
		out = append(out, s)
	}
	return out
}

// A DaemonSet re-created after an orphan delete finds its pods and its
// revision without a controller: it adopts them (the revision first, the
// pods at each of its four listings: manage, rolling update, history
// cleanup, status) and goes on from them, creating nothing; a pod it
// controls that it no longer selects is released (before the adoptions
// of each listing), another controller's pod and an unselected orphan are
// left alone.
func TestStepAdoptsOrphans(t *testing.T) {
	t.Parallel()
	ds := testDS()
	a, b := testPod("a-pod", "a", "new", tHour, tHour), testPod("b-pod", "b", "new", tHour, tHour)
	owned(&a.ObjectMeta, "")
	owned(&b.ObjectMeta, "")
	relabelled := testPod("c-pod", "c", "new", tHour, tHour)
	relabelled.Labels["app"] = "e"
	other := testPod("d-pod", "d", "new", tHour, tHour)
	owned(&other.ObjectMeta, "other")
	stray := testPod("e-pod", "a", "new", tHour, tHour)
	owned(&stray.ObjectMeta, "")
	stray.Labels["app"] = "e"
	r := rev("ds-new", 1, "new")
	owned(&r.ObjectMeta, "")
	h := History{Hash: "new", Revisions: []history.ControllerRevision{r}}
	pods := []*podstatus.Pod{stray, relabelled, b, other, a}
	nodes := []*node.Node{testNode("a"), testNode("b")}
	p, err := Step(ds, nodes, pods, h, nil, tNow, Options{})
	require.NoError(t, err)
	require.Equal(t, ReasonRollingUpdate, p.Outcome)
	require.Equal(t, []ObjectRef{{"ds-new", "", ReasonOrphanSelected}}, p.AdoptRevisions)
	require.Equal(t, []ObjectRef{{"a-pod", "uid-a-pod", ReasonOrphanSelected}, {"b-pod", "uid-b-pod", ReasonOrphanSelected}}, p.Adopt)
	require.Equal(t, []ObjectRef{{"c-pod", "uid-c-pod", ReasonSelectorMismatch}}, p.Release)
	require.Empty(t, p.ReleaseRevisions)
	require.Empty(t, p.Revisions)
	require.Zero(t, p.Create.Count)
	require.Empty(t, p.Delete)
	require.Equal(t, int32(2), p.Status.CurrentNumberScheduled)
	require.Equal(t, int32(2), p.Status.UpdatedNumberScheduled)

	ws, err := p.Writes(ds, pods, h)
	require.NoError(t, err)
	listing := []string{"patch pods/ c-pod", "patch pods/ a-pod", "patch pods/ b-pod"}
	want := slices.Concat([]string{"patch controllerrevisions/ ds-new"}, listing, listing, listing, listing, []string{"update daemonsets/status ds"})
	require.Equal(t, want, writeKeys(ws))
	rv := ws[0].Object.(*history.ControllerRevision)
	require.True(t, rv.IsControlledBy("ds-uid"))
	require.NotNil(t, rv.OwnerReferences[0].BlockOwnerDeletion)
	require.True(t, ws[1].Object.(*podstatus.Pod).ObjectMeta.ControllerRef() == nil, "the release removes the controller reference")
	require.True(t, ws[2].Object.(*podstatus.Pod).IsControlledBy("ds-uid"))
	require.Nil(t, a.OwnerReferences, "Writes modified its input")
	require.NotSame(t, ws[2].Object, ws[5].Object, "two listings share an object")

	// OnDelete: no rolling-update listing.
	ds.Spec.UpdateStrategy = UpdateStrategy{Type: OnDelete}
	p, err = Step(ds, nodes, pods, h, nil, tNow, Options{})
	require.NoError(t, err)
	ws, err = p.Writes(ds, pods, h)
	require.NoError(t, err)
	require.Equal(t, slices.Concat([]string{"patch controllerrevisions/ ds-new"}, listing, listing, listing, []string{"update daemonsets/status ds"}), writeKeys(ws))
}

// A DaemonSet being deleted returns before it claims: no adoption, no
// release.
func TestStepBeingDeletedClaimsNothing(t *testing.T) {
	t.Parallel()
	ds := testDS()
	ds.DeletionTimestamp = &tNow
	a := testPod("a-pod", "a", "new", tHour, tHour)
	owned(&a.ObjectMeta, "")
	c := testPod("c-pod", "a", "new", tHour, tHour)
	c.Labels["app"] = "e"
	r := rev("ds-new", 1, "new")
	owned(&r.ObjectMeta, "")
	h := History{Hash: "new", Revisions: []history.ControllerRevision{r}}
	p, err := Step(ds, []*node.Node{testNode("a")}, []*podstatus.Pod{a, c}, h, nil, tNow, Options{})
	require.NoError(t, err)
	require.Equal(t, ReasonBeingDeleted, p.Outcome)
	require.Empty(t, p.Adopt)
	require.Empty(t, p.Release)
	require.Empty(t, p.AdoptRevisions)
	ws, err := p.Writes(ds, []*podstatus.Pod{a, c}, h)
	require.NoError(t, err)
	require.Empty(t, ws)
}

// A revision the DaemonSet controls and no longer selects is released and
// leaves its history (it is old no more); an orphan
// revision of an older template is adopted and counts as old: the current
// one, older, is renumbered from the cached copy the adoption made stale
// when it is the one adopted (v1.36.3 then fails the sync with Conflict).
func TestStepRevisionClaims(t *testing.T) {
	t.Parallel()
	ds := testDS()
	one := int32(1)
	ds.Spec.RevisionHistoryLimit = &one
	cur := rev("ds-new", 1, "new")
	owned(&cur.ObjectMeta, "")
	old := rev("ds-old", 3, "old")
	owned(&old.ObjectMeta, "")
	gone := rev("ds-gone", 2, "gone")
	gone.Labels["app"] = "e"
	h := History{Hash: "new", Revisions: []history.ControllerRevision{gone, old, cur}}
	pods := []*podstatus.Pod{testPod("a-pod", "a", "new", tHour, tHour)}
	p, err := Step(ds, []*node.Node{testNode("a")}, pods, h, nil, tNow, Options{})
	require.NoError(t, err)
	require.Equal(t, []ObjectRef{{"ds-new", "", ReasonOrphanSelected}, {"ds-old", "", ReasonOrphanSelected}}, p.AdoptRevisions)
	require.Equal(t, []ObjectRef{{"ds-gone", "", ReasonSelectorMismatch}}, p.ReleaseRevisions)
	require.Equal(t, []history.Write{{Verb: plan.VerbUpdate, Name: "ds-new", Revision: 4, Hash: "new", Reason: ReasonRollback}}, p.Revisions)
	ws, err := p.Writes(ds, pods, h)
	require.NoError(t, err)
	require.Equal(t, []string{"patch controllerrevisions/ ds-gone", "patch controllerrevisions/ ds-new", "patch controllerrevisions/ ds-old",
		"update controllerrevisions/ ds-new fromCache"}, writeKeys(ws)[:4])
	require.Empty(t, ws[0].Object.(*history.ControllerRevision).OwnerReferences)

	// owned already: the renumbering is sent from a fresh copy
	owned(&h.Revisions[2].ObjectMeta, "ds-uid")
	p, err = Step(ds, []*node.Node{testNode("a")}, pods, h, nil, tNow, Options{})
	require.NoError(t, err)
	ws, err = p.Writes(ds, pods, h)
	require.NoError(t, err)
	require.Equal(t, []string{"patch controllerrevisions/ ds-gone", "patch controllerrevisions/ ds-old", "update controllerrevisions/ ds-new"}, writeKeys(ws)[:3])
}

// A later listing's patch of a pod the sync deleted is IgnoreRefusal
// (v1.36.3 ignores NotFound); a rolling update that fails (NodeNotFound)
// skips the cleanup's listing.
func TestWritesLaterListings(t *testing.T) {
	t.Parallel()
	ds := testDS()
	failed := withPhase(testPod("f-pod", "a", "new", tHour, tHour), podstatus.Succeeded)
	owned(&failed.ObjectMeta, "")
	pods := []*podstatus.Pod{failed}
	h := History{Hash: "new", Revisions: []history.ControllerRevision{rev("ds-new", 1, "new")}}
	p, err := Step(ds, []*node.Node{testNode("a")}, pods, h, nil, tNow, Options{})
	require.NoError(t, err)
	require.Equal(t, ReasonSynced, p.Outcome)
	ws, err := p.Writes(ds, pods, h)
	require.NoError(t, err)
	require.Equal(t, []string{"patch pods/ f-pod", "delete pods/ f-pod", "patch pods/ f-pod ignoreRefusal", "patch pods/ f-pod ignoreRefusal", "update daemonsets/status ds"}, writeKeys(ws))

	// NodeNotFound: manage, rolling update and status listings
	ds = withSurge(testDS(), 1)
	o := testPod("o-pod", "gone", "old", tHour, tHour)
	owned(&o.ObjectMeta, "")
	pods = []*podstatus.Pod{testPod("pa", "a", "new", tHour, tHour), o}
	p, err = Step(ds, []*node.Node{testNode("a")}, pods, h, nil, tNow, Options{})
	require.NoError(t, err)
	require.Equal(t, ReasonNodeNotFound, p.Outcome)
	ws, err = p.Writes(ds, pods, h)
	require.NoError(t, err)
	require.Equal(t, []string{"patch pods/ o-pod", "patch pods/ o-pod", "patch pods/ o-pod", "update daemonsets/status ds"}, writeKeys(ws))
}
