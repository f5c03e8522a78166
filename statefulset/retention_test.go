package statefulset

import (
	"reflect"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/kubesem/kubesem/meta"
)

var tPod = Owner{Name: "web-1", UID: "pod-uid"}

// claimSet is the set "web" (UID set-uid) with policy, of 2 replicas, so
// that tPod (ordinal 1) is in its range, or, down, of 1 replica, so that
// tPod is scaled down.
func claimSet(policy RetentionPolicy, down bool) *StatefulSet {
	n := int32(2)
	if down {
		n = 1
	}
	set := &StatefulSet{Spec: Spec{Replicas: &n, PersistentVolumeClaimRetentionPolicy: &policy}}
	set.Name, set.UID = "web", "set-uid"
	return set
}

func claimWith(refs ...meta.OwnerReference) *Claim {
	return &Claim{ObjectMeta: meta.ObjectMeta{Name: "www-web-1", OwnerReferences: refs}}
}

func TestUnexpectedController(t *testing.T) {
	t.Parallel()
	other := ctlRef("v1", "ConfigMap", "x", "x-uid")
	plain := meta.OwnerReference{APIVersion: "v1", Kind: "ConfigMap", Name: "x", UID: "x-uid"}
	dd := RetentionPolicy{WhenDeleted: Delete, WhenScaled: Delete}
	rr := RetentionPolicy{WhenDeleted: Retain, WhenScaled: Retain}
	for _, c := range []struct {
		name   string
		claim  *Claim
		policy RetentionPolicy
		want   bool
	}{
		{"another controller under Retain/Retain", claimWith(other), rr, false},
		{"another controller", claimWith(other), dd, true},
		{"another owner, not controller", claimWith(plain), dd, false},
		{"the set", claimWith(ctlRef(setAPIVersion, setKind, "web", "set-uid")), dd, false},
		{"the set's name with another UID", claimWith(ctlRef(setAPIVersion, setKind, "web", "old")), dd, true},
		{"the pod's name with another UID", claimWith(ctlRef(podAPIVersion, podKind, "web-1", "old")), dd, true},
		{"another pod as controller", claimWith(ctlRef(podAPIVersion, podKind, "web-2", "p2")), dd, true},
		{"whenDeleted Delete alone", claimWith(other), RetentionPolicy{WhenDeleted: Delete, WhenScaled: Retain}, true},
		{"whenScaled Delete alone", claimWith(other), RetentionPolicy{WhenDeleted: Retain, WhenScaled: Delete}, true},
	} {
		if got := UnexpectedController(c.claim, claimSet(c.policy, false), tPod); got != c.want {
			t.Errorf("%s: %v; want %v", c.name, got, c.want)
		}
	}
}

func TestClaimOwnerUpToDate(t *testing.T) {
	t.Parallel()
	set := ctlRef(setAPIVersion, setKind, "web", "set-uid")
	pod := ctlRef(podAPIVersion, podKind, "web-1", "pod-uid")
	R, D := Retain, Delete
	for _, c := range []struct {
		name            string
		claim           *Claim
		deleted, scaled RetentionPolicyType
		down            bool
		want            bool
	}{
		{"Retain/Retain, no refs", claimWith(), R, R, false, true},
		{"Retain/Retain, set ref", claimWith(set), R, R, false, false},
		{"whenDeleted Delete: set ref", claimWith(set), D, R, false, true},
		{"whenDeleted Delete: no ref", claimWith(), D, R, true, false},
		{"whenDeleted Delete: set and pod refs", claimWith(set, pod), D, R, false, false},
		{"whenScaled Delete, in range: no ref", claimWith(), R, D, false, true},
		{"whenScaled Delete, scaled down: pod ref", claimWith(pod), R, D, true, true},
		{"whenScaled Delete, scaled down: no ref", claimWith(), R, D, true, false},
		{"whenScaled Delete, in range: pod ref", claimWith(pod), R, D, false, false},
		{"Delete/Delete, in range: set ref", claimWith(set), D, D, false, true},
		{"Delete/Delete, scaled down: pod ref", claimWith(pod), D, D, true, true},
		{"Delete/Delete, scaled down: set ref", claimWith(set), D, D, true, false},
		{"a stale set ref: up to date", claimWith(ctlRef(setAPIVersion, setKind, "web", "old")), R, R, false, true},
		{"a stale pod ref: up to date", claimWith(ctlRef(podAPIVersion, podKind, "web-1", "old")), D, D, false, true},
		{"non-controller set ref", claimWith(meta.OwnerReference{APIVersion: setAPIVersion, Kind: setKind, Name: "web", UID: "set-uid"}), D, R, false, false},
		{"another controller, no refs of ours", claimWith(ctlRef("v1", "ConfigMap", "x", "x")), D, D, false, true},
		{"another controller beside the set's", claimWith(ctlRef("v1", "ConfigMap", "x", "x"), set), D, D, false, false},
	} {
		if got := ClaimOwnerUpToDate(c.claim, claimSet(RetentionPolicy{WhenDeleted: c.deleted, WhenScaled: c.scaled}, c.down), tPod); got != c.want {
			t.Errorf("%s: %v; want %v", c.name, got, c.want)
		}
	}
}

func TestClaimOwnerRefs(t *testing.T) {
	t.Parallel()
	set := ctlRef(setAPIVersion, setKind, "web", "set-uid")
	pod := ctlRef(podAPIVersion, podKind, "web-1", "pod-uid")
	keep := meta.OwnerReference{APIVersion: "v1", Kind: "ConfigMap", Name: "x", UID: "x"}
	dd := RetentionPolicy{WhenDeleted: Delete, WhenScaled: Delete}
	// The references the controller adds block the owner's deletion
	// (metav1.NewControllerRef, addControllerRef).
	newSet := meta.NewControllerRef(setAPIVersion, setKind, "web", "set-uid")
	newPod := meta.NewControllerRef(podAPIVersion, podKind, "web-1", "pod-uid")
	for _, c := range []struct {
		name   string
		claim  *Claim
		policy RetentionPolicy
		down   bool
		want   []meta.OwnerReference
	}{
		{"Retain/Retain drops ours, keeps others", claimWith(keep, set, pod), RetentionPolicy{WhenDeleted: Retain, WhenScaled: Retain}, false, []meta.OwnerReference{keep}},
		{"whenDeleted Delete: the set", claimWith(keep), RetentionPolicy{WhenDeleted: Delete, WhenScaled: Retain}, true, []meta.OwnerReference{keep, newSet}},
		{"whenScaled Delete, in range: none", claimWith(pod), RetentionPolicy{WhenDeleted: Retain, WhenScaled: Delete}, false, []meta.OwnerReference{}},
		{"whenScaled Delete, scaled down: the pod", claimWith(), RetentionPolicy{WhenDeleted: Retain, WhenScaled: Delete}, true, []meta.OwnerReference{newPod}},
		{"Delete/Delete, in range: the set", claimWith(pod), dd, false, []meta.OwnerReference{newSet}},
		{"Delete/Delete, scaled down: the pod", claimWith(set), dd, true, []meta.OwnerReference{newPod}},
		{"another controller: ours dropped, none added", claimWith(ctlRef("v1", "ConfigMap", "x", "x"), set), dd, false, []meta.OwnerReference{ctlRef("v1", "ConfigMap", "x", "x")}},
		{"a reference with our UID under another name is kept, not duplicated", claimWith(ctlRef("v1", "Thing", "t", "set-uid")), dd, false, []meta.OwnerReference{ctlRef("v1", "Thing", "t", "set-uid")}},
	} {
		orig := append([]meta.OwnerReference(nil), c.claim.OwnerReferences...)
		got := ClaimOwnerRefs(c.claim, claimSet(c.policy, c.down), tPod)
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s: %+v; want %+v", c.name, got, c.want)
		}
		if !reflect.DeepEqual(c.claim.OwnerReferences, orig) {
			t.Errorf("%s: input modified", c.name)
		}
		for i := range got {
			for j := range c.claim.OwnerReferences {
				if got[i].Controller != nil && got[i].Controller == c.claim.OwnerReferences[j].Controller {
					t.Errorf("%s: result shares a Controller pointer with the input", c.name)
				}
			}
		}
	}
}

func TestClaimIsStale(t *testing.T) {
	t.Parallel()
	pod := Owner{Name: "web-1", UID: ""} // a pod not yet created
	ws := RetentionPolicy{WhenDeleted: Retain, WhenScaled: Delete}
	for _, c := range []struct {
		name   string
		claim  *Claim
		policy RetentionPolicy
		want   bool
	}{
		{"whenScaled Retain: never stale", claimWith(ctlRef(podAPIVersion, podKind, "web-1", "old")), RetentionPolicy{WhenDeleted: Delete, WhenScaled: Retain}, false},
		{"a former pod of the name", claimWith(ctlRef(podAPIVersion, podKind, "web-1", "old")), ws, true},
		{"a former pod, not controller", claimWith(meta.OwnerReference{APIVersion: podAPIVersion, Kind: podKind, Name: "web-1", UID: "old"}), ws, true},
		{"another pod", claimWith(ctlRef(podAPIVersion, podKind, "web-2", "old")), ws, false},
		{"the set", claimWith(ctlRef(setAPIVersion, setKind, "web", "set-uid")), ws, false},
		{"no refs", claimWith(), ws, false},
		{"another kind named like the pod", claimWith(ctlRef("v1", "ConfigMap", "web-1", "old")), ws, false},
	} {
		if got := ClaimIsStale(c.claim, claimSet(c.policy, false), pod); got != c.want {
			t.Errorf("%s: %v; want %v", c.name, got, c.want)
		}
	}
	// The first reference of the pod's name decides.
	c := claimWith(ctlRef(podAPIVersion, podKind, "web-1", "uid-1"), ctlRef(podAPIVersion, podKind, "web-1", "old"))
	if ClaimIsStale(c, claimSet(ws, false), Owner{Name: "web-1", UID: "uid-1"}) {
		t.Error("the first reference matches the pod: not stale")
	}
}

// The pod's place in the set's range is read from its name against
// spec.ordinals.start and spec.replicas: below start, at start+replicas
// and a name without an ordinal are scaled down.
func TestClaimOwnerScaledDown(t *testing.T) {
	t.Parallel()
	dd := RetentionPolicy{WhenDeleted: Delete, WhenScaled: Delete}
	newSet := meta.NewControllerRef(setAPIVersion, setKind, "web", "set-uid")
	set := claimSet(dd, false) // 2 replicas
	set.Spec.Ordinals = &OrdinalsSpec{Start: 3}
	for _, c := range []struct {
		pod  string
		down bool
	}{
		{"web-2", true}, {"web-3", false}, {"web-4", false}, {"web-5", true}, {"web", true}, {"web-x", true},
	} {
		pod := Owner{Name: c.pod, UID: "p"}
		refs := ClaimOwnerRefs(claimWith(), set, pod)
		want := []meta.OwnerReference{newSet}
		if c.down {
			want = []meta.OwnerReference{meta.NewControllerRef(podAPIVersion, podKind, c.pod, "p")}
		}
		if !reflect.DeepEqual(refs, want) {
			t.Errorf("ClaimOwnerRefs(%s) = %+v; want %+v (scaled down %v)", c.pod, refs, want, c.down)
		}
		if got := ClaimOwnerUpToDate(&Claim{ObjectMeta: meta.ObjectMeta{OwnerReferences: want}}, set, pod); !got {
			t.Errorf("ClaimOwnerUpToDate(%s, %+v) = false; want true", c.pod, want)
		}
	}
}

// A nil claim or set: nothing to write, nothing blocks.
func TestClaimRulesNil(t *testing.T) {
	t.Parallel()
	set := claimSet(RetentionPolicy{WhenDeleted: Delete, WhenScaled: Delete}, false)
	c := claimWith(ctlRef(podAPIVersion, podKind, "web-1", "old"))
	require.False(t, UnexpectedController(nil, set, tPod), "UnexpectedController(nil claim)")
	require.False(t, UnexpectedController(c, nil, tPod), "UnexpectedController(nil set)")
	require.True(t, ClaimOwnerUpToDate(nil, set, tPod), "ClaimOwnerUpToDate(nil claim)")
	require.True(t, ClaimOwnerUpToDate(c, nil, tPod), "ClaimOwnerUpToDate(nil set)")
	require.Nil(t, ClaimOwnerRefs(nil, set, tPod), "ClaimOwnerRefs(nil claim)")
	require.Nil(t, ClaimOwnerRefs(c, nil, tPod), "ClaimOwnerRefs(nil set)")
	require.False(t, ClaimIsStale(nil, set, tPod), "ClaimIsStale(nil claim)")
	require.False(t, ClaimIsStale(c, nil, tPod), "ClaimIsStale(nil set)")
}
