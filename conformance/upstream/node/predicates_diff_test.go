package node_test

import (
	"strings"
	"testing"
	"time"
	_ "unsafe"

	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	k8sfield "k8s.io/apimachinery/pkg/util/validation/field"
	schedhelper "k8s.io/component-helpers/scheduling/corev1"
	"k8s.io/component-helpers/scheduling/corev1/nodeaffinity"
	"k8s.io/klog/v2"
	core "k8s.io/kubernetes/pkg/apis/core"
	v1helper "k8s.io/kubernetes/pkg/apis/core/v1/helper"
	corevalidation "k8s.io/kubernetes/pkg/apis/core/validation"
	_ "k8s.io/kubernetes/pkg/controller/tainteviction"
	taintutil "k8s.io/kubernetes/pkg/util/taints"
	"pgregory.net/rapid"

	"github.com/kubesem/kubesem/conformance/upstream/internal/difftest"
	"github.com/kubesem/kubesem/node"
)

//go:linkname upMinTolerationTime k8s.io/kubernetes/pkg/controller/tainteviction.getMinTolerationTime
func upMinTolerationTime(tolerations []v1.Toleration) time.Duration

func drawTaint(t *rapid.T, l string) (v1.Taint, node.Taint) {
	k := rapid.SampledFrom(difftest.TaintKeys).Draw(t, l+"k")
	v := rapid.SampledFrom(difftest.LabelValues).Draw(t, l+"v")
	e := rapid.SampledFrom(difftest.TaintEffects[1:]).Draw(t, l+"e")
	return v1.Taint{Key: k, Value: v, Effect: v1.TaintEffect(e)}, node.Taint{Key: k, Value: v, Effect: node.TaintEffect(e)}
}

func drawTaintsTolerations(t *rapid.T) ([]v1.Taint, []node.Taint, []v1.Toleration, []node.Toleration) {
	var uts []v1.Taint
	var ts []node.Taint
	for i := range rapid.IntRange(0, 4).Draw(t, "ntaints") {
		u, k := drawTaint(t, "t"+string(rune('0'+i)))
		uts, ts = append(uts, u), append(ts, k)
	}
	var utol []v1.Toleration
	var tol []node.Toleration
	for i := range rapid.IntRange(0, 4).Draw(t, "ntols") {
		u, k := difftest.DrawToleration(t, "l"+string(rune('0'+i)))
		utol, tol = append(utol, u), append(tol, k)
	}
	return uts, ts, utol, tol
}

// TestNodeDiffTolerations compares ToleratesTaint, Tolerates and
// FindUntoleratedTaint with k8s.io/api's Toleration.ToleratesTaint and
// component-helpers' TolerationsTolerateTaint and
// FindMatchingUntoleratedTaint, with the comparison-operator gate both ways.
func TestNodeDiffTolerations(t *testing.T) {
	logger := klog.Background()
	rapid.Check(t, func(t *rapid.T) {
		uts, ts, utol, tol := drawTaintsTolerations(t)
		gate := rapid.Bool().Draw(t, "gate")
		opts := node.Options{TaintTolerationComparisonOperators: gate}
		for i := range uts {
			for j := range utol {
				want := utol[j].ToleratesTaint(logger, &uts[i], gate)
				if got := node.ToleratesTaint(&tol[j], &ts[i], opts); got != want {
					t.Fatalf("ToleratesTaint(%+v, %+v, %v) = %v, upstream %v", tol[j], ts[i], gate, got, want)
				}
			}
			if got, want := node.Tolerates(tol, &ts[i], opts), schedhelper.TolerationsTolerateTaint(logger, utol, &uts[i], gate); got != want {
				t.Fatalf("Tolerates = %v, upstream %v", got, want)
			}
		}
		filters := []struct {
			up   func(*v1.Taint) bool
			kube node.TaintFilter
		}{
			{nil, nil},
			{func(t *v1.Taint) bool {
				return t.Effect == v1.TaintEffectNoSchedule || t.Effect == v1.TaintEffectNoExecute
			}, node.NoScheduleOrNoExecute},
			{func(t *v1.Taint) bool { return t.Effect == v1.TaintEffectNoExecute }, node.OnlyNoExecute},
		}
		f := filters[rapid.IntRange(0, 2).Draw(t, "filter")]
		wantT, wantOK := schedhelper.FindMatchingUntoleratedTaint(logger, uts, utol, f.up, gate)
		gotT, gotOK := node.FindUntoleratedTaint(ts, tol, f.kube, opts)
		if gotOK != wantOK || gotT.Key != wantT.Key || gotT.Value != wantT.Value || string(gotT.Effect) != string(wantT.Effect) {
			t.Fatalf("FindUntoleratedTaint = %+v %v, upstream %+v %v", gotT, gotOK, wantT, wantOK)
		}
	})
}

// TestNodeDiffEvictionTime compares EvictionFor with the taint-eviction
// controller's processPodOnNode arithmetic: v1helper.GetMatchingTolerations
// over the NoExecute taints, then getMinTolerationTime; and
// MinTolerationTime with getMinTolerationTime.
func TestNodeDiffEvictionTime(t *testing.T) {
	logger := klog.Background()
	seen := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	rapid.Check(t, func(t *rapid.T) {
		uts, ts, utol, tol := drawTaintsTolerations(t)
		if got, want := node.MinTolerationTime(tol), upMinTolerationTime(utol); got != want {
			t.Fatalf("MinTolerationTime = %v, upstream %v", got, want)
		}
		var ne []v1.Taint
		for _, x := range uts {
			if x.Effect == v1.TaintEffectNoExecute {
				ne = append(ne, x)
			}
		}
		got := node.EvictionFor(tol, ts, seen, node.Options{})
		var want node.Eviction
		switch {
		case len(ne) == 0:
			want = node.Eviction{Kind: node.NotEvicted}
		default:
			all, used := v1helper.GetMatchingTolerations(logger, ne, utol)
			if !all {
				want = node.Eviction{Kind: node.EvictNow, At: seen}
				break
			}
			d := upMinTolerationTime(used)
			switch {
			case d < 0:
				want = node.Eviction{Kind: node.NotEvicted}
			case d == 0:
				want = node.Eviction{Kind: node.EvictNow, At: seen}
			default:
				want = node.Eviction{Kind: node.EvictAt, At: seen.Add(d), After: d}
			}
		}
		if got != want {
			t.Fatalf("EvictionFor = %+v, upstream %+v", got, want)
		}
	})
}

// TestNodeDiffAffinity compares MatchesNodeSelector with
// nodeaffinity.GetRequiredNodeAffinity(pod).Match: the boolean, and whether
// an error is reported.
func TestNodeDiffAffinity(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		up := &v1.Node{ObjectMeta: metav1.ObjectMeta{Name: rapid.SampledFrom([]string{"node-1", "node-2", ""}).Draw(t, "name")}}
		kn := &node.Node{}
		kn.Name = up.Name
		labels := map[string]string{}
		for _, k := range []string{"zone", "gen", "disk", "example.com/tier"} {
			if rapid.Bool().Draw(t, "has"+k) {
				labels[k] = rapid.SampledFrom([]string{"a", "b", "5", "10", "007", "-1", ""}).Draw(t, "l"+k)
			}
		}
		up.Labels, kn.Labels = labels, labels
		pod := &v1.Pod{}
		var sel map[string]string
		if rapid.Bool().Draw(t, "hasSel") {
			sel = map[string]string{}
			for _, k := range []string{"zone", "disk"} {
				if rapid.Bool().Draw(t, "sel"+k) {
					sel[k] = rapid.SampledFrom([]string{"a", "b", ""}).Draw(t, "sv"+k)
				}
			}
			pod.Spec.NodeSelector = sel
		}
		var aff *node.Affinity
		switch rapid.IntRange(0, 4).Draw(t, "affKind") {
		case 0:
		case 1:
			aff = &node.Affinity{}
			pod.Spec.Affinity = &v1.Affinity{}
		case 2:
			aff = &node.Affinity{NodeAffinity: &node.NodeAffinity{}}
			pod.Spec.Affinity = &v1.Affinity{NodeAffinity: &v1.NodeAffinity{}}
		default:
			var uterms []v1.NodeSelectorTerm
			var kterms []node.NodeSelectorTerm
			for i := range rapid.IntRange(0, 3).Draw(t, "nterms") {
				ue, ke := difftest.DrawRequirements(t, "e"+string(rune('0'+i)), false)
				uf, kf := difftest.DrawRequirements(t, "f"+string(rune('0'+i)), true)
				uterms = append(uterms, v1.NodeSelectorTerm{MatchExpressions: ue, MatchFields: uf})
				kterms = append(kterms, node.NodeSelectorTerm{MatchExpressions: ke, MatchFields: kf})
			}
			aff = &node.Affinity{NodeAffinity: &node.NodeAffinity{RequiredDuringSchedulingIgnoredDuringExecution: &node.NodeSelector{NodeSelectorTerms: kterms}}}
			pod.Spec.Affinity = &v1.Affinity{NodeAffinity: &v1.NodeAffinity{RequiredDuringSchedulingIgnoredDuringExecution: &v1.NodeSelector{NodeSelectorTerms: uterms}}}
		}
		want, wantErr := nodeaffinity.GetRequiredNodeAffinity(pod).Match(up)
		got, gotErr := node.MatchesNodeSelector(sel, aff, kn)
		if got != want || (gotErr != nil) != (wantErr != nil) {
			t.Fatalf("MatchesNodeSelector = %v, %v; upstream %v, %v", got, gotErr, want, wantErr)
		}
	})
}

// TestNodeDiffParseTaints compares ParseTaints with pkg/util/taints
// ParseTaints (kubectl taint) over arguments built from keys, values,
// effects and separators: the error, and the taints to add and remove.
func TestNodeDiffParseTaints(t *testing.T) {
	pieces := []string{"a", "b", "example.com/k", "Bad Key", "x/y/z", "=", ":", "-", "v", "NoSchedule", "NoExecute", "PreferNoSchedule", "Other", "", "-x", "a.b", "_"}
	rapid.Check(t, func(t *rapid.T) {
		var specs []string
		for range rapid.IntRange(1, 3).Draw(t, "n") {
			s := ""
			for range rapid.IntRange(1, 5).Draw(t, "parts") {
				s += rapid.SampledFrom(pieces).Draw(t, "p")
			}
			specs = append(specs, s)
		}
		uadd, urem, uerr := taintutil.ParseTaints(specs)
		kadd, krem, kerr := node.ParseTaints(specs)
		if (uerr != nil) != (kerr != nil) {
			t.Fatalf("ParseTaints(%q) error %v, upstream %v", specs, kerr, uerr)
		}
		if uerr != nil {
			return
		}
		if len(uadd) != len(kadd) || len(urem) != len(krem) {
			t.Fatalf("ParseTaints(%q) = %+v %+v, upstream %+v %+v", specs, kadd, krem, uadd, urem)
		}
		for i := range uadd {
			if uadd[i].Key != kadd[i].Key || uadd[i].Value != kadd[i].Value || string(uadd[i].Effect) != string(kadd[i].Effect) {
				t.Fatalf("add %d = %+v, upstream %+v", i, kadd[i], uadd[i])
			}
		}
		for i := range urem {
			if urem[i].Key != krem[i].Key || string(urem[i].Effect) != string(krem[i].Effect) {
				t.Fatalf("remove %d = %+v, upstream %+v", i, krem[i], urem[i])
			}
		}
	})
}

// TestNodeDiffValidation compares ValidateTolerations and ValidateTaints
// with the API server's ValidateTolerations and validateNodeTaints (through
// ValidateNode's spec): whether the input is rejected.
func TestNodeDiffValidation(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		_, ts, utol, tol := drawTaintsTolerations(t)
		gate := rapid.Bool().Draw(t, "gate")
		var ctol []core.Toleration
		for _, u := range utol {
			ctol = append(ctol, core.Toleration{Key: u.Key, Operator: core.TolerationOperator(u.Operator), Value: u.Value, Effect: core.TaintEffect(u.Effect), TolerationSeconds: u.TolerationSeconds})
		}
		uerrs := corevalidation.ValidateTolerations(ctol, k8sfield.NewPath("spec", "tolerations"), corevalidation.PodValidationOptions{AllowTaintTolerationComparisonOperators: gate})
		kerr := node.ValidateTolerations(tol, "spec.tolerations", node.Options{TaintTolerationComparisonOperators: gate})
		if (len(uerrs) > 0) != (kerr != nil) {
			t.Fatalf("ValidateTolerations(%+v) = %v, upstream %v", tol, kerr, uerrs)
		}
		if rapid.Bool().Draw(t, "emptyEffect") && len(ts) > 0 {
			ts[0].Effect = ""
		}
		var ctaints []core.Taint
		for _, x := range ts {
			ctaints = append(ctaints, core.Taint{Key: x.Key, Value: x.Value, Effect: core.TaintEffect(x.Effect)})
		}
		n := &core.Node{ObjectMeta: metav1.ObjectMeta{Name: "n"}, Spec: core.NodeSpec{Taints: ctaints}}
		var uterrs []string
		for _, e := range corevalidation.ValidateNode(n) {
			if strings.HasPrefix(e.Field, "metadata.taints") { // upstream reports node taints under metadata.taints
				uterrs = append(uterrs, e.Error())
			}
		}
		kterr := node.ValidateTaints(ts, "spec.taints")
		if (len(uterrs) > 0) != (kterr != nil) {
			t.Fatalf("ValidateTaints(%+v) = %v, upstream %v", ts, kterr, uterrs)
		}
	})
}
