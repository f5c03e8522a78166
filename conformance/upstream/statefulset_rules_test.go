package upstream_test

import (
	"testing"
	_ "unsafe"

	"github.com/go-logr/logr"
	apps "k8s.io/api/apps/v1"
	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	upintstr "k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/klog/v2"
	"pgregory.net/rapid"

	"github.com/kubesem/kubesem/intstr"
	"github.com/kubesem/kubesem/k8s"
	"github.com/kubesem/kubesem/meta"
	"github.com/kubesem/kubesem/statefulset"
)

//go:linkname stsUpClaimUpToDate k8s.io/kubernetes/pkg/controller/statefulset.isClaimOwnerUpToDate
func stsUpClaimUpToDate(logger klog.Logger, claim *v1.PersistentVolumeClaim, set *apps.StatefulSet, pod *v1.Pod) bool

//go:linkname stsUpUpdateClaimRefs k8s.io/kubernetes/pkg/controller/statefulset.updateClaimOwnerRefForSetAndPod
func stsUpUpdateClaimRefs(logger klog.Logger, claim *v1.PersistentVolumeClaim, set *apps.StatefulSet, pod *v1.Pod)

//go:linkname stsUpMaxUnavailable k8s.io/kubernetes/pkg/controller/statefulset.getStatefulSetMaxUnavailable
func stsUpMaxUnavailable(maxUnavailable *upintstr.IntOrString, replicaCount int) (int, error)

// TestStatefulSetClaimRulesDifferential compares ClaimOwnerUpToDate and
// ClaimOwnerRefs with isClaimOwnerUpToDate and
// updateClaimOwnerRefForSetAndPod on random owner references, policies and
// ordinals.
var stsLog = logr.Discard()

func TestStatefulSetClaimRulesDifferential(t *testing.T) {
	log := stsLog
	rapid.Check(t, func(t *rapid.T) {
		pol := func(l string) statefulset.RetentionPolicyType {
			return rapid.SampledFrom([]statefulset.RetentionPolicyType{statefulset.Retain, statefulset.Delete}).Draw(t, l)
		}
		policy := statefulset.RetentionPolicy{WhenDeleted: pol("d"), WhenScaled: pol("s")}
		replicas := int32(rapid.IntRange(0, 4).Draw(t, "replicas"))
		start := int32(rapid.IntRange(0, 2).Draw(t, "start"))
		ord := int32(rapid.IntRange(0, 6).Draw(t, "ord"))
		podName := statefulset.PodName("web", ord)
		podUID := rapid.SampledFrom([]string{"uid-pod", ""}).Draw(t, "podUID")
		tr, fa := true, false
		var refs []meta.OwnerReference
		for k := rapid.IntRange(0, 3).Draw(t, "n"); k > 0; k-- {
			ctl := rapid.SampledFrom([]*bool{&tr, &fa, nil}).Draw(t, "ctl")
			var r meta.OwnerReference
			switch rapid.IntRange(0, 5).Draw(t, "kind") {
			case 0:
				r = meta.OwnerReference{APIVersion: "apps/v1", Kind: "StatefulSet", Name: "web", UID: rapid.SampledFrom([]string{"set-uid", "old"}).Draw(t, "su")}
			case 1:
				r = meta.OwnerReference{APIVersion: "v1", Kind: "Pod", Name: podName, UID: rapid.SampledFrom([]string{"uid-pod", "old", ""}).Draw(t, "pu")}
			case 2:
				r = meta.OwnerReference{APIVersion: "v1", Kind: "Pod", Name: "web-9", UID: "x"}
			case 3:
				r = meta.OwnerReference{APIVersion: "custom/v1", Kind: "Thing", Name: "t", UID: rapid.SampledFrom([]string{"t", "set-uid", "uid-pod"}).Draw(t, "tu")}
			case 4:
				r = meta.OwnerReference{APIVersion: "appsv1", Kind: "StatefulSet", Name: "web", UID: "set-uid"}
			case 5:
				r = meta.OwnerReference{APIVersion: "apps/v1", Kind: "StatefulSet", Name: "other", UID: "o"}
			}
			r.Controller = ctl
			refs = append(refs, r)
		}
		claim := statefulset.Claim{Name: "data-" + podName, OwnerReferences: refs}
		upClaim := must(k8s.ToPersistentVolumeClaim(&claim))
		upSet := &apps.StatefulSet{ObjectMeta: metav1.ObjectMeta{Name: "web", UID: "set-uid"}, Spec: apps.StatefulSetSpec{Replicas: &replicas,
			Ordinals: &apps.StatefulSetOrdinals{Start: start},
			PersistentVolumeClaimRetentionPolicy: &apps.StatefulSetPersistentVolumeClaimRetentionPolicy{
				WhenDeleted: apps.PersistentVolumeClaimRetentionPolicyType(policy.WhenDeleted), WhenScaled: apps.PersistentVolumeClaimRetentionPolicyType(policy.WhenScaled)}}}
		upPod := &v1.Pod{ObjectMeta: metav1.ObjectMeta{Name: podName, UID: types.UID(podUID)}}
		set, pod := statefulset.Owner{Name: "web", UID: "set-uid"}, statefulset.Owner{Name: podName, UID: podUID}
		down := !(ord >= start && ord < start+replicas)
		want := stsUpClaimUpToDate(log, upClaim, upSet, upPod)
		if got := statefulset.ClaimOwnerUpToDate(&claim, policy, set, pod, down); got != want {
			t.Fatalf("ClaimOwnerUpToDate = %v, upstream %v", got, want)
		}
		c2 := upClaim.DeepCopy()
		stsUpUpdateClaimRefs(log, c2, upSet, upPod)
		wantRefs := stsShowRefs(must(k8s.FromPersistentVolumeClaim(c2)).OwnerReferences)
		if got := stsShowRefs(statefulset.ClaimOwnerRefs(&claim, policy, set, pod, down)); got != wantRefs {
			t.Fatalf("ClaimOwnerRefs = %s, upstream %s", got, wantRefs)
		}
	})
}

// TestStatefulSetMaxUnavailableDifferential compares MaxUnavailable with
// getStatefulSetMaxUnavailable on API-valid values.
func TestStatefulSetMaxUnavailableDifferential(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		replicas := int32(rapid.IntRange(0, 1<<20).Draw(t, "replicas"))
		var u *upintstr.IntOrString
		var v *intstr.Value
		switch rapid.IntRange(0, 2).Draw(t, "k") {
		case 1:
			n := int32(rapid.IntRange(1, 1<<20).Draw(t, "n"))
			x, y := upintstr.FromInt32(n), intstr.Int(n)
			u, v = &x, &y
		case 2:
			p := int32(rapid.IntRange(1, 100).Draw(t, "p"))
			x, y := upintstr.FromString(intstr.Percent(p).String()), intstr.Percent(p)
			u, v = &x, &y
		}
		want, _ := stsUpMaxUnavailable(u, int(replicas))
		got, err := statefulset.MaxUnavailable(v, replicas)
		if err != nil || got != int64(want) {
			t.Fatalf("MaxUnavailable = %d, %v; upstream %d", got, err, want)
		}
	})
}

func stsShowRefs(rs []meta.OwnerReference) string {
	s := ""
	for _, o := range rs {
		s += o.APIVersion + "/" + o.Kind + "/" + o.Name + "/" + o.UID
		if o.Controller != nil {
			if *o.Controller {
				s += "/ctl"
			} else {
				s += "/noctl"
			}
		}
		s += " "
	}
	return s
}
