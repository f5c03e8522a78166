package daemonset_test

import (
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"strconv"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	utilfield "k8s.io/apimachinery/pkg/util/validation/field"
	"k8s.io/kubernetes/pkg/api/legacyscheme"
	_ "k8s.io/kubernetes/pkg/apis/apps/install"
	"k8s.io/kubernetes/pkg/apis/core"
	apivalidation "k8s.io/kubernetes/pkg/apis/core/validation"
	dsutil "k8s.io/kubernetes/pkg/controller/daemon/util"
	"pgregory.net/rapid"

	"github.com/kubesem/kubesem/conformance"
	"github.com/kubesem/kubesem/conformance/upstream/internal/difftest"
	"github.com/kubesem/kubesem/daemonset"
	"github.com/kubesem/kubesem/history"
	"github.com/kubesem/kubesem/plan"
	"github.com/kubesem/kubesem/podstatus"
)

// The four daemon pod rules of daemon/util against v1.36.3's own
// functions: IsPodUpdated, GetTargetNodeName,
// ReplaceDaemonSetPodNodeNameNodeAffinity, and CreatePodTemplate composed
// as syncNodes composes it (the template generation from
// GetTemplateGeneration, nil when it does not parse; the affinity pinned
// per node). Inputs are drawn in upstream's types, boundary-heavy, and go
// to kubesem as their JSON; kubesem's answers are read back into
// upstream's types and compared whole.

// ---------------------------------------------------------------------
// daemonset.IsPodUpdated

var ruleGenValues = []string{"1", "0", "-1", "01", "+1", " 1", "1 ", "", "abc", "9223372036854775807", "9223372036854775808",
	"-9223372036854775808", "-9223372036854775809", "12345", "1e3", "0x1"}

// TestDaemonSetIsPodUpdatedDifferential: daemonset.IsPodUpdated against
// IsPodUpdated, exhaustively over a finite space (1,806 states): pods
// without labels, or whose pod-template-generation label is absent,
// canonical, padded, signed, zero-prefixed, at and past the int64 limits or
// not a number and whose controller-revision-hash label is absent, empty,
// the hash or another; the hash empty or not; the template generation
// absent, 0, ±1, 12345 and the int64 extremes. Then every
// daemonset.IsPodUpdated vector is replayed through IsPodUpdated.
func TestDaemonSetIsPodUpdatedDifferential(t *testing.T) {
	counts := map[string]int{}
	labelSets := []map[string]string{nil}
	for _, g := range append([]string{"<absent>"}, ruleGenValues...) {
		for _, h := range []string{"<absent>", "abc", "", "def", "ABC"} {
			l := map[string]string{"app": "web"}
			if g != "<absent>" {
				l[daemonset.LabelTemplateGeneration] = g
			}
			if h != "<absent>" {
				l[history.HashLabel] = h
			}
			labelSets = append(labelSets, l)
		}
	}
	gens := []*int64{nil}
	for _, g := range []int64{0, 1, -1, 12345, math.MaxInt64, math.MinInt64} {
		gens = append(gens, difftest.Ptr(g))
	}
	for _, labels := range labelSets {
		for _, hash := range []string{"abc", "", "def"} {
			for _, gen := range gens {
				pod := &v1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "p", Namespace: "default", Labels: labels}}
				want := dsutil.IsPodUpdated(pod, hash, gen)
				in := map[string]any{"labels": labels, "hash": hash}
				if gen != nil {
					in["templateGeneration"] = *gen
				}
				var got struct {
					Updated *bool `json:"updated"`
				}
				if e := difftest.Decide(t, "daemonset.IsPodUpdated", nil, in, &got); e != nil {
					t.Fatalf("kubesem input error %+v", e)
				}
				if got.Updated == nil || *got.Updated != want {
					t.Fatalf("%s: kubesem %s, upstream %v", difftest.JSON(t, in), difftest.JSON(t, got), want)
				}
				counts[fmt.Sprintf("updated %v", want)]++
			}
		}
	}
	difftest.Count(t, counts)

	n := 0
	for _, v := range difftest.Vectors(t, "daemonset", "daemonset.IsPodUpdated") {
		var in struct {
			Labels             map[string]string `json:"labels"`
			Hash               string            `json:"hash"`
			TemplateGeneration *int64            `json:"templateGeneration"`
		}
		if err := json.Unmarshal(v.Input, &in); err != nil {
			t.Fatalf("%q: %v", v.Name, err)
		}
		pod := &v1.Pod{ObjectMeta: metav1.ObjectMeta{Labels: in.Labels}}
		want := difftest.JSON(t, map[string]bool{"updated": dsutil.IsPodUpdated(pod, in.Hash, in.TemplateGeneration)})
		if !difftest.SameJSON(v.Want, want) {
			t.Errorf("%q: want %s, upstream %s", v.Name, v.Want, want)
		}
		n++
	}
	t.Logf("%d daemonset.IsPodUpdated vectors replayed through IsPodUpdated", n)
}

// ---------------------------------------------------------------------
// Node affinity, as kubesem models it (the required terms).

// ruleDrawRequirement draws a node selector requirement: the node name
// field or another key, In, NotIn, Exists or Gt, with zero to two values.
func ruleDrawRequirement(t *rapid.T, l string, field bool) v1.NodeSelectorRequirement {
	key := rapid.SampledFrom([]string{"zone", "kubernetes.io/hostname", metav1.ObjectNameField}).Draw(t, l+"key")
	if field {
		key = rapid.SampledFrom([]string{metav1.ObjectNameField, metav1.ObjectNameField, "metadata.foo"}).Draw(t, l+"fkey")
	}
	op := rapid.SampledFrom([]v1.NodeSelectorOperator{v1.NodeSelectorOpIn, v1.NodeSelectorOpIn, v1.NodeSelectorOpNotIn, v1.NodeSelectorOpExists, v1.NodeSelectorOpGt}).Draw(t, l+"op")
	var values []string
	for i := range rapid.SampledFrom([]int{0, 1, 1, 1, 2}).Draw(t, l+"n") {
		values = append(values, rapid.SampledFrom([]string{"n1", "n2", "a", "5"}).Draw(t, l+"v"+strconv.Itoa(i)))
	}
	return v1.NodeSelectorRequirement{Key: key, Operator: op, Values: values}
}

// ruleDrawAffinity draws an affinity of the shape kubesem models: absent,
// empty, with an empty node affinity, or with required terms (none, or up
// to three with up to two expressions and two fields each).
func ruleDrawAffinity(t *rapid.T, l string) *v1.Affinity {
	switch rapid.IntRange(0, 5).Draw(t, l+"shape") {
	case 0:
		return nil
	case 1:
		return &v1.Affinity{}
	case 2:
		return &v1.Affinity{NodeAffinity: &v1.NodeAffinity{}}
	}
	sel := &v1.NodeSelector{NodeSelectorTerms: []v1.NodeSelectorTerm{}}
	for i := range rapid.SampledFrom([]int{0, 1, 1, 2, 3}).Draw(t, l+"terms") {
		tl := l + "t" + strconv.Itoa(i)
		var term v1.NodeSelectorTerm
		for j := range rapid.IntRange(0, 2).Draw(t, tl+"exprs") {
			term.MatchExpressions = append(term.MatchExpressions, ruleDrawRequirement(t, tl+"e"+strconv.Itoa(j), false))
		}
		for j := range rapid.IntRange(0, 2).Draw(t, tl+"fields") {
			term.MatchFields = append(term.MatchFields, ruleDrawRequirement(t, tl+"f"+strconv.Itoa(j), true))
		}
		sel.NodeSelectorTerms = append(sel.NodeSelectorTerms, term)
	}
	return &v1.Affinity{NodeAffinity: &v1.NodeAffinity{RequiredDuringSchedulingIgnoredDuringExecution: sel}}
}

// ruleSameAffinity compares affinities as the API server stores them (nil
// and empty lists alike).
func ruleSameAffinity(tb difftest.Fataler, a, b *v1.Affinity) bool {
	return difftest.SameJSON(difftest.JSON(tb, a), difftest.JSON(tb, b))
}

// TestDaemonSetPinToNodeDifferential: daemonset.PinToNode against
// ReplaceDaemonSetPodNodeNameNodeAffinity (on a copy: upstream rewrites
// its argument) over affinities drawn by ruleDrawAffinity and node names
// that are ordinary, empty or odd. The answer, read as a v1 Affinity, must
// be upstream's. Then every daemonset.PinToNode vector is replayed.
func TestDaemonSetPinToNodeDifferential(t *testing.T) {
	counts := map[string]int{}
	rapid.Check(t, func(t *rapid.T) {
		aff := ruleDrawAffinity(t, "a")
		name := rapid.SampledFrom([]string{"n1", "node-2", "", "host_1", "a.b.c"}).Draw(t, "node")
		want := dsutil.ReplaceDaemonSetPodNodeNameNodeAffinity(aff.DeepCopy(), name)
		in := map[string]any{"affinity": aff, "node": name}
		var got struct {
			Affinity *v1.Affinity `json:"affinity"`
		}
		if e := difftest.Decide(t, "daemonset.PinToNode", nil, in, &got); e != nil {
			t.Fatalf("kubesem input error %+v", e)
		}
		if !ruleSameAffinity(t, got.Affinity, want) {
			t.Fatalf("%s\nkubesem  %s\nupstream %s", difftest.JSON(t, in), difftest.JSON(t, got.Affinity), difftest.JSON(t, want))
		}
		switch {
		case aff == nil || aff.NodeAffinity == nil || aff.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution == nil:
			counts["no required terms before"]++
		default:
			counts["required terms replaced"]++
		}
	})
	difftest.Count(t, counts)

	n := 0
	for _, v := range difftest.Vectors(t, "daemonset", "daemonset.PinToNode") {
		var in struct {
			Affinity *v1.Affinity `json:"affinity"`
			Node     string       `json:"node"`
		}
		if err := json.Unmarshal(v.Input, &in); err != nil {
			t.Fatalf("%q: %v", v.Name, err)
		}
		want := difftest.JSON(t, map[string]any{"affinity": dsutil.ReplaceDaemonSetPodNodeNameNodeAffinity(in.Affinity, in.Node)})
		if !difftest.SameJSON(v.Want, want) {
			t.Errorf("%q: want %s, upstream %s", v.Name, v.Want, want)
		}
		n++
	}
	t.Logf("%d daemonset.PinToNode vectors replayed through ReplaceDaemonSetPodNodeNameNodeAffinity", n)
}

// TestDaemonSetTargetNodeNameDifferential: daemonset.TargetNodeName
// against GetTargetNodeName on pods with spec.nodeName set or not and the
// affinities of ruleDrawAffinity (the node name field with In and one
// value in some term, with two values or none, NotIn, another field key,
// the name as a label expression). kubesem answers the node upstream
// answers, or an input error exactly when upstream errs. Then every
// daemonset.TargetNodeName vector is replayed.
func TestDaemonSetTargetNodeNameDifferential(t *testing.T) {
	counts := map[string]int{}
	rapid.Check(t, func(t *rapid.T) {
		pod := &v1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "p", Namespace: "default"}}
		if rapid.IntRange(0, 3).Draw(t, "nodeNameSet") == 0 {
			pod.Spec.NodeName = rapid.SampledFrom([]string{"n1", "n9"}).Draw(t, "nodeName")
		}
		pod.Spec.Affinity = ruleDrawAffinity(t, "a")
		want, werr := dsutil.GetTargetNodeName(pod)
		var got struct {
			Node *string `json:"node"`
		}
		e := difftest.Decide(t, "daemonset.TargetNodeName", nil, map[string]any{"pod": pod}, &got)
		switch {
		case werr != nil && e == nil:
			t.Fatalf("pod %s: kubesem %s, upstream error %v", difftest.JSON(t, pod), difftest.JSON(t, got), werr)
		case werr == nil && e != nil:
			t.Fatalf("pod %s: kubesem error %+v, upstream %q", difftest.JSON(t, pod), e, want)
		case werr == nil && (got.Node == nil || *got.Node != want):
			t.Fatalf("pod %s: kubesem %s, upstream %q", difftest.JSON(t, pod), difftest.JSON(t, got), want)
		case werr != nil:
			counts["error"]++
		default:
			counts["node named"]++
		}
	})
	difftest.Count(t, counts)

	n := 0
	for _, v := range difftest.Vectors(t, "daemonset", "daemonset.TargetNodeName") {
		var in struct {
			Pod *v1.Pod `json:"pod"`
		}
		if err := json.Unmarshal(v.Input, &in); err != nil {
			t.Fatalf("%q: %v", v.Name, err)
		}
		name, err := dsutil.GetTargetNodeName(in.Pod)
		switch {
		case v.WantError != nil && err == nil:
			t.Errorf("%q: wantError %s; upstream names %q", v.Name, v.WantError, name)
		case v.WantError == nil && err != nil:
			t.Errorf("%q: want %s; upstream errs: %v", v.Name, v.Want, err)
		case v.WantError == nil && !difftest.SameJSON(v.Want, difftest.JSON(t, map[string]string{"node": name})):
			t.Errorf("%q: want %s; upstream %q", v.Name, v.Want, name)
		}
		n++
	}
	t.Logf("%d daemonset.TargetNodeName vectors replayed through GetTargetNodeName", n)
}

// ---------------------------------------------------------------------
// daemonset.NewPod

// ruleNewPodUp is the pod template v1.36.3's syncNodes creates on
// nodeName: CreatePodTemplate of the DaemonSet's template with its
// template generation (nil when GetTemplateGeneration fails) and hash,
// then the affinity pinned by ReplaceDaemonSetPodNodeNameNodeAffinity.
func ruleNewPodUp(ds *appsv1.DaemonSet, nodeName, hash string) v1.PodTemplateSpec {
	gen, err := dsutil.GetTemplateGeneration(ds)
	if err != nil {
		gen = nil
	}
	tmpl := dsutil.CreatePodTemplate(ds.Spec.Template, gen, hash)
	pod := tmpl.DeepCopy()
	pod.Spec.Affinity = dsutil.ReplaceDaemonSetPodNodeNameNodeAffinity(pod.Spec.Affinity, nodeName)
	return *pod
}

var ruleTolKeys = []string{"", "a", v1.TaintNodeNotReady, v1.TaintNodeUnreachable, v1.TaintNodeDiskPressure, v1.TaintNodeMemoryPressure,
	v1.TaintNodePIDPressure, v1.TaintNodeUnschedulable, v1.TaintNodeNetworkUnavailable}

// ruleDrawDaemonSet draws an apps/v1 DaemonSet the API accepts: the
// deprecated template generation annotation absent or any of
// ruleGenValues; template labels that may already carry the two labels the
// controller sets; up to four valid tolerations over the keys the
// controller's defaults name (with and without tolerationSeconds, every
// effect); hostNetwork on or off; an affinity from ruleDrawAffinity whose
// requirements are valid.
func ruleDrawDaemonSet(t *rapid.T) *appsv1.DaemonSet {
	labels := map[string]string{"app": "web"}
	ds := &appsv1.DaemonSet{ObjectMeta: metav1.ObjectMeta{Name: "ds", Namespace: "default", UID: "ds-uid", Generation: 3},
		Spec: appsv1.DaemonSetSpec{Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": "web"}}}}
	if rapid.IntRange(0, 3).Draw(t, "annSet") > 0 {
		ds.Annotations = map[string]string{appsv1.DeprecatedTemplateGeneration: rapid.SampledFrom(ruleGenValues).Draw(t, "ann")}
	}
	if rapid.IntRange(0, 3).Draw(t, "oldLabels") == 0 {
		labels[daemonset.LabelTemplateGeneration] = "7"
		labels[history.HashLabel] = "old"
	}
	ds.Spec.Template.Labels = labels
	spec := &ds.Spec.Template.Spec
	spec.Containers = []v1.Container{{Name: "c", Image: "img"}}
	spec.HostNetwork = rapid.Bool().Draw(t, "hostNetwork")
	for i := range rapid.IntRange(0, 4).Draw(t, "tols") {
		l := "tol" + strconv.Itoa(i)
		tol := v1.Toleration{Key: rapid.SampledFrom(ruleTolKeys).Draw(t, l+"key"), Operator: v1.TolerationOpExists,
			Effect: v1.TaintEffect(rapid.SampledFrom([]string{"", "NoExecute", "NoSchedule", "PreferNoSchedule"}).Draw(t, l+"effect"))}
		if tol.Key != "" && rapid.Bool().Draw(t, l+"equal") {
			tol.Operator, tol.Value = v1.TolerationOpEqual, rapid.SampledFrom([]string{"", "v"}).Draw(t, l+"value")
		}
		if tol.Effect == v1.TaintEffectNoExecute && rapid.Bool().Draw(t, l+"secondsSet") {
			tol.TolerationSeconds = difftest.Ptr(rapid.SampledFrom([]int64{0, 30, 300, -1}).Draw(t, l+"seconds"))
		}
		spec.Tolerations = append(spec.Tolerations, tol)
	}
	spec.Affinity = ruleDrawAffinity(t, "aff")
	// Keep the requirements the API accepts: In and NotIn with values, Exists
	// without, Gt with one integer; a field only metadata.name with In or
	// NotIn and one value.
	if a := spec.Affinity; a != nil && a.NodeAffinity != nil && a.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution != nil {
		for i := range a.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution.NodeSelectorTerms {
			term := &a.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution.NodeSelectorTerms[i]
			for j := range term.MatchExpressions {
				r := &term.MatchExpressions[j]
				switch r.Operator {
				case v1.NodeSelectorOpExists:
					r.Values = nil
				case v1.NodeSelectorOpGt:
					r.Values = []string{"5"}
				default:
					if len(r.Values) == 0 {
						r.Values = []string{"a"}
					}
				}
			}
			for j := range term.MatchFields {
				r := &term.MatchFields[j]
				r.Key, r.Values = metav1.ObjectNameField, []string{"n1"}
				if r.Operator != v1.NodeSelectorOpNotIn {
					r.Operator = v1.NodeSelectorOpIn
				}
			}
		}
	}
	return ds
}

// ruleStored returns ds as the API server stores it: defaulted as apps/v1
// and read back from JSON.
func ruleStored(tb difftest.Fataler, ds *appsv1.DaemonSet) *appsv1.DaemonSet {
	c := ds.DeepCopy()
	legacyscheme.Scheme.Default(c)
	out := &appsv1.DaemonSet{}
	if err := json.Unmarshal(difftest.JSON(tb, c), out); err != nil {
		tb.Fatalf("decode: %v", err)
	}
	return out
}

// ruleAsKubesem returns v read through kubesem's podstatus.Template and
// written as the decision's answer is (plan.Encode of the template: its
// modelled fields).
func ruleAsKubesem(tb difftest.Fataler, v any) json.RawMessage {
	var k podstatus.Template
	if err := json.Unmarshal(difftest.JSON(tb, v), &k); err != nil {
		tb.Fatalf("decode as podstatus.Template: %v", err)
	}
	b, err := plan.Encode(k)
	if err != nil {
		tb.Fatalf("encode: %v", err)
	}
	return b
}

// TestDaemonSetNewPodDifferential: daemonset.NewPod against the template
// v1.36.3's syncNodes creates (ruleNewPodUp) for DaemonSets drawn by
// ruleDrawDaemonSet, as stored (apps/v1 defaults), node names and hashes
// ordinary or empty. Two comparisons: the labels, annotations, tolerations
// (in order) and affinity of kubesem's answer, read as a v1 template, are
// upstream's exactly; and kubesem's whole answer is upstream's template
// read through kubesem's model. Then every daemonset.NewPod vector is
// replayed: each key its want states must be upstream's.
func TestDaemonSetNewPodDifferential(t *testing.T) {
	counts := map[string]int{}
	rapid.Check(t, func(t *rapid.T) {
		ds := ruleStored(t, ruleDrawDaemonSet(t))
		name := rapid.SampledFrom([]string{"n1", "n2", "node-with-a-long-name.example.com"}).Draw(t, "node")
		hash := rapid.SampledFrom([]string{"abc", "", "7d9f8c"}).Draw(t, "hash")
		want := ruleNewPodUp(ds, name, hash)
		in := map[string]any{"daemonSet": ds, "node": name, "hash": hash}
		var raw json.RawMessage
		if e := difftest.Decide(t, "daemonset.NewPod", nil, in, &raw); e != nil {
			// A required node affinity the API server rejects (the draw
			// makes one without terms) is an input error for kubesem at
			// upstream's path.
			if a := ds.Spec.Template.Spec.Affinity; a != nil && a.NodeAffinity != nil && a.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution != nil {
				var sel core.NodeSelector
				if err := legacyscheme.Scheme.Convert(a.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution, &sel, nil); err != nil {
					t.Fatal(err)
				}
				path := utilfield.NewPath("daemonSet", "spec", "template", "spec", "affinity", "nodeAffinity", "requiredDuringSchedulingIgnoredDuringExecution")
				for _, ue := range apivalidation.ValidateNodeSelector(&sel, false, path) {
					if ue.Field == e.Field {
						counts["rejected by both"]++
						return
					}
				}
			}
			t.Fatalf("kubesem input error %+v\ninput %s", e, difftest.JSON(t, in))
		}
		var got v1.PodTemplateSpec
		if err := json.Unmarshal(raw, &got); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got.Labels, want.Labels) || !difftest.SameJSON(difftest.JSON(t, got.Annotations), difftest.JSON(t, want.Annotations)) ||
			!difftest.SameJSON(difftest.JSON(t, got.Spec.Tolerations), difftest.JSON(t, want.Spec.Tolerations)) || !ruleSameAffinity(t, got.Spec.Affinity, want.Spec.Affinity) {
			t.Fatalf("daemonSet %s node %q hash %q\nkubesem  %s\nupstream %s", difftest.JSON(t, ds), name, hash, raw, difftest.JSON(t, want))
		}
		if up := ruleAsKubesem(t, want); !difftest.SameJSON(raw, up) {
			t.Fatalf("daemonSet %s node %q hash %q\nkubesem  %s\nupstream %s", difftest.JSON(t, ds), name, hash, raw, up)
		}
		_, genLabel := want.Labels[daemonset.LabelTemplateGeneration]
		counts[fmt.Sprintf("generation label %v", genLabel)]++
	})
	difftest.Count(t, counts)

	n := 0
	for _, v := range difftest.Vectors(t, "daemonset", "daemonset.NewPod") {
		var in struct {
			DaemonSet *appsv1.DaemonSet `json:"daemonSet"`
			Node      string            `json:"node"`
			Hash      string            `json:"hash"`
		}
		if err := json.Unmarshal(v.Input, &in); err != nil {
			t.Fatalf("%q: %v", v.Name, err)
		}
		up := difftest.JSON(t, ruleNewPodUp(in.DaemonSet, in.Node, in.Hash))
		if ok, why := conformance.Match(v.Want, up); !ok {
			t.Errorf("%q: want is not upstream's: %s\nupstream %s", v.Name, why, up)
		}
		n++
	}
	t.Logf("%d daemonset.NewPod vectors replayed through CreatePodTemplate", n)
}
