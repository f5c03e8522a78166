package upstream_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	apps "k8s.io/api/apps/v1"
	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/kubernetes/pkg/controller"
	dsutil "k8s.io/kubernetes/pkg/controller/daemon/util"
	"k8s.io/utils/ptr"
	"pgregory.net/rapid"

	"github.com/kubesem/kubesem/k8s"
)

// TestAdapterDaemonPodDifferential: k8s.NewDaemonPod builds the pod v1.36.3's
// syncNodes creates — util.CreatePodTemplate (default tolerations, template
// generation and hash labels), ReplaceDaemonSetPodNodeNameNodeAffinity and
// GetPodFromTemplate — for random templates: tolerations equal to the
// defaults with and without seconds and others, host network, every shape
// of affinity, labels, annotations, finalizers, with and without the
// generation annotation and the hash.
func TestAdapterDaemonPodDifferential(t *testing.T) {
	tolPool := []v1.Toleration{
		{Key: v1.TaintNodeNotReady, Operator: v1.TolerationOpExists, Effect: v1.TaintEffectNoExecute},
		{Key: v1.TaintNodeNotReady, Operator: v1.TolerationOpExists, Effect: v1.TaintEffectNoExecute, TolerationSeconds: ptr.To[int64](300)},
		{Key: v1.TaintNodeUnschedulable, Operator: v1.TolerationOpExists, Effect: v1.TaintEffectNoSchedule},
		{Key: v1.TaintNodeNetworkUnavailable, Operator: v1.TolerationOpExists, Effect: v1.TaintEffectNoSchedule},
		{Key: "gpu", Operator: v1.TolerationOpEqual, Value: "true", Effect: v1.TaintEffectNoSchedule},
		{Operator: v1.TolerationOpExists},
	}
	rapid.Check(t, func(t *rapid.T) {
		ds := &apps.DaemonSet{ObjectMeta: metav1.ObjectMeta{Name: "agent", Namespace: "kube-system", UID: "ds-uid"}}
		tmpl := &ds.Spec.Template
		tmpl.Spec.Containers = []v1.Container{{Name: "c", Image: "agent:1"}}
		tmpl.Spec.HostNetwork = rapid.Bool().Draw(t, "hostNetwork")
		for _, i := range rapid.SliceOfN(rapid.IntRange(0, len(tolPool)-1), 0, 4).Draw(t, "tolerations") {
			tmpl.Spec.Tolerations = append(tmpl.Spec.Tolerations, tolPool[i])
		}
		if rapid.Bool().Draw(t, "labels") {
			tmpl.Labels = map[string]string{"app": "agent", apps.DefaultDaemonSetUniqueLabelKey: "stale"}
		}
		if rapid.Bool().Draw(t, "annotations") {
			tmpl.Annotations = map[string]string{"a": "1"}
		}
		if rapid.Bool().Draw(t, "finalizers") {
			tmpl.Finalizers = []string{"example.com/f"}
		}
		req := &v1.NodeSelector{NodeSelectorTerms: []v1.NodeSelectorTerm{{MatchExpressions: []v1.NodeSelectorRequirement{{Key: "zone", Operator: v1.NodeSelectorOpIn, Values: []string{"a"}}}}}}
		pref := []v1.PreferredSchedulingTerm{{Weight: 1, Preference: v1.NodeSelectorTerm{MatchExpressions: []v1.NodeSelectorRequirement{{Key: "ssd", Operator: v1.NodeSelectorOpExists}}}}}
		switch rapid.IntRange(0, 4).Draw(t, "affinity") {
		case 1:
			tmpl.Spec.Affinity = &v1.Affinity{PodAntiAffinity: &v1.PodAntiAffinity{}}
		case 2:
			tmpl.Spec.Affinity = &v1.Affinity{NodeAffinity: &v1.NodeAffinity{PreferredDuringSchedulingIgnoredDuringExecution: pref}}
		case 3:
			tmpl.Spec.Affinity = &v1.Affinity{NodeAffinity: &v1.NodeAffinity{RequiredDuringSchedulingIgnoredDuringExecution: req, PreferredDuringSchedulingIgnoredDuringExecution: pref}}
		case 4:
			tmpl.Spec.Affinity = &v1.Affinity{NodeAffinity: &v1.NodeAffinity{RequiredDuringSchedulingIgnoredDuringExecution: &v1.NodeSelector{}}}
		}
		var generation *int64
		if rapid.Bool().Draw(t, "generation") {
			ds.Annotations = map[string]string{apps.DeprecatedTemplateGeneration: "3"}
			generation = ptr.To[int64](3)
		}
		hash := rapid.SampledFrom([]string{"", "6c8d7b9f4"}).Draw(t, "hash")
		nodeName := rapid.SampledFrom([]string{"node-0", "node-1"}).Draw(t, "node")

		up := dsutil.CreatePodTemplate(ds.Spec.Template, generation, hash)
		up.Spec.Affinity = dsutil.ReplaceDaemonSetPodNodeNameNodeAffinity(up.Spec.Affinity, nodeName)
		want, err := controller.GetPodFromTemplate(&up, ds, metav1.NewControllerRef(ds, apps.SchemeGroupVersion.WithKind("DaemonSet")))
		if err != nil {
			t.Fatal(err)
		}
		want.Namespace = ds.Namespace // the namespace the pod is created in
		got, err := k8s.NewDaemonPod(ds, hash, nodeName)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Fatalf("pod differs (-upstream +kubesem):\n%s", diff)
		}
	})
}
