package statefulset

import (
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/require"

	"github.com/kubesem/kubesem/meta"
	"github.com/kubesem/kubesem/podstatus"
)

// An updated pod is the given pod with its identity and claim volumes
// restored as its reasons say; an updated claim is the given claim with
// the Plan's owner references.
func TestWritesUpdatedObjects(t *testing.T) {
	t.Parallel()
	set := gset(2, claims("www"), retention(Delete, Retain))
	web0 := gpod(0, running, "web-v1", "www")
	delete(web0.Labels, LabelPodName)
	web1 := gpod(1, running, "web-v1")
	web1.Spec.Volumes = []podstatus.Volume{{Name: "cfg"}}
	pods := []*podstatus.Pod{web0, web1}
	cs := []*Claim{{ObjectMeta: meta.ObjectMeta{Name: "www-web-0", UID: "c0"}}, {ObjectMeta: meta.ObjectMeta{Name: "www-web-1", UID: "c1"}}}
	rs := revs("web-v1")
	p := mustStep(t, set, pods, rs, cs, Options{})
	wantUpdates := []PodUpdate{{Name: "web-0", Reasons: []Reason{ReasonIdentity, ReasonRetention}}, {Name: "web-1", Reasons: []Reason{ReasonStorage, ReasonRetention}}}
	if diff := cmp.Diff(wantUpdates, p.Update); diff != "" {
		t.Fatalf("pod updates (-want +got):\n%s", diff)
	}
	ws, err := p.Writes(&set, pods, rs, cs)
	require.NoError(t, err)
	want := []string{"update persistentvolumeclaims/ www-web-0", "update pods/ web-0", "update persistentvolumeclaims/ www-web-1", "update pods/ web-1", "update statefulsets/status web"}
	if got := writeKeys(ws); !slices.Equal(got, want) {
		t.Fatalf("writes %v; want %v", got, want)
	}
	setRef := []meta.OwnerReference{meta.NewControllerRef(setAPIVersion, setKind, "web", "set-uid")}
	for _, i := range []int{0, 2} {
		c := ws[i].Object.(*Claim)
		if diff := cmp.Diff(setRef, c.OwnerReferences); diff != "" || c.UID == "" {
			t.Errorf("claim %s: owner references (-want +got):\n%s", c.Name, diff)
		}
	}
	if pod := ws[1].Object.(*podstatus.Pod); pod.Labels[LabelPodName] != "web-0" || pod.Labels[LabelPodIndex] != "0" || pod.UID != "uid-web-0" {
		t.Errorf("web-0: labels %v, uid %s", pod.Labels, pod.UID)
	}
	want1 := []podstatus.Volume{{Name: "www", PersistentVolumeClaim: &podstatus.PersistentVolumeClaimVolumeSource{ClaimName: "www-web-1"}}, {Name: "cfg"}}
	if diff := cmp.Diff(want1, ws[3].Object.(*podstatus.Pod).Spec.Volumes); diff != "" {
		t.Errorf("web-1 volumes (-want +got):\n%s", diff)
	}
	// The inputs are untouched.
	if _, ok := web0.Labels[LabelPodName]; ok || len(web1.Spec.Volumes) != 1 || cs[0].OwnerReferences != nil {
		t.Error("Writes modified its inputs")
	}
}
