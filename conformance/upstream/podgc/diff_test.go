package podgc_test

import (
	"context"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/go-logr/logr"
	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes/fake"
	clienttesting "k8s.io/client-go/testing"
	"k8s.io/klog/v2"
	upodgc "k8s.io/kubernetes/pkg/controller/podgc"
	"pgregory.net/rapid"

	"github.com/kubesem/kubesem/conformance/upstream/internal/difftest"
	"github.com/kubesem/kubesem/meta"
	"github.com/kubesem/kubesem/node"
	"github.com/kubesem/kubesem/podgc"
	"github.com/kubesem/kubesem/podstatus"
)

var nodeNames = []string{"n1", "n2", "n3", "n4"}

// drawState draws pods in every phase, deleting or not, on listed, API-only,
// missing or no nodes, Ready or not, with or without the out-of-service
// taint, and creation times that tie.
func drawState(t *rapid.T) ([]*podstatus.Pod, []*clusterNode, int) {
	var nodes []*clusterNode
	for _, name := range nodeNames {
		switch rapid.IntRange(0, 3).Draw(t, "nodeKind") {
		case 0: // missing
			continue
		case 1:
			n := &clusterNode{}
			n.Name, n.Unlisted = name, true
			nodes = append(nodes, n)
			continue
		}
		n := &clusterNode{}
		n.Name = name
		if st := rapid.SampledFrom([]meta.ConditionStatus{"True", "False", "Unknown", ""}).Draw(t, "ready"); st != "" {
			n.Status.Conditions = []node.Condition{{Type: node.Ready, Status: st}}
		}
		if rapid.Bool().Draw(t, "oos") {
			n.Spec.Taints = []node.Taint{{Key: podgc.OutOfServiceTaint, Effect: rapid.SampledFrom([]node.TaintEffect{node.NoExecute, node.NoSchedule}).Draw(t, "effect")}}
		}
		nodes = append(nodes, n)
	}
	var pods []*podstatus.Pod
	for i := range rapid.IntRange(0, 12).Draw(t, "pods") {
		p := &podstatus.Pod{}
		p.Name = "p" + strconv.Itoa(rapid.IntRange(0, 3).Draw(t, "nameDup")) + "-" + strconv.Itoa(i)
		p.Namespace = rapid.SampledFrom([]string{"default", "other"}).Draw(t, "ns")
		p.UID = "uid-" + strconv.Itoa(i)
		p.CreationTimestamp = difftest.PodT0.Add(time.Duration(rapid.IntRange(0, 4).Draw(t, "created")) * time.Hour)
		p.Generation = int64(rapid.IntRange(0, 2).Draw(t, "generation")) // (an orphan's DisruptionTarget carries it)
		if rapid.Bool().Draw(t, "deleting") {
			ts := difftest.PodT0
			p.DeletionTimestamp = &ts
		}
		p.Spec.NodeName = rapid.SampledFrom(append([]string{""}, nodeNames...)).Draw(t, "node")
		p.Status.Phase = rapid.SampledFrom([]podstatus.Phase{"", podstatus.Pending, podstatus.Running, podstatus.Succeeded, podstatus.Failed, podstatus.Unknown}).Draw(t, "phase")
		if rapid.IntRange(0, 3).Draw(t, "evicted") == 0 {
			p.Status.Reason = podgc.EvictedReason
		}
		pods = append(pods, p)
	}
	return pods, nodes, rapid.SampledFrom([]int{-1, 0, 1, 2, 3, 5, 12500}).Draw(t, "threshold")
}

type result struct {
	deleted, patched, conditioned map[string]bool
	// writes are each pod's requests up to its first delete (a later
	// step's attempt on a pod already deleted fails, and is no write)
	writes map[string][]string
}

// runUpstream runs one gc pass of the real controller over fakes: the pods
// and listed nodes in the informer caches, every node in the API, and a
// quarantine that ends at once (the quarantine timing is covered by the
// TestGCOrphaned vectors).
func runUpstream(t *rapid.T, pods []*podstatus.Pod, nodes []*clusterNode, threshold int) result {
	var objs []runtime.Object
	var vpods []*v1.Pod
	var listed []*v1.Node
	for _, p := range pods {
		u := &v1.Pod{ObjectMeta: metav1.ObjectMeta{Name: p.Name, Namespace: p.Namespace, UID: types.UID(p.UID), CreationTimestamp: metav1.NewTime(p.CreationTimestamp), Generation: p.Generation}}
		if p.DeletionTimestamp != nil {
			ts := metav1.NewTime(*p.DeletionTimestamp)
			u.DeletionTimestamp = &ts
		}
		u.Spec.NodeName = p.Spec.NodeName
		u.Status.Phase, u.Status.Reason = v1.PodPhase(p.Status.Phase), p.Status.Reason
		vpods = append(vpods, u)
		objs = append(objs, u)
	}
	for _, n := range nodes {
		u := &v1.Node{ObjectMeta: metav1.ObjectMeta{Name: n.Name}}
		for _, c := range n.Status.Conditions {
			u.Status.Conditions = append(u.Status.Conditions, v1.NodeCondition{Type: v1.NodeConditionType(c.Type), Status: v1.ConditionStatus(c.Status)})
		}
		for _, tt := range n.Spec.Taints {
			u.Spec.Taints = append(u.Spec.Taints, v1.Taint{Key: tt.Key, Value: tt.Value, Effect: v1.TaintEffect(tt.Effect)})
		}
		objs = append(objs, u)
		if !n.Unlisted {
			listed = append(listed, u)
		}
	}
	client := fake.NewSimpleClientset(objs...)
	factory := informers.NewSharedInformerFactory(client, 0)
	podInf, nodeInf := factory.Core().V1().Pods(), factory.Core().V1().Nodes()
	ctx, cancel := context.WithCancel(klog.NewContext(context.Background(), logr.Discard()))
	gcc := upodgc.NewPodGCInternal(ctx, client, podInf, nodeInf, threshold, time.Hour, -time.Nanosecond)
	defer difftest.Stop(cancel, gcc)
	for _, p := range vpods {
		if err := podInf.Informer().GetStore().Add(p); err != nil {
			t.Fatal(err)
		}
	}
	for _, n := range listed {
		if err := nodeInf.Informer().GetStore().Add(n); err != nil {
			t.Fatal(err)
		}
	}
	client.ClearActions()
	difftest.PodGCPass(gcc, ctx)
	r := result{map[string]bool{}, map[string]bool{}, map[string]bool{}, map[string][]string{}}
	keys, err := difftest.WriteKeysOfActions(client.Actions())
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range keys {
		pod := k.Namespace + "/" + k.Name
		if r.deleted[pod] {
			continue
		}
		r.writes[pod] = append(r.writes[pod], k.String())
		if k.Verb == "delete" {
			r.deleted[pod] = true
		}
	}
	clear(r.deleted)
	for _, a := range client.Actions() {
		if a.GetResource().Resource != "pods" {
			continue
		}
		switch a.GetVerb() {
		case "delete":
			d := a.(clienttesting.DeleteAction)
			r.deleted[d.GetNamespace()+"/"+d.GetName()] = true
		case "patch":
			pa := a.(clienttesting.PatchAction)
			key := pa.GetNamespace() + "/" + pa.GetName()
			if !r.patched[key] {
				r.patched[key] = true
				if strings.Contains(string(pa.GetPatch()), "DeletionByPodGC") {
					r.conditioned[key] = true
				}
			}
		}
	}
	return r
}

// TestPodGCStepDifferential: one Step deletes and patches the same pods as
// one pass of the v1.36.3 controller, and its Plan.Writes are, pod by pod,
// the requests the controller sent (verb, resource, subresource, name, uid
// precondition, grace period).
func TestPodGCStepDifferential(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		pods, nodes, threshold := drawState(t)
		want := runUpstream(t, pods, nodes, threshold)
		plan, err := podgc.Step(pods, listed(nodes), unlisted(nodes), podgc.Memory{}, difftest.PodT0, podgc.Options{TerminatedPodThreshold: &threshold, Quarantine: -time.Nanosecond})
		if err != nil {
			t.Fatalf("Step: %v", err)
		}
		got := result{map[string]bool{}, map[string]bool{}, map[string]bool{}, map[string][]string{}}
		ws, err := plan.Writes(pods)
		if err != nil {
			t.Fatalf("Writes: %v", err)
		}
		for _, w := range ws {
			got.writes[w.Namespace+"/"+w.Name] = append(got.writes[w.Namespace+"/"+w.Name], difftest.WriteKeyOf(w).String())
		}
		if !reflect.DeepEqual(got.writes, want.writes) {
			t.Fatalf("writes %v, controller %v", got.writes, want.writes)
		}
		for _, d := range plan.Delete {
			got.deleted[d.Namespace+"/"+d.Name] = true
		}
		for _, p := range plan.Patch {
			got.patched[p.Namespace+"/"+p.Name] = true
			if p.Condition != nil {
				got.conditioned[p.Namespace+"/"+p.Name] = true
			}
		}
		for _, m := range []struct {
			what      string
			got, want map[string]bool
		}{{"deleted", got.deleted, want.deleted}, {"patched", got.patched, want.patched}, {"DisruptionTarget", got.conditioned, want.conditioned}} {
			if len(m.got) != len(m.want) {
				t.Fatalf("%s: Step %v, controller %v", m.what, m.got, m.want)
			}
			for k := range m.want {
				if !m.got[k] {
					t.Fatalf("%s: Step %v, controller %v", m.what, m.got, m.want)
				}
			}
		}
	})
}

// clusterNode is a node of a drawn state: the node, and whether only the API
// has it (the informer cache does not list it).
type clusterNode struct {
	node.Node
	Unlisted bool
}

// listed returns the nodes the informer cache lists.
func listed(nodes []*clusterNode) []*node.Node {
	var out []*node.Node
	for _, n := range nodes {
		if !n.Unlisted {
			out = append(out, &n.Node)
		}
	}
	return out
}

// unlisted returns the names of the nodes only the API has.
func unlisted(nodes []*clusterNode) []string {
	var out []string
	for _, n := range nodes {
		if n.Unlisted {
			out = append(out, n.Name)
		}
	}
	return out
}
