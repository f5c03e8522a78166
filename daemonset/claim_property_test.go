package daemonset_test

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
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
// and revisions it claims, given as its own (those it controls first,
// then those it adopts); but its history cleanup and status leave out
// the adopted pods it deletes and the API server removes at once, which
// its later listings re-adopt and do not find: they are the sync's of
// the claimed pods without those. Its writes are the claimed sync's with
// the revision patches first, the pod patches at each listing, and a
// renumbering of an adopted revision sent from the cache.
func checkClaims(t *rapid.T) {
	ds := genDS(t)
	nodes, all := genCluster(t)
	owners := []string{"ds-uid", "ds-uid", "", "other"}
	var pods, asOwned, adopted []*podstatus.Pod
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
			adopted = append(adopted, &c)
		case daemonset.Release:
			wantRelease = append(wantRelease, p.Name)
		}
	}
	asOwned = append(asOwned, adopted...)
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
	// the adopted pods it deletes that a DELETE removes at once
	var kept []*podstatus.Pod
	for _, c := range asOwned {
		gone := slices.ContainsFunc(adopted, func(a *podstatus.Pod) bool { return a == c }) && len(c.Finalizers) == 0 &&
			slices.ContainsFunc(p.Delete, func(d plan.Deletion) bool { return d.Name == c.Name }) &&
			podstatus.GracefulDelete(c, nil, now).Outcome == podstatus.DeleteImmediately
		if !gone {
			kept = append(kept, c)
		}
	}
	later := q
	if len(kept) < len(asOwned) {
		if later, err = daemonset.Step(ds, nodes, kept, owned, nil, now, daemonset.Options{}); err != nil {
			t.Fatalf("Step of the claimed that stay: %v", err)
		}
	}
	// The sync walks a node's pods as upstream's pod index lists them,
	// those it controls before the orphans, and the sync of the claimed
	// by name: the deletions and events are compared in name order, and
	// where a node's first failed pod differs between the two walks (only
	// one is deleted per sync), the rest is not compared.
	if mixedFailed(pods, adopted) {
		return
	}
	rest := p
	rest.Adopt, rest.Release, rest.AdoptRevisions, rest.ReleaseRevisions = nil, nil, nil, nil
	rest.Delete, rest.Events = byName(rest.Delete, rest.Events)
	q.Delete, q.Events = byName(q.Delete, q.Events)
	want := q
	want.Status, want.UpdateStatus = later.Status, later.UpdateStatus
	// the history limit's deletes come last in Revisions
	limit := func(ws []history.Write) int {
		return len(ws) - len(slices.DeleteFunc(slices.Clone(ws), func(w history.Write) bool { return w.Reason != daemonset.ReasonHistoryLimit }))
	}
	want.Revisions = append(slices.Clone(q.Revisions[:limit(q.Revisions)]), later.Revisions[limit(later.Revisions):]...)
	if !reflect.DeepEqual(rest, want) {
		t.Fatalf("the claimed sync differs from the sync of the claimed:\n%s", cmp.Diff(want, rest))
	}
	ws, err := p.Writes(ds, pods, h)
	if err != nil {
		t.Fatal(err)
	}
	qs, err := want.Writes(ds, asOwned, owned)
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
	sortDeletes(rest2)
	sortDeletes(qs)
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

// mixedFailed reports whether a node has failed pods the DaemonSet
// controls and failed orphans it adopts (adopted, as owned copies).
func mixedFailed(pods, adopted []*podstatus.Pod) bool {
	owned, orphan := map[string]bool{}, map[string]bool{}
	for _, p := range pods {
		n, err := daemonset.TargetNodeName(&p.Spec)
		if err != nil || p.Status.Phase != podstatus.Failed || p.DeletionTimestamp != nil {
			continue
		}
		switch {
		case slices.ContainsFunc(adopted, func(a *podstatus.Pod) bool { return a.Name == p.Name }):
			orphan[n] = true
		case p.ControllerRef() != nil && p.ControllerRef().UID == "ds-uid":
			owned[n] = true
		}
	}
	for n := range owned {
		if orphan[n] {
			return true
		}
	}
	return false
}

// sortDeletes sorts each run of pod deletes in ws by name.
func sortDeletes(ws []plan.Write) {
	isDel := func(w plan.Write) bool { return w.Verb == plan.VerbDelete && w.Resource == "pods" }
	for i := 0; i < len(ws); {
		j := i
		for j < len(ws) && isDel(ws[j]) {
			j++
		}
		if j == i {
			i++
			continue
		}
		slices.SortStableFunc(ws[i:j], func(a, b plan.Write) int { return strings.Compare(a.Name, b.Name) })
		i = j
	}
}

// byName returns copies of ds and es in name order.
func byName(ds []plan.Deletion, es []plan.Event) ([]plan.Deletion, []plan.Event) {
	ds, es = slices.Clone(ds), slices.Clone(es)
	slices.SortStableFunc(ds, func(a, b plan.Deletion) int { return strings.Compare(a.Name, b.Name) })
	slices.SortStableFunc(es, func(a, b plan.Event) int { return strings.Compare(a.Object, b.Object) })
	return ds, es
}

func TestPropertyClaims(t *testing.T) { t.Parallel(); rapid.Check(t, checkClaims) }
