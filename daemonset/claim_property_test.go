package daemonset_test

import (
	"fmt"
	"reflect"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"

	"github.com/kubesem/kubesem/daemonset"
	"github.com/kubesem/kubesem/history"
	"github.com/kubesem/kubesem/meta"
	"github.com/kubesem/kubesem/plan"
	"github.com/kubesem/kubesem/podstatus"
)

// ownedBy sets m's controller to uid ("" for none).
func ownedBy(m *meta.ObjectMeta, uid string) {
	m.OwnerReferences = nil
	if uid != "" {
		m.OwnerReferences = []meta.OwnerReference{meta.NewControllerRef("apps/v1", "DaemonSet", "ds", uid)}
	}
}

// A sync of the pods and revisions listed (the DaemonSet's, orphans,
// another controller's, some not selected) adopts and releases those
// ClaimPod and ClaimRevision say, and otherwise is the sync of the pods
// and revisions it claims, given as its own; its writes are the claimed
// sync's with the revision patches first, the pod patches at each
// listing, and a renumbering of an adopted revision sent from the cache.
func checkClaims(t *rapid.T) {
	ds := genDS(t)
	nodes, all := genCluster(t)
	owners := []string{"ds-uid", "ds-uid", "", "other"}
	var pods, asOwned []*podstatus.Pod
	var wantAdopt, wantRelease []string
	for i, p := range all {
		ownedBy(&p.ObjectMeta, rapid.SampledFrom(owners).Draw(t, fmt.Sprintf("podOwner%d", i)))
		if rapid.IntRange(0, 4).Draw(t, fmt.Sprintf("podUnselected%d", i)) == 0 {
			p.Labels["app"] = "e"
		}
		pods = append(pods, p)
		switch daemonset.ClaimPod(ds, p) {
		case daemonset.Owned:
			asOwned = append(asOwned, p)
		case daemonset.Adopt:
			wantAdopt = append(wantAdopt, p.Name)
			c := *p
			ownedBy(&c.ObjectMeta, "ds-uid")
			asOwned = append(asOwned, &c)
		case daemonset.Release:
			wantRelease = append(wantRelease, p.Name)
		}
	}
	h := daemonset.History{Hash: "new"}
	owned := daemonset.History{Hash: "new"}
	var wantAdoptRevs, wantReleaseRevs []string
	for i, hash := range []string{"new", "old", "older"} {
		if !rapid.Bool().Draw(t, "rev"+hash) {
			continue
		}
		r := history.ControllerRevision{Revision: int64(rapid.IntRange(1, 4).Draw(t, "revNumber"+hash))}
		r.Name, r.UID = "ds-"+hash, "uid-ds-"+hash
		r.Labels = map[string]string{"app": "d", history.HashLabel: hash}
		if rapid.IntRange(0, 4).Draw(t, fmt.Sprintf("revUnselected%d", i)) == 0 {
			r.Labels["app"] = "e"
		}
		ownedBy(&r.ObjectMeta, rapid.SampledFrom(owners).Draw(t, fmt.Sprintf("revOwner%d", i)))
		h.Revisions = append(h.Revisions, r)
		switch daemonset.ClaimRevision(ds, &r) {
		case daemonset.Owned:
			owned.Revisions = append(owned.Revisions, r)
		case daemonset.Adopt:
			wantAdoptRevs = append(wantAdoptRevs, r.Name)
			ownedBy(&r.ObjectMeta, "ds-uid")
			owned.Revisions = append(owned.Revisions, r)
		case daemonset.Release:
			wantReleaseRevs = append(wantReleaseRevs, r.Name)
		}
	}
	for _, l := range [][]string{wantAdopt, wantRelease, wantAdoptRevs, wantReleaseRevs} {
		slices.Sort(l)
	}
	p, err := daemonset.Step(ds, nodes, pods, h, nil, now, daemonset.Options{})
	if err != nil {
		t.Fatal(err)
	}
	names := func(refs []daemonset.ObjectRef) []string {
		var out []string
		for _, r := range refs {
			out = append(out, r.Name)
		}
		return out
	}
	if !slices.Equal(names(p.Adopt), wantAdopt) || !slices.Equal(names(p.Release), wantRelease) ||
		!slices.Equal(names(p.AdoptRevisions), wantAdoptRevs) || !slices.Equal(names(p.ReleaseRevisions), wantReleaseRevs) {
		t.Fatalf("adopt %v, release %v, revisions %v, %v; want %v, %v, %v, %v", names(p.Adopt), names(p.Release), names(p.AdoptRevisions),
			names(p.ReleaseRevisions), wantAdopt, wantRelease, wantAdoptRevs, wantReleaseRevs)
	}
	q, err := daemonset.Step(ds, nodes, asOwned, owned, nil, now, daemonset.Options{})
	if err != nil {
		t.Fatalf("Step of the claimed: %v", err)
	}
	rest := p
	rest.Adopt, rest.Release, rest.AdoptRevisions, rest.ReleaseRevisions = nil, nil, nil, nil
	if !reflect.DeepEqual(rest, q) {
		t.Fatalf("the claimed sync differs from the sync of the claimed:\n%s", cmp.Diff(q, rest))
	}
	ws, err := p.Writes(ds, pods, h)
	if err != nil {
		t.Fatal(err)
	}
	qs, err := q.Writes(ds, asOwned, owned)
	if err != nil {
		t.Fatalf("Writes of the claimed: %v", err)
	}
	nr := len(p.AdoptRevisions) + len(p.ReleaseRevisions)
	np := len(p.Adopt) + len(p.Release)
	var rest2 []plan.Write
	patches := 0
	for i, w := range ws {
		if w.Verb == plan.VerbPatch {
			if (i < nr) != (w.Resource == "controllerrevisions") {
				t.Fatalf("write %d: %s %s; want the revision patches first", i, w.Resource, w.Name)
			}
			if w.Resource == "pods" {
				patches++
			}
			continue
		}
		rest2 = append(rest2, w)
	}
	listings := 2 // manage and status
	if p.Outcome == daemonset.ReasonRollingUpdate || p.Outcome == daemonset.ReasonNodeNotFound {
		listings++
	}
	if p.Outcome != daemonset.ReasonNodeNotFound {
		listings++
	}
	if patches != listings*np {
		t.Fatalf("%d pod patches; want %d listings of %d", patches, listings, np)
	}
	if len(rest2) != len(qs) {
		t.Fatalf("%d writes besides the patches; want %d", len(rest2), len(qs))
	}
	for i, w := range rest2 {
		v := qs[i]
		stale := w.Verb == plan.VerbUpdate && w.Resource == "controllerrevisions" && slices.Contains(wantAdoptRevs, w.Name)
		if w.Verb != v.Verb || w.Resource != v.Resource || w.Name != v.Name || w.Reason != v.Reason || w.FromCache != stale {
			t.Fatalf("write %d: %+v; want %+v", i, w, v)
		}
	}
}

func TestPropertyClaims(t *testing.T) { t.Parallel(); rapid.Check(t, checkClaims) }
