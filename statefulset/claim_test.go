package statefulset

import (
	"fmt"
	"reflect"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"

	"github.com/kubesem/kubesem/history"
	"github.com/kubesem/kubesem/meta"
	"github.com/kubesem/kubesem/plan"
	"github.com/kubesem/kubesem/podstatus"
)

// selected is gset with the selector app=web.
func selected(replicas int32, mods ...func(*StatefulSet)) StatefulSet {
	s := gset(replicas, mods...)
	s.Spec.Selector = &meta.LabelSelector{MatchLabels: map[string]string{"app": "web"}}
	return s
}

// owned gives p (or r) the controller reference of uid ("" none).
func ownedBy(m *meta.ObjectMeta, uid string) {
	m.OwnerReferences = nil
	if uid != "" {
		m.OwnerReferences = []meta.OwnerReference{ctlRef("apps/v1", "StatefulSet", "web", uid)}
	}
}

func TestClaimPod(t *testing.T) {
	t.Parallel()
	set := selected(3)
	gone := genNow
	deleting := set
	deleting.DeletionTimestamp = &gone
	pod := func(name, owner string, mods ...func(*podstatus.Pod)) *podstatus.Pod {
		p := gpod(0, running, "web-v1")
		p.Name = name
		ownedBy(&p.ObjectMeta, owner)
		for _, m := range mods {
			m(p)
		}
		return p
	}
	unselected := func(p *podstatus.Pod) { p.Labels = map[string]string{"app": "db"} }
	dying := func(p *podstatus.Pod) { p.DeletionTimestamp = &gone }
	elsewhere := func(p *podstatus.Pod) { p.Namespace = "other" }
	for _, tt := range []struct {
		name string
		set  *StatefulSet
		pod  *podstatus.Pod
		want Ownership
	}{
		{"controlled member, selected: owned", &set, pod("web-0", "set-uid"), Owned},
		{"controlled member past int32: owned", &set, pod("web-2147483648", "set-uid"), Owned},
		{"controlled, being deleted, set being deleted: owned", &deleting, pod("web-0", "set-uid", dying), Owned},
		{"controlled, not selected: released", &set, pod("web-0", "set-uid", unselected), Release},
		{"controlled, not a member by name: released", &set, pod("webby-0", "set-uid"), Release},
		{"controlled, not selected, set being deleted: ignored", &deleting, pod("web-0", "set-uid", unselected), Ignore},
		{"orphan member, selected: adopted", &set, pod("web-1", ""), Adopt},
		{"orphan, set being deleted: ignored", &deleting, pod("web-1", ""), Ignore},
		{"orphan being deleted: ignored", &set, pod("web-1", "", dying), Ignore},
		{"orphan not selected: ignored", &set, pod("web-1", "", unselected), Ignore},
		{"orphan of another set's name: ignored", &set, pod("db-1", ""), Ignore},
		{"orphan without an ordinal: ignored", &set, pod("web", ""), Ignore},
		{"orphan of another namespace: ignored", &set, pod("web-1", "", elsewhere), Ignore},
		{"another controller's: ignored", &set, pod("web-1", "other"), Ignore},
		{"the set's UID under another name: not listed, ignored", &set, pod("web-0", "set-uid", func(p *podstatus.Pod) { p.OwnerReferences[0].Name = "webby" }), Ignore},
		{"the set's UID under another kind: not listed, ignored", &set, pod("web-0", "set-uid", func(p *podstatus.Pod) { p.OwnerReferences[0].Kind = "ReplicaSet" }), Ignore},
		{"controlled, in another namespace: not listed, ignored", &set, pod("web-0", "set-uid", unselected, elsewhere), Ignore},
		{"nil: ignored", &set, nil, Ignore},
	} {
		if got := ClaimPod(tt.set, tt.pod); got != tt.want {
			t.Errorf("%s: ClaimPod = %s; want %s", tt.name, got, tt.want)
		}
	}
}

func TestClaimRevision(t *testing.T) {
	t.Parallel()
	set := selected(3)
	gone := genNow
	deleting := set
	deleting.DeletionTimestamp = &gone
	r := func(owner string, labels map[string]string) *history.ControllerRevision {
		x := rev("web-v1", 1)
		x.Labels = labels
		ownedBy(&x.ObjectMeta, owner)
		return &x
	}
	web := map[string]string{"app": "web"}
	for _, tt := range []struct {
		name string
		set  *StatefulSet
		rev  *history.ControllerRevision
		want Ownership
	}{
		{"controlled, selected: owned", &set, r("set-uid", web), Owned},
		{"controlled, not selected: ignored (never released)", &set, r("set-uid", nil), Ignore},
		{"orphan selected: adopted", &set, r("", web), Adopt},
		{"orphan selected, set being deleted: adopted (and the sync fails)", &deleting, r("", web), Adopt},
		{"orphan not selected: ignored", &set, r("", map[string]string{"app": "db"}), Ignore},
		{"another controller's: ignored", &set, r("other", web), Ignore},
		{"nil: ignored", &set, nil, Ignore},
	} {
		if got := ClaimRevision(tt.set, tt.rev); got != tt.want {
			t.Errorf("%s: ClaimRevision = %s; want %s", tt.name, got, tt.want)
		}
	}
}

// TestStepClaims: the sync adopts the orphan revision and the orphan
// member pod its selector selects, releases the member it controls and no
// longer selects, patches them first (revisions, then pods by name), and
// works with what it claims; a set being deleted with an orphan revision
// fails before any write.
func TestStepClaims(t *testing.T) {
	t.Parallel()
	set := selected(3)
	web := map[string]string{"app": "web"}
	revs := revs("web-v1")
	revs[0].Labels = web
	pods := []*podstatus.Pod{gpod(0, running, "web-v1"), gpod(1, running, "web-v1"), gpod(2, running, "web-v1")}
	ownedBy(&pods[0].ObjectMeta, "set-uid")
	pods[2].Labels = map[string]string{"app": "db", LabelPodName: "web-2", history.HashLabel: "web-v1"}
	ownedBy(&pods[2].ObjectMeta, "set-uid")
	p, err := Step(&set, pods, revs, nil, genNow, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(p.AdoptRevisions, []ObjectRef{{Name: "web-v1", Reason: ReasonOrphanSelected}}) ||
		!reflect.DeepEqual(p.Adopt, []ObjectRef{{Name: "web-1", UID: "uid-web-1", Reason: ReasonOrphanSelected}}) ||
		!reflect.DeepEqual(p.Release, []ObjectRef{{Name: "web-2", UID: "uid-web-2", Reason: ReasonSelectorMismatch}}) {
		t.Errorf("adopt revisions %v, adopt %v, release %v", p.AdoptRevisions, p.Adopt, p.Release)
	}
	// web-2 is not the set's any more, but holds its name: the creation
	// of web-2 fails (AlreadyExists), as upstream's does
	if len(p.Create.Objects) != 0 || p.Outcome != ReasonError || len(p.Requeue) != 1 || p.Requeue[0].Reason != ReasonAlreadyExists {
		t.Errorf("create %+v, outcome %s, requeue %v; want web-2's creation refused", p.Create.Objects, p.Outcome, p.Requeue)
	}
	ws, err := p.Writes(&set, pods, revs, nil)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, w := range ws[:3] {
		got = append(got, fmt.Sprintf("%s %s %s", w.Verb, w.Resource, w.Name))
	}
	want := []string{"patch controllerrevisions web-v1", "patch pods web-1", "patch pods web-2"}
	if !slices.Equal(got, want) {
		t.Errorf("claim writes %v; want %v", got, want)
	}
	if refs := ws[1].Object.(*podstatus.Pod).OwnerReferences; len(refs) != 1 || refs[0].UID != "set-uid" || refs[0].BlockOwnerDeletion == nil {
		t.Errorf("adopted web-1's references %v", refs)
	}
	if refs := ws[2].Object.(*podstatus.Pod).OwnerReferences; len(refs) != 0 {
		t.Errorf("released web-2's references %v", refs)
	}

	gone := genNow
	set.DeletionTimestamp = &gone
	p, err = Step(&set, pods, revs, nil, genNow, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if ws, _ := p.Writes(&set, pods, revs, nil); p.Outcome != ReasonError || len(p.Requeue) != 1 || p.Requeue[0].Reason != ReasonCannotAdopt || len(ws) != 0 {
		t.Errorf("a set being deleted with an orphan revision: outcome %s, requeue %v, %d writes; want Error, CannotAdopt, none", p.Outcome, p.Requeue, len(ws))
	}
}

// checkClaims: whatever the ownership of the pods and revisions listed,
// Plan.AdoptRevisions, Adopt and Release are those ClaimRevision and
// ClaimPod adopt and release, by name, and the rest of the sync is the
// sync of what the set claims, given as the set's own: the same Plan, and
// the same writes after the claim's patches, but for the updates of a
// patched pod or revision, sent from its stale cached copy.
func checkClaims(t *rapid.T) {
	s := drawState(t)
	set := s.set
	set.Spec.Selector = &meta.LabelSelector{MatchLabels: map[string]string{"app": "web"}}
	owners := []string{"set-uid", "set-uid", "", "other"}
	var pods, asOwned []*podstatus.Pod
	var wantAdopt, wantRelease []string
	for i, p := range s.pods {
		ownedBy(&p.ObjectMeta, rapid.SampledFrom(owners).Draw(t, fmt.Sprintf("podOwner%d", i)))
		if rapid.IntRange(0, 4).Draw(t, fmt.Sprintf("podUnselected%d", i)) == 0 {
			p.Labels["app"] = "db"
		}
		pods = append(pods, p)
		switch ClaimPod(&set, p) {
		case Owned:
			asOwned = append(asOwned, p)
		case Adopt:
			wantAdopt = append(wantAdopt, p.Name)
			c := *p
			ownedBy(&c.ObjectMeta, "set-uid")
			asOwned = append(asOwned, &c)
		case Release:
			wantRelease = append(wantRelease, p.Name)
		}
	}
	var revs, revsOwned []history.ControllerRevision
	var wantAdoptRevs []string
	for i, r := range s.revs {
		ownedBy(&r.ObjectMeta, rapid.SampledFrom(owners).Draw(t, fmt.Sprintf("revOwner%d", i)))
		if rapid.IntRange(0, 4).Draw(t, fmt.Sprintf("revSelected%d", i)) > 0 {
			r.Labels = map[string]string{"app": "web"}
		}
		revs = append(revs, r)
		switch ClaimRevision(&set, &r) {
		case Owned:
			revsOwned = append(revsOwned, r)
		case Adopt:
			wantAdoptRevs = append(wantAdoptRevs, r.Name)
			ownedBy(&r.ObjectMeta, "set-uid")
			revsOwned = append(revsOwned, r)
		}
	}
	slices.Sort(wantAdopt)
	slices.Sort(wantRelease)
	slices.Sort(wantAdoptRevs)
	p, err := Step(&set, pods, revs, s.claims, genNow, s.opts)
	if err != nil {
		t.Skip(err) // (a pod of the set's released leaves two of an ordinal …)
	}
	names := func(refs []ObjectRef) []string {
		var out []string
		for _, r := range refs {
			out = append(out, r.Name)
		}
		return out
	}
	if !slices.Equal(names(p.Adopt), wantAdopt) || !slices.Equal(names(p.Release), wantRelease) || !slices.Equal(names(p.AdoptRevisions), wantAdoptRevs) {
		t.Fatalf("adopt %v, release %v, adopt revisions %v; want %v, %v, %v", names(p.Adopt), names(p.Release), names(p.AdoptRevisions), wantAdopt, wantRelease, wantAdoptRevs)
	}
	q, err := Step(&set, asOwned, revsOwned, s.claims, genNow, s.opts)
	if err != nil {
		t.Fatalf("Step of the claimed: %v", err)
	}
	for _, np := range q.Create.Objects {
		if slices.ContainsFunc(pods, func(p *podstatus.Pod) bool {
			return p.Name == np.Name && ClaimPod(&set, p) != Owned && ClaimPod(&set, p) != Adopt
		}) {
			t.Skip("a pod the set does not claim holds the name of one it creates: the creation fails")
		}
	}
	rest := p
	rest.Adopt, rest.Release, rest.AdoptRevisions = nil, nil, nil
	if !reflect.DeepEqual(rest, q) {
		t.Fatalf("the claimed sync differs from the sync of the claimed:\n%s", cmp.Diff(q, rest))
	}
	ws, err := p.Writes(&set, pods, revs, s.claims)
	if err != nil {
		t.Skip(err) // (a pod created at a current revision given without data)
	}
	qs, err := q.Writes(&set, asOwned, revsOwned, s.claims)
	if err != nil {
		t.Fatalf("Writes of the claimed: %v", err)
	}
	// (the retry of a stale revision update, an empty object, follows it)
	ws = slices.DeleteFunc(ws, func(w plan.Write) bool {
		return w.Resource == "controllerrevisions" && w.Verb == plan.VerbUpdate && w.Name == ""
	})
	n := len(p.Adopt) + len(p.Release) + len(p.AdoptRevisions)
	if len(ws) != n+len(qs) {
		t.Fatalf("%d writes; want %d patches and %d more", len(ws), n, len(qs))
	}
	for i, w := range ws[:n] {
		if w.Verb != plan.VerbPatch {
			t.Fatalf("write %d: %s; want the claim's patches first", i, w.Verb)
		}
	}
	for i, w := range ws[n:] {
		v := qs[i]
		stale := w.Verb == plan.VerbUpdate && w.Subresource == "" &&
			(w.Resource == "pods" && slices.Contains(wantAdopt, w.Name) || w.Resource == "controllerrevisions" && slices.Contains(wantAdoptRevs, w.Name))
		if w.Verb != v.Verb || w.Resource != v.Resource || w.Name != v.Name || w.Reason != v.Reason || w.FromCache != (v.FromCache || stale) ||
			w.IgnoreRefusal != (stale && w.Resource == "controllerrevisions") {
			t.Fatalf("write %d: %+v; want %+v", n+i, w, v)
		}
	}
}

func TestPropertyClaims(t *testing.T) { t.Parallel(); rapid.Check(t, checkClaims) }

// TestStepStaleRevisionRenumber: a set applied again with the template of
// an older of its orphan revisions adopts both and renumbers that one; the
// renumbering is sent from the cached copy the adoption made stale and
// refused, and upstream's retry sends the empty object the client returned
// with the Conflict, renumbered, which is refused too and ends the sync.
func TestStepStaleRevisionRenumber(t *testing.T) {
	t.Parallel()
	set := selected(1, template("web-v1"), current("web-v2", "web-v2"))
	revs := revs("web-v1", "web-v2")
	for i := range revs {
		revs[i].Labels = map[string]string{"app": "web"}
	}
	p, err := Step(&set, nil, revs, nil, genNow, Options{})
	if err != nil {
		t.Fatal(err)
	}
	ws, err := p.Writes(&set, nil, revs, nil)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, w := range ws[:4] {
		got = append(got, fmt.Sprintf("%s %s %q cache=%v ignore=%v", w.Verb, w.Resource, w.Name, w.FromCache, w.IgnoreRefusal))
	}
	want := []string{
		`patch controllerrevisions "web-v1" cache=false ignore=false`,
		`patch controllerrevisions "web-v2" cache=false ignore=false`,
		`update controllerrevisions "web-v1" cache=true ignore=true`,
		`update controllerrevisions "" cache=false ignore=false`,
	}
	if !slices.Equal(got, want) {
		t.Errorf("writes:\n%s", cmp.Diff(want, got))
	}
	if r := ws[3].Object.(*history.ControllerRevision); r.Revision != 3 || r.Name != "" || r.Data != nil {
		t.Errorf("the retry's object %+v; want an empty revision numbered 3", r)
	}
}
