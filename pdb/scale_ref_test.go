package pdb_test

import (
	"fmt"
	"sort"
	"testing"

	"pgregory.net/rapid"

	"github.com/kubesem/kubesem/field"
	"github.com/kubesem/kubesem/meta"
	"github.com/kubesem/kubesem/pdb"
	"github.com/kubesem/kubesem/podstatus"
)

// expectedScaleRef is ExpectedScale as written before its shortcuts for
// runs of pods of one controller: every pod's reference looked up in the
// seen set and the memo.
func expectedScaleRef(pods []*podstatus.Pod, controllers []pdb.Controller) (int32, []string, error) {
	var sorted []*podstatus.Pod
	for _, p := range pods {
		if p != nil {
			sorted = append(sorted, p)
		}
	}
	sort.SliceStable(sorted, func(i, j int) bool { return sorted[i].Name < sorted[j].Name })
	seen := map[string]int32{}
	type refKey struct{ apiVersion, kind, name, uid string }
	type scaleOf struct {
		uid   string
		scale int32
		found bool
		err   error
	}
	memo := map[refKey]scaleOf{}
	var sum int64
	var unmanaged []string
	for _, p := range sorted {
		ref := p.ControllerRef()
		if ref == nil {
			unmanaged = append(unmanaged, p.Name)
			continue
		}
		if _, ok := seen[ref.UID]; ok {
			continue
		}
		k := refKey{ref.APIVersion, ref.Kind, ref.Name, ref.UID}
		r, ok := memo[k]
		if !ok {
			r.uid, r.scale, r.found, r.err = pdb.ControllerScale(*ref, controllers)
			memo[k] = r
		}
		if r.err != nil {
			return 0, nil, &pdb.ScaleError{Pod: p.Name, Message: r.err.Error()}
		}
		if !r.found {
			return 0, nil, &pdb.ScaleError{Pod: p.Name, Message: fmt.Sprintf("found no controllers for pod %q", p.Name)}
		}
		if _, ok := seen[r.uid]; !ok {
			sum += int64(r.scale)
		}
		seen[r.uid] = r.scale
	}
	if sum > 1<<31-1 || sum < -1<<31 {
		return 0, nil, field.Int("controllers", sum, field.ErrOverflow)
	}
	return int32(sum), unmanaged, nil
}

// TestExpectedScaleMatchesReference: ExpectedScale agrees with the plain
// lookup of every pod on pods drawn from a few references (a ReplicaSet of
// a Deployment, one without, a StatefulSet, references sharing a UID with
// another kind or name, an empty reference, none), in any order, nils
// included.
func TestExpectedScaleMatchesReference(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		d := pdb.Controller{APIVersion: "apps/v1", Kind: "Deployment", ObjectMeta: meta.ObjectMeta{Name: "d", UID: "d-uid"}, Spec: pdb.ControllerSpec{Replicas: ptr(int32(5))}}
		rsd := rs("rsd", 3)
		rsd.OwnerReferences = []meta.OwnerReference{{APIVersion: "apps/v1", Kind: "Deployment", Name: "d", UID: "d-uid", Controller: ptr(true)}}
		ss := pdb.Controller{APIVersion: "apps/v1", Kind: "StatefulSet", ObjectMeta: meta.ObjectMeta{Name: "s", UID: "s-uid"}, Spec: pdb.ControllerSpec{Replicas: ptr(int32(2))}}
		all := []pdb.Controller{d, rsd, rs("rs0", 4), ss}
		var controllers []pdb.Controller
		for i, c := range all {
			if rapid.Bool().Draw(t, fmt.Sprintf("has%d", i)) {
				controllers = append(controllers, c)
			}
		}
		refs := []*meta.OwnerReference{nil, rsRef("rsd"), rsRef("rs0"),
			{APIVersion: "apps/v1", Kind: "StatefulSet", Name: "s", UID: "s-uid", Controller: ptr(true)},
			{APIVersion: "apps/v1", Kind: "StatefulSet", Name: "other", UID: "rs0-uid", Controller: ptr(true)},
			{APIVersion: "apps/v1", Kind: "ReplicaSet", Name: "rs0", UID: "rsd-uid", Controller: ptr(true)},
			{Controller: ptr(true)},
			{APIVersion: "v9/x", Kind: "Widget", Name: "w", UID: "w-uid", Controller: ptr(true)}}
		n := rapid.IntRange(0, 24).Draw(t, "pods")
		pods := make([]*podstatus.Pod, n)
		for i := range pods {
			if rapid.IntRange(0, 15).Draw(t, fmt.Sprintf("nil%d", i)) == 0 {
				continue
			}
			name := fmt.Sprintf("p%02d", rapid.IntRange(0, 30).Draw(t, fmt.Sprintf("name%d", i)))
			pods[i] = readyPod(name, true, refs[rapid.IntRange(0, len(refs)-1).Draw(t, fmt.Sprintf("ref%d", i))])
		}
		if rapid.Bool().Draw(t, "sorted") {
			sort.SliceStable(pods, func(i, j int) bool {
				if pods[i] == nil || pods[j] == nil {
					return pods[j] != nil && pods[i] == nil
				}
				return pods[i].Name < pods[j].Name
			})
		}
		wc, wu, werr := expectedScaleRef(pods, controllers)
		gc, gu, gerr := pdb.ExpectedScale(pods, controllers)
		if fmt.Sprint(wc, wu, werr) != fmt.Sprint(gc, gu, gerr) {
			t.Fatalf("ExpectedScale = %v %v %v; the plain lookup gives %v %v %v", gc, gu, gerr, wc, wu, werr)
		}
	})
}
