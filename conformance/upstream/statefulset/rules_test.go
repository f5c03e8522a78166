package statefulset_test

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"
	_ "unsafe"

	"github.com/go-logr/logr"
	apps "k8s.io/api/apps/v1"
	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	upintstr "k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/client-go/tools/record"
	"k8s.io/klog/v2"
	appsv1defaults "k8s.io/kubernetes/pkg/apis/apps/v1"
	upsts "k8s.io/kubernetes/pkg/controller/statefulset"
	"pgregory.net/rapid"

	"github.com/kubesem/kubesem/conformance"
	"github.com/kubesem/kubesem/conformance/upstream/internal/difftest"
	"github.com/kubesem/kubesem/intstr"
	"github.com/kubesem/kubesem/k8s"
	"github.com/kubesem/kubesem/meta"
	"github.com/kubesem/kubesem/statefulset"
)

//go:linkname upClaimUpToDate k8s.io/kubernetes/pkg/controller/statefulset.isClaimOwnerUpToDate
func upClaimUpToDate(logger klog.Logger, claim *v1.PersistentVolumeClaim, set *apps.StatefulSet, pod *v1.Pod) bool

//go:linkname upUpdateClaimRefs k8s.io/kubernetes/pkg/controller/statefulset.updateClaimOwnerRefForSetAndPod
func upUpdateClaimRefs(logger klog.Logger, claim *v1.PersistentVolumeClaim, set *apps.StatefulSet, pod *v1.Pod)

//go:linkname upMaxUnavailable k8s.io/kubernetes/pkg/controller/statefulset.getStatefulSetMaxUnavailable
func upMaxUnavailable(maxUnavailable *upintstr.IntOrString, replicaCount int) (int, error)

// TestStatefulSetClaimRulesDifferential compares ClaimOwnerUpToDate and
// ClaimOwnerRefs with isClaimOwnerUpToDate and
// updateClaimOwnerRefForSetAndPod on random owner references, policies and
// ordinals.
var ruleLog = logr.Discard()

func TestStatefulSetClaimRulesDifferential(t *testing.T) {
	log := ruleLog
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
		claim := statefulset.Claim{ObjectMeta: meta.ObjectMeta{Name: "data-" + podName, OwnerReferences: refs}}
		upClaim := difftest.Must(k8s.ToPersistentVolumeClaim(&claim))
		upSet := &apps.StatefulSet{ObjectMeta: metav1.ObjectMeta{Name: "web", UID: "set-uid"}, Spec: apps.StatefulSetSpec{Replicas: &replicas,
			Ordinals: &apps.StatefulSetOrdinals{Start: start},
			PersistentVolumeClaimRetentionPolicy: &apps.StatefulSetPersistentVolumeClaimRetentionPolicy{
				WhenDeleted: apps.PersistentVolumeClaimRetentionPolicyType(policy.WhenDeleted), WhenScaled: apps.PersistentVolumeClaimRetentionPolicyType(policy.WhenScaled)}}}
		upPod := &v1.Pod{ObjectMeta: metav1.ObjectMeta{Name: podName, UID: types.UID(podUID)}}
		set := &statefulset.StatefulSet{Spec: statefulset.Spec{Replicas: &replicas, Ordinals: &statefulset.OrdinalsSpec{Start: start}, PersistentVolumeClaimRetentionPolicy: &policy}}
		set.Name, set.UID = "web", "set-uid"
		pod := statefulset.Owner{Name: podName, UID: podUID}
		want := upClaimUpToDate(log, upClaim, upSet, upPod)
		if got := statefulset.ClaimOwnerUpToDate(&claim, set, pod); got != want {
			t.Fatalf("ClaimOwnerUpToDate = %v, upstream %v", got, want)
		}
		c2 := upClaim.DeepCopy()
		upUpdateClaimRefs(log, c2, upSet, upPod)
		wantRefs := showRefs(difftest.Must(k8s.FromPersistentVolumeClaim(c2)).OwnerReferences)
		if got := showRefs(statefulset.ClaimOwnerRefs(&claim, set, pod)); got != wantRefs {
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
		want, _ := upMaxUnavailable(u, int(replicas))
		got, err := statefulset.MaxUnavailable(v, replicas)
		if err != nil || got != int64(want) {
			t.Fatalf("MaxUnavailable = %d, %v; upstream %d", got, err, want)
		}
	})
}

func showRefs(rs []meta.OwnerReference) string {
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

//go:linkname upPodInOrdinalRange k8s.io/kubernetes/pkg/controller/statefulset.podInOrdinalRange
func upPodInOrdinalRange(pod *v1.Pod, set *apps.StatefulSet) bool

type maxUnavailableIn struct {
	MaxUnavailable *intstr.Value `json:"maxUnavailable"`
	Replicas       int32         `json:"replicas"`
}

type claimIn struct {
	Claim      statefulset.Claim           `json:"claim"`
	Policy     statefulset.RetentionPolicy `json:"policy"`
	Set        statefulset.Owner           `json:"set"`
	Pod        statefulset.Owner           `json:"pod"`
	ScaledDown bool                        `json:"scaledDown"`
}

// ruleUp builds upstream's claim, set and pod for a claim rule input:
// the set defaulted by SetDefaults_StatefulSet, its replicas such that
// upstream's podInOrdinalRange places the pod as scaledDown says, and, for
// PodClaimIsStale, one claim template naming the claim for the pod.
func ruleUp(t testing.TB, in *claimIn) (*v1.PersistentVolumeClaim, *apps.StatefulSet, *v1.Pod) {
	t.Helper()
	pod := &v1.Pod{ObjectMeta: metav1.ObjectMeta{Name: in.Pod.Name, Namespace: "default", UID: types.UID(in.Pod.UID)}}
	ord := statefulset.ParseOrdinal(in.Pod.Name)
	replicas := max(ord, 0)
	if !in.ScaledDown {
		replicas = ord + 1
	}
	set := &apps.StatefulSet{ObjectMeta: metav1.ObjectMeta{Name: in.Set.Name, Namespace: "default", UID: types.UID(in.Set.UID)},
		Spec: apps.StatefulSetSpec{Replicas: &replicas, Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": "web"}},
			PersistentVolumeClaimRetentionPolicy: &apps.StatefulSetPersistentVolumeClaimRetentionPolicy{
				WhenDeleted: apps.PersistentVolumeClaimRetentionPolicyType(in.Policy.WhenDeleted), WhenScaled: apps.PersistentVolumeClaimRetentionPolicyType(in.Policy.WhenScaled)}}}
	appsv1defaults.SetDefaults_StatefulSet(set)
	if upPodInOrdinalRange(pod, set) == in.ScaledDown {
		t.Fatalf("pod %s: no set places it scaledDown=%v", in.Pod.Name, in.ScaledDown)
	}
	if suffix := "-" + in.Set.Name + "-" + strconv.Itoa(int(ord)); ord >= 0 && strings.HasSuffix(in.Claim.Name, suffix) {
		set.Spec.VolumeClaimTemplates = []v1.PersistentVolumeClaim{{ObjectMeta: metav1.ObjectMeta{Name: strings.TrimSuffix(in.Claim.Name, suffix)}}}
	}
	claim := difftest.Must(k8s.ToPersistentVolumeClaim(&in.Claim))
	claim.Namespace = "default"
	return claim, set, pod
}

// ruleWant is upstream's answer to a rule vector's input: getStatefulSetMaxUnavailable,
// isClaimOwnerUpToDate, updateClaimOwnerRefForSetAndPod (an empty list of
// references written []), StatefulPodControl.PodClaimIsStale.
func ruleWant(t testing.TB, decision string, input json.RawMessage) json.RawMessage {
	t.Helper()
	var out any
	switch decision {
	case "statefulset.MaxUnavailable":
		var in maxUnavailableIn
		if err := json.Unmarshal(input, &in); err != nil {
			t.Fatal(err)
		}
		var u *upintstr.IntOrString
		if v := in.MaxUnavailable; v != nil {
			x := upintstr.FromInt32(v.IntValue())
			if v.IsString() {
				x = upintstr.FromString(v.String())
			}
			u = &x
		}
		n, err := upMaxUnavailable(u, int(in.Replicas))
		if err != nil {
			t.Fatalf("getStatefulSetMaxUnavailable: %v", err)
		}
		out = map[string]int{"maxUnavailable": n}
	case "statefulset.ClaimOwnerUpToDate", "statefulset.ClaimOwnerRefs", "statefulset.ClaimIsStale":
		var in claimIn
		if err := json.Unmarshal(input, &in); err != nil {
			t.Fatal(err)
		}
		claim, set, pod := ruleUp(t, &in)
		switch decision {
		case "statefulset.ClaimOwnerUpToDate":
			out = map[string]bool{"upToDate": upClaimUpToDate(ruleLog, claim, set, pod)}
		case "statefulset.ClaimOwnerRefs":
			c := claim.DeepCopy()
			upUpdateClaimRefs(ruleLog, c, set, pod)
			refs := difftest.Must(k8s.FromPersistentVolumeClaim(c)).OwnerReferences
			if refs == nil {
				refs = []meta.OwnerReference{}
			}
			out = map[string][]meta.OwnerReference{"ownerReferences": refs}
		default:
			if len(set.Spec.VolumeClaimTemplates) != 1 {
				t.Fatalf("claim %s is not named for pod %s of set %s", in.Claim.Name, in.Pod.Name, in.Set.Name)
			}
			f := &newFake{claims: map[string]*v1.PersistentVolumeClaim{claim.Name: claim}}
			stale, err := upsts.NewStatefulPodControlFromManager(f, record.NewFakeRecorder(10)).PodClaimIsStale(set, pod)
			if err != nil {
				t.Fatal(err)
			}
			out = map[string]bool{"stale": stale}
		}
	default:
		t.Fatalf("no upstream answer for %s", decision)
	}
	b, err := json.Marshal(out)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestStatefulSetRuleVectorsUpstream replays testdata/statefulset/rules.json:
// every want is upstream's answer (ruleWant) and kubesem's.
func TestStatefulSetRuleVectorsUpstream(t *testing.T) {
	impl := conformance.Kubesem()
	n := 0
	for _, v := range readVectors(t, "rules.json") {
		want := ruleWant(t, v.Decision, v.Input)
		if !sameJSON(want, v.Want) {
			t.Errorf("%s: the vector's want is not upstream's:\nvector:   %s\nupstream: %s", v.Name, difftest.CompactJSON(v.Want), want)
			continue
		}
		got, err := impl.Decide(v.Decision, nil, v.Input)
		if err != nil {
			t.Errorf("%s: %v", v.Name, err)
			continue
		}
		if ok, why := conformance.Match(v.Want, got); !ok {
			t.Errorf("%s: kubesem differs from v1.36.3: %s", v.Name, why)
		}
		n++
	}
	if n < 132 {
		t.Fatalf("only %d rule vectors replayed", n)
	}
}
