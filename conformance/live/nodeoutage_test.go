package live

import (
	"context"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/kubesem/kubesem/k8s"
	"github.com/kubesem/kubesem/node"
	"github.com/kubesem/kubesem/plan"
	"github.com/kubesem/kubesem/podstatus"
	coordinationv1 "k8s.io/api/coordination/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/fields"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/utils/ptr"
)

// nodeWorld reads back every node, node lease and the pods bound to the
// named node (all namespaces), converted by the adapter, with the node
// lifecycle controller's memory of a controller that saw each node alive
// at its lease's last renewal (the controller's probe time is when it saw
// the renewal: at or after it).
func nodeWorld(t *testing.T, onNode string) ([]*node.Node, []node.Lease, []*podstatus.Pod, node.Memory) {
	t.Helper()
	ctx := context.Background()
	ns, err := k8s.FromNodes(nodes(t))
	check(t, err)
	ll, err := client.CoordinationV1().Leases(corev1.NamespaceNodeLease).List(ctx, metav1.ListOptions{})
	check(t, err)
	var lp []*coordinationv1.Lease
	for i := range ll.Items {
		lp = append(lp, &ll.Items[i])
	}
	leases := k8s.FromLeases(lp)
	pl, err := client.CoreV1().Pods("").List(ctx, metav1.ListOptions{FieldSelector: fields.OneTermEqualSelector("spec.nodeName", onNode).String()})
	check(t, err)
	var pp []*corev1.Pod
	for i := range pl.Items {
		pp = append(pp, &pl.Items[i])
	}
	ps, err := k8s.FromPods(pp)
	check(t, err)
	mem := node.Memory{Nodes: map[string]node.Health{}}
	for _, n := range ns {
		h := node.Health{Known: true}
		if c, ok := n.Condition(node.Ready); ok {
			hb := c.LastHeartbeatTime
			h.ReadyHeartbeat, h.ProbeTime = &hb, hb
		}
		for i := range leases {
			if leases[i].Name == n.Name {
				l := node.SavedLease{Name: leases[i].Name}
				if r := leases[i].Spec.RenewTime; r != nil {
					l.RenewTime, l.HasRenewTime = *r, true
					if r.After(h.ProbeTime) {
						h.ProbeTime = *r
					}
				}
				h.Lease = &l
			}
		}
		mem.Nodes[n.Name] = h
		mem.Known = append(mem.Known, n.Name)
	}
	sort.Strings(mem.Known)
	return ns, leases, ps, mem
}

func nodeNamed(t *testing.T, name string) *corev1.Node {
	t.Helper()
	n, err := client.CoreV1().Nodes().Get(context.Background(), name, metav1.GetOptions{})
	check(t, err)
	return n
}

func conditionOf(n *corev1.Node, ct corev1.NodeConditionType) *corev1.NodeCondition {
	for i := range n.Status.Conditions {
		if n.Status.Conditions[i].Type == ct {
			return &n.Status.Conditions[i]
		}
	}
	return nil
}

func taintKeys(ts []corev1.Taint) []string {
	var out []string
	for _, t := range ts {
		out = append(out, t.Key+":"+string(t.Effect))
	}
	sort.Strings(out)
	return out
}

// TestNodeOutageTaintEviction adds node-d, runs two pods there and stops
// its kubelet (no lease renewal, no pod handling). kubesem, fed the
// objects read back and the memory of a controller that saw the node alive
// at its last renewal, predicts that the node lifecycle controller does
// nothing until the node monitor grace period (50 s) has passed and then
// writes the node's conditions Unknown, taints it unreachable (NoSchedule
// and NoExecute) and marks its pods not ready; the real controller does so
// in that time. Then, from the node as tainted, kubesem predicts that the
// taint-eviction controller deletes the pod that tolerates unreachable for
// 2 s (DisruptionTarget first) 2 s after the taint, and not the pod with the
// default 300 s toleration; the real controller does the same. Shadow mode
// runs alongside with zero mismatches.
func TestNodeOutageTaintEviction(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	ns := namespace(t)
	sh := startShadow(t, ns)
	wn, err := client.CoreV1().Nodes().Watch(ctx, metav1.ListOptions{FieldSelector: fields.OneTermEqualSelector("metadata.name", "node-d").String()})
	nodeWatch := record(t, wn, err)
	wp, err := client.CoreV1().Pods(ns).Watch(ctx, metav1.ListOptions{})
	podWatch := record(t, wp, err)

	addNode(t, "node-d", "outage")
	pod := func(name string, tol ...corev1.Toleration) *corev1.Pod {
		return &corev1.Pod{
			ObjectMeta: metav1.ObjectMeta{Name: name},
			Spec: corev1.PodSpec{
				NodeName:    "node-d",
				Tolerations: append([]corev1.Toleration{dedicatedTo("outage")}, tol...),
				Containers:  []corev1.Container{{Name: "app", Image: "nginx:1.14.2"}},
			},
		}
	}
	for _, p := range []*corev1.Pod{
		pod("short",
			corev1.Toleration{Key: corev1.TaintNodeUnreachable, Operator: corev1.TolerationOpExists, Effect: corev1.TaintEffectNoExecute, TolerationSeconds: ptr.To[int64](2)},
			corev1.Toleration{Key: corev1.TaintNodeNotReady, Operator: corev1.TolerationOpExists, Effect: corev1.TaintEffectNoExecute, TolerationSeconds: ptr.To[int64](2)}),
		pod("long"),
	} {
		_, err := client.CoreV1().Pods(ns).Create(ctx, p, metav1.CreateOptions{})
		check(t, err)
	}
	eventually(t, 10*time.Second, func() (bool, string) {
		ps := pods(t, ns)
		for _, p := range ps {
			if p.Status.Phase != corev1.PodRunning {
				return false, "pods running on node-d: " + jsonish(p.Status)
			}
		}
		return len(ps) == 2, "two pods"
	})

	// The outage: the kubelet stops. Its lease's last renewal is the
	// node's last sign of life.
	heartbeats.set("node-d", false)
	time.Sleep(1500 * time.Millisecond) // a renewal in flight lands
	lease, err := client.CoordinationV1().Leases(corev1.NamespaceNodeLease).Get(ctx, "node-d", metav1.GetOptions{})
	check(t, err)
	last := lease.Spec.RenewTime.Time
	nodesNow, leases, podsOnD, mem := nodeWorld(t, "node-d")
	grace := node.DefaultNodeMonitorGracePeriod
	if p, err := node.Step(nodesNow, leases, podsOnD, mem, last.Add(grace), node.Options{}); err != nil {
		t.Fatal(err)
	} else if len(p.Conditions) != 0 || len(p.Taints) != 0 {
		t.Errorf("kubesem writes node conditions %+v and taints %+v at the end of the grace period", p.Conditions, p.Taints)
	}
	at := last.Add(grace + time.Millisecond)
	p, err := node.Step(nodesNow, leases, podsOnD, mem, at, node.Options{})
	check(t, err)
	var want []node.Condition
	for _, c := range p.Conditions {
		if c.Node == "node-d" {
			want = c.Conditions
		}
	}
	if len(want) == 0 || len(p.MarkPodsNotReady) != 1 || p.MarkPodsNotReady[0] != "node-d" {
		t.Fatalf("after the grace period kubesem writes no node-d conditions or marks no pods: %s", jsonish(p))
	}
	writes, err := p.Writes(nodesNow, podsOnD, at)
	check(t, err)
	wantTaints := map[string]bool{}
	for _, tw := range p.Taints {
		if tw.Node == "node-d" {
			for _, tt := range tw.Add {
				wantTaints[tt.Key+":"+string(tt.Effect)] = true
			}
		}
	}
	for _, tt := range node.ConditionTaints(&node.Node{Status: node.Status{Conditions: want}}) {
		wantTaints[tt.Key+":"+string(tt.Effect)] = true
	}
	notReady := map[string]*podstatus.Pod{}
	for _, w := range writes {
		if w.Resource == "pods" && w.Subresource == "status" {
			notReady[w.Name] = w.Object.(*podstatus.Pod)
		}
	}
	t.Logf("kubesem: at %v + %v node-d turns %s, taints %v, pods marked not ready %v", last.Format(time.RFC3339Nano), grace, want[0].Status, wantTaints, keysOf(notReady))

	// The controller's status write.
	ev, _ := nodeWatch.findWithin(t, 0, grace+20*time.Second, "node-d's Ready condition Unknown", func(ev watch.Event) bool {
		n, ok := ev.Object.(*corev1.Node)
		c := conditionOf(n, corev1.NodeReady)
		return ok && c != nil && c.Status == corev1.ConditionUnknown
	})
	got := ev.Object.(*corev1.Node)
	for _, w := range want {
		c := conditionOf(got, corev1.NodeConditionType(w.Type))
		if c == nil || string(c.Status) != string(w.Status) || c.Reason != w.Reason || c.Message != w.Message {
			t.Errorf("node-d condition %s: controller wrote %+v, kubesem predicted %+v", w.Type, c, w)
		}
	}
	written := conditionOf(got, corev1.NodeReady).LastTransitionTime.Time
	if written.Before(last.Add(grace).Truncate(time.Second)) || written.After(last.Add(grace+2*node.DefaultNodeMonitorPeriod+2*time.Second)) {
		t.Errorf("the controller wrote node-d Unknown at %v; kubesem: after %v (+ the monitor period, twice)", written, last.Add(grace))
	}

	// Its taints and the pods it marks not ready.
	ev, _ = nodeWatch.findWithin(t, 0, 20*time.Second, "node-d's taints", func(ev watch.Event) bool {
		n, ok := ev.Object.(*corev1.Node)
		if !ok {
			return false
		}
		have := map[string]bool{}
		for _, k := range taintKeys(n.Spec.Taints) {
			have[k] = true
		}
		for k := range wantTaints {
			if !have[k] {
				return false
			}
		}
		return true
	})
	tainted := ev.Object.(*corev1.Node)
	if got, want := taintKeys(tainted.Spec.Taints), append(keysOfBool(wantTaints), dedicatedTaint+":NoSchedule"); !equalStrings(got, sortStrings(want)) {
		t.Errorf("node-d's taints %v, kubesem predicted %v", got, sortStrings(want))
	}
	for name, w := range notReady {
		ev, _ := podWatch.findWithin(t, 0, 20*time.Second, "pod "+name+" marked not ready", func(ev watch.Event) bool {
			p, ok := ev.Object.(*corev1.Pod)
			return ok && p.Name == name && podReady(p) == corev1.ConditionFalse
		})
		gp := ev.Object.(*corev1.Pod)
		wc := w.Condition(podstatus.Ready)
		for _, c := range gp.Status.Conditions {
			if c.Type == corev1.PodReady && (string(c.Status) != string(wc.Status) || c.Reason != wc.Reason || c.Message != wc.Message) {
				t.Errorf("pod %s Ready condition %+v, kubesem predicted %+v", name, c, wc)
			}
		}
	}

	// Taint eviction: from the node as tainted, at the time the NoExecute
	// taint was added.
	var since time.Time
	for _, tt := range tainted.Spec.Taints {
		if tt.Key == corev1.TaintNodeUnreachable && tt.Effect == corev1.TaintEffectNoExecute && tt.TimeAdded != nil {
			since = tt.TimeAdded.Time
		}
	}
	if since.IsZero() {
		t.Fatalf("node-d has no unreachable NoExecute taint with a time: %v", tainted.Spec.Taints)
	}
	kn, err := k8s.FromNode(tainted)
	check(t, err)
	_, _, podsOnD, _ = nodeWorld(t, "node-d")
	ep, err := node.EvictionStep(kn, podsOnD, nil, since, node.Options{})
	check(t, err)
	fire := map[string]node.PodEviction{}
	for _, d := range ep.Decisions {
		fire[d.Pod] = d
	}
	if fire["short"].Kind != node.EvictAt || fire["short"].After != 2*time.Second || fire["long"].After != 300*time.Second {
		t.Fatalf("kubesem's evictions: %s", jsonish(ep.Decisions))
	}
	due, err := node.EvictionStep(kn, podsOnD, ep.Memory, fire["short"].At, node.Options{})
	check(t, err)
	ew, err := due.Writes(kn, podsOnD, fire["short"].At)
	check(t, err)
	if len(due.Delete) != 1 || due.Delete[0].Name != "short" || len(ew) != 2 || ew[0].Verb != plan.VerbPatch {
		t.Fatalf("at %v kubesem deletes %+v with writes %s", fire["short"].At, due.Delete, jsonish(ew))
	}
	wantDT := ew[0].Object.(*podstatus.Pod).Condition(podstatus.DisruptionTarget)

	ev, _ = podWatch.findWithin(t, 0, 10*time.Second, "the deletion of short", func(ev watch.Event) bool {
		p, ok := ev.Object.(*corev1.Pod)
		return ok && p.Name == "short" && p.DeletionTimestamp != nil
	})
	deleted := ev.Object.(*corev1.Pod)
	var dt *corev1.PodCondition
	for i := range deleted.Status.Conditions {
		if deleted.Status.Conditions[i].Type == corev1.DisruptionTarget {
			dt = &deleted.Status.Conditions[i]
		}
	}
	if dt == nil || string(dt.Status) != string(wantDT.Status) || dt.Reason != wantDT.Reason || dt.Message != wantDT.Message {
		t.Errorf("short's DisruptionTarget %+v, kubesem predicted %+v", dt, wantDT)
	}
	requested := deleted.DeletionTimestamp.Add(-time.Duration(*deleted.DeletionGracePeriodSeconds) * time.Second)
	if requested.Before(fire["short"].At.Add(-time.Second)) || requested.After(fire["short"].At.Add(3*time.Second)) {
		t.Errorf("the controller deleted short at %v (second precision), kubesem at %v", requested, fire["short"].At)
	}
	out := explainSettled(t, ns, "node-d unreachable, short evicted")
	if !strings.Contains(out, "long") {
		t.Errorf("kubectl kubesem explain does not name the pod long, still on node-d:\n%s", out)
	}
	t.Logf("kubectl kubesem explain with node-d unreachable:\n%s", out)
	sh.stop(t)
	if long, err := client.CoreV1().Pods(ns).Get(ctx, "long", metav1.GetOptions{}); err != nil || long.DeletionTimestamp != nil {
		t.Errorf("long (300 s toleration) was deleted or is gone (%v): %+v", err, long.DeletionTimestamp)
	}
}

func podReady(p *corev1.Pod) corev1.ConditionStatus {
	for _, c := range p.Status.Conditions {
		if c.Type == corev1.PodReady {
			return c.Status
		}
	}
	return ""
}

func keysOf[V any](m map[string]V) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func keysOfBool(m map[string]bool) []string { return keysOf(m) }

func sortStrings(s []string) []string {
	out := append([]string(nil), s...)
	sort.Strings(out)
	return out
}
