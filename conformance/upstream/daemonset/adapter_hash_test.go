package daemonset_test

import (
	"math"
	"slices"
	"strconv"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/kubernetes/pkg/controller"
	dsUtil "k8s.io/kubernetes/pkg/controller/daemon/util"
	"pgregory.net/rapid"

	"github.com/kubesem/kubesem/conformance/upstream/internal/difftest"
	"github.com/kubesem/kubesem/history"
	"github.com/kubesem/kubesem/k8s"
)

// adapterDSHarnessSync runs one upstream syncDaemonSet of ds on one node with
// the given ControllerRevisions in the informer cache.
func adapterDSHarnessSync(t *rapid.T, h *harness, ds *appsv1.DaemonSet, revs []*appsv1.ControllerRevision) {
	objs := make([]any, len(revs))
	for i, r := range revs {
		objs[i] = r
	}
	if err := h.factory.Apps().V1().ControllerRevisions().Informer().GetStore().Replace(objs, "1"); err != nil {
		t.Fatal(err)
	}
	n := &corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: "n1"}}
	n.Status.Conditions = []corev1.NodeCondition{{Type: corev1.NodeReady, Status: corev1.ConditionTrue}}
	if err := h.sync(t, ds, []*corev1.Node{n}, nil); err != nil {
		t.Fatal(err)
	}
}

// adapterDrawDaemonSet draws a DaemonSet selecting app=d with a template from
// templates.
func adapterDrawDaemonSet(t *rapid.T, serial int, tm corev1.PodTemplateSpec) *appsv1.DaemonSet {
	ds := &appsv1.DaemonSet{ObjectMeta: metav1.ObjectMeta{Name: difftest.DrawOwnerName(t) + "-" + strconv.Itoa(serial), Namespace: "default", UID: types.UID("uid-ds-" + strconv.Itoa(serial)), Generation: 1}}
	ds.Spec.Selector = &metav1.LabelSelector{MatchLabels: podLabels}
	tm.Labels = map[string]string{"app": "d"}
	tm.Spec.NodeSelector = nil // the one node has no labels
	if rapid.Bool().Draw(t, "extraLabel") {
		tm.Labels["tier"] = "x"
	}
	ds.Spec.Template = tm
	ds.Spec.RevisionHistoryLimit = difftest.Ptr(int32(100))
	ds.Spec.UpdateStrategy.Type = appsv1.OnDeleteDaemonSetStrategyType
	if rapid.Bool().Draw(t, "dsAnn") {
		ds.Annotations = map[string]string{"team": "t"}
	}
	if rapid.Bool().Draw(t, "dsCC") {
		c := rapid.Int32Range(0, math.MaxInt32).Draw(t, "dsCollisions")
		ds.Status.CollisionCount = &c
	}
	return ds
}

// TestAdapterDaemonSetRevisionDifferential: with no revision yet, one
// upstream syncDaemonSet creates the ControllerRevision
// k8s.NewDaemonSetRevision builds (name, data, labels, annotations,
// controller reference), and the pod it creates carries the hash
// k8s.DaemonSetHistory gives.
func TestAdapterDaemonSetRevisionDifferential(t *testing.T) {
	h := newHarness(t)
	serial := 0
	rapid.Check(t, func(t *rapid.T) {
		serial++
		ds := adapterDrawDaemonSet(t, serial, difftest.DrawHashTemplate(t))
		adapterDSHarnessSync(t, h, ds, nil)
		if len(h.revs) != 1 || len(h.labels) != 1 {
			t.Fatalf("upstream created %d revisions, %d pods; want 1 each", len(h.revs), len(h.labels))
		}
		got, err := k8s.NewDaemonSetRevision(ds, 1)
		if err != nil {
			t.Fatal(err)
		}
		if d := difftest.RevisionDiff(got, h.revs[0]); d != "" {
			t.Fatalf("NewDaemonSetRevision differs from upstream snapshot: %s", d)
		}
		hist, err := k8s.DaemonSetHistory(ds, nil)
		if err != nil {
			t.Fatal(err)
		}
		if hist.Hash != h.labels[0] {
			t.Fatalf("DaemonSetHistory hash %s; upstream pod label %s", hist.Hash, h.labels[0])
		}
	})
}

// TestAdapterDaemonSetHistoryDifferential: with existing revisions of a
// few templates (some unlabelled, duplicated, renumbered), the pod
// upstream's syncDaemonSet creates carries the hash k8s.DaemonSetHistory
// gives as current.
func TestAdapterDaemonSetHistoryDifferential(t *testing.T) {
	h := newHarness(t)
	serial := 0
	rapid.Check(t, func(t *rapid.T) {
		serial++
		templates := []corev1.PodTemplateSpec{difftest.DrawHashTemplate(t), difftest.DrawHashTemplate(t)}
		for i := range templates {
			templates[i].Spec.NodeSelector = nil // as adapterDrawDaemonSet
		}
		tk := rapid.IntRange(0, 1).Draw(t, "template")
		ds := adapterDrawDaemonSet(t, serial, templates[tk])
		var revs []*appsv1.ControllerRevision
		var current []*appsv1.ControllerRevision // revisions of ds's template
		for i := range rapid.IntRange(0, 4).Draw(t, "revisions") {
			s := ds.DeepCopy()
			k := rapid.IntRange(0, 1).Draw(t, "revTemplate")
			s.Spec.Template = templates[k]
			s.Spec.Template.Labels = ds.Spec.Template.Labels
			r, err := k8s.NewDaemonSetRevision(s, rapid.Int64Range(1, 4).Draw(t, "revNumber"))
			if err != nil {
				t.Fatal(err)
			}
			r.Name += "-" + strconv.Itoa(i)
			switch rapid.IntRange(0, 3).Draw(t, "label") {
			case 0:
				delete(r.Labels, history.HashLabel)
			case 1:
				r.Labels[history.HashLabel] = "h" + strconv.Itoa(i)
			}
			revs = append(revs, r)
			if k == tk {
				current = append(current, r)
			}
		}
		adapterDSHarnessSync(t, h, ds, revs)
		hist, err := k8s.DaemonSetHistory(ds, revs)
		if err != nil {
			t.Fatal(err)
		}
		if len(h.labels) != 1 {
			t.Fatalf("upstream created %d pods; want 1", len(h.labels))
		}
		// Equally numbered current revisions are a tie upstream breaks by
		// its cache's order: any of their hashes is right.
		var tied []string
		top := int64(-1)
		for _, r := range current {
			top = max(top, r.Revision)
		}
		for _, r := range current {
			if r.Revision == top {
				if v, ok := r.Labels[history.HashLabel]; ok {
					tied = append(tied, v)
				} else {
					tied = append(tied, r.Name)
				}
			}
		}
		if len(tied) > 1 {
			if !slices.Contains(tied, h.labels[0]) || !slices.Contains(tied, hist.Hash) {
				t.Fatalf("DaemonSetHistory hash %s; upstream pod label %s; tied %v", hist.Hash, h.labels[0], tied)
			}
			return
		}
		if hist.Hash != h.labels[0] {
			t.Fatalf("DaemonSetHistory hash %s; upstream pod labels %v", hist.Hash, h.labels)
		}
	})
}

// TestAdapterDaemonSetPodDifferential: for random templates (tolerations
// equal to the defaults with and without tolerationSeconds, every shape
// of affinity, host network, finalizers), generation annotations, nodes
// and hashes, k8s.DaemonSetPod builds the pod syncNodes creates:
// CreatePodTemplate, ReplaceDaemonSetPodNodeNameNodeAffinity and
// GetPodFromTemplate with the DaemonSet's controller reference.
func TestAdapterDaemonSetPodDifferential(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		ds := &appsv1.DaemonSet{ObjectMeta: metav1.ObjectMeta{Name: difftest.DrawOwnerName(t), Namespace: "kube-system", UID: "uid-ds"}}
		ds.Spec.Template = difftest.DrawHashTemplate(t)
		if g := ds.Spec.Template.Spec.TerminationGracePeriodSeconds; g != nil && *g > math.MaxInt64-1024 {
			*g = 1 << 60
		}
		ds.Spec.Template.Spec.HostNetwork = rapid.Bool().Draw(t, "hostNetwork")
		if rapid.Bool().Draw(t, "finalizers") {
			ds.Spec.Template.Finalizers = []string{"example.com/f"}
		}
		secs := int64(300)
		pool := []corev1.Toleration{
			{Key: "node.kubernetes.io/not-ready", Operator: corev1.TolerationOpExists, Effect: corev1.TaintEffectNoExecute, TolerationSeconds: &secs},
			{Key: "node.kubernetes.io/unreachable", Operator: corev1.TolerationOpExists, Effect: corev1.TaintEffectNoExecute},
			{Key: "node.kubernetes.io/network-unavailable", Operator: corev1.TolerationOpExists, Effect: corev1.TaintEffectNoSchedule},
			{Key: "node.kubernetes.io/disk-pressure", Operator: corev1.TolerationOpEqual, Effect: corev1.TaintEffectNoSchedule},
			{Key: "dedicated", Operator: corev1.TolerationOpEqual, Value: "agents", Effect: corev1.TaintEffectNoSchedule},
			{Operator: corev1.TolerationOpExists},
		}
		for range rapid.IntRange(0, 4).Draw(t, "tolerations") {
			ds.Spec.Template.Spec.Tolerations = append(ds.Spec.Template.Spec.Tolerations, rapid.SampledFrom(pool).Draw(t, "toleration"))
		}
		term := corev1.NodeSelectorTerm{MatchExpressions: []corev1.NodeSelectorRequirement{{Key: "zone", Operator: corev1.NodeSelectorOpIn, Values: []string{"a"}}}}
		switch rapid.IntRange(0, 4).Draw(t, "affinity") {
		case 1:
			ds.Spec.Template.Spec.Affinity = &corev1.Affinity{PodAntiAffinity: &corev1.PodAntiAffinity{}}
		case 2:
			ds.Spec.Template.Spec.Affinity = &corev1.Affinity{NodeAffinity: &corev1.NodeAffinity{PreferredDuringSchedulingIgnoredDuringExecution: []corev1.PreferredSchedulingTerm{{Weight: 1, Preference: term}}}}
		case 3:
			ds.Spec.Template.Spec.Affinity = &corev1.Affinity{NodeAffinity: &corev1.NodeAffinity{RequiredDuringSchedulingIgnoredDuringExecution: &corev1.NodeSelector{NodeSelectorTerms: []corev1.NodeSelectorTerm{term, term}}}}
		case 4:
			ds.Spec.Template.Spec.Affinity = &corev1.Affinity{NodeAffinity: &corev1.NodeAffinity{RequiredDuringSchedulingIgnoredDuringExecution: &corev1.NodeSelector{}}}
		}
		if rapid.Bool().Draw(t, "generation") {
			ds.Annotations = map[string]string{appsv1.DeprecatedTemplateGeneration: rapid.SampledFrom([]string{"1", "42", "-3", "x"}).Draw(t, "genV")}
		}
		nodeName := rapid.SampledFrom([]string{"node-1", "n"}).Draw(t, "node")
		hash := rapid.SampledFrom([]string{"", "abc123"}).Draw(t, "hash")

		got, err := k8s.DaemonSetPod(ds, nodeName, hash)
		gen, gerr := dsUtil.GetTemplateGeneration(ds)
		if (err != nil) != (gerr != nil) {
			t.Fatalf("DaemonSetPod error %v; upstream GetTemplateGeneration error %v", err, gerr)
		}
		if gerr != nil {
			return
		}
		tmpl := dsUtil.CreatePodTemplate(ds.Spec.Template, gen, hash)
		pt := tmpl.DeepCopy()
		pt.Spec.Affinity = dsUtil.ReplaceDaemonSetPodNodeNameNodeAffinity(pt.Spec.Affinity, nodeName)
		want, err := controller.GetPodFromTemplate(pt, ds, metav1.NewControllerRef(ds, appsv1.SchemeGroupVersion.WithKind("DaemonSet")))
		if err != nil {
			t.Fatal(err)
		}
		got.Namespace = "" // upstream passes the namespace to the create call
		if g, w := difftest.PodJSON(got), difftest.PodJSON(want); g != w {
			t.Fatalf("DaemonSetPod:\nkubesem  %s\nupstream %s", g, w)
		}
	})
}
