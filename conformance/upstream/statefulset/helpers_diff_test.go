package statefulset_test

import (
	"context"
	"encoding/json"
	"math"
	"strconv"
	"testing"
	_ "unsafe" // go:linkname to the StatefulSet controller's unexported rules

	apps "k8s.io/api/apps/v1"
	v1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/tools/record"
	appsv1defaults "k8s.io/kubernetes/pkg/apis/apps/v1"
	upsts "k8s.io/kubernetes/pkg/controller/statefulset"
	"pgregory.net/rapid"

	"github.com/kubesem/kubesem/conformance/upstream/internal/difftest"
	"github.com/kubesem/kubesem/k8s"
	"github.com/kubesem/kubesem/meta"
	"github.com/kubesem/kubesem/statefulset"
)

// This file checks statefulset.Ordinals, ParentAndOrdinal and ClaimIsStale
// against v1.36.3 as job/helpers_diff_test.go does the Job helpers: random
// boundary-heavy inputs through the binding against upstream's functions
// (helperUpstream), and every vector of these decisions replayed through the
// same oracle.

//go:linkname helperGetParentNameAndOrdinal k8s.io/kubernetes/pkg/controller/statefulset.getParentNameAndOrdinal
func helperGetParentNameAndOrdinal(*v1.Pod) (string, int)

//go:linkname helperGetStartOrdinal k8s.io/kubernetes/pkg/controller/statefulset.getStartOrdinal
func helperGetStartOrdinal(*apps.StatefulSet) int

//go:linkname helperGetEndOrdinal k8s.io/kubernetes/pkg/controller/statefulset.getEndOrdinal
func helperGetEndOrdinal(*apps.StatefulSet) int

// helperClaims is a StatefulPodControlObjectManager holding claims only.
type helperClaims map[string]*v1.PersistentVolumeClaim

func (helperClaims) CreatePod(context.Context, *v1.Pod, *apps.StatefulSet) error { panic("not used") }

func (helperClaims) GetPod(string, string) (*v1.Pod, error) { panic("not used") }

func (helperClaims) UpdatePod(*v1.Pod, *apps.StatefulSet) error { panic("not used") }

func (helperClaims) DeletePod(*v1.Pod) error { panic("not used") }

func (helperClaims) CreateClaim(*v1.PersistentVolumeClaim, *apps.StatefulSet) error {
	panic("not used")
}

func (helperClaims) UpdateClaim(*v1.PersistentVolumeClaim, *apps.StatefulSet) error {
	panic("not used")
}

func (c helperClaims) GetClaim(_, name string) (*v1.PersistentVolumeClaim, error) {
	if x, ok := c[name]; ok {
		return x.DeepCopy(), nil
	}
	return nil, apierrors.NewNotFound(v1.Resource("persistentvolumeclaims"), name)
}

type (
	helperOrdinalsIn struct {
		Replicas int32 `json:"replicas"`
		Start    int32 `json:"start"`
	}
	helperParseIn struct {
		Pod string `json:"pod"`
	}
	helperClaimIn struct {
		Claim      statefulset.Claim           `json:"claim"`
		Policy     statefulset.RetentionPolicy `json:"policy"`
		Set        statefulset.Owner           `json:"set"`
		Pod        statefulset.Owner           `json:"pod"`
		ScaledDown bool                        `json:"scaledDown"`
	}
)

// helperUpstream is upstream v1.36.3's answer to one input of decision, in the
// binding's output shape.
func helperUpstream(t difftest.TB, decision string, _, input json.RawMessage) json.RawMessage {
	t.Helper()
	var out any
	switch decision {
	case "statefulset.Ordinals":
		// getStartOrdinal and getEndOrdinal (inclusive) of a set with those
		// replicas and spec.ordinals.start (spec.ordinals absent for 0).
		var in helperOrdinalsIn
		difftest.Decode(t, input, &in)
		set := &apps.StatefulSet{Spec: apps.StatefulSetSpec{Replicas: &in.Replicas}}
		if in.Start != 0 {
			set.Spec.Ordinals = &apps.StatefulSetOrdinals{Start: in.Start}
		}
		appsv1defaults.SetDefaults_StatefulSet(set)
		out = map[string]int64{"first": int64(helperGetStartOrdinal(set)), "end": int64(helperGetEndOrdinal(set)) + 1}
	case "statefulset.ParentAndOrdinal":
		// ok: the name ends in an ordinal upstream parsed (a parsed one is
		// never negative; -1 is upstream's "none").
		var in helperParseIn
		difftest.Decode(t, input, &in)
		parent, ord := helperGetParentNameAndOrdinal(&v1.Pod{ObjectMeta: metav1.ObjectMeta{Name: in.Pod}})
		out = map[string]any{"parent": parent, "ordinal": ord, "ok": ord >= 0}
	case "statefulset.ClaimIsStale":
		var in helperClaimIn
		difftest.Decode(t, input, &in)
		out = map[string]bool{"stale": helperClaimIsStale(t, &in)}
	default:
		t.Fatalf("no upstream oracle for %s", decision)
	}
	return difftest.Encode(t, out)
}

// helperClaimIsStale asks StatefulPodControl.PodClaimIsStale about the pod,
// its set (with the retention policy, defaulted by SetDefaults_StatefulSet,
// and one claim template whose claim for the pod is in.Claim) and the
// claim, held by a fake object manager.
func helperClaimIsStale(t difftest.TB, in *helperClaimIn) bool {
	t.Helper()
	pod := &v1.Pod{ObjectMeta: metav1.ObjectMeta{Name: in.Pod.Name, Namespace: "default", UID: types.UID(in.Pod.UID)}}
	_, ord := helperGetParentNameAndOrdinal(pod)
	suffix := "-" + in.Set.Name + "-" + strconv.Itoa(ord)
	tmpl, ok := trimSuffix(in.Claim.Name, suffix)
	if !ok || tmpl == "" {
		t.Fatalf("claim %q is not named for pod %q of set %q", in.Claim.Name, in.Pod.Name, in.Set.Name)
	}
	replicas := int32(max(ord, 0))
	if !in.ScaledDown {
		replicas = int32(ord) + 1
	}
	set := &apps.StatefulSet{ObjectMeta: metav1.ObjectMeta{Name: in.Set.Name, Namespace: "default", UID: types.UID(in.Set.UID)},
		Spec: apps.StatefulSetSpec{Replicas: &replicas, Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": "web"}},
			VolumeClaimTemplates: []v1.PersistentVolumeClaim{{ObjectMeta: metav1.ObjectMeta{Name: tmpl}}}}}
	if in.Policy != (statefulset.RetentionPolicy{}) {
		set.Spec.PersistentVolumeClaimRetentionPolicy = &apps.StatefulSetPersistentVolumeClaimRetentionPolicy{
			WhenDeleted: apps.PersistentVolumeClaimRetentionPolicyType(in.Policy.WhenDeleted), WhenScaled: apps.PersistentVolumeClaimRetentionPolicyType(in.Policy.WhenScaled)}
	}
	appsv1defaults.SetDefaults_StatefulSet(set)
	claim := difftest.Must(k8s.ToPersistentVolumeClaim(&in.Claim))
	claim.Namespace = "default"
	stale, err := upsts.NewStatefulPodControlFromManager(helperClaims{claim.Name: claim}, record.NewFakeRecorder(10)).PodClaimIsStale(set, pod)
	if err != nil {
		t.Fatalf("PodClaimIsStale: %v", err)
	}
	return stale
}

func trimSuffix(s, suffix string) (string, bool) {
	if len(s) < len(suffix) || s[len(s)-len(suffix):] != suffix {
		return "", false
	}
	return s[:len(s)-len(suffix)], true
}

// helperInt32 draws a non-negative int32 (what the API accepts for replicas
// and ordinals.start), heavy on 0, 1 and the int32 edge.
func helperInt32(t *rapid.T, label string) int32 {
	switch rapid.IntRange(0, 3).Draw(t, label+"Kind") {
	case 0:
		return rapid.SampledFrom([]int32{0, 1, 2, math.MaxInt32, math.MaxInt32 - 1, math.MaxInt32 / 2, 1 << 30}).Draw(t, label)
	case 1:
		return int32(rapid.Int64Range(0, math.MaxInt32).Draw(t, label))
	}
	return int32(rapid.IntRange(0, 10).Draw(t, label))
}

func TestStatefulSetOrdinalsDifferential(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		difftest.CheckWith(t, helperUpstream, "statefulset.Ordinals", nil, helperOrdinalsIn{Replicas: helperInt32(t, "replicas"), Start: helperInt32(t, "start")})
	})
}

func TestStatefulSetParentAndOrdinalDifferential(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		var name string
		switch rapid.IntRange(0, 2).Draw(t, "kind") {
		case 0:
			// Names of the API's shape: a DNS subdomain prefix, then a
			// suffix around the int32 edge.
			name = rapid.StringMatching(`[a-z0-9]([a-z0-9.\-]{0,12}[a-z0-9])?`).Draw(t, "parent") +
				rapid.SampledFrom([]string{"", "-", "-0", "-1", "-00", "-01", "-9", "-10", "-2147483646", "-2147483647", "-2147483648",
					"-4294967296", "-9223372036854775807", "-9223372036854775808", "-99999999999999999999", "--1", "-+1", "-1a", "-a1", "-1.0", ".1"}).Draw(t, "suffix")
		case 1:
			name = rapid.StringMatching(`[a-z0-9.\-]{0,10}`).Draw(t, "raw")
		default:
			// Anything a string holds (not what the API accepts): other
			// characters, line breaks, multi-byte runes.
			name = rapid.StringOf(rapid.SampledFrom([]rune("ab-01Z.\n \té+"))).Draw(t, "any")
		}
		difftest.CheckWith(t, helperUpstream, "statefulset.ParentAndOrdinal", nil, helperParseIn{Pod: name})
	})
}

func TestStatefulSetClaimIsStaleDifferential(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		setName := rapid.SampledFrom([]string{"web", "my-web", "w"}).Draw(t, "set")
		ord := rapid.SampledFrom([]int{0, 1, 2, 3, 9, 10, math.MaxInt32 - 1, math.MaxInt32}).Draw(t, "ord")
		podName := setName + "-" + strconv.Itoa(ord)
		pol := func(l string) statefulset.RetentionPolicyType {
			return rapid.SampledFrom([]statefulset.RetentionPolicyType{"", statefulset.Retain, statefulset.Delete}).Draw(t, l)
		}
		in := helperClaimIn{
			Policy:     statefulset.RetentionPolicy{WhenDeleted: pol("whenDeleted"), WhenScaled: pol("whenScaled")},
			Set:        statefulset.Owner{Name: setName, UID: "set-uid"},
			Pod:        statefulset.Owner{Name: podName, UID: rapid.SampledFrom([]string{"pod-uid", "", "old"}).Draw(t, "podUID")},
			ScaledDown: rapid.Bool().Draw(t, "scaledDown") && ord < math.MaxInt32,
		}
		in.Claim.Name = rapid.SampledFrom([]string{"data", "d", "data-web"}).Draw(t, "template") + "-" + podName
		tr, fa := true, false
		for k := rapid.IntRange(0, 4).Draw(t, "refs"); k > 0; k-- {
			r := meta.OwnerReference{
				APIVersion: rapid.SampledFrom([]string{"v1", "v1", "/v1", "core/v1", "v1/", "apps/v1", ""}).Draw(t, "apiVersion"),
				Kind:       rapid.SampledFrom([]string{"Pod", "Pod", "pod", "StatefulSet", ""}).Draw(t, "kind"),
				Name:       rapid.SampledFrom([]string{podName, podName, setName, setName + "-" + strconv.Itoa(ord+1), podName + " ", ""}).Draw(t, "name"),
				UID:        rapid.SampledFrom([]string{in.Pod.UID, "pod-uid", "old", "", "set-uid"}).Draw(t, "uid"),
				Controller: rapid.SampledFrom([]*bool{&tr, &fa, nil}).Draw(t, "controller"),
			}
			in.Claim.OwnerReferences = append(in.Claim.OwnerReferences, r)
		}
		difftest.CheckWith(t, helperUpstream, "statefulset.ClaimIsStale", nil, in)
	})
}

// TestStatefulSetHelperVectorsUpstream replays the vectors of Ordinals,
// ParentAndOrdinal and ClaimIsStale through upstream (helperUpstream).
func TestStatefulSetHelperVectorsUpstream(t *testing.T) {
	difftest.Replay(t, "statefulset", map[string]int{"statefulset.Ordinals": 5, "statefulset.ParentAndOrdinal": 6, "statefulset.ClaimIsStale": 10}, helperUpstream)
}
