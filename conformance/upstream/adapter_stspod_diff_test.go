package upstream_test

import (
	"slices"
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

//go:linkname stsUpNewPod k8s.io/kubernetes/pkg/controller/statefulset.newStatefulSetPod
func stsUpNewPod(set *apps.StatefulSet, ordinal int) *v1.Pod

//go:linkname stsUpClaims k8s.io/kubernetes/pkg/controller/statefulset.getPersistentVolumeClaims
func stsUpClaims(set *apps.StatefulSet, pod *v1.Pod) map[string]v1.PersistentVolumeClaim

// TestAdapterStatefulSetPodDifferential: k8s.NewStatefulSetPod builds the
// pod v1.36.3's newStatefulSetPod builds (plus the revision label
// setPodRevision adds) for random sets — names up to the length limit,
// templates with and without labels, annotations, finalizers and volumes
// (some named like a claim template), 0–3 claim templates, ordinals from 0
// to MaxInt32. Upstream orders the claim volumes by map iteration, so they
// are compared as a set.
func TestAdapterStatefulSetPodDifferential(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		name := rapid.SampledFrom([]string{"web", "db", strings.Repeat("a", 252), strings.Repeat("b", 253)}).Draw(t, "name")
		set := &apps.StatefulSet{
			ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: rapid.SampledFrom([]string{"default", "data"}).Draw(t, "ns"), UID: types.UID("uid-" + name)},
			Spec: apps.StatefulSetSpec{ServiceName: rapid.SampledFrom([]string{"", "nginx"}).Draw(t, "svc"),
				Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": "web"}}},
		}
		tmpl := &set.Spec.Template
		if rapid.Bool().Draw(t, "labels") {
			tmpl.Labels = map[string]string{"app": "web", apps.StatefulSetPodNameLabel: "stale"}
		}
		if rapid.Bool().Draw(t, "annotations") {
			tmpl.Annotations = map[string]string{"a": "1"}
		}
		if rapid.Bool().Draw(t, "finalizers") {
			tmpl.Finalizers = []string{"example.com/f"}
		}
		claimNames := rapid.SliceOfNDistinct(rapid.SampledFrom([]string{"www", "data", "logs"}), 0, 3, rapid.ID[string]).Draw(t, "claims")
		for _, c := range claimNames {
			pvc := v1.PersistentVolumeClaim{ObjectMeta: metav1.ObjectMeta{Name: c}, Spec: v1.PersistentVolumeClaimSpec{AccessModes: []v1.PersistentVolumeAccessMode{v1.ReadWriteOnce}}}
			if rapid.Bool().Draw(t, "claimLabels") {
				pvc.Labels = map[string]string{"tier": "db", "app": "other"}
			}
			set.Spec.VolumeClaimTemplates = append(set.Spec.VolumeClaimTemplates, pvc)
		}
		for _, vn := range rapid.SliceOfNDistinct(rapid.SampledFrom([]string{"www", "config", "cache"}), 0, 3, rapid.ID[string]).Draw(t, "volumes") {
			tmpl.Spec.Volumes = append(tmpl.Spec.Volumes, v1.Volume{Name: vn, VolumeSource: v1.VolumeSource{EmptyDir: &v1.EmptyDirVolumeSource{}}})
		}
		tmpl.Spec.Containers = []v1.Container{{Name: "c", Image: rapid.SampledFrom([]string{"nginx:1", "nginx:2"}).Draw(t, "image")}}
		ordinal := rapid.OneOf(rapid.Int32Range(0, 5), rapid.Int32Range(2147483640, 2147483647)).Draw(t, "ordinal")
		revision := name + "-" + rapid.SampledFrom([]string{"5d8b7f9c6", "7c9f5b8d4"}).Draw(t, "rev")

		want := stsUpNewPod(set, int(ordinal))
		want.Labels[apps.StatefulSetRevisionLabel] = revision
		got := k8s.NewStatefulSetPod(set, tmpl, statefulset.NewPod{Name: statefulset.PodName(name, ordinal), Ordinal: ordinal, Revision: revision})
		k := len(claimNames)
		sortClaimVolumes(want, k)
		sortClaimVolumes(got, k)
		if diff := cmp.Diff(want, got); diff != "" {
			t.Fatalf("pod differs (-upstream +kubesem):\n%s", diff)
		}
		// The claims StatefulSetActions creates for the pod are upstream's
		// getPersistentVolumeClaims (owner references come from the plan).
		var p statefulset.Plan
		for _, c := range claimNames {
			p.Claims = append(p.Claims, statefulset.ClaimWrite{Verb: statefulset.ClaimCreate, Name: statefulset.ClaimName(c, name, ordinal), Pod: got.Name})
		}
		w, err := k8s.StatefulSetActions(set, revision, nil, nil, nil, p)
		if err != nil {
			t.Fatal(err)
		}
		upClaims := stsUpClaims(set, want)
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

// sortClaimVolumes sorts the first k volumes (the claim volumes) by name.
func sortClaimVolumes(p *v1.Pod, k int) {
	k = min(k, len(p.Spec.Volumes))
	slices.SortFunc(p.Spec.Volumes[:k], func(a, b v1.Volume) int { return strings.Compare(a.Name, b.Name) })
}
