package daemonset_test

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"sync"
	"testing"
	"time"

	apps "k8s.io/api/apps/v1"
	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	intstrutil "k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes/fake"
	core "k8s.io/client-go/testing"
	"k8s.io/client-go/util/flowcontrol"
	"k8s.io/klog/v2"
	"k8s.io/kubernetes/pkg/controller"
	"k8s.io/kubernetes/pkg/controller/daemon"
	testingclock "k8s.io/utils/clock/testing"
	"pgregory.net/rapid"

	"github.com/kubesem/kubesem/conformance/upstream/internal/difftest"
	"github.com/kubesem/kubesem/daemonset"
	"github.com/kubesem/kubesem/k8s"
	"github.com/kubesem/kubesem/node"
	"github.com/kubesem/kubesem/podstatus"
)

// harness is one upstream DaemonSet controller on a fake clientset whose
// reactors record pod creations and deletions and status writes instead
// of storing them; its informer stores are filled directly.
type harness struct {
	dsc     *daemon.DaemonSetsController
	factory informers.SharedInformerFactory
	clock   *testingclock.FakeClock
	mu      sync.Mutex
	created []string // target nodes of created pods
	deleted []string
	status  *apps.DaemonSetStatus
	revs    []*apps.ControllerRevision // created ControllerRevisions
	labels  []string                   // controller-revision-hash of created pods
}

func newHarness(t testing.TB) *harness {
	h := &harness{}
	client := fake.NewSimpleClientset()
	client.PrependReactor("create", "pods", func(a core.Action) (bool, runtime.Object, error) {
		p := a.(core.CreateAction).GetObject().(*v1.Pod)
		h.mu.Lock()
		h.created = append(h.created, p.Spec.Affinity.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution.NodeSelectorTerms[0].MatchFields[0].Values[0])
		h.labels = append(h.labels, p.Labels[apps.DefaultDaemonSetUniqueLabelKey])
		h.mu.Unlock()
		return true, p, nil
	})
	client.PrependReactor("delete", "pods", func(a core.Action) (bool, runtime.Object, error) {
		h.mu.Lock()
		h.deleted = append(h.deleted, a.(core.DeleteAction).GetName())
		h.mu.Unlock()
		return true, nil, nil
	})
	client.PrependReactor("update", "daemonsets", func(a core.Action) (bool, runtime.Object, error) {
		ds := a.(core.UpdateAction).GetObject().(*apps.DaemonSet)
		st := ds.Status
		h.status = &st
		return true, ds, nil
	})
	client.PrependReactor("create", "controllerrevisions", func(a core.Action) (bool, runtime.Object, error) {
		h.mu.Lock()
		h.revs = append(h.revs, a.(core.CreateAction).GetObject().(*apps.ControllerRevision).DeepCopy())
		h.mu.Unlock()
		return true, a.(core.CreateAction).GetObject(), nil
	})
	for _, verb := range []string{"update", "delete"} {
		client.PrependReactor(verb, "controllerrevisions", func(a core.Action) (bool, runtime.Object, error) {
			if u, ok := a.(core.UpdateAction); ok {
				return true, u.GetObject(), nil
			}
			return true, nil, nil
		})
	}
	h.factory = informers.NewSharedInformerFactory(client, controller.NoResyncPeriodFunc())
	h.clock = testingclock.NewFakeClock(t0)
	dsc, err := daemon.NewDaemonSetsController(context.Background(),
		h.factory.Apps().V1().DaemonSets(), h.factory.Apps().V1().ControllerRevisions(),
		h.factory.Core().V1().Pods(), h.factory.Core().V1().Nodes(), client,
		flowcontrol.NewFakeBackOff(time.Second, 15*time.Minute, h.clock))
	if err != nil {
		t.Fatal(err)
	}
	difftest.StopOn(t, dsc)
	h.dsc = dsc
	return h
}

var t0 = time.Date(2026, 1, 1, 1, 0, 0, 0, time.UTC)

// sync runs one syncDaemonSet over the given objects.
func (h *harness) sync(t interface{ Fatal(...any) }, ds *apps.DaemonSet, nodes []*v1.Node, pods []*v1.Pod) error {
	h.created, h.deleted, h.status, h.revs, h.labels = nil, nil, nil, nil, nil
	objs := make([]any, len(nodes))
	for i, n := range nodes {
		objs[i] = n
	}
	if err := h.factory.Core().V1().Nodes().Informer().GetStore().Replace(objs, "1"); err != nil {
		t.Fatal(err)
	}
	objs = make([]any, len(pods))
	for i, p := range pods {
		objs[i] = p
	}
	if err := h.factory.Core().V1().Pods().Informer().GetStore().Replace(objs, "1"); err != nil {
		t.Fatal(err)
	}
	if err := h.factory.Apps().V1().DaemonSets().Informer().GetStore().Replace([]any{ds}, "1"); err != nil {
		t.Fatal(err)
	}
	return syncDaemonSet(h.dsc, klog.NewContext(context.Background(), klog.Background()), ds.Namespace+"/"+ds.Name)
}

var podLabels = map[string]string{"app": "d"}

func ptrTo[T any](v T) *T { return &v }

// drawSync draws a cluster: 1-200 nodes with taints and labels, a
// DaemonSet, and 0-3 pods per node in every state, some unscheduled and
// pinned (also to nodes that do not exist), mostly the DaemonSet's, some
// orphans, another controller's or no longer selected (the claim).
func drawSync(t *rapid.T, serial int) (*apps.DaemonSet, []*v1.Node, []*v1.Pod) {
	uds := &apps.DaemonSet{ObjectMeta: metav1.ObjectMeta{Name: fmt.Sprintf("ds-%d", serial), Namespace: "default", UID: types.UID(fmt.Sprintf("uid-ds-%d", serial)), Generation: rapid.Int64Range(1, 3).Draw(t, "gen")}}
	uds.Status.ObservedGeneration = rapid.Int64Range(0, 3).Draw(t, "obsgen")
	uds.Spec.Selector = &metav1.LabelSelector{MatchLabels: podLabels}
	uds.Spec.Template.Labels = podLabels
	uds.Spec.Template.Spec.Containers = []v1.Container{{Name: "c", Image: "i"}}
	uds.Spec.MinReadySeconds = rapid.SampledFrom([]int32{0, 0, 30}).Draw(t, "minReady")
	uds.Spec.RevisionHistoryLimit = difftest.Ptr(int32(10))
	if rapid.IntRange(0, 5).Draw(t, "ondelete") == 0 {
		uds.Spec.UpdateStrategy.Type = apps.OnDeleteDaemonSetStrategyType
	} else {
		uds.Spec.UpdateStrategy.Type = apps.RollingUpdateDaemonSetStrategyType
		// Exactly one bound non-zero, as API validation requires.
		mu := rapid.SampledFrom([]intstrutil.IntOrString{intstrutil.FromInt32(1), intstrutil.FromInt32(3), intstrutil.FromString("10%"), intstrutil.FromString("50%")}).Draw(t, "mu")
		ms := intstrutil.FromInt32(0)
		if rapid.IntRange(0, 2).Draw(t, "surge") == 0 {
			mu, ms = ms, rapid.SampledFrom([]intstrutil.IntOrString{intstrutil.FromInt32(1), intstrutil.FromInt32(2), intstrutil.FromString("20%")}).Draw(t, "ms")
		}
		uds.Spec.UpdateStrategy.RollingUpdate = &apps.RollingUpdateDaemonSet{MaxUnavailable: &mu, MaxSurge: &ms}
	}
	if rapid.IntRange(0, 3).Draw(t, "sel") == 0 {
		uds.Spec.Template.Spec.NodeSelector = map[string]string{"pool": "a"}
	}
	if rapid.Bool().Draw(t, "tol") {
		uds.Spec.Template.Spec.Tolerations = []v1.Toleration{{Key: "x", Operator: v1.TolerationOpExists, Effect: v1.TaintEffectNoSchedule}}
	}
	uds.Spec.Template.Spec.HostNetwork = rapid.Bool().Draw(t, "hostNetwork")
	newHash := controller.ComputeHash(&uds.Spec.Template, uds.Status.CollisionCount)

	// Mostly small clusters, about one in thirty-two up to 200 nodes, to
	// keep 10,000 sequences within the time budget.
	nn := rapid.IntRange(1, 24).Draw(t, "nodes")
	if validationOneIn(t, "big", 32) {
		nn = rapid.IntRange(1, 200).Draw(t, "bigNodes")
	}
	taints := [][]v1.Taint{nil, nil,
		{{Key: "x", Effect: v1.TaintEffectNoSchedule}},
		{{Key: "x", Effect: v1.TaintEffectNoExecute}},
		{{Key: "node.kubernetes.io/not-ready", Effect: v1.TaintEffectNoExecute}},
		{{Key: "node.kubernetes.io/network-unavailable", Effect: v1.TaintEffectNoSchedule}},
		{{Key: "node.kubernetes.io/unschedulable", Effect: v1.TaintEffectNoSchedule}}}
	var nodes []*v1.Node
	var pods []*v1.Pod
	ctrl := true
	owner := []metav1.OwnerReference{{APIVersion: "apps/v1", Kind: "DaemonSet", Name: uds.Name, UID: uds.UID, Controller: &ctrl}}
	k := 0
	other := []metav1.OwnerReference{{APIVersion: "apps/v1", Kind: "DaemonSet", Name: "other", UID: "uid-other", Controller: &ctrl}}
	addPod := func(nodeName string, pinned bool) {
		p := &v1.Pod{ObjectMeta: metav1.ObjectMeta{Name: fmt.Sprintf("p-%03d", k), Namespace: "default", UID: "uid-p", OwnerReferences: owner}}
		k++
		p.UID = types.UID("uid-" + p.Name)
		hash := newHash
		if rapid.Bool().Draw(t, "old") {
			hash = "old"
		}
		p.Labels = map[string]string{"app": "d", apps.DefaultDaemonSetUniqueLabelKey: hash}
		// the claim: mostly the DaemonSet's own; an orphan (adopted), another
		// controller's (ignored), one it no longer selects (released, or
		// ignored as an orphan)
		switch rapid.IntRange(0, 11).Draw(t, "owner") {
		case 0:
			p.OwnerReferences = nil
		case 1:
			p.OwnerReferences = other
		}
		if rapid.IntRange(0, 11).Draw(t, "unselected") == 0 {
			p.Labels["app"] = "e"
		}
		p.CreationTimestamp = metav1.NewTime(t0.Add(-time.Duration(rapid.IntRange(0, 4).Draw(t, "age")) * 10 * time.Second))
		if pinned {
			p.Spec.Affinity = &v1.Affinity{NodeAffinity: &v1.NodeAffinity{RequiredDuringSchedulingIgnoredDuringExecution: &v1.NodeSelector{NodeSelectorTerms: []v1.NodeSelectorTerm{{MatchFields: []v1.NodeSelectorRequirement{{Key: "metadata.name", Operator: v1.NodeSelectorOpIn, Values: []string{nodeName}}}}}}}}
		} else {
			p.Spec.NodeName = nodeName
		}
		p.Status.Phase = rapid.SampledFrom([]v1.PodPhase{v1.PodRunning, v1.PodRunning, v1.PodRunning, v1.PodPending, v1.PodFailed, v1.PodSucceeded}).Draw(t, "phase")
		if p.Status.Phase == v1.PodRunning && rapid.IntRange(0, 3).Draw(t, "ready") > 0 {
			p.Status.Conditions = []v1.PodCondition{{Type: v1.PodReady, Status: v1.ConditionTrue, LastTransitionTime: metav1.NewTime(t0.Add(-time.Duration(rapid.SampledFrom([]int{0, 10, 30, 60}).Draw(t, "readyFor")) * time.Second))}}
		}
		if rapid.IntRange(0, 7).Draw(t, "deleting") == 0 {
			d := metav1.NewTime(t0)
			p.DeletionTimestamp = &d
		}
		// what a DELETE does with it: the API server's default grace (30 s),
		// none set or 0 (deleted at once, as an unscheduled or terminal
		// pod is), and a finalizer that keeps it
		switch rapid.IntRange(0, 3).Draw(t, "grace") {
		case 0, 1:
			p.Spec.TerminationGracePeriodSeconds = ptrTo(int64(30))
		case 2:
			p.Spec.TerminationGracePeriodSeconds = ptrTo(int64(0))
		}
		if rapid.IntRange(0, 7).Draw(t, "finalizer") == 0 {
			p.Finalizers = []string{"example.com/keep"}
		}
		pods = append(pods, p)
	}
	for i := range nn {
		n := &v1.Node{ObjectMeta: metav1.ObjectMeta{Name: fmt.Sprintf("node-%03d", i)}}
		if rapid.IntRange(0, 3).Draw(t, "pool") > 0 {
			n.Labels = map[string]string{"pool": "a"}
		}
		n.Spec.Taints = rapid.SampledFrom(taints).Draw(t, "taints")
		n.Spec.Unschedulable = rapid.IntRange(0, 5).Draw(t, "cordon") == 0
		nodes = append(nodes, n)
		for range rapid.SampledFrom([]int{0, 1, 1, 1, 1, 2, 3}).Draw(t, "npods") {
			addPod(n.Name, rapid.IntRange(0, 9).Draw(t, "pinned") == 0)
		}
	}
	for range rapid.IntRange(0, 2).Draw(t, "ghosts") {
		addPod(fmt.Sprintf("gone-%d", rapid.IntRange(0, 2).Draw(t, "ghost")), rapid.Bool().Draw(t, "ghostPinned"))
	}
	return uds, nodes, pods
}

// toKubesem converts the upstream objects through the adapter.
func toKubesem(uds *apps.DaemonSet, nodes []*v1.Node, pods []*v1.Pod) (*daemonset.DaemonSet, []*node.Node, []*podstatus.Pod) {
	return difftest.Must(k8s.FromDaemonSet(uds)), difftest.MustList(k8s.FromNodes(nodes)), difftest.MustList(k8s.FromPods(pods))
}

func sortedCopy(s []string) []string {
	c := slices.Clone(s)
	sort.Strings(c)
	return c
}
