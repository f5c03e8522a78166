package statefulset_test

import (
	"strings"
	"testing"
	_ "unsafe"

	"github.com/google/go-cmp/cmp"
	apps "k8s.io/api/apps/v1"
	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"pgregory.net/rapid"

	"github.com/kubesem/kubesem/k8s"
	"github.com/kubesem/kubesem/statefulset"
)

//go:linkname upClaims k8s.io/kubernetes/pkg/controller/statefulset.getPersistentVolumeClaims
func upClaims(set *apps.StatefulSet, pod *v1.Pod) map[string]v1.PersistentVolumeClaim

// TestAdapterStatefulSetClaimsDifferential: the claims k8s.ToStatefulSetWrites
// creates for a pod are upstream's getPersistentVolumeClaims for it (the
// claim templates with the selector's labels, named and namespaced), for
// sets with 0–3 claim templates with and without labels, names up to the
// length limit and ordinals up to MaxInt32. (The pods themselves are
// TestAdapterStatefulSetPodDifferential's.)
func TestAdapterStatefulSetClaimsDifferential(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		name := rapid.SampledFrom([]string{"web", "db", strings.Repeat("a", 252), strings.Repeat("b", 253)}).Draw(t, "name")
		set := &apps.StatefulSet{
			ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: rapid.SampledFrom([]string{"default", "data"}).Draw(t, "ns"), UID: types.UID("uid-" + name)},
			Spec: apps.StatefulSetSpec{ServiceName: rapid.SampledFrom([]string{"", "nginx"}).Draw(t, "svc"),
				Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": "web"}}},
		}
		claimNames := rapid.SliceOfNDistinct(rapid.SampledFrom([]string{"www", "data", "logs"}), 0, 3, rapid.ID[string]).Draw(t, "claims")
		for _, c := range claimNames {
			pvc := v1.PersistentVolumeClaim{ObjectMeta: metav1.ObjectMeta{Name: c}, Spec: v1.PersistentVolumeClaimSpec{AccessModes: []v1.PersistentVolumeAccessMode{v1.ReadWriteOnce}}}
			if rapid.Bool().Draw(t, "claimLabels") {
				pvc.Labels = map[string]string{"tier": "db", "app": "other"}
			}
			set.Spec.VolumeClaimTemplates = append(set.Spec.VolumeClaimTemplates, pvc)
		}
		ordinal := rapid.OneOf(rapid.Int32Range(0, 5), rapid.Int32Range(2147483640, 2147483647)).Draw(t, "ordinal")

		pod := &v1.Pod{ObjectMeta: metav1.ObjectMeta{Name: statefulset.PodName(name, ordinal)}}
		// The claims ToStatefulSetWrites creates for the pod are upstream's
		// getPersistentVolumeClaims (owner references come from the plan).
		var p statefulset.Plan
		for _, c := range claimNames {
			p.Claims = append(p.Claims, statefulset.ClaimWrite{Verb: statefulset.ClaimCreate, Name: statefulset.ClaimName(c, name, ordinal), Pod: pod.Name})
		}
		w, err := k8s.ToStatefulSetWrites(set, nil, nil, nil, p)
		if err != nil {
			t.Fatal(err)
		}
		upClaims := upClaims(set, pod)
		if len(w.CreateClaims) != len(upClaims) {
			t.Fatalf("%d claims, upstream %d", len(w.CreateClaims), len(upClaims))
		}
		for i, c := range w.CreateClaims {
			u := upClaims[claimNames[i]]
			if diff := cmp.Diff(&u, c); diff != "" {
				t.Fatalf("claim %s differs (-upstream +kubesem):\n%s", c.Name, diff)
			}
		}
	})
}
