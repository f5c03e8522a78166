package main

import (
	"strings"
	"testing"
	"time"

	coordinationv1 "k8s.io/api/coordination/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/utils/ptr"
)

// outageNode is node-a as its kubelet last posted it (Ready, no pressure)
// and its lease renewed 1 s before shadowT0; at shadowT0 the kubelet stops.
func outageNode() (*corev1.Node, *coordinationv1.Lease) {
	hb := metav1.NewTime(shadowT0.Add(-5 * time.Second))
	since := metav1.NewTime(shadowT0.Add(-time.Hour))
	n := &corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: "node-a", UID: "99999999-0000-4000-8000-000000000001", CreationTimestamp: since},
		Status: corev1.NodeStatus{Conditions: []corev1.NodeCondition{
			{Type: corev1.NodeReady, Status: corev1.ConditionTrue, Reason: "KubeletReady", LastHeartbeatTime: hb, LastTransitionTime: since},
			{Type: corev1.NodeMemoryPressure, Status: corev1.ConditionFalse, Reason: "KubeletHasSufficientMemory", LastHeartbeatTime: hb, LastTransitionTime: since},
			{Type: corev1.NodeDiskPressure, Status: corev1.ConditionFalse, Reason: "KubeletHasNoDiskPressure", LastHeartbeatTime: hb, LastTransitionTime: since},
			{Type: corev1.NodePIDPressure, Status: corev1.ConditionFalse, Reason: "KubeletHasSufficientPID", LastHeartbeatTime: hb, LastTransitionTime: since},
		}}}
	l := &coordinationv1.Lease{ObjectMeta: metav1.ObjectMeta{Name: "node-a", Namespace: "kube-node-lease", UID: "99999999-0000-4000-8000-0000000000a1"},
		Spec: coordinationv1.LeaseSpec{HolderIdentity: ptr.To("node-a"), LeaseDurationSeconds: ptr.To[int32](40),
			RenewTime: &metav1.MicroTime{Time: shadowT0.Add(-time.Second)}}}
	return n, l
}

// runningPod is a bare pod running and Ready on node, tolerating the
// unreachable taint for tol seconds (nil: the 300 s admission adds).
func runningPod(name, uid, nodeName string, tol int64) *corev1.Pod {
	since := metav1.NewTime(shadowT0.Add(-time.Hour))
	return &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "default", UID: typesUID(uid), CreationTimestamp: since},
		Spec: corev1.PodSpec{NodeName: nodeName, Containers: []corev1.Container{{Name: "app", Image: "nginx:1.14.2"}},
			Tolerations: []corev1.Toleration{
				{Key: corev1.TaintNodeNotReady, Operator: corev1.TolerationOpExists, Effect: corev1.TaintEffectNoExecute, TolerationSeconds: ptr.To(tol)},
				{Key: corev1.TaintNodeUnreachable, Operator: corev1.TolerationOpExists, Effect: corev1.TaintEffectNoExecute, TolerationSeconds: ptr.To(tol)},
			}},
		Status: corev1.PodStatus{Phase: corev1.PodRunning, Conditions: []corev1.PodCondition{
			{Type: corev1.PodReady, Status: corev1.ConditionTrue, LastTransitionTime: since},
		}},
	}
}

// unknownNode is n as the node lifecycle controller writes it once the
// grace period has passed (upstream tryUpdateNodeHealth): every condition
// it watches Unknown, NodeStatusUnknown, "Kubelet stopped posting node
// status.", transition now.
func unknownNode(n *corev1.Node, now time.Time) *corev1.Node {
	u := n.DeepCopy()
	for i := range u.Status.Conditions {
		c := &u.Status.Conditions[i]
		c.Status, c.Reason, c.Message, c.LastTransitionTime = corev1.ConditionUnknown, "NodeStatusUnknown", "Kubelet stopped posting node status.", metav1.NewTime(now)
	}
	return u
}

func withTaint(n *corev1.Node, key string, effect corev1.TaintEffect, at time.Time) *corev1.Node {
	u := n.DeepCopy()
	u.Spec.Taints = append(u.Spec.Taints, corev1.Taint{Key: key, Effect: effect, TimeAdded: ptr.To(metav1.NewTime(at))})
	return u
}

// disrupted is p with DisruptionTarget=True for reason and message.
func disrupted(p *corev1.Pod, reason, msg string, at time.Time) *corev1.Pod {
	u := p.DeepCopy()
	u.Status.Conditions = append(u.Status.Conditions, corev1.PodCondition{Type: corev1.DisruptionTarget, Status: corev1.ConditionTrue,
		Reason: reason, Message: msg, LastTransitionTime: metav1.NewTime(at)})
	return u
}

func deleting(p *corev1.Pod, at time.Time) *corev1.Pod {
	u := p.DeepCopy()
	grace := int64(30)
	u.DeletionTimestamp, u.DeletionGracePeriodSeconds = ptr.To(metav1.NewTime(at.Add(30*time.Second))), &grace
	return u
}

// tickTo advances the test shadow to at in 250 ms ticks, renewing the
// leases of ts.alive every 5 s.
func (ts *testShadow) tickTo(t *testing.T, at time.Time) {
	t.Helper()
	for ts.clock.Before(at) {
		d := min(250*time.Millisecond, at.Sub(ts.clock))
		next := ts.clock.Add(d)
		if next.Truncate(5*time.Second) != ts.clock.Truncate(5*time.Second) {
			for _, l := range ts.alive {
				l = l.DeepCopy()
				l.Spec.RenewTime = &metav1.MicroTime{Time: next.Truncate(5 * time.Second)}
				ts.clock = next.Truncate(5 * time.Second)
				ts.event(t, l, false, false)
			}
		}
		ts.advance(next.Sub(ts.clock))
	}
}

// liveNodes are node-b and node-c, Ready, their leases renewed at
// shadowT0: with them node-a's outage leaves its zone partly healthy (alone,
// the zone would be fully disrupted and nothing tainted NoExecute).
func liveNodes() (objs []runtime.Object, leases []*coordinationv1.Lease) {
	for i, name := range []string{"node-b", "node-c"} {
		n := readyAPINode()
		n.Name, n.UID = name, typesUID("99999999-0000-4000-8000-00000000001"+string(rune('0'+i)))
		l := &coordinationv1.Lease{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "kube-node-lease", UID: typesUID("99999999-0000-4000-8000-0000000000b" + string(rune('0'+i)))},
			Spec: coordinationv1.LeaseSpec{HolderIdentity: ptr.To(name), LeaseDurationSeconds: ptr.To[int32](40), RenewTime: &metav1.MicroTime{Time: shadowT0}}}
		objs = append(objs, n, l)
		leases = append(leases, l)
	}
	return objs, leases
}

func (ts *testShadow) wants(t *testing.T, what string, observed, explained, mismatches int) {
	t.Helper()
	if ts.observed != observed || ts.explained != explained || ts.mismatches != mismatches {
		t.Errorf("%s: %d observed, %d explained, %d mismatches; want %d, %d, %d:\n%s", what, ts.observed, ts.explained, ts.mismatches, observed, explained, mismatches, ts.buf)
	}
}

// TestShadowNodeOutage: node-a's kubelet stops at shadowT0 (its lease last
// renewed 1 s before). Shadow's node lifecycle controller, which saw the
// renewal, predicts the Unknown conditions 50 s after it, then the
// unreachable taints; its taint-eviction controller the deletion of the
// pod that tolerates unreachable for 2 s, 2 s after the NoExecute taint,
// DisruptionTarget first. Those writes, made a few seconds after shadow
// predicts them, are explained; a taint it does not predict, a deletion
// before its time and the Unknown status nobody writes are mismatches.
func TestShadowNodeOutage(t *testing.T) {
	t.Parallel()
	n, l := outageNode()
	short := runningPod("short", "00000000-0000-4000-8000-0000000000c1", "node-a", 2)
	long := runningPod("long", "00000000-0000-4000-8000-0000000000c2", "node-a", 300)
	others, leases := liveNodes()
	start := func(t *testing.T) *testShadow {
		ts := newTestShadow(t, append([]runtime.Object{n, l, short, long}, others...), "")
		ts.alive = leases
		ts.tickTo(t, shadowT0.Add(48*time.Second))
		return ts
	}
	unknownAt := shadowT0.Add(52 * time.Second) // the controller's pass: up to two monitor periods late
	taintAt := unknownAt.Add(100 * time.Millisecond)
	un := unknownNode(n, unknownAt)
	noSchedule := withTaint(un, "node.kubernetes.io/unreachable", corev1.TaintEffectNoSchedule, unknownAt)
	tainted := withTaint(noSchedule, "node.kubernetes.io/unreachable", corev1.TaintEffectNoExecute, taintAt)

	ts := start(t)
	ts.wants(t, "before the grace period", 0, 0, 0)
	ts.tickTo(t, unknownAt)
	ts.event(t, un, false, false)
	ts.tickTo(t, unknownAt.Add(50*time.Millisecond))
	ts.event(t, noSchedule, false, false)
	ts.tickTo(t, taintAt)
	ts.event(t, tainted, false, false)
	ts.tickTo(t, taintAt.Add(1500*time.Millisecond))
	ts.wants(t, "Unknown, then the unreachable taints", 3, 3, 0)
	fireAt := taintAt.Add(2 * time.Second)
	ts.tickTo(t, fireAt.Add(-60*time.Millisecond)) // the controller saw the taint a little before shadow
	ts.event(t, disrupted(short, "DeletionByTaintManager", "Taint manager: deleting due to NoExecute taint", ts.clock), false, false)
	ts.event(t, deleting(disrupted(short, "DeletionByTaintManager", "Taint manager: deleting due to NoExecute taint", ts.clock), ts.clock), false, false)
	ts.tickTo(t, fireAt.Add(3*time.Second))
	ts.wants(t, "short's eviction", 5, 5, 0)

	// A taint the controller does not write on an unreachable node.
	ts = start(t)
	ts.tickTo(t, unknownAt)
	ts.event(t, un, false, false)
	ts.tickTo(t, unknownAt.Add(50*time.Millisecond))
	ts.event(t, withTaint(un, "node.kubernetes.io/not-ready", corev1.TaintEffectNoExecute, ts.clock), false, false)
	ts.tickTo(t, unknownAt.Add(3*time.Second))
	if out := ts.buf.String(); ts.mismatches != 1 || !strings.Contains(out, "mismatch 1 (unexpected)") || !strings.Contains(out, "update nodes node-a") {
		t.Errorf("a not-ready taint on an unreachable node: %d observed, %d explained, %d mismatches:\n%s", ts.observed, ts.explained, ts.mismatches, out)
	}

	// The pod deleted a second early.
	ts = start(t)
	ts.tickTo(t, unknownAt)
	ts.event(t, un, false, false)
	ts.event(t, noSchedule, false, false)
	ts.tickTo(t, taintAt)
	ts.event(t, tainted, false, false)
	ts.tickTo(t, fireAt.Add(-time.Second))
	ts.event(t, disrupted(short, "DeletionByTaintManager", "Taint manager: deleting due to NoExecute taint", ts.clock), false, false)
	ts.tickTo(t, fireAt.Add(3*time.Second))
	if out := ts.buf.String(); ts.mismatches == 0 || !strings.Contains(out, "status pods default/short") || !strings.Contains(out, "taint-eviction (with memory") {
		t.Errorf("short disrupted a second early: %d mismatches:\n%s", ts.mismatches, out)
	}

	// Nobody writes the Unknown status: missing once the node lifecycle
	// controller's allowance and a window have passed since shadow's world
	// predicted it (its first pass, at shadowT0, saw node-a for the first
	// time: the grace period runs from then, its passes every 5 s).
	ts = start(t)
	ts.tickTo(t, shadowT0.Add(55*time.Second+10*time.Second+2*time.Second))
	if out := ts.buf.String(); ts.mismatches == 0 || !strings.Contains(out, "(missing)") || !strings.Contains(out, "node-lifecycle controller's writes for Node node-a") {
		t.Errorf("no Unknown status written: %d mismatches:\n%s", ts.mismatches, out)
	}
}

// TestShadowPodGCOrphan: node-b goes at shadowT0 with a pod bound to it.
// Shadow's pod garbage collector quarantines it and predicts, 40 s later,
// the orphan's status patch (Failed, DisruptionTarget DeletionByPodGC) and
// its deletion; the collector's, 15 s after that (its period), is
// explained; the same writes 20 s after the deletion are not.
func TestShadowPodGCOrphan(t *testing.T) {
	t.Parallel()
	nb := &corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: "node-b", UID: "99999999-0000-4000-8000-000000000002"},
		Status: corev1.NodeStatus{Conditions: []corev1.NodeCondition{{Type: corev1.NodeReady, Status: corev1.ConditionTrue,
			LastHeartbeatTime: metav1.NewTime(shadowT0), LastTransitionTime: metav1.NewTime(shadowT0.Add(-time.Hour))}}}}
	orphan := runningPod("orphan", "00000000-0000-4000-8000-0000000000d1", "node-b", 300)
	collected := func(at time.Time) []runtime.Object {
		p := disrupted(orphan, "DeletionByPodGC", "PodGC: node no longer exists", at)
		p.Status.Phase = corev1.PodFailed
		return []runtime.Object{p}
	}
	run := func(t *testing.T, after time.Duration) *testShadow {
		ts := newTestShadow(t, []runtime.Object{readyAPINode(), nb, orphan}, "")
		ts.advance(250 * time.Millisecond)
		ts.event(t, nb, true, false)
		ts.tickTo(t, shadowT0.Add(250*time.Millisecond+after))
		for _, o := range collected(ts.clock) {
			ts.event(t, o, false, false)
			ts.event(t, o, true, false)
		}
		ts.tickTo(t, ts.clock.Add(3*time.Second))
		return ts
	}
	run(t, 55*time.Second).wants(t, "the orphan collected 55 s after its node went", 2, 2, 0)
	if ts := run(t, 20*time.Second); ts.mismatches == 0 || !strings.Contains(ts.buf.String(), "status pods default/orphan") {
		t.Errorf("the orphan collected 20 s after its node went: %d mismatches:\n%s", ts.mismatches, ts.buf)
	}
}

func typesUID(s string) types.UID { return types.UID(s) }
