package daemonset_test

import (
	"testing"

	apps "k8s.io/api/apps/v1"
	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	intstrutil "k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/klog/v2"
	"k8s.io/kubernetes/pkg/api/legacyscheme"
	"k8s.io/kubernetes/pkg/controller/daemon"
	dsutil "k8s.io/kubernetes/pkg/controller/daemon/util"
	"pgregory.net/rapid"

	"github.com/kubesem/kubesem/conformance/upstream/internal/difftest"
	"github.com/kubesem/kubesem/daemonset"
	"github.com/kubesem/kubesem/intstr"
	"github.com/kubesem/kubesem/node"
)

var taintKeys = []string{"a", "b", "", node.TaintNotReady, node.TaintUnreachable, node.TaintDiskPressure,
	node.TaintMemoryPressure, node.TaintPIDPressure, node.TaintUnschedulable, node.TaintNetworkUnavailable,
	"node-role.kubernetes.io/control-plane"}

// drawTaints draws node taints over the keys the controller's default
// tolerations name, every effect.
func drawTaints(t *rapid.T) ([]v1.Taint, []node.Taint) {
	var ut []v1.Taint
	var kt []node.Taint
	for i := range rapid.IntRange(0, 5).Draw(t, "ntaints") {
		l := "t" + string(rune('0'+i))
		k := rapid.SampledFrom(taintKeys).Draw(t, l+"k")
		v := rapid.SampledFrom([]string{"", "v", "5"}).Draw(t, l+"v")
		e := rapid.SampledFrom(difftest.TaintEffects[1:]).Draw(t, l+"e")
		ut = append(ut, v1.Taint{Key: k, Value: v, Effect: v1.TaintEffect(e)})
		kt = append(kt, node.Taint{Key: k, Value: v, Effect: node.TaintEffect(e)})
	}
	return ut, kt
}

func drawTolerations(t *rapid.T) ([]v1.Toleration, []node.Toleration) {
	var ut []v1.Toleration
	var kt []node.Toleration
	for i := range rapid.IntRange(0, 4).Draw(t, "ntols") {
		l := "l" + string(rune('0'+i))
		if rapid.IntRange(0, 3).Draw(t, l+"def") == 0 {
			// One of the controller's default tolerations, maybe with
			// tolerationSeconds: AddOrUpdateTolerationInPodSpec replaces
			// or keeps it.
			k := rapid.SampledFrom(taintKeys[3:10]).Draw(t, l+"dk")
			e := rapid.SampledFrom([]string{"NoSchedule", "NoExecute"}).Draw(t, l+"de")
			u := v1.Toleration{Key: k, Operator: v1.TolerationOpExists, Effect: v1.TaintEffect(e)}
			kt = append(kt, node.Toleration{Key: k, Operator: "Exists", Effect: e})
			if rapid.Bool().Draw(t, l+"dsecs") {
				s := int64(30)
				u.TolerationSeconds = &s
				kt[len(kt)-1].TolerationSeconds = &s
			}
			ut = append(ut, u)
			continue
		}
		if rapid.Bool().Draw(t, l+"ds") {
			k := rapid.SampledFrom(taintKeys).Draw(t, l+"k")
			op := rapid.SampledFrom([]string{"Exists", "Equal", ""}).Draw(t, l+"op")
			e := rapid.SampledFrom(difftest.TaintEffects).Draw(t, l+"e")
			v := rapid.SampledFrom([]string{"", "v"}).Draw(t, l+"v")
			ut = append(ut, v1.Toleration{Key: k, Operator: v1.TolerationOperator(op), Value: v, Effect: v1.TaintEffect(e)})
			kt = append(kt, node.Toleration{Key: k, Operator: op, Value: v, Effect: e})
			continue
		}
		u, k := difftest.DrawToleration(t, l)
		ut, kt = append(ut, u), append(kt, k)
	}
	return ut, kt
}

// drawEligibility draws a node and a DaemonSet, upstream and kubesem.
func drawEligibility(t *rapid.T) (*v1.Node, *apps.DaemonSet, *node.Node, *daemonset.DaemonSet) {
	name := rapid.SampledFrom([]string{"node-1", "node-2"}).Draw(t, "name")
	un := &v1.Node{ObjectMeta: metav1.ObjectMeta{Name: name}}
	kn := &node.Node{}
	kn.Name = name
	labels := map[string]string{}
	for _, k := range []string{"zone", "gen", "disk", "example.com/tier"} {
		if rapid.Bool().Draw(t, "has"+k) {
			labels[k] = rapid.SampledFrom([]string{"a", "b", "5", "10", ""}).Draw(t, "l"+k)
		}
	}
	un.Labels, kn.Labels = labels, labels
	un.Spec.Unschedulable = rapid.Bool().Draw(t, "cordon")
	kn.Spec.Unschedulable = un.Spec.Unschedulable
	un.Spec.Taints, kn.Spec.Taints = drawTaints(t)

	uds := &apps.DaemonSet{ObjectMeta: metav1.ObjectMeta{Name: "ds", Namespace: "default"}}
	kds := &daemonset.DaemonSet{}
	kds.Name, kds.Namespace = "ds", "default"
	us, ks := &uds.Spec.Template.Spec, &kds.Spec.Template.Spec
	if rapid.IntRange(0, 5).Draw(t, "hasNodeName") == 0 {
		us.NodeName = rapid.SampledFrom([]string{"node-1", "node-2"}).Draw(t, "nodeName")
		ks.NodeName = us.NodeName
	}
	us.HostNetwork = rapid.Bool().Draw(t, "hostNetwork")
	ks.HostNetwork = us.HostNetwork
	if rapid.Bool().Draw(t, "hasSel") {
		sel := map[string]string{}
		for _, k := range []string{"zone", "disk"} {
			if rapid.Bool().Draw(t, "sel"+k) {
				sel[k] = rapid.SampledFrom([]string{"a", "b", ""}).Draw(t, "sv"+k)
			}
		}
		us.NodeSelector, ks.NodeSelector = sel, sel
	}
	if rapid.IntRange(0, 2).Draw(t, "hasAff") == 0 {
		var uterms []v1.NodeSelectorTerm
		var kterms []node.NodeSelectorTerm
		for i := range rapid.IntRange(0, 2).Draw(t, "nterms") {
			ue, ke := difftest.DrawRequirements(t, "e"+string(rune('0'+i)), false)
			uf, kf := difftest.DrawRequirements(t, "f"+string(rune('0'+i)), true)
			uterms = append(uterms, v1.NodeSelectorTerm{MatchExpressions: ue, MatchFields: uf})
			kterms = append(kterms, node.NodeSelectorTerm{MatchExpressions: ke, MatchFields: kf})
		}
		us.Affinity = &v1.Affinity{NodeAffinity: &v1.NodeAffinity{RequiredDuringSchedulingIgnoredDuringExecution: &v1.NodeSelector{NodeSelectorTerms: uterms}}}
		ks.Affinity = &node.Affinity{NodeAffinity: &node.NodeAffinity{RequiredDuringSchedulingIgnoredDuringExecution: &node.NodeSelector{NodeSelectorTerms: kterms}}}
	}
	us.Tolerations, ks.Tolerations = drawTolerations(t)
	return un, uds, kn, kds
}

// TestDaemonSetDiffEligibility compares NodeShouldRunDaemonPod with
// upstream's exported daemon.NodeShouldRunDaemonPod on random nodes
// (labels, taints on the default-toleration keys, cordon) and DaemonSets
// (template nodeName, nodeSelector, required affinity, tolerations,
// hostNetwork).
func TestDaemonSetDiffEligibility(t *testing.T) {
	logger := klog.Background()
	rapid.Check(t, func(t *rapid.T) {
		un, uds, kn, kds := drawEligibility(t)
		run, cont := daemon.NodeShouldRunDaemonPod(logger, un, uds)
		got := daemonset.NodeShouldRunDaemonPod(kn, kds, daemonset.Options{})
		if got.ShouldRun != run || got.ShouldContinueRunning != cont {
			t.Fatalf("NodeShouldRunDaemonPod = %+v; upstream (%v, %v)", got, run, cont)
		}
	})
}

// TestDaemonSetDiffTolerations compares PodTolerations with the
// tolerations of upstream's daemon.NewPod.
func TestDaemonSetDiffTolerations(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		_, uds, _, kds := drawEligibility(t)
		want := daemon.NewPod(uds, "node-1").Spec.Tolerations
		got := daemonset.PodTolerations(&kds.Spec.Template.Spec)
		if len(got) != len(want) {
			t.Fatalf("PodTolerations = %+v; upstream %+v", got, want)
		}
		for i := range got {
			w := want[i]
			g := got[i]
			if g.Key != w.Key || g.Operator != string(w.Operator) || g.Value != w.Value || g.Effect != string(w.Effect) ||
				(g.TolerationSeconds == nil) != (w.TolerationSeconds == nil) || g.TolerationSeconds != nil && *g.TolerationSeconds != *w.TolerationSeconds {
				t.Fatalf("PodTolerations[%d] = %+v; upstream %+v", i, g, w)
			}
		}
	})
}

func drawIntOrPercent(t *rapid.T, l string) (*intstrutil.IntOrString, *intstr.Value) {
	switch rapid.IntRange(0, 3).Draw(t, l+"kind") {
	case 0:
		return nil, nil
	case 1:
		n := rapid.Int32Range(0, 300).Draw(t, l+"n")
		u := intstrutil.FromInt32(n)
		k := intstr.Int(n)
		return &u, &k
	default:
		p := rapid.SampledFrom([]string{"0%", "1%", "10%", "25%", "33%", "50%", "99%", "100%", "150%", "007%"}).Draw(t, l+"p")
		u := intstrutil.FromString(p)
		k := intstr.String(p)
		return &u, &k
	}
}

// TestDaemonSetDiffUnavailableNumbers compares UnavailableCount,
// SurgeCount and AllowsSurge with upstream's util functions on the
// apps/v1-defaulted DaemonSet, and
// UnavailableNumbers with updatedDesiredNodeCounts' rule on top of them.
func TestDaemonSetDiffUnavailableNumbers(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		uds := &apps.DaemonSet{}
		kds := &daemonset.DaemonSet{}
		typ := rapid.SampledFrom([]string{"RollingUpdate", "OnDelete", ""}).Draw(t, "type")
		uds.Spec.UpdateStrategy.Type = apps.DaemonSetUpdateStrategyType(typ)
		kds.Spec.UpdateStrategy.Type = daemonset.StrategyType(typ)
		if rapid.IntRange(0, 5).Draw(t, "hasRU") > 0 {
			uds.Spec.UpdateStrategy.RollingUpdate = &apps.RollingUpdateDaemonSet{}
			kds.Spec.UpdateStrategy.RollingUpdate = &daemonset.RollingParams{}
			uds.Spec.UpdateStrategy.RollingUpdate.MaxUnavailable, kds.Spec.UpdateStrategy.RollingUpdate.MaxUnavailable = drawIntOrPercent(t, "mu")
			uds.Spec.UpdateStrategy.RollingUpdate.MaxSurge, kds.Spec.UpdateStrategy.RollingUpdate.MaxSurge = drawIntOrPercent(t, "ms")
		}
		desired := rapid.IntRange(0, 5000).Draw(t, "desired")
		// Upstream reads the object the API server stores: apps/v1
		// defaulted (kubesem reads absent fields as those defaults).
		legacyscheme.Scheme.Default(uds)
		wu, wuErr := dsutil.UnavailableCount(uds, desired)
		gu, guErr := daemonset.UnavailableCount(kds, int32(desired))
		if (wuErr != nil) != (guErr != nil) || wuErr == nil && int(gu) != wu {
			t.Fatalf("UnavailableCount = %d, %v; upstream %d, %v", gu, guErr, wu, wuErr)
		}
		ws, wsErr := dsutil.SurgeCount(uds, desired)
		gs, gsErr := daemonset.SurgeCount(kds, int32(desired))
		if (wsErr != nil) != (gsErr != nil) || wsErr == nil && int(gs) != ws {
			t.Fatalf("SurgeCount = %d, %v; upstream %d, %v", gs, gsErr, ws, wsErr)
		}
		if dsutil.AllowsSurge(uds) != daemonset.AllowsSurge(kds) {
			t.Fatalf("AllowsSurge differs")
		}
		b, err := daemonset.UnavailableNumbers(kds, int32(desired))
		if (err != nil) != (wuErr != nil || wsErr != nil) {
			t.Fatalf("UnavailableNumbers error %v; upstream %v %v", err, wuErr, wsErr)
		}
		if err == nil {
			if desired > 0 && wu == 0 && ws == 0 {
				wu = 1
			}
			if int(b.MaxUnavailable) != wu || int(b.MaxSurge) != ws {
				t.Fatalf("UnavailableNumbers = %+v; upstream %d, %d", b, wu, ws)
			}
		}
	})
}
